"""Compiled whole games for the batched env: deals, discards, the cut, the play, the show, the
``random`` / ``greedy`` / ``expectimax`` opponent and the learner's moves.

The state of one game is a :mod:`cribbage_env.kernels.simkernel` state (the play and the show run on its
kernels) extended by the fields below. Chance is the engine's own, drawn in compiled code
(:mod:`cribbage_env.kernels.vecseed`): each deal's deck is the next row of its block of 16 shuffles
(:class:`cribbage_env.rules.chance.Chance`), of which a deal needs only the 12 dealt cards and the
starter. The learner's observation is :mod:`cribbage_env.kernels.vecobs`'s; tests compare every
observation, mask and reward with :class:`CribbageEnv`'s. The batch loop is in
:mod:`cribbage_env.kernels.vecstep`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from . import simkernel as K
from .kernelcache import inner
from .simpolicy import expectimax_card, greedy_card
from .simrng import integers, next_uint64
from .vecseed import pcg64_seed

# Fields after the simulator state.
PHASE = K.SIZE  # 0 discard, 1 play, 2 game over
DEAL_NO = K.SIZE + 1
HAND6 = K.SIZE + 2  # 2 x 6 dealt cards, -1 once discarded (the discard phase's hands)
PENDING = K.SIZE + 14  # the learner's first discard pick (-1: none)
SEAT = K.SIZE + 15  # the learner's seat
MARGIN = K.SIZE + 16  # learner's margin at its previous decision (points rewards)
OPPONENT = K.SIZE + 17  # RANDOM, GREEDY or EXPECTIMAX
FIRST_DEALER = K.SIZE + 18  # dealer of deal 0 (one-deal episodes end with its view)
DEAL_EPISODE = K.SIZE + 19  # 1: the episode is one deal
CUT = K.SIZE + 20  # the deal's starter, hidden until the dealer has discarded
GAME_SEED = K.SIZE + 21  # the engine's game seed (decks and the first cut)
EPISODES = K.SIZE + 22  # episodes started by this game's generator (seat="alternate")
SIZE = K.SIZE + 23
DISCARD_PHASE, PLAY_PHASE, OVER_PHASE = 0, 1, 2
RANDOM, GREEDY, EXPECTIMAX = 0, 1, 2
DEALS_PER_BLOCK = 16
#: A game's generators: the opponent's, the env's (episode seeds) and the deck block's.
OPP_RNG, ENV_RNG, DECK_RNG = 0, 6, 12
RNG_WORDS = 18

_VALUE = np.array([min(c % 13 + 1, 10) for c in range(52)], dtype=np.int64)
_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_SUIT = np.array([c // 13 for c in range(52)], dtype=np.int64)
_PAIRS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
_KEEP = np.array([[k for k in range(6) if k not in p] for p in _PAIRS], dtype=np.int64)


@njit(cache=True)
def draw_deck(g, out):
    """The next deck of a block's generator: the first 13 cards of ``argsort(random(52))``
    (12 dealt and the starter), kept sorted by insertion. Comparing the 53-bit integers is
    comparing the doubles ``random`` makes of them."""
    keys = np.empty(13, dtype=np.uint64)
    n = 0
    for c in range(52):
        k = next_uint64(g) >> uint64(11)
        if n == 13 and k >= keys[12]:
            continue
        j = n if n < 13 else 12
        while j > 0 and keys[j - 1] > k:
            if j < 13:
                keys[j] = keys[j - 1]
                out[j] = out[j - 1]
            j -= 1
        keys[j] = k
        out[j] = c
        if n < 13:
            n += 1


@inner
def start_deal(st, g):
    """R3: the deal passes to the other player and six cards each are dealt, alternately from
    the pone, from the deal's deck (``g``: the game's deck-block generator)."""
    nxt = st[DEAL_NO] + 1
    if nxt % DEALS_PER_BLOCK == 0:
        pcg64_seed(st[GAME_SEED], K.I64(1), nxt // DEALS_PER_BLOCK, np.bool_(True), g)
    deck = np.empty(13, dtype=np.int64)
    draw_deck(g, deck)
    st[DEAL_NO] = nxt
    st[CUT] = deck[12]
    dealer = 1 - st[K.DEALER]
    st[K.DEALER] = dealer
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


@inner
def discard(st, p, a, b, ev):
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
    st[K.STARTER] = st[CUT]
    if K.heels(st, ev):
        st[PHASE] = OVER_PHASE
        return
    st[PHASE] = PLAY_PHASE
    st[K.TO_ACT] = 1 - dealer


@inner
def lay(st, card, ev, tabs):
    K.lay(st, card, ev, tabs)
    if st[K.WINNER] >= 0:
        st[PHASE] = OVER_PHASE


@inner
def _discard_choice(st, p, keep_index, tabs, crib, totals, expectimax):
    """The opponent's split of its six cards (an index into the 15 pairs)."""
    hand6 = st[HAND6 + 6 * p : HAND6 + 6 * p + 6].reshape(1, 6)
    K.split_hand_totals(hand6, keep_index, tabs, totals)
    s = 0
    if expectimax is None:  # greedy: best exact hand EV (crib ignored); first of equals
        for j in range(15):
            if totals[0, j] > totals[0, s]:
                s = j
        return s
    # expectimax: hand EV plus the crib table's value (own crib) or minus it (theirs)
    dealer = p == st[K.DEALER]
    best = -np.inf
    for j in range(15):
        a = hand6[0, _PAIRS[j, 0]]
        b = hand6[0, _PAIRS[j, 1]]
        suited = 1 if _SUIT[a] == _SUIT[b] else 0
        if dealer:
            c = crib[0, _RANK[a], _RANK[b], suited]
        else:
            c = -crib[1, _RANK[a], _RANK[b], suited]
        v = totals[0, j] / 46.0 + c
        if v > best:
            best = v
            s = j
    return s


@inner
def _opponent_move(st, rngs, ev, tabs, keep_index, crib, totals, legal, buf, greedy, expectimax):
    """One decision of the opponent. ``greedy`` and ``expectimax`` are None unless the opponent
    is that policy (``random`` when both are): their types, not values, choose, so a kernel
    compiles only the policy it is called with."""
    p = st[K.TO_ACT]
    if st[PHASE] == DISCARD_PHASE:
        if greedy is None and expectimax is None:
            s = integers(rngs[OPP_RNG:], K.I64(15))
        else:
            s = _discard_choice(st, p, keep_index, tabs, crib, totals, expectimax)
        a = st[HAND6 + 6 * p + _PAIRS[s, 0]]
        b = st[HAND6 + 6 * p + _PAIRS[s, 1]]
        discard(st, p, min(a, b), max(a, b), ev)
        return
    n = K.legal_cards(st, legal)
    if greedy is not None:
        card = greedy_card(st, legal, n, buf)
    elif expectimax is not None:
        card = expectimax_card(st, legal, n, buf)
    else:
        card = legal[integers(rngs[OPP_RNG:], n)]
    lay(st, card, ev, tabs)


@inner
def run_opponent(st, rngs, ev, tabs, keep_index, crib, totals, legal, buf, greedy, expectimax):
    """Deals and opponent decisions until the learner must decide or the episode ends."""
    seat = st[SEAT]
    while True:
        if st[PHASE] == OVER_PHASE:
            return
        if st[K.DONE] == 1:  # the deal's show is over (or, at DEAL_NO -1, the game starts)
            if st[DEAL_EPISODE] == 1 and st[DEAL_NO] >= 0:
                return
            start_deal(st, rngs[DECK_RNG:])
            continue
        if st[K.TO_ACT] == seat:
            return
        _opponent_move(st, rngs, ev, tabs, keep_index, crib, totals, legal, buf, greedy, expectimax)


@inner
def is_terminal(st):
    return st[PHASE] == OVER_PHASE or (st[DEAL_EPISODE] == 1 and st[K.DONE] == 1)


@inner
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


@inner
def learner_move(st, card, ev, tabs):
    """Apply the learner's (legal) pick: hold a first discard pick, or complete the discard, or
    lay the card. True when the opponent's turn may follow (not after a first pick)."""
    s = st[SEAT]
    if st[PHASE] == DISCARD_PHASE:
        if st[PENDING] < 0:
            st[PENDING] = card
            return False
        a = st[PENDING]
        st[PENDING] = -1
        discard(st, s, min(a, card), max(a, card), ev)
        return True
    lay(st, card, ev, tabs)
    return True
