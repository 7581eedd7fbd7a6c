"""Games played by random legal decisions, for tests that need a game in some state."""

from __future__ import annotations

from typing import Any

import numpy as np

import cribbage_env as ce


def random_game(
    seed: int, rng: np.random.Generator, *, stop: int | None = None, **new_game: Any
) -> ce.GameState:
    """``ce.new_game(seed, **new_game)`` played by decisions drawn from ``rng`` until it is over
    (or has ``stop`` decisions)."""
    g = ce.new_game(seed, **new_game)
    while not g.is_over and (stop is None or len(g.decisions) < stop):
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return g
