"""The tests folder mirrors the packages: a room's tests under the room's name.

``tests/cribbage_env/rules/`` holds the tests of ``cribbage_env/rules/``, ``tests/project/`` the
guards over the whole tree, ``tests/docs/`` the docs; helpers shared by many test modules stay in
``tests/`` itself. pytest imports each test module by its file name (no ``__init__`` files), so
names are unique, and no test module imports another one (what two share is a helper).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PACKAGES = ("cribbage_env", "agents", "ui")
#: folders of tests that are not a package's room
OWN_FOLDERS = {"project", "docs", "data"}


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)


def test_no_test_module_sits_at_the_top() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []


def test_every_folder_mirrors_a_package_folder() -> None:
    for folder in (d for d in TESTS.rglob("*") if d.is_dir() and "__pycache__" not in d.parts):
        rel = folder.relative_to(TESTS)
        if rel.parts[0] in OWN_FOLDERS:
            continue
        assert rel.parts[0] in PACKAGES, f"tests/{rel} mirrors no package"
        assert (ROOT / rel).is_dir(), f"tests/{rel} has no package folder {rel}"


def test_every_package_room_with_tests_is_named_like_the_room() -> None:
    modules = _test_modules()
    assert len(modules) > 100
    names = [p.name for p in modules]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert all(p.parent != TESTS for p in modules)


def test_no_test_module_imports_another() -> None:
    found = []
    for path in _test_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if "test_" in n]
    assert found == []


def test_the_mirror_folders_do_not_shadow_the_packages() -> None:
    """A bare ``pytest`` (the working folder not on the path) still imports the packages, not
    tests/agents or tests/ui as namespaces (pyproject's ``pythonpath``)."""
    code = "import agents, cribbage_env, ui; print(agents.__file__, cribbage_env.__file__, ui.__file__)"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
         "--co", str(TESTS / "agents" / "store" / "test_ladder.py")],
        cwd=TESTS, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    files = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path[:0] = [{str(TESTS)!r}, {str(ROOT)!r}]; {code}"],
        cwd=TESTS, capture_output=True, text=True, timeout=60,
    ).stdout.split()  # fmt: skip
    assert files and all(f.startswith(str(ROOT)) and "tests" not in Path(f).parts for f in files)
