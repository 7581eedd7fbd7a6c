"""Argument types shared by the ``cribbage`` subcommands: each refuses bad text with a message
that says what is allowed (argparse turns it into a usage error, exit 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole_number(minimum: int, what: str) -> Callable[[str], int]:
    """An argparse type for integers ``>= minimum``; ``what`` names them in the message.

    >>> whole_number(1, "a positive integer")("3")
    3
    >>> whole_number(1, "a positive integer")("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive integer, got '0'
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


positive_int = whole_number(1, "a positive integer")
seed = whole_number(0, "a non-negative integer seed")


def seconds(text: str) -> float:
    """A finite number of seconds, zero or more.

    >>> seconds("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value
