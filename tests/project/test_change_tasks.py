"""The change tasks of ``docs/contributing.md``, done on a scratch copy of the tree as a person
would do them: the files the table names are written, and the layout guards still pass with them.

The quick tests make the edits and check what the guards check (room in the folder, the module
and function sizes, the new name importable); the integration test runs the guard tests and the
commands the table says ran, in the scratch copy.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from source_tree import MAX_FOLDER_MODULES, MAX_FUNCTION_LINES, MAX_MODULE_LINES

ROOT = Path(__file__).resolve().parents[2]
CONTRIBUTING = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
#: The guard tests a change runs before it is committed (the README's tier of them).
GUARDS = (
    "tests/project/test_architecture.py",
    "tests/project/test_layers.py",
    "tests/project/test_private_names.py",
)

AGENT_MODULE = '''"""The lowest card: throws the two highest cards, plays the lowest legal card."""

from __future__ import annotations

import numpy as np

from cribbage_env import RANK, Phase, PlayerView, discard_action


class LowCardAgent:
    """Throws its two highest cards to the crib and plays its lowest legal card."""

    name = "lowcard"

    def __init__(self) -> None:
        self.spec = "lowcard"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is Phase.DISCARD:
            a, b = sorted(view.hand, key=lambda c: RANK[c])[-2:]
            return discard_action(a, b)
        if view.phase is Phase.PLAY:
            return min(view.legal_actions, key=lambda c: RANK[c])
        return view.legal_actions[0]
'''
AGENT_TEST = '''"""The lowcard agent plays legal games to the end."""

import numpy as np

import cribbage_env as ce
from agents import make_agent


def test_lowcard_plays_a_legal_game() -> None:
    agent, g = make_agent("lowcard"), ce.new_game(3)
    rng = np.random.default_rng(0)
    while not g.is_over:
        seat = g.current_player
        action = agent.act(g.view(seat), rng)
        assert action in g.legal_actions()
        g.apply(action, player=seat)
'''
COMMAND_MODULE = '''"""cribbage hello: says hello (the smallest command there is)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="world", help="whom to greet")


def run(args: argparse.Namespace) -> int:
    print(f"hello, {args.name}")
    return 0
'''


def documented_files(task: str) -> int:
    """The number of files the contributing page's table says ``task`` edits."""
    row = re.search(rf"^\| {re.escape(task)} \| (\d+) \|", CONTRIBUTING, re.M)
    assert row, f"docs/contributing.md has no change task {task!r}"
    return int(row.group(1))


def scratch(tmp_path: Path) -> Path:
    """A copy of the packages, the benchmarks, the docs, the tests and the project's files, as a
    person's checkout (the guards read all of them)."""
    out = tmp_path / "tree"
    skip = shutil.ignore_patterns("_build", "__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for folder in ("cribbage_env", "agents", "ui", "benchmarks", "docs", "tests", "examples"):
        shutil.copytree(ROOT / folder, out / folder, ignore=skip)
    shutil.copytree(ROOT / ".ci", out / ".ci", ignore=skip)
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        shutil.copy2(ROOT / name, out / name)
    return out


def _edit(path: Path, after: str, line: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert after in text, f"{path.name} has no {after!r} to add a line after"
    path.write_text(text.replace(after, after + line, 1), encoding="utf-8")


def add_an_agent(tree: Path) -> list[Path]:
    """The table's "a new agent": its module, its line in ``AGENTS``, its test."""
    module = tree / "agents" / "players" / "lowcard.py"
    module.write_text(AGENT_MODULE, encoding="utf-8")
    registry = tree / "agents" / "registry.py"
    _edit(
        registry,
        "AGENTS: dict[str, str] = {\n",
        '    "lowcard": "agents.players.lowcard:LowCardAgent",\n',
    )
    test = tree / "tests" / "agents" / "players" / "test_lowcard.py"
    test.write_text(AGENT_TEST, encoding="utf-8")
    return [module, registry, test]


def add_a_command(tree: Path) -> list[Path]:
    """The page's "a command": ``ui/cli/cmd_<name>.py`` and its line in ``COMMANDS``."""
    module = tree / "ui" / "cli" / "cmd_hello.py"
    module.write_text(COMMAND_MODULE, encoding="utf-8")
    cli = tree / "ui" / "cli" / "cli.py"
    text = cli.read_text(encoding="utf-8")
    head = re.search(r"^COMMANDS[^\n]*\{\n", text, re.M)
    assert head, "ui/cli/cli.py has no COMMANDS table"
    _edit(cli, head.group(0), '    "hello": "say hello",\n')
    return [module, cli]


def layout_problems(tree: Path, changed: list[Path]) -> list[str]:
    """What the folder and size guards would say of the changed files' folders and modules."""
    out = []
    for folder in {p.parent for p in changed if p.suffix == ".py" and p.parent.name != "tests"}:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > MAX_FOLDER_MODULES:
            out.append(f"{folder.relative_to(tree)} holds {len(modules)} modules")
    for path in changed:
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            out.append(f"{path.relative_to(tree)} is over {MAX_MODULE_LINES} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef):
                if (node.end_lineno or 0) - node.lineno + 1 > MAX_FUNCTION_LINES:
                    out.append(f"{path.relative_to(tree)}:{node.name} is too long")
    return out


def _run(tree: Path, *argv: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree), "CRIBBAGE_DATA_DIR": str(tree / "data")}
    return subprocess.run(
        [sys.executable, *argv], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_page_names_the_tasks_this_file_does() -> None:
    assert documented_files("a new agent, usable in `bench` and `play`") == 3
    assert "**A command.** Add `ui/cli/cmd_<name>.py`" in CONTRIBUTING


def test_adding_an_agent_keeps_the_layout_guards(tmp_path: Path) -> None:
    tree = scratch(tmp_path)
    changed = add_an_agent(tree)
    assert len(changed) == documented_files("a new agent, usable in `bench` and `play`")
    assert not layout_problems(tree, changed)


def test_an_added_agent_is_importable_by_name(tmp_path: Path) -> None:
    tree = scratch(tmp_path)
    add_an_agent(tree)
    run = _run(tree, "-c", "from agents import make_agent; print(make_agent('lowcard').name)")
    assert run.returncode == 0 and run.stdout.strip() == "lowcard", run.stderr[-2000:]


def test_adding_a_command_keeps_the_layout_guards(tmp_path: Path) -> None:
    tree = scratch(tmp_path)
    changed = add_a_command(tree)
    assert not layout_problems(tree, changed)


@pytest.mark.integration
def test_adding_an_agent_end_to_end(tmp_path: Path) -> None:
    """The guard tests and the agent's test pass in the scratch copy; bench and play run it."""
    tree = scratch(tmp_path)
    add_an_agent(tree)
    run = _run(tree, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", *GUARDS,
               "tests/agents/players/test_lowcard.py")  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]  # the guards first: they fail fast
    for argv in (
        ("-m", "ui", "bench", "lowcard", "random", "--games", "2", "--backend", "serial"),
        ("-m", "ui", "play", "--opponent", "lowcard", "--autoplay", "40", "--no-motion"),
    ):
        run = _run(tree, *argv)
        assert run.returncode == 0, (argv, run.stderr[-2000:])


@pytest.mark.integration
def test_adding_a_command_end_to_end(tmp_path: Path) -> None:
    tree = scratch(tmp_path)
    add_a_command(tree)
    run = _run(tree, "-m", "ui", "hello", "--name", "you")
    assert run.returncode == 0 and run.stdout.strip() == "hello, you", run.stderr[-2000:]
    run = _run(tree, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", *GUARDS)
    assert run.returncode == 0, run.stdout[-3000:]
