"""Uniform random play over the legal actions."""

from __future__ import annotations

import numpy as np

from cribbage_env.rules.views import PlayerView


class RandomAgent:
    """Picks uniformly among the legal actions of its view."""

    name = "random"

    def __init__(self) -> None:
        self.spec = "random"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat} in phase {view.phase.value}")
        return legal[int(rng.integers(len(legal)))]
