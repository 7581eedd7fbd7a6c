"""Determinized Monte Carlo search for pegging decisions (the expert tier's play).

For each sampled guess at the opponent's hidden cards (consistent with its go's), every candidate
card is played out to the end of the deal with the real engine (rollouts use a fast heuristic for
both sides), and scored by the point margin gained, or by a win/loss when the game ends. The same
guesses are used for every candidate (common random numbers), so differences are not noise from
the sampling.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribbage_env.cards import VALUE
from cribbage_env.determinize import consistent_with_goes, determinize
from cribbage_env.engine import GameState
from cribbage_env.scoring import KEY, RANK_POINTS, play_points_fast
from cribbage_env.views import PlayerView

#: Utility of a game won or lost inside a rollout, in points of margin.
WIN_UTILITY = 1000.0
#: Rollout tie-break: leaving the count at 5 or 21 invites a ten-card for 15 or 31.
DANGER_COUNTS = {5: 0.6, 21: 0.6}


def rollout_card(g: GameState) -> int:
    """The heuristic both sides use inside rollouts: most points now, avoid 5 and 21, then
    shed the higher card (keeping low cards for the go)."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best, best_v = legal[0], -1e9
    seq = g.seq
    for c in legal:
        count = g.count + VALUE[c]
        seq.append(c)
        v = play_points_fast(seq, count)
        seq.pop()
        v -= DANGER_COUNTS.get(count, 0.0)
        v += VALUE[c] * 0.01
        if v > best_v:
            best, best_v = c, v
    return best


def play_out(g: GameState, seat: int, card: int) -> float:
    """Lay ``card`` and play the deal to its end; the seat's margin gained (or the win/loss
    utility). ``g`` is consumed."""
    start = g.scores_[seat] - g.scores_[1 - seat]
    deal = g.deal_no
    g.apply(card)
    while g.winner is None and g.deal_no == deal:
        g.apply(rollout_card(g))
    margin = g.scores_[seat] - g.scores_[1 - seat] - start
    if g.winner is not None:
        return margin + (WIN_UTILITY if g.winner == seat else -WIN_UTILITY)
    return float(margin)


def kept_weight(kept4: list[int], beta: float) -> float:
    """How likely a player kept these four cards: players keep fifteens, pairs and runs, so a
    guess is weighted by exp(beta * points the four cards make on their own)."""
    return float(np.exp(beta * RANK_POINTS[KEY[kept4[0]] + KEY[kept4[1]] + KEY[kept4[2]] + KEY[kept4[3]]]))


def sample_guesses(view: PlayerView, rng: np.random.Generator, n: int, beta: float = 0.0,
                   oversample: int = 4, max_tries: int = 20) -> list[tuple[list[int], list[int]]]:
    """``n`` guesses (opponent's unplayed cards, opponent's two discards) drawn from the unseen
    cards, rejecting hands its go's rule out; with ``beta > 0`` drawn ``oversample`` times as many
    and resampled by :func:`kept_weight` (the opponent kept its cards for a reason)."""
    if beta <= 0:
        return _uniform_guesses(view, rng, n, max_tries)
    pool = _uniform_guesses(view, rng, n * oversample, max_tries)
    opp = 1 - view.seat
    played = [c for p, c in view.played if p == opp]
    w = np.array([kept_weight(played + hand, beta) for hand, _ in pool])
    idx = rng.choice(len(pool), size=n, replace=True, p=w / w.sum())
    return [pool[i] for i in idx]


def _uniform_guesses(view: PlayerView, rng: np.random.Generator, n: int,
                     max_tries: int) -> list[tuple[list[int], list[int]]]:
    unseen = np.array(view.unseen_cards())
    k = view.opponent_cards_left
    own_discards = set(view.discards)
    guesses = []
    for _ in range(n):
        for _try in range(max_tries):
            pick = rng.permutation(unseen)[: k + 2].tolist()
            hand, disc = pick[:k], pick[k:]
            if consistent_with_goes(view, hand):
                break
        else:
            # Rare: go constraints leave few hands; fall back to the lowest-value legal guess.
            pool = sorted(unseen.tolist(), key=VALUE.__getitem__, reverse=True)
            hand, disc = pool[:k], [c for c in pool[k:] if c not in own_discards][:2]
        guesses.append((hand, disc))
    return guesses


@dataclass(frozen=True)
class SearchEstimate:
    card: int
    value: float  # mean utility over the guesses
    samples: int


def search_play(view: PlayerView, rng: np.random.Generator, sims: int,
                beta: float = 0.0) -> list[SearchEstimate]:
    """Estimates for every legal card, best first."""
    legal = list(view.legal_actions)
    if len(legal) == 1:
        return [SearchEstimate(legal[0], 0.0, 0)]
    totals = dict.fromkeys(legal, 0.0)
    guesses = sample_guesses(view, rng, sims, beta)
    for hand, disc in guesses:
        base = determinize(view, hand, disc)
        for c in legal:
            totals[c] += play_out(base.clone(), view.seat, c)
    n = len(guesses)
    ests = [SearchEstimate(c, totals[c] / n, n) for c in legal]
    ests.sort(key=lambda e: (-e.value, VALUE[e.card]))
    return ests
