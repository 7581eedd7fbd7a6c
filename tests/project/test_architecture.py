"""Architecture rules, checked on the source: layering, sizes and who may read engine internals.

- no import cycle inside the installed packages (every import counts, also those inside
  functions; only ``if TYPE_CHECKING:`` blocks are skipped);
- functions and modules short (``tests/source_tree.py`` holds the numbers), in ``cribbage_env/``,
  ``agents/``, ``ui/``
  (files other work is still splitting are listed in ``SIZE_ALLOWLIST``; a new violation fails);
- the rules modules import none of gymnasium, pettingzoo, agents, arcade (or ui);
- no module outside the engine reads its private event log, and no module defines or imports a
  rule constant (the target score lives in ``cribbage_env.rules.core.Rules``);
- ``import cribbage_env`` imports no pettingzoo, arcade, agents or ui.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from source_tree import (
    MAX_FOLDER_MODULES,
    MAX_FUNCTION_LINES,
    MAX_MODULE_LINES,
    MODULES,
    ROOT,
    cycles,
    from_target,
    module_name,
    parsed,
    sources,
)

#: Work in progress elsewhere (the application layer is being cut along its seams): a file name
#: allows the module's length, ``file:function`` one function's. A new violation fails; an entry
#: that meets the limits must leave the list (test_size_allowlist_is_still_needed).
SIZE_ALLOWLIST: set[str] = set()
#: Upward imports made lazily on purpose: the env resolves an opponent *name* ("greedy") with
#: ``agents.make_agent`` only when given one (objects and callables need no agents).
LAZY_UPWARD = {("cribbage_env.envs.opponent", "agents")}
#: The rules, what is built on them for the unseen cards, the invariant checker, and the discard
#: analyzer and episode core over them: no environment library, no agents, no GUI.
RULES_MODULES = (
    *sorted(
        f"{room}.{p.stem}"
        for room in ("rules", "unseen")
        for p in (ROOT / "cribbage_env" / room).glob("*.py")
        if p.stem != "__init__"
    ),
    "invariants",
    "analysis.discard",
    "envs.episode",
)
FORBIDDEN_IN_RULES = ("gymnasium", "pettingzoo", "agents", "arcade", "ui", "pyglet", "torch")
#: The modules that own the engine's event log (``State._log``).
ENGINE_MODULES = {"cribbage_env/rules/state.py", "cribbage_env/rules/engine.py"}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """Every module name imported anywhere in ``tree`` (TYPE_CHECKING blocks skipped)."""
    out: list[str] = []
    package = module if is_package else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = from_target(node, package)
            subs = [f"{target}.{a.name}" for a in node.names]
            if not all(s in MODULES for s in subs):  # names defined in ``target`` itself
                out.append(target)
            out.extend(s for s in subs if s in MODULES)  # `from pkg import submodule`
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in sources()}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = parsed(path)
        deps = set()
        for target in _imports(tree, name, path.name == "__init__.py"):
            if target in paths and target != name:
                deps.add(target)
        graph[name] = deps
    return graph


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_inside_the_packages() -> None:
    found = cycles(_graph())
    assert not found, f"import cycles: {found}"


def test_package_edges_flow_one_way() -> None:
    """cribbage_env <- agents <- ui: the rules and envs never import agents or ui."""
    for name, deps in _graph().items():
        if name.startswith("cribbage_env"):
            up = [d for d in deps if d.split(".")[0] in ("agents", "ui")]
            assert not [d for d in up if (name, d) not in LAZY_UPWARD], name
        if name.startswith("agents"):
            assert not [d for d in deps if d.split(".")[0] == "ui"], name


def _long_functions(path: Path) -> dict[str, str]:
    """``file:function`` -> a description, for every function over the limit."""
    tree = parsed(path)
    rel = path.relative_to(ROOT).as_posix()
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            n = (node.end_lineno or node.lineno) - first + 1
            if n > MAX_FUNCTION_LINES:
                out[f"{rel}:{node.name}"] = f"{rel}:{node.lineno} {node.name} ({n} lines)"
    return out


def _violations() -> dict[str, str]:
    found = {}
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        n = len(path.read_text().splitlines())
        if n > MAX_MODULE_LINES:
            found[rel] = f"{rel}: {n} lines (module limit {MAX_MODULE_LINES})"
        found.update(_long_functions(path))
    return found


def test_functions_and_modules_are_short() -> None:
    problems = [v for k, v in _violations().items() if k not in SIZE_ALLOWLIST]
    assert not problems, "\n".join(problems)


def test_size_allowlist_is_still_needed() -> None:
    """An entry that meets the limits leaves the list (so the list only shrinks)."""
    stale = sorted(SIZE_ALLOWLIST - set(_violations()))
    assert not stale, f"these meet the limits now: remove them from SIZE_ALLOWLIST: {stale}"


def test_size_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    src = tmp_path / "long.py"
    src.write_text(f"def f():\n{body}\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert _long_functions(src) == {
            "long.py:f": f"long.py:1 f ({MAX_FUNCTION_LINES + 1} lines)"
        }
    finally:
        ROOT = saved


@pytest.mark.parametrize("module", RULES_MODULES)
def test_rules_modules_import_no_environment_agents_or_gui(module: str) -> None:
    path = ROOT / "cribbage_env" / f"{module.replace('.', '/')}.py"
    tree = parsed(path)
    bad = [
        m
        for m in _imports(tree, f"cribbage_env.{module}", False)
        if m.split(".")[0] in FORBIDDEN_IN_RULES
    ]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_no_module_outside_the_engine_reads_its_event_log() -> None:
    readers = []
    for path in [*sources(), *sorted((ROOT / "benchmarks").rglob("*.py"))]:
        rel = path.relative_to(ROOT).as_posix()
        if rel in ENGINE_MODULES:
            continue
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "_log":
                readers.append(f"{rel}:{node.lineno} .{node.attr}")
    assert not readers, "the engine's log is private; use GameState.events_since(i):\n" + "\n".join(
        readers
    )


def test_no_module_holds_a_rule_constant() -> None:
    """The target score and skunk lines are read from ``Rules`` (state, view or record): no
    module but ``cribbage_env/rules/core.py`` binds 121, 91 or 61 to a module-level name, and nothing
    imports ``WINNING_SCORE``."""
    hits = []
    for path in [*sources(), *sorted((ROOT / "benchmarks").rglob("*.py"))]:
        rel = path.relative_to(ROOT).as_posix()
        tree = parsed(path)
        for node in tree.body:
            if (
                isinstance(node, (ast.Assign, ast.AnnAssign))
                and isinstance(node.value, ast.Constant)
                and node.value.value in (121, 91, 61)
                and rel != "cribbage_env/rules/core.py"
            ):
                hits.append(f"{rel}:{node.lineno} binds {node.value.value}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(
                a.name == "WINNING_SCORE" for a in node.names
            ):
                hits.append(f"{rel}:{node.lineno} imports WINNING_SCORE")
    assert not hits, hits


def test_import_cribbage_env_imports_no_pettingzoo_arcade_agents_or_ui() -> None:
    code = (
        "import sys, cribbage_env; "
        "print(sorted(m for m in ('pettingzoo', 'arcade', 'agents', 'ui', 'torch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_state_fields_are_defined_once() -> None:
    """The state's slots are exactly its annotated fields, and equality covers all of them."""
    from cribbage_env.rules.state import State

    assert tuple(State.__slots__) == tuple(State.__annotations__)


def test_docs_cite_files_that_exist() -> None:
    """Every repository path quoted in the README and docs/ (`like/this.py`) exists."""
    import re

    cited = re.compile(r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|md|json|po|toml|yaml|txt))`")
    missing = []
    pages = [p for p in sorted((ROOT / "docs").rglob("*.md")) if "_build" not in p.parts]
    for doc in [ROOT / "README.md", *(p for p in pages if "_generated" not in p.parts)]:
        for path in cited.findall(doc.read_text(encoding="utf-8")):
            if path.split("/")[0].isupper():  # a placeholder such as DIR/index.json
                continue
            if not (ROOT / path).exists():
                missing.append(f"{doc.relative_to(ROOT)} cites {path}")
    assert not missing, missing


def test_readme_sections_are_named_by_capability() -> None:
    """README headings say what a part does, not which issue asked for it."""
    import re

    heads = [
        ln
        for ln in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
        if ln.startswith("#")
    ]
    bad = [h for h in heads if re.search(r"\bissues? \d", h, re.IGNORECASE)]
    assert not bad, bad


def test_no_benchmark_rewrites_a_tracked_file_by_default() -> None:
    """A default run of a benchmark writes no shipped data or recorded result: an ``--out``
    (or ``--summary``) whose default names one of them must be asked for instead."""
    shipped = {
        p.name
        for folder in ("benchmarks/results", "cribbage_env/data", "agents/data")
        for p in (ROOT / folder).rglob("*")
        if p.is_file()
    }
    hits = []
    for path in sorted((ROOT / "benchmarks").rglob("*.py")):
        for node in ast.walk(parsed(path)):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"
            ):
                continue
            flags = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if not any(str(f).startswith(("--out", "--summary")) for f in flags):
                continue
            for kw in node.keywords:
                names = {n.id for n in ast.walk(kw.value) if isinstance(n, ast.Name)}
                if kw.arg != "default" or "tempfile" in names:  # the temp dir is not shipped
                    continue
                for c in ast.walk(kw.value):
                    if isinstance(c, ast.Constant) and isinstance(c.value, str):
                        if Path(c.value).name in shipped:
                            hits.append(f"{path.name}:{node.lineno} {flags[0]} -> {c.value}")
    assert not hits, hits


def test_no_module_keeps_a_moved_name_alive() -> None:
    """No back-compat shims inside the modules: a module ``__getattr__`` is only a package face's
    lazy import of its own public names (``cribbage_env`` and ``agents``), never a re-export of a
    name that moved. Old module paths live in one table per package (``moved.py``) alone."""
    found = []
    for path in sources():
        tree = parsed(path)
        if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body):
            found.append(path.relative_to(ROOT).as_posix())
    assert found == ["agents/__init__.py", "cribbage_env/__init__.py"]


def test_the_contributing_page_states_the_limits_the_guards_hold() -> None:
    text = " ".join((ROOT / "docs" / "contributing.md").read_text(encoding="utf-8").split())
    assert f"no folder over {MAX_FOLDER_MODULES} modules" in text
    assert f"functions <= {MAX_FUNCTION_LINES} lines and modules <= {MAX_MODULE_LINES}" in text
