"""The cribbage command line and the Arcade game."""

from __future__ import annotations

from .moved import install_moved as _install_moved

# The flat layout's module paths (ui.controller, ui.cmd_play, ...) import for one more release.
_install_moved()
