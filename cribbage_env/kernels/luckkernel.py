"""Compiled values for the luck of a deal's cards and of its starter (:mod:`cribbage_env.analysis.luck`).

The value ``V`` of a deal's position, for seat 0, in winning chance and in points:

- after the starter (every card known): the rest of the deal played out by the heuristic
  policy for both seats (:mod:`cribbage_env.kernels.simpolicy`, the same kernels as
  :mod:`cribbage_env.kernels.fastsim`), then the equity table at the next deal's start (1 or 0 when
  someone reached the target inside the deal); in points, the deal's margin for seat 0;
- after the deal (twelve cards known, no discard yet): each seat discards the split with the best
  exact hand mean plus the crib table's term (the analyzer's ``net``), then the mean of the above
  over the starters given (all 40 unseen ones for the real deal; random ones for re-deals).

Any ``V`` keeps the luck unbiased; a better one only removes more variance.
This module imports numba (``import cribbage_env`` does not).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import simkernel as K
from .fastsim import run_deal


@njit(cache=True)
def _best_split(hand6, is_dealer, keep_index, tabs, totals, crib_t):
    """Index (0..14) of the split with the best hand mean + signed crib term."""
    K.split_hand_totals(hand6, keep_index, tabs, totals)
    best, best_v = 0, -1e18
    for s in range(15):
        a = hand6[0, _PAIR_A[s]]
        b = hand6[0, _PAIR_B[s]]
        suited = 1 if (a // 13) == (b // 13) else 0
        ra, rb = a % 13, b % 13
        crib = crib_t[0, ra, rb, suited] if is_dealer else -crib_t[1, ra, rb, suited]
        v = totals[0, s] / 46.0 + crib
        if v > best_v:
            best, best_v = s, v
    return best


_PAIRS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
_PAIR_A = _PAIRS[:, 0].copy()
_PAIR_B = _PAIRS[:, 1].copy()


@njit(cache=True)
def _value(st, work, starter, pols, ev, tabs, legal, buf, eq, m0):
    """(seat 0's winning chance, seat 0's deal margin) of ``st`` with ``starter`` turned: the
    mean over the play-outs of the policy pairs ``pols`` (rows: seat 0's, seat 1's)."""
    sv, sm = 0.0, 0.0
    for k in range(pols.shape[0]):
        work[:] = st
        work[K.STARTER] = starter
        if not K.heels(work, ev):
            run_deal(work, pols[k], ev, tabs, legal, buf)
        w = work[K.WINNER]
        a, b = work[K.SCORES], work[K.SCORES + 1]
        if w >= 0:
            v = 1.0 if w == 0 else 0.0
        elif work[K.DEALER] == 1:  # the next deal is dealt by seat 0
            v = eq[a, b]
        else:
            v = 1.0 - eq[b, a]
        sv += v
        sm += float(a - b - m0)
    return sv / pols.shape[0], sm / pols.shape[0]


@njit(cache=True)
def starter_values(states, starters, eq, tabs, pols, out):
    """``out[i, j]`` = (chance, margin) of the play-start state ``states[i]`` with the starter
    ``starters[i, j]``."""
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = np.zeros(4, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    work = np.empty(K.SIZE, dtype=np.int64)
    for i in range(states.shape[0]):
        st = states[i]
        m0 = st[K.SCORES] - st[K.SCORES + 1]
        for j in range(starters.shape[1]):
            v, m = _value(st, work, starters[i, j], pols, ev, tabs, legal, buf, eq, m0)
            out[i, j, 0] = v
            out[i, j, 1] = m


@njit(cache=True)
def _setup(st, hands, dealer, s0, s1, target, keep_index, tabs, totals, crib_t, hand6):
    """``st`` = the play's start after both seats' heuristic discards of ``hands`` (2 x 6)."""
    st[:] = -1
    for p in range(2):
        for j in range(6):
            hand6[0, j] = hands[p, j]
        s = _best_split(hand6, p == dealer, keep_index, tabs, totals, crib_t)
        for j in range(4):
            c = hand6[0, keep_index[s, j]]
            st[K.HANDS + 4 * p + j] = c
            st[K.KEPT + 4 * p + j] = c
        a, b = hand6[0, _PAIR_A[s]], hand6[0, _PAIR_B[s]]
        st[K.DISCARDS + 2 * p] = min(a, b)
        st[K.DISCARDS + 2 * p + 1] = max(a, b)
        off = 2 if p == dealer else 0
        st[K.CRIB + off] = min(a, b)
        st[K.CRIB + off + 1] = max(a, b)
    st[K.NSEQ] = 0
    st[K.COUNT] = 0
    st[K.GO] = 0
    st[K.GO + 1] = 0
    st[K.TO_ACT] = 1 - dealer
    st[K.SCORES] = s0
    st[K.SCORES + 1] = s1
    st[K.DEALER] = dealer
    st[K.WINNER] = -1
    st[K.TARGET] = target
    st[K.NPLAYED] = 0
    st[K.DONE] = 0
    st[K.NEVENTS] = 0


@njit(cache=True)
def deal_values(hands, starters, dealer, s0, s1, target, eq, crib_t, keep_index, tabs, pols, out):
    """``out[i]`` = mean (chance, margin) over ``starters[i]`` of the deal ``hands[i]`` (2 x 6,
    seat-major; dealer ``dealer[i]``, scores ``s0[i], s1[i]``) after both seats' heuristic
    discards."""
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = np.zeros(4, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    st = np.empty(K.SIZE, dtype=np.int64)
    work = np.empty(K.SIZE, dtype=np.int64)
    totals = np.zeros((1, 15), dtype=np.int64)
    hand6 = np.zeros((1, 6), dtype=np.int64)
    for i in range(hands.shape[0]):
        d, a, b = dealer[i], s0[i], s1[i]
        _setup(st, hands[i], d, a, b, target, keep_index, tabs, totals, crib_t, hand6)
        sv, sm = 0.0, 0.0
        n = starters.shape[1]
        for j in range(n):
            v, m = _value(st, work, starters[i, j], pols, ev, tabs, legal, buf, eq, a - b)
            sv += v
            sm += m
        out[i, 0] = sv / n
        out[i, 1] = sm / n
