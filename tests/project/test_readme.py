"""The README is a front door that cannot drift: it stays under 10 KB, its Python blocks run and
print what it shows, its commands parse, its links resolve and its strength table is the one the
results files hold."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.S)


def _blocks() -> list[tuple[str, str, int]]:
    return [(m.group(1), m.group(2), m.end()) for m in FENCE.finditer(README)]


def _python_blocks() -> list[tuple[str, str | None]]:
    """Each Python block and, when a ```text block follows it directly, the output it shows."""
    out = []
    blocks = _blocks()
    for i, (lang, code, end) in enumerate(blocks):
        if lang != "python":
            continue
        shown = None
        if i + 1 < len(blocks) and blocks[i + 1][0] == "text":
            between = README[end : README.index("```text", end)]
            if not between.strip():
                shown = blocks[i + 1][1]
        out.append((code, shown))
    return out


def test_readme_is_at_most_10_kb() -> None:
    assert len(README.encode("utf-8")) <= 10 * 1024


def test_the_fresh_machine_commands_come_first_and_are_what_ci_runs() -> None:
    lang, first, _ = _blocks()[0]
    lines = [ln.split("  #")[0].strip() for ln in first.strip().splitlines()]
    assert lang == "bash"
    assert lines == [
        'python3 -m venv .venv && . .venv/bin/activate && pip install ".[gui]" && cribbage play',
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[dev]" && python -m pytest',
    ]
    assert lines[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_docs_command_is_what_ci_runs() -> None:
    """The README's docs command (the CPU torch, the docs extra, the build) is the line CI runs."""
    (block,) = [code for lang, code, _ in _blocks() if lang == "bash" and "sphinx-build" in code]
    (line,) = block.strip().splitlines()
    assert "--index-url https://download.pytorch.org/whl/cpu" in line and '".[docs]"' in line
    assert f"\n{line}\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_every_python_block_runs_and_prints_what_the_readme_shows(
    index: int, tmp_path: Path
) -> None:
    code, shown = _python_blocks()[index]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert run.returncode == 0, run.stderr
    if shown is not None:
        assert run.stdout == shown


def _commands() -> list[str]:
    cmds = []
    for lang, code, _ in _blocks():
        if lang == "bash":
            for ln in code.splitlines():
                cmd = ln.split("  #")[0].strip()
                if cmd.startswith("cribbage "):
                    cmds.append(cmd)
    return cmds


@pytest.mark.parametrize("command", _commands())
def test_every_cribbage_command_shown_parses(command: str) -> None:
    from ui.cli.cli import build_parser

    args = build_parser().parse_args(shlex.split(command)[1:])
    assert args.command == shlex.split(command)[1]


def test_every_local_link_resolves() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README)
    local = [link for link in links if not link.startswith("http")]
    assert local and not [link for link in local if not (ROOT / link).exists()]


def test_strength_table_is_the_results_files() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from cribbage_docs import LADDER, read_result

    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| ([\d.]+)% \| ([\d.]+)–([\d.]+)% \| ([\d,]+) \|$",
                      README, re.M)  # fmt: skip
    assert len(rows) == 5
    files = {(a, o): f for a, o, f in LADDER}
    for agent, opp, rate, lo, hi, games in rows:
        r = read_result(files[(agent, opp)])
        assert f"{100 * r['rate']:.1f}" == rate
        assert (f"{100 * r['ci'][0]:.1f}", f"{100 * r['ci'][1]:.1f}") == (lo, hi)
        assert f"{r['games']:,}" == games


def test_facts_the_code_reports_are_the_codes() -> None:
    """Ids, observation size, rewards and agent names the README states are the code's."""
    from agents.registry import AGENTS
    from cribbage_env.encoding import NUM_ACTIONS, OBS_SIZE
    from cribbage_env.envs.registration import GYM_IDS
    from cribbage_env.envs.rewards import REWARDS

    for env_id in GYM_IDS:
        assert env_id.split("/")[1] in README
    assert re.findall(r"float32\[(\d+)\]", README) == [str(OBS_SIZE)]
    assert re.findall(r"int8\[(\d+)\]", README) == [str(NUM_ACTIONS)]
    assert f"Discrete({NUM_ACTIONS})" in README
    stated = re.search(r"Rewards `(\w+)`, `(\w+)` or `(\w+)`", README)
    assert stated and set(stated.groups()) == set(REWARDS)
    table = README.split("## How strong")[1]
    named = set(re.findall(r"^\| `(\w+)` \| `(\w+)`", table, re.M)[0])
    named |= {a for row in re.findall(r"^\| `(\w+)` \| `(\w+)`", table, re.M) for a in row}
    assert named and named <= set(AGENTS)
