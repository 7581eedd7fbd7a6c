"""Sphinx extension: the pages whose facts the code can report are written from the code at build
time (into ``docs/_generated/``, never committed), so the site cannot drift from it.

- the observation layout, from ``cribbage_env.encoding``'s ``LAYOUT`` and its docstring table;
- one page per environment, from the env classes' Gymnasium-style docstrings and signatures;
- the CLI reference, from the argparse parsers (an option without help text fails the build);
- the agents' parameters, from their ``Param`` declarations;
- the strength ladder, from the results files in ``benchmarks/results``.

Committed pages pull these in with ``{include}``. A generator that finds a gap (an argument
without a description, a slice the docstring does not explain) raises, which fails the build.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:  # the README test reads the ladder from here without the docs extra
    from sphinx.errors import ExtensionError
except ImportError:  # pragma: no cover - only outside a docs build
    ExtensionError = RuntimeError  # type: ignore[assignment,misc]

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


# --------------------------------------------------------------------------- helpers
def _myst(text: str) -> str:
    """Docstring text (reST roles inside Markdown) as MyST: ``:class:`x``` -> ``{py:class}`x```."""
    return re.sub(r":(class|func|mod|meth|data|attr|exc):`", r"{py:\1}`", text)


def _sections(doc: str) -> dict[str, str]:
    """The ``## Heading`` sections of a Gymnasium-style docstring, in order."""
    doc = inspect.cleandoc(doc)
    parts = re.split(r"^\s*## (.+)$", doc, flags=re.M)
    return {parts[i].strip(): inspect.cleandoc(parts[i + 1]) for i in range(1, len(parts), 2)}


def _bullets(text: str) -> dict[str, str]:
    """``- ``name``: description`` bullets of an Arguments section -> {name: description}."""
    out: dict[str, str] = {}
    for m in re.finditer(r"^- ``(\w+)``:\s*(.+?)(?=^- ``|\Z)", text, flags=re.M | re.S):
        out[m.group(1)] = " ".join(m.group(2).split())
    return out


def _table(header: list[str], rows: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|") for c in row] for row in rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in esc]) + "\n"


# --------------------------------------------------------------------------- observation
def observation_table() -> str:
    """Every slice of the observation: indices from ``LAYOUT``, meaning from the docstring."""
    from cribbage_env import encoding

    meaning: dict[str, str] = {}
    current = None
    for line in (encoding.__doc__ or "").splitlines():
        m = re.match(r"^(\w+)\s+(\d+)\s+(.+)$", line)
        if m and m.group(1) in encoding.SLICES:
            current = m.group(1)
            meaning[current] = m.group(3).strip()
        elif current and re.match(r"^\s{20,}\S", line):
            meaning[current] += " " + line.strip()
        elif line.startswith("="):
            current = None
    missing = [name for name, _ in encoding.LAYOUT if name not in meaning]
    if missing:
        raise ExtensionError(f"cribbage_env.encoding's docstring table does not explain {missing}")
    rows = []
    for name, size in encoding.LAYOUT:
        s = encoding.SLICES[name]
        where = f"{s.start}–{s.stop - 1}" if size > 1 else str(s.start)
        rows.append([f"`{name}`", f"`{where}`", str(size), meaning[name]])
    total = f"\nTotal: **{encoding.OBS_SIZE}** float32 values in [0, 1].\n"
    return _table(["slice", "indices", "size", "meaning"], rows) + total


# --------------------------------------------------------------------------- environments
def _default(p: inspect.Parameter) -> str:
    return "required" if p.default is inspect.Parameter.empty else f"`{p.default!r}`"


def arguments_table(cls: type, descriptions: dict[str, str], skip: tuple[str, ...] = ()) -> str:
    """Name, default and description of every constructor argument; a gap fails the build."""
    sig = inspect.signature(cls.__init__)
    rows, missing = [], []
    for name, p in sig.parameters.items():
        if name == "self" or name in skip or p.kind is p.VAR_KEYWORD:
            continue
        if name not in descriptions:
            missing.append(name)
            continue
        rows.append([f"`{name}`", _default(p), _myst(descriptions[name])])
    if missing:
        raise ExtensionError(f"{cls.__qualname__}: no description of argument(s) {missing}")
    return _table(["argument", "default", "meaning"], rows)


ENV_PAGES = {
    # page -> (gym id or None, class path, registered kwargs shown)
    "cribbage-v0": "cribbage/Cribbage-v0",
    "cribbagedeal-v0": "cribbage/CribbageDeal-v0",
    "cribbageshort-v0": "cribbage/CribbageShort-v0",
}


def substitutions() -> dict[str, str]:
    """The figures the pages' prose cites (``{{ obs_size }}``), read from the code: the size of
    an observation, of its binary part, and of the batched env's compact observation."""
    from cribbage_env.encoding import NUM_ACTIONS, OBS_SIZE
    from cribbage_env.kernels.vecobs import BITS, COMPACT_SIZE

    return {
        "obs_size": str(OBS_SIZE),
        "obs_bits": str(BITS),
        "compact_size": str(COMPACT_SIZE),
        "num_actions": str(NUM_ACTIONS),
    }


def _registered(env_id: str) -> str:
    from cribbage_env.encoding import OBS_SIZE
    from cribbage_env.envs.registration import GYM_IDS

    kwargs = ", ".join(f"{k}={v!r}" for k, v in GYM_IDS[env_id].items())
    return (
        f"| | |\n|---|---|\n| id | `{env_id}` |\n| made with | `gym.make({env_id!r})` |\n"
        f"| constructor | `cribbage_env.CribbageEnv({kwargs})` |\n"
        "| action space | `Discrete(52)` |\n"
        f"| observation space | `Dict(observation: Box(0, 1, ({OBS_SIZE},), float32), "
        "action_mask: Box(0, 1, (52,), int8))` |\n"
        "| import | `import cribbage_env` |\n"
    )


def gym_env_sections() -> dict[str, str]:
    """The CribbageEnv docstring's sections, the Arguments one generated from the signature."""
    from cribbage_env.envs.single import CribbageEnv

    secs = _sections(CribbageEnv.__doc__ or "")
    desc = {**_reward_bullets(), **_bullets(secs["Arguments"])}
    out = {k: _myst(v) for k, v in secs.items() if k != "Arguments"}
    out["Arguments"] = arguments_table(CribbageEnv, desc)
    return out


def env_page(env_id: str) -> str:
    secs = gym_env_sections()
    body = [_registered(env_id)]
    for name, text in secs.items():
        body.append(f"## {name}\n\n{text}\n")
        if name == "Observation Space":
            body.append(observation_table())
    return "\n".join(body)


def vector_env_page() -> str:
    import cribbage_env.envs.batched as batched_env
    from cribbage_env.encoding import OBS_SIZE
    from cribbage_env.envs.batched import OPPONENTS, CribbageVectorEnv
    from cribbage_env.envs.single import CribbageEnv

    doc = _myst(inspect.cleandoc(batched_env.__doc__ or "").split(">>>")[0])
    desc = {
        "num_envs": "number of games stepped together",
        "opponent": f"one of {sorted(OPPONENTS)} (run inside the compiled kernel)",
        "max_episode_steps": "Gymnasium's step limit (passed by `make_vec`)",
        "observation": "`standard` (the single env's floats) or `compact` (`uint8` rows that "
        "`cribbage_env.envs.batched.unpack_observation` turns back into the standard ones exactly)",
        "copy": "`False` returns the env's own buffers, overwritten by the next `step` "
        "(no copy per step)",
        "parallel": "step the games on two threads (the same results as serially)",
    }
    desc.update(_reward_bullets())
    desc.update(_bullets(_sections(CribbageEnv.__doc__ or "")["Arguments"]))
    return (
        f"{doc}\n\nObservations are batches of the single env's ({OBS_SIZE} floats per row).\n\n"
        "## Arguments\n\n" + arguments_table(CribbageVectorEnv, desc)
    )


def _reward_bullets() -> dict[str, str]:
    return {
        "reward": '"points", "win" (and "equity" in the single-learner env): see Rewards',
        "skunk_bonus": 'with `reward="win"`: ±2 for a skunk, ±3 for a double skunk',
        "illegal_penalty": 'the reward of an illegal card with `illegal_action="penalize"`',
    }


def aec_env_page() -> str:
    from cribbage_env.envs.aec import raw_env

    secs = _sections(raw_env.__doc__ or "")
    body = []
    for name, text in secs.items():
        if name == "Arguments":
            desc = {
                "episode": '"game" (to the target) or "deal" (one deal)',
                "render_mode": 'None or "ansi" (a spectator\'s table, no hidden cards)',
                "rules": 'a `Rules` value or "standard" / "short"',
                "secret_deals": "True when a player runs outside your process (a sealed seat): the "
                "deals derive from the seed and a key drawn for this env",
            }
            desc.update(_reward_bullets())
            text = arguments_table(raw_env, desc) + "\n" + _myst(text)
        body.append(f"## {name}\n\n{_myst(text)}\n")
        if name == "Observation Space":
            body.append(observation_table())
    return "\n".join(body)


# --------------------------------------------------------------------------- CLI
def _option_row(action: argparse.Action) -> list[str]:
    """An option's row: its names, its help with every option named in it shown as code (the
    build would print ``--isolate`` as an en dash and ``isolate``), and its default as typed."""
    from cribbage_env import Rules

    names = ", ".join(f"`{o}`" for o in action.option_strings)
    flags = names or f"`{action.metavar or action.dest}`"
    default = action.default.spec if isinstance(action.default, Rules) else action.default
    switch = action.nargs == 0  # store_true / store_false: the default says nothing
    quiet = default in (None, False, argparse.SUPPRESS) or not action.option_strings or switch
    shown = "" if quiet else f"`{default}`"
    text = " ".join((action.help or "").split()).replace("%%", "%")
    parts = text.split("`")  # odd parts are code already
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"(?<![\w-])(--[a-z][a-z0-9-]*)", r"`\1`", parts[i])
    text = "`".join(parts)
    home = str(Path.home())
    return [flags, text.replace(home, "~"), shown.replace(home, "~")]


def cli_reference() -> str:
    """Every subcommand of ``cribbage`` with its usage and options, from the parsers."""
    from ui.cli.cli import COMMANDS, build_parser

    os.environ["COLUMNS"] = "88"  # usage lines wrapped as on a terminal of that width
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out, missing = [], []
    for name in COMMANDS:
        p = sub.choices[name]
        usage = p.format_usage().strip().replace(str(Path.home()), "~")
        rows = []
        for action in p._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
            rows.append(_option_row(action))
        out.append(
            f"(cli-{name})=\n## `cribbage {name}`\n\n{p.description}\n\n"
            f"```text\n{usage}\n```\n\n" + _table(["option", "what it does", "default"], rows)
        )
    if missing:
        raise ExtensionError(f"CLI options without help text: {missing}")
    return "\n".join(out)


# --------------------------------------------------------------------------- agents
def agent_params() -> str:
    """Each agent's summary and parameters (from the ``Param`` declarations)."""
    from agents.agent_info import list_agents

    out = []
    for info in list_agents():
        if info.kind != "built-in":
            continue
        out.append(f"### `{info.name}`\n\n{_myst(info.summary)}\n")
        if info.params:
            rows = [
                [f"`{p.name}`", "required" if p.required else f"`{p.describe().split('=', 1)[1]}`",
                 p.allowed(), " ".join(p.help.split())]
                for p in info.params
            ]  # fmt: skip
            out.append(_table(["parameter", "default", "allowed", "meaning"], rows))
    levels = [i for i in list_agents() if i.kind == "level"]
    out.append("### Game levels\n\n" + _table(
        ["level", "same as"], [[f"`{i.name}`", f"`{i.source}`"] for i in levels]))  # fmt: skip
    return "\n".join(out)


#: The ladder: (agent, opponent, results file). Every figure is read from the file.
LADDER = (
    ("novice", "random", "strength_novice_vs_random.json"),
    ("greedy", "random", "strength_greedy_vs_random.json"),
    ("expectimax", "greedy", "strength_expectimax_vs_greedy.json"),
    ("expert", "expectimax", "expert_equity_vs_expectimax_20k.json"),
    ("neural", "expectimax", "neural_dmc_on_clone_vs_expectimax_s1.json"),
    ("neural", "expert", "neural_dmc_on_clone_vs_expert.json"),
    ("master", "expectimax", "master_vs_expectimax.json"),
    ("master", "expert", "master_vs_expert.json"),
)


def read_result(name: str) -> dict[str, Any]:
    """games, win rate, its 95% interval and the margin of a results file (two formats)."""
    d = json.loads((RESULTS / name).read_text(encoding="utf-8"))
    if "pairings" in d or "win_rate" in d:  # cribbage bench --json, or one pairing's summary
        p = d["pairings"][0] if "pairings" in d else d
        return {"games": p["games"], "rate": p["win_rate"], "ci": p["win_rate_ci"],
                "margin": p["mean_margin"]}  # fmt: skip
    return {"games": d["games"], "rate": d["a_win_rate"], "ci": d["wilson95"],
            "margin": d["mean_margin"]}  # fmt: skip


def ladder_table() -> str:
    rows = []
    for agent, opp, name in LADDER:
        r = read_result(name)
        rows.append([f"`{agent}`", f"`{opp}`", f"{r['rate']:.1%}",
                     f"{r['ci'][0]:.1%}–{r['ci'][1]:.1%}", f"{r['games']:,}",
                     f"{r['margin']:+.2f}", f"`{name}`"])  # fmt: skip
    return _table(["agent", "against", "wins", "95% interval", "duplicate games",
                   "margin / game", "file"], rows)  # fmt: skip


def ratings_table() -> str:
    """The Bradley-Terry ratings of ``benchmarks/results/ladder.json`` (benchmarks/strength/ladder.py)."""
    d = json.loads((RESULTS / "ladder.json").read_text(encoding="utf-8"))
    rows = [[f"`{r['agent']}`", f"{r['elo']:+.0f}", f"{r['elo_ci'][0]:+.0f} to {r['elo_ci'][1]:+.0f}"]
            for r in d["ratings"]]  # fmt: skip
    games = [p["games"] for p in d["pairs"]]
    head = (
        f"Elo scale, `{d['anchor']}` = 0; {len(d['pairs'])} pairs, {min(games):,}–"
        f"{max(games):,} duplicate games each; 95% intervals from {d['bootstrap']} bootstrap "
        f"resamples of the duplicate pairs. Made by `{d['command']}`.\n\n"
    )
    return head + _table(["agent", "rating", "95% interval"], rows)


def exploit_table() -> str:
    """The exploitability lower bounds of ``benchmarks/results/exploit.json``
    (benchmarks/strength/exploit.py): each row is the exploiter's record against the agent."""
    d = json.loads((RESULTS / "exploit.json").read_text(encoding="utf-8"))
    rows = []
    for r in d["rows"]:
        lo, hi = r["win_rate_ci"]
        mlo, mhi = r["mean_margin_ci"]
        cost = r.get("cost") or {}
        done = "" if r["status"] == "complete" else f" of {r['planned']:,} ({r['status']})"
        rows.append([f"`{r['target']}`", f"`{r['exploiter']}`", f"{r['win_rate']:.1%}",
                     f"{lo:.1%}–{hi:.1%}", f"{r['mean_margin']:+.2f} ({mlo:+.2f} to {mhi:+.2f})",
                     f"{r['games']:,}{done}",
                     f"{cost['median_ms']:.1f}" if cost.get("median_ms") is not None else "–"])  # fmt: skip
    commands = sorted({r["command"] for r in d["rows"]})
    gains = [[f"`{g['target']}`", f"{100 * g['win_gain']:+.1f} ({100 * g['win_gain_ci'][0]:+.1f} "
              f"to {100 * g['win_gain_ci'][1]:+.1f})", f"{g['margin_gain']:+.2f} ({g['margin_gain_ci'][0]:+.2f} "
              f"to {g['margin_gain_ci'][1]:+.2f})", f"{g['pairs']:,}"] for g in d.get("gains", [])]  # fmt: skip
    return _table(["agent", "exploiter", "exploiter wins", "95% interval",
                   "margin / game (95%)", "duplicate games", "ms / card (median)"], rows) + (
        "\nWhat knowing the policy adds: the policy-aware search minus the blind one, pair by "
        "pair on the same deals (95% intervals):\n\n"
    ) + _table(["agent", "win rate gain (points of %)", "margin gain / game", "duplicate pairs"], gains) + (
        "\nMade by " + "; ".join(f"`{c}`" for c in commands) + ".\n"
    )  # fmt: skip


# --------------------------------------------------------------------------- results database
def results_schema() -> str:
    """The SQLite schema exactly as ``agents.store.results_store`` creates it, and the per-seat fields."""
    from agents.store import results_schema as rs
    from agents.tournament.game_result import SEAT_FIELDS

    return (
        f"Schema version **{rs.SCHEMA_VERSION}** (`PRAGMA application_id` {rs.APP_ID:#x}, "
        f'"CRIB"). Each `games` row has, per seat `s0_`/`s1_`, the fields '
        + ", ".join(f"`{f}`" for f in SEAT_FIELDS)
        + ".\n\n```sql\n"
        + rs.SCHEMA.strip()
        + "\n```\n"
    )


# --------------------------------------------------------------------------- wiring
def pages() -> dict[str, str]:
    out = {f"env_{p}.md": env_page(i) for p, i in ENV_PAGES.items()}
    out.update({
        "env_vector.md": vector_env_page(),
        "env_aec.md": aec_env_page(),
        "observation_table.md": observation_table(),
        "cli.md": cli_reference(),
        "agent_params.md": agent_params(),
        "ladder.md": ladder_table(),
        "ratings.md": ratings_table(),
        "exploit.md": exploit_table(),
        "results_schema.md": results_schema(),
    })  # fmt: skip
    return out


def results_page() -> str:
    """The results page generated from the results files (``benchmarks/results_page.py``, the
    same text as ``benchmarks/RESULTS.md``), its figures' paths made relative to ``docs/``."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from results_page import render
    finally:
        sys.path.pop(0)
    text = render()
    return re.sub(r"\]\((results/[^)]+\.(?:png|svg))\)", r"](../benchmarks/\1)", text)


def check_pages(srcdir: Path, generated: dict[str, str]) -> None:
    """Fail the build on a machine path, an issue number or a deadline in any page: the
    written ones as they are, the generated ones after :func:`publish.publish`."""
    from publish import problems

    found = []
    for path in sorted(srcdir.rglob("*.md")):
        rel = path.relative_to(srcdir)
        if rel.parts[0] not in ("_build", "_generated"):
            found += [f"{rel} {p}" for p in problems(path.read_text(encoding="utf-8"))]
    for name, text in generated.items():
        found += [f"_generated/{name} {p}" for p in problems(text)]
    if found:
        raise ExtensionError("pages a reader cannot reproduce: " + "; ".join(found[:20]))


def guide_toc(srcdir: Path) -> str:
    """A toctree of every page in ``docs/guide/`` (a glob that is quiet while it is empty)."""
    names = sorted(p.stem for p in (srcdir / "guide").glob("*.md") if p.stem != "index")
    if not names:
        return "No guides yet.\n"
    return "```{toctree}\n:maxdepth: 1\n\n" + "\n".join(names) + "\n```\n"


def generate(app: Sphinx) -> None:
    out_dir = Path(app.srcdir) / "_generated"
    out_dir.mkdir(exist_ok=True)
    from publish import publish

    generated = pages()
    generated["results.md"] = results_page()
    from baselines import baselines_figure, baselines_page

    generated["baselines.md"] = baselines_page()
    generated["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    generated = {name: publish(text) for name, text in generated.items()}
    generated["guide_toc.md"] = guide_toc(Path(app.srcdir))
    check_pages(Path(app.srcdir), generated)
    for name, text in generated.items():
        path = out_dir / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")  # only when changed: keeps rebuilds quick
    from figures import make_figures

    make_figures(Path(app.srcdir) / "_generated" / "fig")
    baselines_figure(Path(app.srcdir) / "_generated" / "fig" / "baselines.png")


#: Docstrings written as Markdown in Gymnasium's style: rendered on their environment pages.
MARKDOWN_DOCSTRINGS = (
    "cribbage_env.CribbageEnv",
    "cribbage_env.envs.single.CribbageEnv",
    "cribbage_env.aec_raw_env",
    "cribbage_env.envs.aec.raw_env",
)


def point_to_env_page(app, what, name, obj, options, lines) -> None:  # noqa: ANN001
    if name in MARKDOWN_DOCSTRINGS:
        page = "cribbage-v0" if name.endswith("CribbageEnv") else "aec"
        lines[:] = [f"Described section by section on :doc:`/environments/{page}`.", ""]


def shell_cells(app, doctree) -> None:  # noqa: ANN001
    """A ``%%bash`` code cell is shown as the shell lines it runs (the build ran them; a reader
    pastes them into a terminal), highlighted as shell, and a ``%%writefile NAME`` cell as the
    Python of the file (the page says to save it as NAME): the magic line is the kernel's."""
    from docutils import nodes

    for block in list(doctree.findall(nodes.literal_block)):
        magic, _, body = block.astext().partition("\n")
        if magic == "%%bash" or magic.startswith("%%writefile "):
            block.children = [nodes.Text(body)]
            block.rawsource = body
            block["language"] = "bash" if magic == "%%bash" else "python"


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    app.connect("doctree-read", shell_cells)
    app.connect("autodoc-process-docstring", point_to_env_page)
    return {"parallel_read_safe": True, "version": "1"}
