"""``cribbage train``: its options (``arguments``), the command (``command``) and its options
checked against a saved run (``config``), a folder of their own so the command line's folder
stays within its size."""

from .arguments import add_arguments
from .command import run

__all__ = ["add_arguments", "run"]
