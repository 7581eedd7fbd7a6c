"""No module reads another module's private names.

A name that starts with one underscore is its module's own business: no other module of the
packages, the benchmarks, the examples or the docs' extensions imports it (``from m import _x``)
or reads it off the module (``m._x``). A name another module needs is made public where it lives,
or moved to where it belongs. Tests may reach into the module they test.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from source_tree import MODULES, ROOT, from_target, module_name

#: Where the rule holds: everything that ships or runs as the project's own code.
FOLDERS = ("cribbage_env", "agents", "ui", "benchmarks", "examples", "docs/_ext")
#: Reads left while other work rewrites both modules; an entry that is gone must leave the list
#: (test_the_allowlist_only_shrinks), and no new one may join.
ALLOWED: set[str] = set()


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of an attribute chain of names, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def private_reads(source: str, module: str, is_package: bool, modules: set[str]) -> list[str]:
    """Each ``module: what`` by which ``source`` (the module ``module``) reads another module's
    private name, for the project ``modules``.

    >>> mods = {"p", "p.a", "p.b"}
    >>> private_reads("from .a import _x, y", "p.b", False, mods)
    ['p.a._x']
    >>> private_reads("from p import a\\nimport p.a as q\\na._f(); q._g(); a.h()", "p.b", False, mods)
    ['p.a._f', 'p.a._g']
    >>> private_reads("from .a import X as _X\\n_X._y", "p.b", False, mods)
    []
    """
    package = module if is_package else module.rpartition(".")[0]
    tree = ast.parse(source)
    found: list[str] = []
    bound: dict[str, str] = {}  # a local name -> the project module it holds
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules:
                    bound[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else a.name.split(".")[0]
                    )
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            target = from_target(node, package)
            for a in node.names:
                if f"{target}.{a.name}" in modules:
                    bound[a.asname or a.name] = f"{target}.{a.name}"
                elif target in modules and target != module and _is_private(a.name):
                    found.append(f"{target}.{a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            dotted = _dotted(node.value)
            if dotted is None:
                continue
            head, _, rest = dotted.partition(".")
            held = bound.get(head)
            if held is None:
                continue
            owner = f"{held}.{rest}" if rest else held
            if owner in modules and owner != module:
                found.append(f"{owner}.{node.attr}")
    return found


def _sources() -> list[Path]:
    return sorted(p for f in FOLDERS for p in (ROOT / f).rglob("*.py") if "_build" not in p.parts)


@lru_cache(maxsize=1)
def _reads() -> frozenset[str]:
    out = set()
    for path in _sources():
        rel = path.relative_to(ROOT)
        module = module_name(path) if rel.parts[0] in ("cribbage_env", "agents", "ui") else ""
        text = path.read_text(encoding="utf-8")
        for what in private_reads(text, module, path.name == "__init__.py", MODULES):
            out.add(f"{rel.as_posix()} reads {what}")
    return frozenset(out)


def test_no_module_reads_another_modules_private_names() -> None:
    hits = sorted(_reads() - ALLOWED)
    assert not hits, "make these public where they live (or move them):\n" + "\n".join(hits)


def test_the_allowlist_only_shrinks() -> None:
    stale = sorted(ALLOWED - _reads())
    assert not stale, f"these are fixed: remove them from ALLOWED: {stale}"
