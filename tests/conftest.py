"""Test-session setup that must precede every test module's imports.

Arcade picks its window system when it is first imported: headless (EGL) only if
``ARCADE_HEADLESS`` is set by then. A test module that imports Arcade early (for instance through
``pytest.importorskip("arcade")``) would otherwise fix a windowed Arcade for the whole session and
the GUI tests after it would skip, so the outcome depended on test order.
Subprocess tests that need it unset build their own environment.
"""

from __future__ import annotations

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")
