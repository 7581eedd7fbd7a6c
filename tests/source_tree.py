"""The project's source tree as the layout guards read it: its packages, their modules, their
imports' targets and the size limits (tests/project/ checks them; the change tasks use them)."""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cribbage_env", "agents", "ui")
#: A function, a module and a folder (its ``__init__`` not counted) past these is split in the
#: change that takes it past. They sit below the team's ceilings (80 lines a function, 500 a
#: module, about 15 modules a folder) so that a module is split where its seam is, before any
#: ceiling forces a cut wherever the next line falls.
MAX_FUNCTION_LINES = 70
MAX_MODULE_LINES = 400
MAX_FOLDER_MODULES = 14


def sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def from_target(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` reads from, relative imports resolved in ``package``."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in graph:
        if v not in index:
            strong(v)
    return out


MODULES = {module_name(p) for p in sources()}


def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed once a run for each version of the file: the guards read
    the whole tree several times (the trees are shared: a guard reads them, never changes them)."""
    st = path.stat()
    return _parsed(path, st.st_mtime_ns, st.st_size)


@functools.cache
def _parsed(path: Path, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))
