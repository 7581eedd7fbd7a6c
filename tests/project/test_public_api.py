"""The public API stays put.

- Every code snippet of the README and the docs pages, and every example, imports only public
  names: those in ``cribbage_env.__all__`` and ``agents.__all__`` from the package's top, or the
  names of a public module that the API reference lists (``docs/reference/api.md``, section
  "What is public"); never a private name, a room's module or ``ui``.
- Every name in ``__all__`` resolves (the lazy ones included).
- The flat layout's module paths still import, as the module at the new path, with a
  DeprecationWarning naming the import to use; nothing in the project imports an old path.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from source_tree import parsed

import agents
import cribbage_env
from agents.moved import MOVED as AGENTS_MOVED
from cribbage_env.moved import MOVED as ENV_MOVED
from ui.moved import MOVED as UI_MOVED

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "reference" / "api.md"
TOPS = {"cribbage_env": cribbage_env, "agents": agents}
MOVED = {**ENV_MOVED, **AGENTS_MOVED, **UI_MOVED}


def public_modules() -> list[str]:
    """The public modules the API reference lists (its bullets ``- `module`: what it holds``)."""
    section = API.read_text(encoding="utf-8").split("## What is public", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\s+- `((?:cribbage_env|agents)\.[\w.]+)`:", section, re.M)


def _code_of_page(text: str) -> list[str]:
    fence = re.compile(r"^```(?:python|\{code-cell\} python)\n(.*?)^```", re.S | re.M)
    out = []
    for code in fence.findall(text):
        lines = [ln for ln in code.splitlines() if not ln.startswith(":tags:")]
        if lines and lines[0].startswith("%%bash"):
            continue
        if lines and lines[0].startswith("%%writefile"):
            lines = lines[1:]
        out.append("\n".join(ln for ln in lines if not ln.startswith(("%", "!"))))
    return out


def snippets() -> list[tuple[str, str]]:
    """(where, code) of every Python snippet a reader copies: README, docs pages, examples."""
    pages = [ROOT / "README.md"] + [
        p
        for p in sorted((ROOT / "docs").rglob("*.md"))
        if not {"_build", "_generated"} & set(p.relative_to(ROOT / "docs").parts)
    ]
    out = [(p.relative_to(ROOT).as_posix(), c) for p in pages for c in _code_of_page(p.read_text())]
    out += [
        (p.relative_to(ROOT).as_posix(), p.read_text())
        for p in sorted((ROOT / "examples").rglob("*.py"))
    ]
    return out


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _name_is_public(module: str, name: str, modules: list[str]) -> bool:
    if _is_private(name):
        return False
    if module in TOPS:
        return name in TOPS[module].__all__ or f"{module}.{name}" in modules
    exported = getattr(importlib.import_module(module), "__all__", None)
    return (
        name in exported if exported is not None else hasattr(importlib.import_module(module), name)
    )


def reaches_past_the_api(code: str, modules: list[str]) -> list[str]:
    """What ``code`` imports or reads from the packages that is not public.

    >>> reaches_past_the_api("from cribbage_env.rules.cards import RANK", [])
    ['from cribbage_env.rules.cards import RANK']
    >>> reaches_past_the_api("import cribbage_env as ce\\nce.new_game(1)\\nce._LAZY", [])
    ['cribbage_env._LAZY']
    """
    tree = ast.parse(code)
    bad: list[str] = []
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if top in ("cribbage_env", "agents", "ui"):
                    if a.name not in TOPS and a.name not in modules:
                        bad.append(f"import {a.name}")
                    elif a.name in TOPS:
                        aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and not node.level:
            module = node.module or ""
            if module.split(".")[0] not in ("cribbage_env", "agents", "ui"):
                continue
            if module not in TOPS and module not in modules:
                bad.append(f"from {module} import {', '.join(a.name for a in node.names)}")
                continue
            bad += [
                f"from {module} import {a.name}"
                for a in node.names
                if not _name_is_public(module, a.name, modules)
            ]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            alias = aliases.get(node.value.id)
            if alias and not _name_is_public(alias, node.attr, modules):
                bad.append(f"{alias}.{node.attr}")
    return bad


def test_the_api_page_lists_public_modules_that_exist() -> None:
    modules = public_modules()
    assert "cribbage_env.openspiel" in modules and "cribbage_env.encoding" in modules
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module


def test_there_are_snippets_to_check() -> None:
    found = snippets()
    assert len(found) >= 20
    assert any("run_tournament" in code for _, code in found)


def test_the_docs_and_examples_import_only_public_names() -> None:
    modules = public_modules()
    bad = [
        f"{where}: {b}" for where, code in snippets() for b in reaches_past_the_api(code, modules)
    ]
    assert not bad, "import these from cribbage_env or agents (add them to __all__):\n" + "\n".join(
        bad
    )


@pytest.mark.parametrize("package", sorted(TOPS))
def test_every_public_name_resolves(package: str) -> None:
    if package == "cribbage_env" and importlib.util.find_spec("pettingzoo") is None:
        pytest.skip("pettingzoo is not installed (extra 'pettingzoo'): the AEC names need it")
    top = TOPS[package]
    missing = [name for name in top.__all__ if getattr(top, name, None) is None]
    assert not missing, missing
    assert len(set(top.__all__)) == len(top.__all__)


def test_a_bots_names_are_at_the_top() -> None:
    from cribbage_env.rules.cards import RANK, VALUE
    from cribbage_env.rules.scoring import heels_points

    assert (cribbage_env.RANK, cribbage_env.VALUE) == (RANK, VALUE)
    assert cribbage_env.heels_points is heels_points
    assert agents.run_tournament.__module__ == "agents.bench"


def test_the_moved_table_names_old_paths_gone_and_new_paths_present() -> None:
    for old, new in MOVED.items():
        assert importlib.util.find_spec(new) is not None, f"{old} -> {new}: no such module"
        rel = Path(*old.split("."))
        assert not (ROOT / f"{rel}.py").exists() and not (ROOT / rel).is_dir(), f"{old} exists"


#: The paths outside code was seen to import, and one of each other room.
OLD_PATHS = (
    "cribbage_env.core", "cribbage_env.cards", "cribbage_env.scoring", "cribbage_env.engine",
    "cribbage_env.views", "cribbage_env.actions", "cribbage_env.discard", "cribbage_env.rewards",
    "agents.greedy", "agents.runner", "agents.results_store", "agents.learn.weights",
    "agents.seeding", "ui.seeds",
)  # fmt: skip
_IMPORT_OLD = """
import importlib, json, sys, warnings
out = {}
for old in sys.argv[1:]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    out[old] = [module.__name__, sys.modules[old] is module,
                [str(w.message) for w in caught if w.category is DeprecationWarning]]
from cribbage_env.cards import RANK, VALUE, parse_card
from cribbage_env.scoring import heels_points, score_hand
from cribbage_env.core import Phase, Rules
from cribbage_env.engine import GameState, new_game
print(json.dumps(out))
"""


def test_old_paths_import_the_moved_module_and_warn() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_OLD, *OLD_PATHS],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    out = json.loads(run.stdout)
    for old in OLD_PATHS:
        name, same, warned = out[old]
        assert name == MOVED[old] and same, old
        assert len(warned) == 1 and old in warned[0], (old, warned)
        top = MOVED[old].split(".")[0]
        use = f"import {MOVED[old]} instead" if top == "ui" else f"public names from {top}"
        assert use in warned[0] and MOVED[old] in warned[0], warned[0]


def test_a_warning_points_at_the_line_that_imports() -> None:
    code = "import cribbage_env.core\n"
    run = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-c", code],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    assert run.stderr.startswith("<string>:1: DeprecationWarning: cribbage_env.core moved"), (
        run.stderr
    )


def test_python_m_of_an_old_path_runs_the_moved_module() -> None:
    """``python -m agents.seat_worker SPEC`` (the flat layout's seat server) runs the module where
    it lives now, its relative imports included: it answers the protocol's error for a bad spec."""
    run = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-m", "agents.seat_worker", "nope_x:X"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert "DeprecationWarning: agents.seat_worker moved" in run.stderr, run.stderr
    assert "cannot build agent 'nope_x:X'" in json.loads(run.stdout)["error"], run.stdout


def _project_sources() -> list[Path]:
    folders = ("cribbage_env", "agents", "ui", "tests", "benchmarks", "examples", "docs")
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py") if "_build" not in p.parts)


def test_nothing_in_the_project_imports_an_old_path() -> None:
    hits = []
    for path in _project_sources():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            hits += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n in MOVED]
    assert not hits, hits
