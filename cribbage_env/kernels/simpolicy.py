"""Compiled pegging policies for play-outs: the agents' heuristic, greedy and expectimax choices.

Each kernel picks the card the Python policy picks from the mover's own view of a
:mod:`cribbage_env.kernels.simkernel` state (the mover's hand, kept and discarded cards, the starter, the
cards played, the count and sequence, both scores, the number of cards the opponent holds):

- :func:`heuristic_card` = ``agents.search.peg_search.rollout_card`` (the expert's rollout policy);
- :func:`greedy_card` = ``agents.search.pegging.greedy_card`` (the ``greedy`` agent's play);
- :func:`expectimax_card` = ``agents.players.expectimax.ExpectimaxAgent._rank_cards`` with its default
  knobs (``counter=0.5, endgame=15``, heuristics on): ``rollout=expectimax`` in the expert.

The same floating-point operations in the same order, so ties break the same way; tests compare
every choice with the Python agents over random positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..unseen.determinize import none_in_hand
from .simkernel import (
    COUNT,
    DISCARDS,
    GO,
    HANDS,
    KEPT,
    NPLAYED,
    NSEQ,
    PLAYED,
    SCORES,
    SEQ,
    STARTER,
    TARGET,
    TO_ACT,
    legal_cards,
    play_points,
)

_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_VALUE = np.array([min(c % 13 + 1, 10) for c in range(52)], dtype=np.int64)
HEURISTIC, GREEDY, EXPECTIMAX = 0, 1, 2
#: The expectimax agent's default knobs (agents.players.expectimax.ExpectimaxAgent).
_COUNTER = 0.5
_ENDGAME = 15
_FIVE = 4


@njit(cache=True)
def _points_with(st, card, buf):
    """Play points of laying ``card`` now (R7), and the count it makes (the card is put in the
    scratch slot after the sequence, which a legal card always leaves free)."""
    n = st[NSEQ]
    st[SEQ + n] = card
    count = st[COUNT] + _VALUE[card]
    return play_points(st, SEQ, n + 1, count), count


@njit(cache=True)
def _cards_held(st, p):
    n = 0
    for i in range(4):
        if st[HANDS + 4 * p + i] >= 0:
            n += 1
    return n


@njit(cache=True)
def heuristic_card(st, legal, nlegal, buf):
    """Most points now, avoid leaving 5 or 21, then shed the higher card."""
    if nlegal == 1:
        return legal[0]
    best = legal[0]
    best_v = -1e9
    for j in range(nlegal):
        c = legal[j]
        pts, count = _points_with(st, c, buf)
        v = float(pts)
        if count == 5 or count == 21:
            v -= 0.6
        else:
            v -= 0.0
        v += _VALUE[c] * 0.01
        if v > best_v:
            best = c
            best_v = v
    return best


@njit(cache=True)
def _points_now(st, p, card, buf):
    pts, count = _points_with(st, card, buf)
    if _cards_held(st, p) == 1 and _cards_held(st, 1 - p) == 0 and count != 31:
        pts += 1
    return pts


@njit(cache=True)
def greedy_card(st, legal, nlegal, buf):
    """The card scoring most now; ties: lowest counting value, then lowest rank, then id."""
    p = st[TO_ACT]
    best = legal[0]
    bk = (-_points_now(st, p, best, buf), _VALUE[best], _RANK[best], best)
    for j in range(1, nlegal):
        c = legal[j]
        k = (-_points_now(st, p, c, buf), _VALUE[c], _RANK[c], c)
        if k < bk:
            best = c
            bk = k
    return best


_none_in_hand = njit(cache=True)(none_in_hand)  # the estimate's own function, compiled


@njit(cache=True)
def _unseen_ranks(st, p, counts):
    """Ranks of the cards seat ``p`` has not seen this deal; their number."""
    seen = np.zeros(52, dtype=np.bool_)
    for i in range(4):
        seen[st[KEPT + 4 * p + i]] = True
    seen[st[DISCARDS + 2 * p]] = True
    seen[st[DISCARDS + 2 * p + 1]] = True
    seen[st[STARTER]] = True
    for i in range(st[NPLAYED]):
        seen[st[PLAYED + i]] = True
    u = 0
    for r in range(13):
        counts[r] = 0
    for c in range(52):
        if not seen[c]:
            counts[_RANK[c]] += 1
            u += 1
    return u


@njit(cache=True)
def _reply_terms(st, card, rest, nrest, counts, u, k, buf, buf2):
    """(given_up, counter, go_chance) of laying ``card``: agents.search.pegging.expectimax_estimates."""
    count = st[COUNT] + _VALUE[card]
    n = st[NSEQ]
    for i in range(n):
        buf[i] = st[SEQ + i]
    buf[n] = card
    n += 1
    if count == 31:
        n = 0
        count = 0
    lim = 31 - count
    rp = np.zeros(13, dtype=np.int64)
    rb = np.zeros(13, dtype=np.int64)
    ok = np.zeros(13, dtype=np.bool_)
    playable = 0
    for r in range(13):
        nr = counts[r]
        if nr == 0 or _VALUE[r] > lim:
            continue
        c2 = count + _VALUE[r]
        for i in range(n):
            buf2[i] = buf[i]
        buf2[n] = r
        rp[r] = play_points(buf2, 0, n + 1, c2)
        best = 0
        if c2 < 31:
            for j in range(nrest):
                mine = rest[j]
                if _VALUE[mine] <= 31 - c2:
                    buf2[n + 1] = mine
                    q = play_points(buf2, 0, n + 2, c2 + _VALUE[mine])
                    if q > best:
                        best = q
        rb[r] = best
        ok[r] = True
        playable += nr
    go_chance = _none_in_hand(u, playable, k)
    given_up = 0.0
    counter = 0.0
    if playable > 0:
        prev = 0
        for t in range(1, 64):
            m = 0
            hit = False
            for r in range(13):
                if ok[r] and rp[r] >= t:
                    m += counts[r]
                    if rp[r] == t:
                        hit = True
            if m == 0:
                break
            if hit:
                given_up += (t - prev) * (1.0 - _none_in_hand(u, m, k))
                prev = t
        s = 0
        for r in range(13):
            if ok[r]:
                s += rb[r] * counts[r]
        counter = (1.0 - go_chance) * s / playable
    return given_up, counter, go_chance


@njit(cache=True)
def expectimax_card(st, legal, nlegal, buf):
    """One-ply expectimax with the expert tie-breaks and board weights (default knobs)."""
    if nlegal == 1:
        return legal[0]
    p = st[TO_ACT]
    counts = np.zeros(13, dtype=np.int64)
    u = _unseen_ranks(st, p, counts)
    k = _cards_held(st, 1 - p)
    blocked = st[GO + 1 - p] == 1 or k == 0
    me = st[SCORES + p]
    target = st[TARGET]
    w_own = 1.5 if me >= target - _ENDGAME else 1.0
    w_opp = 1.5 if st[SCORES + 1 - p] >= target - _ENDGAME else 1.0
    hand = np.empty(4, dtype=np.int64)
    nh = 0
    low_cards = 0
    for i in range(4):
        c = st[HANDS + 4 * p + i]
        if c >= 0:
            hand[nh] = c
            nh += 1
            if _VALUE[c] <= 4:
                low_cards += 1
    rest = np.empty(4, dtype=np.int64)
    buf2 = np.empty(16, dtype=np.int64)
    best = legal[0]
    best_v = -np.inf
    for j in range(nlegal):
        card = legal[j]
        now = _points_now(st, p, card, buf)
        nrest = 0
        for i in range(nh):
            if hand[i] != card:
                rest[nrest] = hand[i]
                nrest += 1
        given_up, counter, go_chance = 0.0, 0.0, 1.0
        if not blocked and u > 0:
            given_up, counter, go_chance = _reply_terms(
                st, card, rest, nrest, counts, u, k, buf, buf2
            )
        after = st[COUNT] + _VALUE[card]
        go_point = 0.0 if (after == 31 or (k == 0 and nrest == 0)) else go_chance
        h = 0.0
        if st[COUNT] == 0:
            for i in range(nrest):
                if _RANK[rest[i]] == _RANK[card]:
                    h += 0.15
                    break
            if _VALUE[card] < 5:
                h += 0.05
            if _RANK[card] == _FIVE:
                h += -0.15
        if after == 5 or after == 21:
            h += -0.10
        if _VALUE[card] <= 4 and low_cards == 1 and nh > 1:
            h += -0.10
        value = w_own * (now + _COUNTER * counter + go_point) - w_opp * given_up + h
        if me + now >= target:
            value += 1000.0
        if value > best_v or (
            value == best_v
            and (_VALUE[card] < _VALUE[best] or (_VALUE[card] == _VALUE[best] and card < best))
        ):
            best = card
            best_v = value
    return best


@njit(cache=True)
def choose(st, policy, legal, buf):
    """The card ``policy`` (HEURISTIC, GREEDY or EXPECTIMAX) lays for the player to act."""
    nlegal = legal_cards(st, legal)
    if policy == GREEDY:
        return greedy_card(st, legal, nlegal, buf)
    if policy == EXPECTIMAX:
        return expectimax_card(st, legal, nlegal, buf)
    return heuristic_card(st, legal, nlegal, buf)
