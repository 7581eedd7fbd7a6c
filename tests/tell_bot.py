"""A bot with a planted tell, for the exploiter's tests: its pegging order says whether it
still holds a five (importable as a spec, ``tests.tell_bot:FiveTell``)."""

from __future__ import annotations

import numpy as np

from agents.players.greedy import GreedyAgent
from agents.search.pegging import points_now
from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

FIVE = 4  # rank index of the five


def holds_five(cards) -> bool:
    return any(RANK[c] == FIVE for c in cards)


class FiveTell(GreedyAgent):
    """Greedy, but among the cards that score most now it lays its lowest while it holds a five
    (never the five itself unless it must) and its highest otherwise."""

    name = "five-tell"

    def __init__(self) -> None:
        self.spec = "tests.tell_bot:FiveTell"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is not Phase.PLAY:
            return super().act(view, rng)
        best = max(points_now(view, c) for c in view.legal_actions)
        top = [c for c in view.legal_actions if points_now(view, c) == best]
        if holds_five(view.hand):
            rest = [c for c in top if RANK[c] != FIVE] or top
            return min(rest, key=lambda c: (VALUE[c], c))
        return max(top, key=lambda c: (VALUE[c], c))
