"""Policy-based inference from the opponent's plays: how likely each guess at its kept four makes
the cards it has laid this deal.

The opponent model (:mod:`agents.search.opponent_model`) weights a guess by how likely the opponent's
discard was. Its plays say more: a player holding a card that pairs the last one, or makes 15 or
31, usually lays it. Each of the opponent's past plays that had a choice is scored by a softmax
policy over the cards the guess says it held then (the ones it kept, less those laid before):
a card's score is the pegging heuristic both sides use in the search's play-outs
(:func:`agents.search.peg_search.rollout_card`: points now, avoid leaving 5 or 21, shed high cards),
divided by a temperature ``tau`` in points. A guess's weight is the product of the
probabilities of the cards actually laid. Scores depend on a card's rank alone, so each play
costs 13 evaluations, and the guesses are weighted with array lookups.

Only public information is used: the cards laid this deal, in order, and the guesses.

>>> from cribbage_env.rules.engine import new_game
>>> play_steps(new_game(1).view(0), opponent=1)
[]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.pegging import play_points_fast
from cribbage_env.rules.views import PlayerView

from .peg_search import DANGER_COUNTS

_RANKS = np.array(RANK[:52], dtype=np.intp)
_VALUE_OF_RANK = np.array([min(r + 1, 10) for r in range(13)])


@dataclass(frozen=True)
class PlayStep:
    """One past play of the opponent: the card it laid, how many of its own cards it had laid
    before, and the heuristic score of laying a card of each rank then (-inf: over 31)."""

    card: int
    laid_before: int
    scores: np.ndarray  # (13,)


def play_steps(view: PlayerView, opponent: int) -> list[PlayStep]:
    """The opponent's plays this deal with the count and sequence they were made at (a card that
    would pass 31 was laid after a new count began, as :func:`cribbage_env.unseen.determinize.held_above`
    rebuilds them)."""
    steps: list[PlayStep] = []
    seq: list[int] = []
    count, laid = 0, 0
    for p, card in view.played:
        if count + VALUE[card] > 31:
            seq, count = [], 0
        if p == opponent:
            steps.append(PlayStep(card, laid, _rank_scores(seq, count)))
            laid += 1
        seq.append(card)
        count += VALUE[card]
        if count == 31:
            seq, count = [], 0
    return steps


def _rank_scores(seq: list[int], count: int) -> np.ndarray:
    out = np.full(13, -np.inf)
    for r in range(13):
        total = count + int(_VALUE_OF_RANK[r])
        if total > 31:
            continue
        pts = play_points_fast([*seq, r], total)  # card r has rank r (clubs)
        out[r] = pts - DANGER_COUNTS.get(total, 0.0) + 0.01 * _VALUE_OF_RANK[r]
    return out


def play_log_likelihood(kept: np.ndarray, steps: list[PlayStep], tau: float) -> np.ndarray:
    """Log-probability, for each guess at the opponent's kept four (``kept``: ``(..., 4)`` card
    ids, its played cards among them), that a softmax-heuristic player (temperature ``tau``
    points) laid the cards of ``steps``; 0 where a play had no choice. Guesses that do not hold a
    laid card are not excluded here (the caller's consistency mask does that)."""
    out = np.zeros(kept.shape[:-1])
    if not steps or tau <= 0:
        return out
    ranks = _RANKS[kept]
    laid_cards = [s.card for s in steps]
    for s in steps:
        # Held then: the kept four less the opponent's cards laid before this one.
        held = np.ones(kept.shape, dtype=bool)
        for c in laid_cards[: s.laid_before]:
            held &= kept != c
        sc = s.scores[ranks] / tau  # (..., 4), -inf where over 31
        sc = np.where(held, sc, -np.inf)
        top = np.max(sc, axis=-1, keepdims=True)
        safe = np.where(np.isfinite(top), top, 0.0)
        with np.errstate(divide="ignore"):
            lse = np.log(np.sum(np.exp(sc - safe), axis=-1)) + safe[..., 0]
        chosen = s.scores[RANK[s.card]] / tau
        out += np.where(np.isfinite(lse), chosen - lse, 0.0)
    return out
