"""The layout guards: the tree shows the layers.

A package's folders ("rooms") hold at most ``MAX_FOLDER_MODULES`` modules (``source_tree``);
imports between rooms run one way (no two rooms import each other, directly or round a circle), type-only imports included; the
package faces (``cribbage_env/__init__.py`` and the like) only hand names on and are left out.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest
from source_tree import (
    MAX_FOLDER_MODULES,
    MODULES,
    PACKAGES,
    ROOT,
    cycles,
    from_target,
    module_name,
    parsed,
    sources,
)


def _imports_all(path: Path) -> set[str]:
    """Every project module ``path`` imports, anywhere, ``TYPE_CHECKING`` blocks included."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            target = from_target(node, package)
            subs = {f"{target}.{a.name}" for a in node.names} & MODULES
            out.update(subs)
            if target in MODULES and len(subs) < len(node.names):
                out.add(target)
    out.discard(module)
    return out


def room_of(module: str) -> str:
    """A module's room: its folder below the package (``agents.players``), or the module itself
    when it lies at the package's top (``cribbage_env.encoding``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else module


def room_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Rooms and the rooms they import, the package faces left out."""
    rooms: dict[str, set[str]] = defaultdict(set)
    for module, deps in graph.items():
        if module in PACKAGES:
            continue
        for dep in deps:
            if dep not in PACKAGES and room_of(dep) != room_of(module):
                rooms[room_of(module)].add(room_of(dep))
        rooms.setdefault(room_of(module), set())
    return dict(rooms)


def module_graph() -> dict[str, set[str]]:
    return {module_name(p): _imports_all(p) for p in sources()}


def test_the_room_graph_sees_a_circle() -> None:
    graph = {"p.a.x": {"p.b.y"}, "p.b.y": {"p.a.z"}, "p.a.z": set(), "p.top": {"p.a.x"}}
    assert room_graph(graph) == {"p.a": {"p.b"}, "p.b": {"p.a"}, "p.top": {"p.a"}}
    assert cycles(room_graph(graph)) == [["p.a", "p.b"]]


def test_no_circle_between_rooms_type_only_imports_included() -> None:
    circles = cycles(room_graph(module_graph()))
    assert not circles, f"rooms that import each other: {circles}"


def test_no_circle_between_modules_type_only_imports_included() -> None:
    """A part that needs its holder (the table's parts, the screens) takes a small Protocol of
    what it uses instead of importing the holder's class."""
    circles = sorted(cycles(module_graph()))
    assert not circles, f"modules that import each other: {circles}"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_folder_holds_more_than_about_15_modules(package: str) -> None:
    for folder in [ROOT / package, *(d for d in (ROOT / package).rglob("*") if d.is_dir())]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        assert len(modules) <= MAX_FOLDER_MODULES, (
            f"{folder.relative_to(ROOT)} holds {len(modules)} modules: split it by what they do"
        )


def test_every_module_says_what_it_holds() -> None:
    silent = [
        p.relative_to(ROOT).as_posix()
        for p in sources()
        if not ast.get_docstring(parsed(p)) and p.read_text(encoding="utf-8").strip()
    ]
    assert not silent, f"modules with no first lines saying what they hold: {silent}"


#: A tracker's number in a comment or docstring (an issue and its number): history belongs
#: in git and CHANGELOG.md, and the next engineer needs the reason, not a pointer to it.
_TRACKER_REF = re.compile(r"\bissues? ?#?\d+", re.IGNORECASE)
HISTORY_FREE = ("cribbage_env", "agents", "ui", "tests", "benchmarks")


def tracker_refs(text: str) -> list[int]:
    """The line numbers of ``text`` that cite an issue by its number.

    >>> tracker_refs("x = 1  # see issue" + " 27\\nfrom the issue tracker")
    [1]
    """
    return [n for n, line in enumerate(text.splitlines(), 1) if _TRACKER_REF.search(line)]


def test_the_tracker_pattern_sees_the_usual_forms() -> None:
    for cited in ("(issue" + " 15, leak 1)", "Issue" + " 23: a run", "issues" + " 3 and 5"):
        assert tracker_refs(cited) == [1], cited
    assert tracker_refs("an issue with a fix, R11.4, PR review") == []


def test_no_issue_numbers_in_code_or_comments() -> None:
    cited = [
        f"{p.relative_to(ROOT).as_posix()}:{n}"
        for folder in HISTORY_FREE
        for p in sorted((ROOT / folder).rglob("*.py"))
        for n in tracker_refs(p.read_text(encoding="utf-8"))
    ]
    assert not cited, f"issue numbers in code (say why instead; history is git's): {cited}"
