"""The hidden cards of :mod:`cribbage_env.openspiel`'s states drawn anew: what ISMCTS's resampling
(:meth:`~cribbage_env.openspiel.state.CribbageState.resample_from_infostate`) and a state rebuilt
from a view (:meth:`~cribbage_env.openspiel.state.CribbageState.from_view`) replay.

Pure functions of what a seat knows and a generator, apart from the state so the draws read (and
test) on their own: each gives the actions to replay; the state replays them and keeps a draw
only when the seat's information comes out the same (the opponent's go's can contradict one).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..rules.core import Phase
from ..rules.engine import GameState
from ..rules.views import PlayerView

#: draws of the hidden cards before resampling gives up (a fitting world is found in a few).
MAX_DRAWS = 2000


def redrawn_history(
    g: GameState, hist: Sequence[tuple[tuple, int]], me: int, rng: np.random.Generator
) -> list[int] | None:
    """The actions of ``hist`` (``(tag, action)`` pairs; tags name the hidden items) with the
    opponent's unseen cards of the current deal, its discard picks among them, drawn anew among
    the cards seat ``me`` has not seen; None for a draw no play could make."""
    opp = 1 - me
    deal = g.deal_no
    mine = [a for tag, a in hist if tag[0] == "deal" and tag[1] == deal and tag[3] == me]
    slots = [
        i
        for i, (tag, _) in enumerate(hist)
        if tag[0] == "deal" and tag[1] == deal and tag[3] == opp
    ]
    picks = [
        i
        for i, (tag, _) in enumerate(hist)
        if tag[0] == "pick" and tag[1] == deal and tag[2] == opp
    ]
    played = [c for p, c in g.played if p == opp] if g.phase is Phase.PLAY else []
    seen = set(mine).union(played)
    if g.phase in (Phase.PLAY, Phase.GAME_OVER) and g.starter is not None:
        seen.add(g.starter)
    pool = sorted(set(range(52)) - seen)
    hidden = [int(c) for c in rng.permutation(pool)[: len(slots) - len(played)]]
    picked = sorted(hidden[: len(picks)])
    if len(picks) == 1 and picked[0] == max(hidden):
        return None  # a first pick is never the highest card (its second must be higher)
    cards = [*played, *hidden]
    rng.shuffle(cards)
    actions = [a for _, a in hist]
    for i, c in zip(slots, cards, strict=True):
        actions[i] = c
    for i, c in zip(picks, picked, strict=True):
        actions[i] = c
    return actions


def guessed_deal(
    view: PlayerView, rng: np.random.Generator
) -> tuple[list[int], list[int], list[int]]:
    """The view's seat's six cards of the deal, and a guess at the opponent's six (the cards it
    played, the rest drawn among the unseen cards, shuffled) and at its two discards (none
    before it discarded)."""
    opp = 1 - view.seat
    mine = list(view.own_cards_this_deal())
    opp_played = [c for p, c in view.played if p == opp]
    unseen = sorted(set(view.unseen_cards()) - set(opp_played))
    hidden = [int(c) for c in rng.permutation(unseen)[: 6 - len(opp_played)]]
    opp_six = [*opp_played, *hidden]
    rng.shuffle(opp_six)
    opp_discards = sorted(hidden[:2]) if view.opponent_discarded else []
    return mine, opp_six, opp_discards


def deal_actions(
    view: PlayerView, mine: Sequence[int], opp_six: Sequence[int], opp_discards: Sequence[int]
) -> tuple[list[int], list[int]]:
    """The actions that replay ``view``'s deal with these cards: the twelve dealt in order from
    the pone (they cannot fail), then the discard picks, the starter and the cards played (a
    guess the opponent's go's contradict fails among these)."""
    me, pone = view.seat, 1 - view.dealer
    six = {me: list(mine), 1 - me: list(opp_six)}
    dealt = [c for k in range(6) for c in (six[pone][k], six[1 - pone][k])]
    picks = {me: sorted(view.discards), 1 - me: list(opp_discards)}
    rest = [*picks[pone], *picks[1 - pone]]
    if view.starter is not None:
        rest.append(view.starter)
    rest.extend(card for _, card in view.played)
    return dealt, rest
