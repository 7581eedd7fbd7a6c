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

from functools import lru_cache

import numpy as np

from cribbage_env.analysis.discard import DISCARD_INDEX, KEEP_INDEX, CribTable, default_crib_table
from cribbage_env.rules.cards import VALUE
from cribbage_env.rules.views import PlayerView
from cribbage_env.unseen.batch import RANK_ARR, SUIT_ARR
from cribbage_env.unseen.determinize import held_above


def split_nets(hands6: np.ndarray, dealer: bool, table: CribTable | None = None) -> np.ndarray:
    """Analyzer net value (hand EV over the 46 starters ± crib table) of the 15 splits of each of
    ``N`` six-card hands, shape ``(N, 15)``, in :data:`DISCARD_INDEX` order (the same numbers as
    :func:`cribbage_env.analysis.discard.discard_values`, batched; the hand totals are compiled)."""
    from cribbage_env.kernels.interpreted import runner
    from cribbage_env.kernels.simkernel import split_hand_totals

    h = np.ascontiguousarray(hands6, dtype=np.int64)
    totals = np.empty((h.shape[0], 15), dtype=np.int64)
    runner(split_hand_totals)(h, _KEEP, _sim_tables(), totals)
    disc = h[:, DISCARD_INDEX]  # (N, 15, 2)
    crib = _pair_crib(table, dealer)[disc[:, :, 0], disc[:, :, 1]]
    return totals / 46.0 + crib


def _pair_crib(table: CribTable | None, dealer: bool) -> np.ndarray:
    """The crib table by card pairs, ``(52, 52)``, signed for the discarding seat (the
    dealer's own crib +, the pone's -): one lookup per split instead of ranks and suits."""
    if table is None:
        return _default_pair_crib(dealer)
    r, s = RANK_ARR.astype(np.intp), SUIT_ARR.astype(np.intp)
    suited = (s[:, None] == s[None, :]).astype(np.intp)
    if dealer:
        return table.dealer[r[:, None], r[None, :], suited]
    return -table.pone[r[:, None], r[None, :], suited]


@lru_cache(maxsize=2)
def _default_pair_crib(dealer: bool) -> np.ndarray:
    return _pair_crib(default_crib_table(), dealer)


_KEEP = np.ascontiguousarray(KEEP_INDEX, dtype=np.int64)
#: ``_KEEPS_FIRST[k][j]``: split ``j`` keeps the first ``k`` of the six cards.
_KEEPS_FIRST: list[np.ndarray] = [np.all(DISCARD_INDEX >= k, axis=1) for k in range(7)]
_VALUES = np.array(VALUE[:52])


@lru_cache(maxsize=1)
def _sim_tables():
    from cribbage_env.kernels.simkernel import tables

    return tables()


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
    arrays = sample_modelled_arrays(view, rng, n, tau, oversample, table)
    if arrays is None:
        return []
    hands, discs = arrays
    return [(h, d) for h, d in zip(hands.tolist(), discs.tolist(), strict=True)]


def sample_modelled_arrays(
    view: PlayerView,
    rng: np.random.Generator,
    n: int,
    tau: float = 0.5,
    oversample: int = 4,
    table: CribTable | None = None,
    play_tau: float = 0.0,
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`sample_modelled_guesses` as arrays: the guessed unplayed cards ``(n, k)`` and
    discards ``(n, 2)`` (the same draws from the same generator), or None. With ``play_tau > 0``
    a split is also weighted by how likely it makes the opponent's plays this deal
    (:func:`agents.search.inference.play_log_likelihood`, temperature ``play_tau`` points)."""
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
    valid = np.repeat(_KEEPS_FIRST[len(played)][None, :], m, axis=0)
    # ...and the unplayed kept cards fit its go's (every one of them: the highest limit).
    lim = held_above(view, opp)
    if lim > 0:
        low = _VALUES <= lim
        kept = hands6[:, KEEP_INDEX]  # (N, 15, 4)
        held = np.ones_like(kept, dtype=bool)
        for i in range(len(played)):
            held &= kept != played[i]
        valid &= ~(low[kept] & held).any(axis=2)
    pv = p * valid
    if play_tau > 0 and played:
        from .inference import play_log_likelihood, play_steps

        ll = play_log_likelihood(hands6[:, KEEP_INDEX], play_steps(view, opp), play_tau)
        pv = pv * np.exp(ll - ll.max())
    mass = pv.sum(axis=1)
    total = mass.sum()
    if total <= 0:
        pv = valid.astype(np.float64)
        mass = pv.sum(axis=1)
        total = mass.sum()
        if total <= 0:
            return None
    rows = rng.choice(m, size=n, replace=True, p=mass / total)
    # One split per guess, drawn for all guesses at once as rng.choice(15, p=...) would.
    split = _draw_rows(pv[rows] / mass[rows][:, None], rng.random(n))
    chosen = hands6[rows]
    idx = np.arange(n)[:, None]
    # Played cards sit first in the six and every consistent split keeps them (in order).
    keep = chosen[idx, KEEP_INDEX[split]][:, len(played) :]
    disc = chosen[idx, DISCARD_INDEX[split]]
    return keep.astype(np.int64), disc.astype(np.int64)


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
    keep, disc, starters = sample_opponent_deal_arrays(view, rng, n, tau, table)
    return list(zip(keep.tolist(), disc.tolist(), starters.tolist(), strict=True))


def sample_opponent_deal_arrays(
    view: PlayerView,
    rng: np.random.Generator,
    n: int,
    tau: float = 0.5,
    table: CribTable | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`sample_opponent_deals` as arrays (kept ``(n, 4)``, discards ``(n, 2)``, starters
    ``(n,)``): the same draws from the same generator."""
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
    split = _draw_rows(p, rng.random(n))
    idx = np.arange(n)[:, None]
    keep = hands6[idx, KEEP_INDEX[split]].astype(np.int64)
    return keep, hands6[idx, DISCARD_INDEX[split]].astype(np.int64), starters.astype(np.int64)


def _draw_rows(p: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Row ``i``'s draw from ``p[i]`` with the uniform ``u[i]``, as ``rng.choice(len(p[i]),
    p=p[i])`` makes it (normalized cumulative sum, searched to the right): one call drawing
    ``u = rng.random(n)`` gives what ``n`` such calls in a row give."""
    cdf = np.cumsum(p, axis=1)
    cdf /= cdf[:, -1:]
    return (cdf <= u[:, None]).sum(axis=1)
