"""The Arcade window. Only modules in this package import Arcade.

``import arcade`` must come after :func:`prepare` so that headless runs (``ARCADE_HEADLESS=1``,
tests, screenshots) pick EGL before pyglet chooses a window system.
"""

from __future__ import annotations

import os


class DisplayUnavailable(RuntimeError):
    """No display to open a window on (and headless mode was not asked for)."""


def prepare(headless: bool = False) -> None:
    """Choose headless rendering before Arcade is imported, or check that a display exists."""
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"
        return
    if os.environ.get("ARCADE_HEADLESS"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and os.name == "posix":
        import sys

        if sys.platform.startswith("linux"):
            raise DisplayUnavailable(
                "no display found (DISPLAY is not set). Run it on a desktop, under "
                "`xvfb-run -a -s '-screen 0 1280x800x24' cribbage play`, or headless with "
                "ARCADE_HEADLESS=1 (e.g. with --autoplay N --screenshots DIR)."
            )
