"""The built docs site renders in a real browser: headless Chromium (Debian's ``chromium``) loads
the home page and an environment page; their DOM has the title, the navigation, a code block and
an image whose file exists, and the screenshots are not blank.

Needs the site built first (``sphinx-build -W --keep-going -b html docs docs/_build/html``;
``.ci/run`` builds it, then runs this file).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.skipif(
        not (SITE / "index.html").exists(),
        reason="the docs site is not built (sphinx-build -b html docs docs/_build/html)",
    ),
]


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,900",
        *args,
    ]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _dom(page: Path, tmp_path: Path) -> str:
    run = _chromium(tmp_path, "--dump-dom", page.as_uri())
    assert run.returncode == 0, run.stderr[-1000:]
    return run.stdout


def _images(dom: str, page: Path) -> list[Path]:
    return [(page.parent / src).resolve() for src in re.findall(r'<img[^>]* src="([^"]+)"', dom)]


@pytest.mark.parametrize(
    ("page", "title", "text"),
    [
        ("index.html", "cribbage-env", "Getting started"),
        ("environments/cribbage-v0.html", "Cribbage-v0", "pending_discard"),
    ],
)
def test_page_renders_with_title_navigation_code_and_content(
    page: str, title: str, text: str, tmp_path: Path
) -> None:
    path = SITE / page
    dom = _dom(path, tmp_path)
    assert re.search(rf"<title>{re.escape(title)}[^<]*</title>", dom)
    nav = dom[dom.index('class="sidebar-tree"') :]
    nav = nav[: nav.index("</nav>") if "</nav>" in nav else len(nav)]
    assert re.search(r'<a class="reference internal" href="[^"]*index.html">Environments</a>', nav)
    assert "Tutorials" in nav and "Agents" in nav
    assert 'class="highlight' in dom and "<pre" in dom  # a code block
    assert text in dom


def test_home_page_image_exists(tmp_path: Path) -> None:
    dom = _dom(SITE / "index.html", tmp_path)
    images = [p for p in _images(dom, SITE / "index.html") if "board" in p.name]
    assert images and all(p.is_file() and p.stat().st_size > 5000 for p in images)


@pytest.mark.parametrize("page", ["index.html", "environments/cribbage-v0.html"])
def test_screenshot_is_not_blank(page: str, tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    plt = pytest.importorskip("matplotlib.pyplot")
    shot = tmp_path / "shot.png"
    run = _chromium(tmp_path, f"--screenshot={shot}", (SITE / page).as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr[-1000:]
    pixels = plt.imread(shot)
    assert pixels.shape[:2] == (900, 1280)
    colours = np.unique((pixels[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50  # text, code and images, not an empty page


def test_the_built_cli_reference_prints_every_option_as_typed() -> None:
    """Sphinx prints ``--isolate`` outside code as "–isolate": a reader who copies it gets an
    option no command knows. No option of any command is printed that way."""
    from ui.cli.cli import build_parser

    text = (SITE / "reference" / "cli.html").read_text(encoding="utf-8")
    options = {
        o
        for sub in build_parser()._subparsers._group_actions  # type: ignore[union-attr]
        for p in sub.choices.values()  # type: ignore[union-attr]
        for a in p._actions
        for o in a.option_strings
        if o.startswith("--")
    }
    assert "--isolate" in options
    assert sorted(o for o in options if f"\u2013{o[2:]}" in text) == []
