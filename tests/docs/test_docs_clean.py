"""Docs a reader can reproduce: no page (written, generated or built) carries a machine path, an
issue number or a deadline; the docs extra installs everything the build imports; tutorial
cells paste as they are (Python as Python, command lines as shell)."""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import cribbage_docs  # noqa: E402
import publish  # noqa: E402


def _pages() -> list[Path]:
    return [
        p
        for p in sorted(DOCS.rglob("*.md"))
        if p.relative_to(DOCS).parts[0] not in ("_build", "_generated")
    ]


def test_the_publish_filter_does_what_its_examples_say() -> None:
    assert doctest.testmod(publish).failed == 0


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_no_written_page_names_a_machine_path_an_issue_or_a_deadline(page: Path) -> None:
    assert publish.problems(page.read_text(encoding="utf-8")) == []


def test_the_pages_made_from_the_notebook_and_the_results_files_are_clean() -> None:
    """The results page, the ladder's command and the changelog as the build prints them:
    relative paths, no issue, no deadline; figures kept."""
    assert publish.problems(cribbage_docs.results_page()) == []  # generated clean
    for text in (
        cribbage_docs.ratings_table(),
        cribbage_docs.ladder_table(),
        (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    ):
        out = publish.publish(text)
        assert publish.problems(out) == []
        assert re.findall(r"\d+\.\d+%", out) == re.findall(r"\d+\.\d+%", text)  # no figure lost
    ratings = publish.publish(cribbage_docs.ratings_table())
    assert "--db out/ladder4k/ladder4k.sqlite" in ratings  # relative: runs from a checkout


def test_the_built_site_is_clean() -> None:
    site = DOCS / "_build" / "html"
    if not (site / "index.html").exists():
        pytest.skip("the docs site is not built (sphinx-build -b html docs docs/_build/html)")
    found = []
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] in ("_modules", "_static", "_sources"):
            continue  # highlighted source code, the theme's files: not pages of prose
        text = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8", errors="replace"))
        found += [f"{page.relative_to(site)} {p}" for p in publish.problems(text)]
    assert found == []


# ----------------------------------------------------------------------------- pasteable cells
def _cells(page: Path) -> list[str]:
    return re.findall(
        r"```\{code-cell\}[^\n]*\n(?::tags:[^\n]*\n)?(.*?)```", page.read_text(), re.S
    )


@pytest.mark.parametrize(
    "page", [p for p in _pages() if _cells(p)], ids=lambda p: str(p.relative_to(DOCS))
)
def test_every_cell_pastes_into_python_or_a_shell_as_it_is(page: Path) -> None:
    """Command lines are ``%%bash`` cells holding only ``cribbage ...`` lines (the build runs
    them; the site shows the shell lines); Python cells call no docs-only helper."""
    for cell in _cells(page):
        if cell.startswith("%%bash\n"):
            lines = [ln for ln in cell.splitlines()[1:] if ln.strip()]
            starts = [ln for ln in lines if not ln.startswith(" ")]  # not a continued line
            # one command a cell: its exit status is the cell's, so a failing command fails the build
            assert len(starts) == 1 and re.match(r"(\w+=\S+ )*cribbage ", starts[0]), cell
            assert all(
                a.endswith("\\") for a, b in zip(lines, lines[1:], strict=False) if b[:1] == " "
            )
        else:
            assert "docs_run" not in cell and not re.search(r"\bcribbage\(", cell), cell
            assert "scratch(" not in cell, cell


def test_the_builds_bash_prints_the_whole_output_and_fails_with_the_command(capsys) -> None:
    """IPython's own ``%%bash`` streams 100-byte pieces, which the page showed as broken lines."""
    import subprocess

    import docs_run

    docs_run.bash("", "printf '%0250d\\n' 0; echo done >&2")
    assert capsys.readouterr().out == "0" * 250 + "\ndone\n"
    with pytest.raises(subprocess.CalledProcessError):
        docs_run.bash("", "exit 3")


# ----------------------------------------------------------------------------- the docs extra
#: What a page imports -> the extra of this project that installs it.
PROVIDERS = {
    "pettingzoo": "pettingzoo",
    "pyspiel": "openspiel",
    "ray": "ray",
    "matplotlib": "plot",
    "torch": "rl",
    "sb3_contrib": "rl",
    "stable_baselines3": "rl",
    "arcade": "gui",
}


def _extras(name: str, table: dict[str, list[str]]) -> set[str]:
    """``name`` and every extra of this project it pulls in (``cribbage-env[a,b]``)."""
    out, todo = set(), [name]
    while todo:
        extra = todo.pop()
        if extra in out:
            continue
        out.add(extra)
        for req in table[extra]:
            m = re.match(r"cribbage-env\[([^\]]+)\]", req)
            if m:
                todo += [e.strip() for e in m.group(1).split(",")]
    return out


def _imports() -> set[str]:
    """Top-level modules the executed pages and the API reference import."""
    mods = set()
    for page in _pages():
        for cell in re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", page.read_text(), re.S):
            mods |= set(re.findall(r"^\s*(?:import|from)\s+(\w+)", cell, re.M))
            if re.search(r"^[\w= ]*cribbage (?:play|replay)\b", cell, re.M):
                mods.add("arcade")  # a cell that opens the table runs the Arcade game
    mods.add("pettingzoo")  # the API reference documents cribbage_env.envs.aec, which imports it
    return mods


def test_the_docs_extra_installs_everything_the_build_imports() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    have = _extras("docs", table)
    needed = {PROVIDERS[m] for m in _imports() if m in PROVIDERS}
    assert needed <= have, f"the docs extra lacks {sorted(needed - have)}"


def test_the_cli_reference_shows_options_as_typed() -> None:
    """Outside code, the build prints ``--isolate`` as "–isolate" (smart dashes): every option a
    help text names is code; a default shows as the option would be typed (``standard``, not
    ``Rules(target=121, ...)``)."""
    page = cribbage_docs.cli_reference()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    prose = [re.sub(r"`[^`]*`", "", row) for row in rows]
    assert [row for row in prose if re.search(r"--[a-z]", row)] == []
    assert "Rules(" not in page
    assert any(r.startswith("| `--rules`") and r.endswith("| `standard` |") for r in rows)


def test_every_file_of_the_project_a_page_names_exists() -> None:
    """A page that names a module or a folder of the tree (``ui/cli/cmd_*``) names one that is
    there: files move, and the pages must move with them."""
    import glob

    top = r"(?:cribbage_env|agents|ui|benchmarks|tests|docs|examples)/"
    missing = []
    for page in [*_pages(), ROOT / "README.md"]:
        for name in re.findall(rf"`({top}[\w./*<>-]*)`", page.read_text(encoding="utf-8")):
            name = name.rstrip(".")
            pattern = re.sub(r"<[^>]+>", "*", name)
            made = "_build/" in name or "_generated/" in name  # by the docs build
            if not made and not glob.glob(str(ROOT / pattern)):
                missing.append(f"{page.relative_to(ROOT)}: {name}")
    assert missing == []
