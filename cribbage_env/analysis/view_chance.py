"""A seat's winning chance from its own view: what an environment may report to a learner.

:func:`cribbage_env.equity.chance_now` plays out the *true* state (both hands, the crib): handed
to a learner it is a leak, since matching candidate worlds against it can single out the
opponent's hand. :func:`view_chance` sees only what the seat sees:

- over, 1 or 0; at a discard and between deals, the equity table at the scores (public);
- in the play, the mean over guesses of the hidden cards (uniform over the cards the seat has not
  seen, consistent with the opponent's go's: :func:`cribbage_env.unseen.determinize.uniform_guesses`)
  of a compiled play-out of the rest of the deal (:mod:`cribbage_env.kernels.fastsim`, the expert's
  rollout heuristic for both seats), each read from the table (:func:`play_chance`).

The guesses are drawn from a generator seeded by a hash of the view itself
(:func:`view_rng`), so the estimate is a function of the view: two states that look the same to
the seat give the same number, whatever the hidden cards are.

:func:`play_chance` is also the play-phase estimate of :func:`agents.coaching.chance.seat_chance` (the
table's winning-chance indicator), which brings its own guesses (the opponent model).

>>> from cribbage_env.rules.engine import new_game
>>> g = new_game(3)
>>> while g.phase is not Phase.PLAY:
...     g.apply(g.legal_actions()[0])
>>> v = g.view(0)
>>> view_chance(v) == view_chance(v), 0.0 < view_chance(v) < 1.0
(True, True)
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..equity import end_values, win_probability
from ..rules.core import Phase
from ..rules.views import PlayerView
from ..unseen.determinize import uniform_guesses

#: Guesses per estimate in the play.
SAMPLES = 32
#: Both seats' policy in the play-outs (the expert's rollout heuristic, compiled).
ROLLOUT = "heuristic"


def view_rng(view: PlayerView) -> np.random.Generator:
    """A generator that is a function of the view alone (BLAKE2b of its fields).

    >>> from cribbage_env.rules.engine import new_game
    >>> int(view_rng(new_game(3).view(0)).integers(99)) == int(view_rng(new_game(3).view(0)).integers(99))
    True
    """
    digest = hashlib.blake2b(repr(view).encode(), digest_size=32, person=b"cribbage-view")
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest.digest(), "little")))


def play_chance(
    view: PlayerView, opp_hands: np.ndarray, opp_discards: np.ndarray, policy: str = ROLLOUT
) -> float:
    """The mean winning chance of ``view``'s seat over play-outs of the deal, one per guess
    (``opp_hands[g]``, ``opp_discards[g]``), each read from the table at the deal's end (a game
    won inside the deal counts 1 or 0)."""
    from ..kernels.fastsim import play_out, states_from_view

    out = play_out(states_from_view(view, opp_hands, opp_discards), policy)
    chance = end_values(out.scores, out.winner, view.seat, 1 - view.dealer, view.rules.target)
    return float(chance.mean())


def view_chance(view: PlayerView, samples: int = SAMPLES) -> float:
    """``view``'s seat's winning chance from what it may know (see the module docstring)."""
    if view.winner is not None:
        return 1.0 if view.winner == view.seat else 0.0
    if view.phase is Phase.PLAY:
        pairs = uniform_guesses(view, view_rng(view), samples)
        k = view.opponent_cards_left
        hands = np.array([h for h, _ in pairs], dtype=np.int64).reshape(len(pairs), k)
        discards = np.array([d for _, d in pairs], dtype=np.int64)
        return play_chance(view, hands, discards)
    if view.phase is Phase.CUT_FOR_DEAL:  # no dealer yet: even by symmetry
        return 0.5
    me, opp = view.scores[view.seat], view.scores[1 - view.seat]
    return win_probability(me, opp, dealer=view.is_dealer, target=view.rules.target)
