"""A seat's winning chance from its own view, as the table's indicator shows it: at the seat's
decision the judge's best option (:func:`agents.coaching.judge.judge`, the hint's generator), so the
indicator, the hint and the review print one figure for one position."""

from __future__ import annotations

import numpy as np

from cribbage_env.analysis.view_chance import play_chance
from cribbage_env.equity import table_or_points, win_probability
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from .judge import DEFAULT_SAMPLES, ROLLOUT, guesses, judge, position_rng


def seat_chance(
    view: PlayerView, rng: np.random.Generator | None = None, samples: int = DEFAULT_SAMPLES
) -> float | None:
    """The winning chance of ``view``'s seat from what it may know (never the hidden cards), to
    a tenth of a percentage point, with the judge's generator for the position
    (:func:`position_rng`) unless ``rng`` is given. At its own decision (its discard, a play
    with a choice of ranks) it is the judge's best option: the hint's figure and the review's
    best chance there. Else play-outs on guessed hands in the play, the table between deals;
    None once its discard is made and the other's is not (no new card is known).

    >>> import cribbage_env as ce
    >>> from agents.coaching.judge import judge, position_rng
    >>> g = ce.new_game(3)
    >>> seat_chance(g.view(0)) == round(judge(g.view(0), position_rng(g.view(0)))[0].chance, 3)
    True
    """
    if view.winner is not None:
        return 1.0 if view.winner == view.seat else 0.0
    if not table_or_points(view.rules):
        return None
    rng = position_rng(view) if rng is None else rng
    play = view.phase is Phase.PLAY
    choice = play and len({RANK[c] for c in view.legal_actions}) > 1
    if (view.phase is Phase.DISCARD and not view.discards) or choice:
        return round(judge(view, rng, samples)[0].chance, 3)
    if play:
        return round(play_chance(view, *guesses(view, rng, samples), ROLLOUT), 3)
    if view.phase in (Phase.DISCARD, Phase.STARTER_CUT):
        return None
    if view.phase is Phase.CUT_FOR_DEAL:  # no dealer yet: even by symmetry
        return 0.5
    me, opp = view.scores[view.seat], view.scores[1 - view.seat]
    return win_probability(me, opp, dealer=view.is_dealer, target=view.rules)
