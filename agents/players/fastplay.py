"""The agents' pegging policies on the engine path, next to the compiled simulator's.

:mod:`cribbage_env.kernels.fastsim` plays deals out in compiled code with kernels that mirror the
policies below; this module holds the engine-path reference those kernels are tested and
benchmarked against: a :class:`~cribbage_env.rules.engine.GameState` played forward by the Python
policies (the way ``agents.search.peg_search.play_out`` has always done it), random positions to test
them on, and the scoring events of an engine play-out in the simulator's format.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cribbage_env.rules.core import EventKind
from cribbage_env.rules.engine import GameState, new_game
from cribbage_env.rules.scoring import ScoreKind

from ..search.peg_search import rollout_card
from ..search.pegging import greedy_card
from .expectimax import ExpectimaxAgent

_EXPECTIMAX = ExpectimaxAgent()


def expectimax_card(g: GameState) -> int:
    """The expectimax agent's card from the mover's view (the expert's ``rollout=expectimax``)."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return _EXPECTIMAX._rank_cards(g.view(g.to_act))[0].card


def _greedy(g: GameState) -> int:
    return greedy_card(g.view(g.to_act))


#: Policy name -> engine-path policy ``f(state) -> card`` (the simulator's names).
ENGINE_POLICIES: dict[str, Callable[[GameState], int]] = {
    "heuristic": rollout_card,
    "greedy": _greedy,
    "expectimax": expectimax_card,
}
_KINDS = {
    EventKind.PLAY: 1,
    ScoreKind.GO: 2,
    ScoreKind.LAST_CARD: 3,
    "hand": 4,
    "crib": 5,
    ScoreKind.HIS_HEELS: 6,
}


def engine_play_out(
    g: GameState, policy: str | tuple[str, str] = "heuristic"
) -> list[tuple[int, int, int]]:
    """Play ``g`` (consumed) to the end of its deal with the engine; the scoring events as
    (kind, player, points) rows in the simulator's kinds (:data:`cribbage_env.kernels.simkernel.EV_PLAY`
    ...), points > 0 only."""
    names = (policy, policy) if isinstance(policy, str) else policy
    fns = [ENGINE_POLICIES[n] for n in names]
    start = g.event_count
    deal = g.deal_no
    while g.winner is None and g.deal_no == deal:
        g.apply(fns[g.to_act](g))
    out = []
    for e in g.events_since(start):
        pts = e.points
        if not pts or e.player is None:
            continue
        if e.kind is EventKind.PLAY:
            out.append((1, e.player, pts))
        elif e.kind is EventKind.SHOW:
            out.append((_KINDS[e.what], e.player, pts))
        elif e.kind is EventKind.SCORE and e.score_kind is not None:
            out.append((_KINDS[e.score_kind], e.player, pts))
    return out


def random_play_position(rng: np.random.Generator, near_end: float = 0.3) -> GameState:
    """A random position in the play: a random deal and discards, random scores (some within a
    deal's reach of 121, so play-outs end there), then a random number of random legal plays."""
    while True:
        g = new_game(int(rng.integers(2**62)))
        while g.phase.value != "play" and g.winner is None:
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
        if g.winner is not None:
            continue
        hi = 121 if rng.random() < near_end else 100
        lo = 95 if hi == 121 else 0
        scores = [int(rng.integers(lo, hi)) for _ in range(2)]
        g.scores_ = scores
        for _ in range(int(rng.integers(0, 8))):
            if g.phase.value != "play" or g.winner is not None:
                break
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
        if g.phase.value == "play" and g.winner is None:
            return g
