"""Every plain ```python block of the docs pages runs (the executed ``{code-cell}`` blocks run in
the docs build instead), in a folder holding the guide's ``my_bot.py`` and ``my_discards.py``, as a
reader following the pages would have them."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from extras import TRAINING

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BOTS = (DOCS / "BOTS.md").read_text(encoding="utf-8")


def _pages() -> list[Path]:
    return [
        p
        for p in sorted(DOCS.rglob("*.md"))
        if not {"_build", "_generated"} & set(p.relative_to(DOCS).parts)
    ]


def _snippets() -> list[tuple[str, int, str]]:
    out = []
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        for i, code in enumerate(re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)):
            out.append((str(page.relative_to(ROOT)), i, code))
    return out


def _cases() -> list:
    """The snippets as test cases; one that trains (``.learn(``) is training end to end: the
    integration tier."""
    return [
        pytest.param(*s, marks=pytest.mark.integration) if ".learn(" in s[2] else s
        for s in _snippets()
    ]


def _guide_file(starts: str) -> str:
    return next(b for b in re.findall(r"```python\n(.*?)```", BOTS, re.S) if b.startswith(starts))


def test_the_docs_have_plain_snippets_to_check() -> None:
    assert len(_snippets()) >= 6


@pytest.mark.parametrize(("page", "index", "code"), _cases(), ids=lambda v: str(v)[:30])
def test_snippet_runs(page: str, index: int, code: str, tmp_path: Path) -> None:
    if "pyspiel" in code and importlib.util.find_spec("pyspiel") is None:
        pytest.skip("open-spiel is not installed (extra 'openspiel')")
    if "sb3_contrib" in code and importlib.util.find_spec("sb3_contrib") is None:
        pytest.skip(TRAINING)
    (tmp_path / "my_bot.py").write_text(_guide_file('"""my_bot.py'), encoding="utf-8")
    (tmp_path / "my_discards.py").write_text(_guide_file("# my_discards.py"), encoding="utf-8")
    code = code.replace("games=200", "games=4")  # the notebook example, at test size
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert run.returncode == 0, f"{page} block {index}:\n{run.stderr[-2000:]}"
