"""Every public function and class of ``cribbage_env`` and ``agents`` that the README or a
tutorial names has a docstring and an entry in the API reference (``docs/reference/api.md``)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
API = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
PACKAGES = ("cribbage_env", "agents")


def _code() -> list[str]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs" / "tutorials").glob("*.md"))]
    fence = re.compile(r"```(?:python|\{code-cell\} python)\n(?::tags:[^\n]*\n)?(.*?)```", re.S)
    cells = [code for page in pages for code in fence.findall(page.read_text(encoding="utf-8"))]
    # a cell magic's body: shell lines are no Python; a file written by ``%%writefile`` is
    return [
        c.split("\n", 1)[1] if c.startswith("%%writefile") else c
        for c in cells
        if not c.startswith("%%bash")
    ]


def _named() -> set[tuple[str, str]]:
    """(module, name) of every package name imported or read as ``ce.NAME`` in the snippets."""
    out = set()
    for code in _code():
        tree = ast.parse(code)
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES:
                out.update((node.module, a.name) for a in node.names)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in PACKAGES:
                        aliases[a.asname or a.name] = a.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in aliases:
                    out.add((aliases[node.value.id], node.attr))
    return out


def _public(module: str, name: str) -> object | None:
    obj = getattr(importlib.import_module(module), name, None)
    return obj if inspect.isfunction(obj) or inspect.isclass(obj) else None


def test_the_snippets_name_package_functions() -> None:
    assert len([n for n in _named() if _public(*n) is not None]) >= 8


def test_every_named_function_and_class_has_a_docstring_and_an_api_entry() -> None:
    import agents
    import cribbage_env

    exported = set(cribbage_env.__all__) | set(agents.__all__)
    missing_doc, missing_api = [], []
    for module, name in sorted(_named()):
        obj = _public(module, name)
        if obj is None:
            continue
        if not (inspect.getdoc(obj) or "").strip():
            missing_doc.append(f"{module}.{name}")
        in_api = (
            (module in PACKAGES and name in exported)
            or f"{module}.{name}" in API
            or (f".. automodule:: {module}\n" in API)
        )
        if not in_api:
            missing_api.append(f"{module}.{name}")
    assert not missing_doc, missing_doc
    assert not missing_api, missing_api
