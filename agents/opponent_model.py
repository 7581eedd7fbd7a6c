"""Opponent model for the expert's guesses: the opponent chose its discard with the analyzer.

A guess at the opponent's hidden cards is not a uniform draw from the unseen cards: its four kept
cards were chosen from six by (something like) the discard analyzer. The posterior is sampled
exactly for a softmax-analyzer opponent: draw the unknown part of its six dealt cards uniformly
from the unseen cards (its played cards are known members), compute the analyzer's net value of
all 15 splits (exact hand EV over its 46 unseen starters ± the crib table, batched over many hands
at once), weight each split by ``softmax(net / tau)``, and keep only splits that agree with what it
has shown (the cards it played were kept; its go's). Each six-card draw is then resampled by the
probability mass of its consistent splits (importance resampling) and a split is drawn within it.
``tau`` small (0.5 points) models an analyzer-like player; large ``tau`` tends to uniform guesses.
"""

from __future__ import annotations

import numpy as np

from cribbage_env.batch import _FLAT, _FLUSH, _HI_MAP, _LO_MAP, KEY_HI, KEY_LO, RANK_ARR, SUIT_ARR
from cribbage_env.cards import JACK, VALUE
from cribbage_env.discard import DISCARD_INDEX, KEEP_INDEX, CribTable, default_crib_table
from cribbage_env.scoring import NOBS_POINTS
from cribbage_env.views import PlayerView

_ALL = np.arange(52, dtype=np.intp)
_IS_JACK = RANK_ARR == JACK
#: Rank r's key parts (every suit of a rank has the same key).
_RANK_KEY_LO = KEY_LO[:13]
_RANK_KEY_HI = KEY_HI[:13]


def split_nets(hands6: np.ndarray, dealer: bool, table: CribTable | None = None) -> np.ndarray:
    """Analyzer net value (hand EV over the 46 starters ± crib table) of the 15 splits of each of
    ``N`` six-card hands, shape ``(N, 15)``, in :data:`DISCARD_INDEX` order (the same numbers as
    :func:`cribbage_env.discard.discard_values`, batched)."""
    t = default_crib_table() if table is None else table
    h = np.asarray(hands6, dtype=np.intp)
    n = h.shape[0]
    rows = np.arange(n)[:, None]
    keep = h[:, KEEP_INDEX]  # (N, 15, 4)
    # Fifteens, pairs and runs depend on the starter's rank only: sum over the 13 ranks, each
    # weighted by how many of its cards are among the 46 starters this hand cannot see.
    left = np.full((n, 13), 4, dtype=np.int64)
    np.subtract.at(left, (np.repeat(rows, 6, axis=1), RANK_ARR[h]), 1)
    lo = KEY_LO[keep].sum(axis=2)[:, :, None] + _RANK_KEY_LO[None, None, :]
    hi = KEY_HI[keep].sum(axis=2)[:, :, None] + _RANK_KEY_HI[None, None, :]
    # Five of a kind is impossible (left == 0 there): clip its lookup, it weighs nothing.
    pts = _FLAT[np.take(_LO_MAP, lo, mode="clip") + np.take(_HI_MAP, hi, mode="clip")]
    total = (pts * left[:, None, :]).sum(axis=2).astype(np.float64)  # (N, 15)
    # Flush (R6.5, hand): 4 for every starter, 5 for the unseen starters of the same suit.
    suit_left = np.full((n, 4), 13, dtype=np.int64)
    np.subtract.at(suit_left, (np.repeat(rows, 6, axis=1), SUIT_ARR[h]), 1)
    ksuit = SUIT_ARR[keep].astype(np.intp)
    flush4 = (ksuit == ksuit[:, :, :1]).all(axis=2)
    total += flush4 * (
        _FLUSH[0][1] * 46 + (_FLUSH[0][2] - _FLUSH[0][1]) * suit_left[rows, ksuit[:, :, 0]]
    )
    # Nobs (R6.6): a kept jack scores with every unseen starter of its suit.
    total += (_IS_JACK[keep] * suit_left[rows[:, :, None], ksuit]).sum(axis=2) * NOBS_POINTS
    ev = total / 46.0
    disc = h[:, DISCARD_INDEX]  # (N, 15, 2)
    r = RANK_ARR[disc]
    suited = (SUIT_ARR[disc[:, :, 0]] == SUIT_ARR[disc[:, :, 1]]).astype(np.intp)
    if dealer:
        crib = t.dealer[r[:, :, 0], r[:, :, 1], suited]
    else:
        crib = -t.pone[r[:, :, 0], r[:, :, 1], suited]
    return ev + crib


def sample_modelled_guesses(
    view: PlayerView,
    rng: np.random.Generator,
    n: int,
    tau: float = 0.5,
    oversample: int = 4,
    table: CribTable | None = None,
) -> list[tuple[list[int], list[int]]]:
    """``n`` guesses (opponent's unplayed cards, its two discards) from the posterior of a
    softmax-analyzer opponent given its plays and go's this deal (see the module docstring).
    Falls back to uniform-split guesses if no draw is consistent (a non-analyzer opponent)."""
    opp = 1 - view.seat
    played = [c for p, c in view.played if p == opp]
    unseen = np.array(view.unseen_cards(), dtype=np.intp)
    need = 6 - len(played)
    m = max(n * oversample, 8)
    # m uniform draws of the unknown part of the opponent's six cards.
    draws = np.argsort(rng.random((m, unseen.size)), axis=1)[:, :need]
    hands6 = np.concatenate(
        [np.tile(np.array(played, dtype=np.intp), (m, 1)), unseen[draws]], axis=1
    )
    nets = split_nets(hands6, view.dealer == opp, table)
    logits = (nets - nets.max(axis=1, keepdims=True)) / max(tau, 1e-9)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    # Consistency of each split: played cards (positions 0..len(played)-1) were kept...
    valid = np.ones((m, 15), dtype=bool)
    for i in range(len(played)):
        valid &= (DISCARD_INDEX != i).all(axis=1)[None, :]
    # ...and the unplayed kept cards fit its go's.
    lims = [31 - c for pl, c in view.goes if pl == opp]
    if lims:
        lim = min(lims)
        low = np.array([VALUE[c] <= lim for c in range(52)])
        kept = hands6[:, KEEP_INDEX]  # (N, 15, 4)
        held = np.ones_like(kept, dtype=bool)
        for i in range(len(played)):
            held &= kept != played[i]
        valid &= ~(low[kept] & held).any(axis=2)
    pv = p * valid
    mass = pv.sum(axis=1)
    total = mass.sum()
    if total <= 0:
        pv = valid.astype(np.float64)
        mass = pv.sum(axis=1)
        total = mass.sum()
        if total <= 0:
            return []
    rows = rng.choice(m, size=n, replace=True, p=mass / total)
    out = []
    played_set = set(played)
    for row in rows:
        split = int(rng.choice(15, p=pv[row] / mass[row]))
        hand6 = hands6[row]
        keep = [int(c) for c in hand6[KEEP_INDEX[split]] if int(c) not in played_set]
        disc = [int(c) for c in hand6[DISCARD_INDEX[split]]]
        out.append((keep, disc))
    return out


def sample_opponent_deals(
    view: PlayerView,
    rng: np.random.Generator,
    n: int,
    tau: float = 0.5,
    table: CribTable | None = None,
) -> list[tuple[list[int], list[int], int]]:
    """At the discard: ``n`` guesses (opponent's kept four, its two discards, the starter) with
    the opponent's split drawn from ``softmax(net / tau)`` of its six cards (``tau <= 0``: a
    uniformly random split)."""
    own = set(view.own_cards_this_deal())
    unseen = np.array([c for c in range(52) if c not in own], dtype=np.intp)
    draws = unseen[np.argsort(rng.random((n, unseen.size)), axis=1)[:, :7]]
    hands6, starters = draws[:, :6], draws[:, 6]
    if tau > 0:
        nets = split_nets(hands6, view.dealer != view.seat, table)
        p = np.exp((nets - nets.max(axis=1, keepdims=True)) / tau)
        p /= p.sum(axis=1, keepdims=True)
    else:
        p = np.full((n, 15), 1 / 15)
    out = []
    for i in range(n):
        split = int(rng.choice(15, p=p[i]))
        out.append(
            (
                [int(c) for c in hands6[i, KEEP_INDEX[split]]],
                [int(c) for c in hands6[i, DISCARD_INDEX[split]]],
                int(starters[i]),
            )
        )
    return out
