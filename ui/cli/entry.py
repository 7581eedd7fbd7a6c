"""The ``cribbage`` command's entry point: Ctrl-C is an interruption from the first instant.

Python turns Ctrl-C into a KeyboardInterrupt, which the command answers (exit 130, one line) once
its modules are imported; while they import (numpy, the subcommand's modules: a second or so)
the exception would surface as a traceback. This module, which imports nothing of the project
and which the console script imports first, answers Ctrl-C itself until the command runs and
again once it has returned: nothing is being written then, so it leaves at once with 130.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted(signum: int, frame: object) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is sys.stderr:
                stream.write("cribbage: interrupted\n")
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(130)


def _answer_ctrl_c(handler=_interrupted) -> None:
    try:
        signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: the caller's handler stays
        pass


_answer_ctrl_c()  # the console script imports this module first: from here on


def main(argv: list[str] | None = None) -> int:
    """Run the ``cribbage`` command (``argv``: its arguments; default ``sys.argv[1:]``)."""
    _answer_ctrl_c()
    from .cli import main as command

    try:
        _answer_ctrl_c(signal.default_int_handler)  # the command's own handlers from here
        return command(argv)
    except KeyboardInterrupt:  # between the two handlers
        print("cribbage: interrupted", file=sys.stderr)
        return 130
    finally:
        _answer_ctrl_c()
