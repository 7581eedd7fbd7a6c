"""The caps on sizes a person (or a file) may ask for, in one table.

Each is far above any real study and low enough that a typo or a hostile file cannot fork
hundreds of processes or run for a year: the command line refuses more (exit 2, see
``ui.cli.args.argtypes.limited``), and the library refuses it again where a file's value could enter.
"""

from __future__ import annotations

import os

from ..errors import AgentError

#: name -> the largest value allowed (all are positive integers).
LIMITS: dict[str, int] = {
    "games": 10_000_000,  # games in one tournament run (all pairings)
    "deals": 10_000_000,  # discards: paired deals in one comparison
    "shards": 100_000,  # train: data shards per generation
    "games_per_shard": 10_000,  # train: games per data shard
    "epochs": 1_000,  # train: epochs of a fit
    "generations": 1_000,  # train: DMC generations
    "samples": 10_000,  # review / stats: guesses of the hidden cards per decision
    "candidates": 15,  # review: discard splits rated (a hand has 15)
}


class LimitError(AgentError, ValueError):
    """A size over its cap in :data:`LIMITS` (or more workers than :func:`max_workers`)."""


def max_workers() -> int:
    """The most local workers a run may ask for: 4 per core (at least 8); more only thrash."""
    return max(8, 4 * (os.cpu_count() or 1))


def check_limit(name: str, value: object) -> int:
    """``value`` if it is an integer from 1 to the cap of ``name``, else :class:`LimitError`.

    >>> check_limit("epochs", 3)
    3
    >>> check_limit("epochs", 10**6)
    Traceback (most recent call last):
    ...
    agents.tournament.limits.LimitError: epochs must be an integer from 1 to 1000, got 1000000
    """
    top = max_workers() if name == "workers" else LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise LimitError(f"{name} must be an integer from 1 to {top}, got {value!r}")
    return value
