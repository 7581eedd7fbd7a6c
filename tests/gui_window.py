"""A headless Arcade window for the GUI tests: no delays, no threads, motion only if asked."""

from __future__ import annotations

import os

import pytest

from ui.saved.autosave import SaveStore


def open_window(store: SaveStore, motion: bool = False):
    """A headless window without delays or threads (skips when there is no GL)."""
    os.environ["ARCADE_HEADLESS"] = "1"  # before the first import of arcade
    pytest.importorskip("arcade")
    from ui.gui.app import GameWindow, Settings

    try:
        return GameWindow(
            settings=Settings(computer_delay=0.0, show_delay=0.0, threaded=False, motion=motion),
            store=store,
        )
    except Exception as exc:  # noqa: BLE001 - no EGL/GL on this machine
        pytest.skip(f"cannot open a headless Arcade window: {exc}")
