"""Compiled whole games for the batched env: deals, discards, the cut, the play, the show, the
``random`` / ``greedy`` opponent and the learner's observation, for many games per call.

The state of one game is a :mod:`cribbage_env.simkernel` state (the play and the show run on its
kernels) extended by the fields below. Decks come from the engine's own chance
(:class:`cribbage_env.chance.Chance`): blocks of 16 shuffled decks that the env loads before a
game needs them (a kernel pauses a game that reaches a deal beyond its loaded block). The
observation is :func:`cribbage_env.encoding.encode` of the learner's view, written straight into
the batch; tests compare every observation, mask and reward with :class:`CribbageEnv`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import encoding as E
from . import simkernel as K
from .simpolicy import greedy_card
from .simrng import borrow_words, integers

# Fields after the simulator state.
PHASE = K.SIZE  # 0 discard, 1 play, 2 game over
DEAL_NO = K.SIZE + 1
HAND6 = K.SIZE + 2  # 2 x 6 dealt cards, -1 once discarded (the discard phase's hands)
PENDING = K.SIZE + 14  # the learner's first discard pick (-1: none)
SEAT = K.SIZE + 15  # the learner's seat
MARGIN = K.SIZE + 16  # learner's margin at its previous decision (points rewards)
OPPONENT = K.SIZE + 17  # 0 random, 1 greedy
FIRST_DEALER = K.SIZE + 18  # dealer of deal 0 (one-deal episodes end with its view)
DEAL_EPISODE = K.SIZE + 19  # 1: the episode is one deal
NEED_BLOCK = K.SIZE + 20  # deck block a paused game waits for (-1: not paused)
BLOCK = K.SIZE + 21  # deck block loaded
SIZE = K.SIZE + 22
DISCARD_PHASE, PLAY_PHASE, OVER_PHASE = 0, 1, 2
RANDOM, GREEDY = 0, 1
DEALS_PER_BLOCK = 16

_VALUE = np.array([min(c % 13 + 1, 10) for c in range(52)], dtype=np.int64)
_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_PAIRS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
_KEEP = np.array([[k for k in range(6) if k not in p] for p in _PAIRS], dtype=np.int64)
_HAND, _PENDING, _DISCARDS, _KEPT = E._HAND, E._PENDING, E._DISCARDS, E._KEPT
_STARTER, _SEQ, _OWN, _OPP, _RECENT = E._STARTER, E._SEQ, E._PLAYED_OWN, E._PLAYED_OPP, E._RECENT
_PH, _FL, _REAL = E._PHASE, E._FLAGS, E._REAL


@njit(cache=True)
def start_deal(st, decks):
    """R3: the deal passes to the other player and six cards each are dealt, alternately from
    the pone; False (the game paused, NEED_BLOCK set) when that deal's deck is not loaded."""
    nxt = st[DEAL_NO] + 1
    if nxt // DEALS_PER_BLOCK != st[BLOCK]:
        st[NEED_BLOCK] = nxt // DEALS_PER_BLOCK
        return False
    st[DEAL_NO] = nxt
    dealer = 1 - st[K.DEALER]
    st[K.DEALER] = dealer
    deck = decks[nxt % DEALS_PER_BLOCK]
    for i in range(6):
        st[HAND6 + 6 * (1 - dealer) + i] = deck[2 * i]
        st[HAND6 + 6 * dealer + i] = deck[2 * i + 1]
    for i in range(8):
        st[K.HANDS + i] = -1
        st[K.KEPT + i] = -1
    for i in range(4):
        st[K.DISCARDS + i] = -1
        st[K.CRIB + i] = -1
    st[K.STARTER] = -1
    st[K.NSEQ] = 0
    st[K.COUNT] = 0
    st[K.LAST] = -1
    st[K.GO] = 0
    st[K.GO + 1] = 0
    st[K.NPLAYED] = 0
    st[K.DONE] = 0
    st[K.PLAY_SCORES] = -1
    st[K.PLAY_SCORES + 1] = -1
    st[PHASE] = DISCARD_PHASE
    st[K.TO_ACT] = 1 - dealer
    return True


@njit(cache=True)
def discard(st, p, a, b, decks, ev):
    """R4: seat ``p`` lays cards ``a < b`` away; after the dealer's, the starter is cut (R5)."""
    n = 0
    for i in range(6):
        c = st[HAND6 + 6 * p + i]
        if c != a and c != b:
            st[K.HANDS + 4 * p + n] = c
            st[K.KEPT + 4 * p + n] = c
            n += 1
        st[HAND6 + 6 * p + i] = -1
    st[K.DISCARDS + 2 * p] = a
    st[K.DISCARDS + 2 * p + 1] = b
    dealer = st[K.DEALER]
    off = 2 if p == dealer else 0  # the pone discards first
    st[K.CRIB + off] = a
    st[K.CRIB + off + 1] = b
    if p != dealer:
        st[K.TO_ACT] = dealer
        return
    st[K.STARTER] = decks[st[DEAL_NO] % DEALS_PER_BLOCK, 12]
    if K.heels(st, ev):
        st[PHASE] = OVER_PHASE
        return
    st[PHASE] = PLAY_PHASE
    st[K.TO_ACT] = 1 - dealer


@njit(cache=True)
def lay(st, card, ev, tabs):
    K.lay(st, card, ev, tabs)
    if st[K.WINNER] >= 0:
        st[PHASE] = OVER_PHASE


@njit(cache=True)
def _opponent_move(st, rng, decks, ev, tabs, keep_index, totals, legal, buf):
    p = st[K.TO_ACT]
    if st[PHASE] == DISCARD_PHASE:
        if st[OPPONENT] == GREEDY:  # best exact hand EV (crib ignored); first of equals
            hand6 = st[HAND6 + 6 * p : HAND6 + 6 * p + 6].reshape(1, 6)
            K.split_hand_totals(hand6, keep_index, tabs, totals)
            s = 0
            for j in range(15):
                if totals[0, j] > totals[0, s]:
                    s = j
        else:
            s = integers(rng, 15)
        a = st[HAND6 + 6 * p + _PAIRS[s, 0]]
        b = st[HAND6 + 6 * p + _PAIRS[s, 1]]
        discard(st, p, min(a, b), max(a, b), decks, ev)
        return
    n = K.legal_cards(st, legal)
    if st[OPPONENT] == GREEDY:
        card = greedy_card(st, legal, n, buf)
    else:
        card = legal[integers(rng, n)]
    lay(st, card, ev, tabs)


@njit(cache=True)
def run_opponent(st, rng, decks, ev, tabs, keep_index, totals, legal, buf):
    """Deals and opponent decisions until the learner must decide, the episode ends, or the game
    waits for a deck block (NEED_BLOCK)."""
    seat = st[SEAT]
    while True:
        if st[PHASE] == OVER_PHASE:
            return
        if st[K.DONE] == 1:  # the deal's show is over (or, at DEAL_NO -1, the game starts)
            if st[DEAL_EPISODE] == 1 and st[DEAL_NO] >= 0:
                return
            if not start_deal(st, decks):
                return
            continue
        if st[K.TO_ACT] == seat:
            return
        _opponent_move(st, rng, decks, ev, tabs, keep_index, totals, legal, buf)


@njit(cache=True)
def is_terminal(st):
    return st[PHASE] == OVER_PHASE or (st[DEAL_EPISODE] == 1 and st[K.DONE] == 1)


@njit(cache=True)
def learner_legal(st, card):
    if is_terminal(st) or st[K.TO_ACT] != st[SEAT]:
        return False
    s = st[SEAT]
    if st[PHASE] == DISCARD_PHASE:
        if card == st[PENDING]:
            return False
        for i in range(6):
            if st[HAND6 + 6 * s + i] == card:
                return True
        return False
    if _VALUE[card] > 31 - st[K.COUNT]:
        return False
    for i in range(4):
        if st[K.HANDS + 4 * s + i] == card:
            return True
    return False


@njit(cache=True)
def learner_move(st, card, decks, ev, tabs):
    """Apply the learner's (legal) pick: hold a first discard pick, or complete the discard, or
    lay the card. True when the opponent's turn may follow (not after a first pick)."""
    s = st[SEAT]
    if st[PHASE] == DISCARD_PHASE:
        if st[PENDING] < 0:
            st[PENDING] = card
            return False
        a = st[PENDING]
        st[PENDING] = -1
        discard(st, s, min(a, card), max(a, card), decks, ev)
        return True
    lay(st, card, ev, tabs)
    return True


@njit(cache=True)
def _one(obs, i):
    obs[i] = 1.0


@njit(cache=True)
def encode(st, obs, mask):
    """:func:`cribbage_env.encoding.encode` of the learner's view (and its int8 mask)."""
    obs[:] = 0.0
    mask[:] = 0
    s = st[SEAT]
    o = 1 - s
    over = st[PHASE] == OVER_PHASE
    if st[DEAL_EPISODE] == 1 and st[K.DONE] == 1 and not over:
        # finished_deal_view: the finished deal's dealer and scores, no cards (env.py).
        _one(obs, _PH + 3)
        if st[FIRST_DEALER] == s:
            _one(obs, _FL)
        obs[_REAL] = 0.0
        obs[_REAL + 1] = min(st[K.SCORES + s], st[K.TARGET]) / st[K.TARGET]
        obs[_REAL + 2] = min(st[K.SCORES + o], st[K.TARGET]) / st[K.TARGET]
        obs[_REAL + 3] = 0.0
        return
    _encode_cards(st, obs, s)
    _encode_flags(st, obs, mask, s, over)


@njit(cache=True)
def _encode_cards(st, obs, s):
    """Hand, kept and discarded cards, the sequence (and its ranks), cards played, starter."""
    discarded = st[K.DISCARDS + 2 * s] >= 0
    if discarded:
        for i in range(4):
            c = st[K.HANDS + 4 * s + i]
            if c >= 0:
                _one(obs, _HAND + c)
            _one(obs, _KEPT + st[K.KEPT + 4 * s + i])
        _one(obs, _DISCARDS + st[K.DISCARDS + 2 * s])
        _one(obs, _DISCARDS + st[K.DISCARDS + 2 * s + 1])
    else:
        for i in range(6):
            c = st[HAND6 + 6 * s + i]
            if c >= 0:
                _one(obs, _HAND + c)
    n = st[K.NSEQ]
    for i in range(n):
        c = st[K.SEQ + i]
        _one(obs, _SEQ + c)
        _one(obs, _RECENT + 13 * (n - 1 - i) + _RANK[c])
    for i in range(st[K.NPLAYED]):
        _one(obs, (_OWN if st[K.PLAYED_BY + i] == s else _OPP) + st[K.PLAYED + i])
    if st[K.STARTER] >= 0:
        _one(obs, _STARTER + st[K.STARTER])


@njit(cache=True)
def _encode_flags(st, obs, mask, s, over):
    """Phase, flags, count, scores, the opponent's cards left and the mask."""
    o = 1 - s
    n = st[K.NSEQ]
    my_turn = not over and st[K.TO_ACT] == s
    if over:
        _one(obs, _PH + 3)
    elif st[PHASE] == PLAY_PHASE:
        _one(obs, _PH + 2)
    elif st[PENDING] >= 0:
        _one(obs, _PENDING + st[PENDING])
        _one(obs, _PH + 1)
    else:
        _one(obs, _PH)
    if st[K.DEALER] == s:
        _one(obs, _FL)
    if my_turn:
        _one(obs, _FL + 1)
    opp_discarded = st[K.DISCARDS + 2 * o] >= 0
    if opp_discarded:
        _one(obs, _FL + 2)
    if st[K.GO + s]:
        _one(obs, _FL + 3)
    if st[K.GO + o]:
        _one(obs, _FL + 4)
    if n and st[K.PLAYED_BY + st[K.NPLAYED] - 1] == s:
        _one(obs, _FL + 5)
    left = 0
    for i in range(4 if opp_discarded else 6):
        if (st[K.HANDS + 4 * o + i] if opp_discarded else st[HAND6 + 6 * o + i]) >= 0:
            left += 1
    obs[_REAL] = st[K.COUNT] / 31.0
    obs[_REAL + 1] = min(st[K.SCORES + s], st[K.TARGET]) / st[K.TARGET]
    obs[_REAL + 2] = min(st[K.SCORES + o], st[K.TARGET]) / st[K.TARGET]
    obs[_REAL + 3] = left / 6.0
    if my_turn:
        for c in range(52):
            if learner_legal(st, c):
                mask[c] = 1


@njit(cache=True)
def step_all(states, actions, decks, rngs, tabs, keep_index, scratch, illegal):
    """One learner pick in every game (illegal picks leave a game unchanged), then the opponent
    until the learner's next decision."""
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = K.borrow(scratch[0:4])
    buf = K.borrow(scratch[4:20])
    totals = np.zeros((1, 15), dtype=np.int64)
    t = K.borrow_tables(tabs)
    for i in range(states.shape[0]):
        st = K.borrow(states[i])
        card = actions[i]
        if not learner_legal(st, card):
            illegal[i] = True
            continue
        illegal[i] = False
        if learner_move(st, card, decks[i], ev, t):
            run_opponent(st, borrow_words(rngs[i]), decks[i], ev, t, keep_index, totals, legal, buf)


@njit(cache=True)
def resume_all(states, which, decks, rngs, tabs, keep_index, scratch):
    """Run the opponent (and deals) in games ``which`` until the learner's turn."""
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = K.borrow(scratch[0:4])
    buf = K.borrow(scratch[4:20])
    totals = np.zeros((1, 15), dtype=np.int64)
    t = K.borrow_tables(tabs)
    for j in range(which.shape[0]):
        i = which[j]
        st = K.borrow(states[i])
        st[NEED_BLOCK] = -1
        run_opponent(st, borrow_words(rngs[i]), decks[i], ev, t, keep_index, totals, legal, buf)


@njit(cache=True)
def encode_all(states, obs, masks):
    for i in range(states.shape[0]):
        encode(states[i], obs[i], masks[i])
