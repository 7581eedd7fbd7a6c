"""``cribbage train``: the command (``command``) and its options checked against a saved run
(``config``), a folder of their own so the command line's folder stays within its size."""

from .command import add_arguments, run

__all__ = ["add_arguments", "run"]
