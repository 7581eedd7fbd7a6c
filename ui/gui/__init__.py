"""The Arcade window. Only modules in this package import Arcade.

``import arcade`` must come after :func:`prepare` so that headless runs (``ARCADE_HEADLESS=1``,
tests, screenshots) pick EGL before pyglet chooses a window system.
"""

from __future__ import annotations

import os
import sys

from ..errors import UIError

#: No glGetError after every GL call (pyglet's debug default): the table makes ~600 GL calls a
#: frame and the checks were a third of its Python time. ``PYGLET_DEBUG_GL=1`` turns
#: them back on; it must be set before pyglet is imported, which this package does first.
os.environ.setdefault("PYGLET_DEBUG_GL", "0")
#: The table's sounds are WAV files (pyglet's own decoder): pyglet's FFmpeg decoders are never
#: used, and loading the FFmpeg libraries when Arcade is imported cost about a tenth of the
#: launch's CPU time before the start screen. A module set to None is one Python cannot import,
#: which pyglet takes as "no FFmpeg".
sys.modules.setdefault("pyglet.media.codecs.ffmpeg_lib", None)  # type: ignore[arg-type]


class DisplayUnavailable(UIError, RuntimeError):
    """No display to open a window on (and headless mode was not asked for)."""


def prepare(headless: bool = False) -> None:
    """Choose headless rendering before Arcade is imported, or check that a display exists.

    An interactive window needs a display: with ``ARCADE_HEADLESS`` set (and ``headless`` not
    asked for) nobody could see or click it, so that is refused too.
    """
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"
        return
    if os.environ.get("ARCADE_HEADLESS"):
        raise DisplayUnavailable(
            "ARCADE_HEADLESS is set, so a window would be invisible. Unset it to play, or run "
            "headless with --autoplay N --screenshots DIR."
        )
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and os.name == "posix":
        import sys

        if sys.platform.startswith("linux"):
            raise DisplayUnavailable(
                "no display found (DISPLAY is not set). Run it on a desktop or under "
                "`xvfb-run -a -s '-screen 0 1280x800x24' cribbage play`; without a display, "
                "`cribbage play --autoplay N --screenshots DIR` plays headless."
            )
