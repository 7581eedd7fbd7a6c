"""``cribbage bench``: its options and their checks (``arguments``) and the command that plays
the tournament and reports it (``command``), a folder of their own so the command line's folder
keeps room for a new command."""

from .arguments import add_arguments
from .command import run

__all__ = ["add_arguments", "run"]
