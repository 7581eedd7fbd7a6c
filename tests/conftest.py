"""Test-session setup that must precede every test module's imports.

Arcade picks its window system when it is first imported: headless (EGL) only if
``ARCADE_HEADLESS`` is set by then. A test module that imports Arcade early (for instance through
``pytest.importorskip("arcade")``) would otherwise fix a windowed Arcade for the whole session and
the GUI tests after it would skip, so the outcome depended on test order.
Subprocess tests that need it unset build their own environment. The GUI tests share a
headless `window` fixture.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    """A headless window for a module's GUI tests (see ``gui_window.open_window``); a module
    that wants another one defines its own ``window``."""
    from gui_window import open_window

    from ui.saved.autosave import SaveStore

    w = open_window(SaveStore(tmp_path_factory.mktemp("saves")))
    yield w
    w.close()


@pytest.fixture
def tmp_path(tmp_path):
    """pytest's folder, readable by others: a root host's sealed seat runs as the user
    'nobody', which may read a bot's folder only as others may (pytest makes it private)."""
    tmp_path.chmod(0o755)
    return tmp_path
