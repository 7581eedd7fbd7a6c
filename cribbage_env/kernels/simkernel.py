"""Compiled rules of the play and the show (R6-R10) on a flat integer state, for play-outs.

This is the one place the rules of :mod:`cribbage_env.rules.engine` are written a second time: numba
kernels that play thousands of deals per call. They are held to the engine by differential tests
(``tests/cribbage_env/kernels/test_fastsim.py``: the same points, in the same order, the same end at the target, over
random positions) and by the benchmark ``benchmarks/speed/fastsim_speed.py`` over millions of them.
Tables are the engine's own (:mod:`cribbage_env.unseen.batch` lays out ``RANK_POINTS``).

Importing this module imports numba (the package does not: ``import cribbage_env`` stays light).
Compiled code is cached on disk (``cache=True``), so only the first run on a machine compiles;
the cache is stamped with a hash of every source the kernels read (:mod:`.kernelcache`).

A state is an ``int64`` array of :data:`SIZE` entries; the named offsets below say what is where.
Hands keep the engine's card order: a laid card's slot becomes ``-1`` (the engine's
``list.remove``), so policies that break ties by order see the same order as the engine.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..rules.cards import JACK, RANK, SUIT, VALUE
from ..rules.core import Rules, implements
from ..rules.pegging import play_points_at as _play_points_at
from ..rules.scoring import FLUSH_POINTS, NOBS_POINTS
from ..rules.scoring import heels_points as _heels_points
from ..unseen.batch import HI_MAP, KEY_HI, KEY_LO, KEY_POINTS_FLAT, LO_MAP
from . import kernelcache  # noqa: F401  (first: every kernel's cache is stamped by the sources)

# ------------------------------------------------------------------------------- state layout
HANDS = 0  # 2 x 4 unplayed cards, seat-major, -1 once laid
SEQ = 8  # up to 8 cards of the current sequence (4 + 4 cards in a deal; slot 8 is scratch)
NSEQ = 16
COUNT = 17
LAST = 18  # last player to lay a card this deal (-1: none)
GO = 19  # 2 flags: said go in the current sequence
TO_ACT = 21
SCORES = 22  # 2
DEALER = 24
KEPT = 25  # 2 x 4 kept cards (for the show and the mover's view)
CRIB = 33  # 4
STARTER = 37
WINNER = 38  # -1 while nobody reached the target
TARGET = 39
NPLAYED = 40
PLAYED = 41  # 8 cards laid this deal, in order
PLAYED_BY = 49  # 8 seats
DONE = 57  # 1 once the deal's show is over (or the game ended)
DISCARDS = 58  # 2 x 2: each seat's own crib cards (what its view knows of the crib)
NEVENTS = 62  # scoring events recorded so far
PLAY_SCORES = 64  # 2: scores when the play ended (before the show), -1 until then
SIZE = 66


#: The kernels play to the target; the skunk lines change no score or winner they compute (game
#: points are counted from the Rules value outside them).
KERNELS = implements("the compiled kernels", "target", "skunk", "double_skunk")


def put_rules(st: np.ndarray, rules: Rules, target: int | None = None) -> None:
    """Write ``rules`` into a state (or the last axis of states): the one place the rules
    enter the kernels (``target`` overrides the rules' target: a search's own horizon); rules
    the kernels do not implement are refused (RulesError)."""
    KERNELS.check(rules)
    st[..., TARGET] = rules.target if target is None else target


# Scoring event kinds (column 0 of an event row; then player, points).
EV_PLAY, EV_GO, EV_LAST_CARD, EV_HAND, EV_CRIB, EV_HEELS = 1, 2, 3, 4, 5, 6

#: Constants passed to a kernel go through ``I64``: a literal argument compiles the kernel once
#: per value (numba types ``f(st, 1)`` as ``Literal[int](1)``), an int64 once in all.
I64 = np.int64
_RANK = np.array(RANK, dtype=np.int64)
_VALUE = np.array(VALUE, dtype=np.int64)
_SUIT = np.array(SUIT, dtype=np.int64)
_FLUSH = np.array(FLUSH_POINTS, dtype=np.int64)
_NOBS = NOBS_POINTS
_JACK = JACK


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The show tables every kernel takes as its ``tabs`` argument (passed, not baked in), in
    their smallest types: a lookup misses the cache less (the points table alone is 0.7 MB)."""
    return (
        KEY_POINTS_FLAT.astype(np.int16),
        LO_MAP.astype(np.int32),
        HI_MAP.astype(np.int32),
        KEY_LO.astype(np.int32),
        KEY_HI.astype(np.int32),
    )


@intrinsic
def address_as_pointer(typingctx, address):
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True)
def borrow(a):
    """A view of the C-contiguous int64 array ``a`` without a reference count.

    Every array passed to a compiled function has its count raised and lowered atomically
    on entry and exit; in these small, hot helpers that was most of the time (33 ns of a
    35 ns call). A borrowed view has no count to touch; the caller keeps ``a`` alive.
    """
    return carray(address_as_pointer(a.ctypes.data), a.shape, np.int64)


@njit(cache=True)
def _borrow_i16(a):
    return carray(address_as_pointer(a.ctypes.data), a.shape, np.int16)


@njit(cache=True)
def _borrow_i32(a):
    return carray(address_as_pointer(a.ctypes.data), a.shape, np.int32)


@njit(cache=True)
def borrow_tables(tabs):
    return (
        _borrow_i16(tabs[0]),
        _borrow_i32(tabs[1]),
        _borrow_i32(tabs[2]),
        _borrow_i32(tabs[3]),
        _borrow_i32(tabs[4]),
    )


#: Points for the last of ``n`` cards in play (R7): the engine's own function, compiled.
play_points = njit(cache=True)(_play_points_at)


@njit(cache=True)
def show_points(a, b, c, d, s, crib, tabs):
    """Show points of four cards with the starter (R9): :func:`scoring.score_fast`."""
    flat, lo_map, hi_map, key_lo, key_hi = tabs
    lo = key_lo[a] + key_lo[b] + key_lo[c] + key_lo[d] + key_lo[s]
    hi = key_hi[a] + key_hi[b] + key_hi[c] + key_hi[d] + key_hi[s]
    pts = flat[lo_map[lo] + hi_map[hi]]
    su = _SUIT[a]
    if _SUIT[b] == su and _SUIT[c] == su and _SUIT[d] == su:
        pts += _FLUSH[1 if crib else 0, 2 if _SUIT[s] == su else 1]
    nob = _SUIT[s] * 13 + _JACK
    if a == nob or b == nob or c == nob or d == nob:
        pts += _NOBS
    return pts


@njit(cache=True)
def _record(st, ev, kind, p, pts):
    i = st[NEVENTS]
    if i < ev.shape[0]:
        ev[i, 0] = kind
        ev[i, 1] = p
        ev[i, 2] = pts
    st[NEVENTS] = i + 1


@njit(cache=True)
def add_points(st, ev, kind, p, pts):
    """Peg ``pts`` for ``p``; True (and the game is over, R10) once they reach the target."""
    _record(st, ev, kind, p, pts)
    s = st[SCORES + p] + pts
    st[SCORES + p] = s
    if s >= st[TARGET]:
        st[WINNER] = p
        st[DONE] = 1
        return True
    return False


@njit(cache=True)
def fits(st, p, lim):
    """Whether seat ``p`` holds a card of value at most ``lim`` (R6.2)."""
    for i in range(4):
        c = st[HANDS + 4 * p + i]
        if c >= 0 and _VALUE[c] <= lim:
            return True
    return False


@njit(cache=True)
def holds(st, p):
    for i in range(4):
        if st[HANDS + 4 * p + i] >= 0:
            return True
    return False


@njit(cache=True)
def _reset(st):
    st[NSEQ] = 0
    st[COUNT] = 0
    st[GO] = 0
    st[GO + 1] = 0


@njit(cache=True)
def _show(st, ev, tabs):
    """R9: pone's hand, dealer's hand, then the crib, each stopping at the target (R10)."""
    st[PLAY_SCORES] = st[SCORES]
    st[PLAY_SCORES + 1] = st[SCORES + 1]
    s = st[STARTER]
    dealer = st[DEALER]
    for j in range(3):
        p = 1 - dealer if j == 0 else dealer
        base = CRIB if j == 2 else KEPT + 4 * p
        pts = show_points(st[base], st[base + 1], st[base + 2], st[base + 3], s, j == 2, tabs)
        if pts and add_points(st, ev, EV_CRIB if j == 2 else EV_HAND, p, pts):
            return
    st[DONE] = 1


@njit(cache=True)
def advance(st, ev, tabs):
    """Go's, go points, resets and the last card until someone must decide (R6-R8)."""
    while True:
        if not holds(st, I64(0)) and not holds(st, I64(1)):
            if st[NSEQ] > 0:  # R8.3: last card, unless it made 31 (the sequence was reset)
                if add_points(st, ev, I64(EV_LAST_CARD), st[LAST], I64(1)):
                    return
            _show(st, ev, tabs)
            return
        q = st[TO_ACT]
        lim = 31 - st[COUNT]
        if fits(st, q, lim):
            return
        if holds(st, q) and st[GO + q] == 0:
            st[GO + q] = 1
        o = 1 - q
        if fits(st, o, lim):
            st[TO_ACT] = o
            return
        lp = st[LAST]  # R8.1: neither can play: the last to lay a card scores the go
        if add_points(st, ev, I64(EV_GO), lp, I64(1)):
            return
        _reset(st)
        st[TO_ACT] = 1 - lp


@njit(cache=True)
def lay(st, card, ev, tabs):
    """The player to act lays ``card`` (assumed legal); the deal runs on to the next decision."""
    p = st[TO_ACT]
    for i in range(4):
        if st[HANDS + 4 * p + i] == card:
            st[HANDS + 4 * p + i] = -1
            break
    n = st[NSEQ]
    st[SEQ + n] = card
    n += 1
    st[NSEQ] = n
    count = st[COUNT] + _VALUE[card]
    st[COUNT] = count
    k = st[NPLAYED]
    st[PLAYED + k] = card
    st[PLAYED_BY + k] = p
    st[NPLAYED] = k + 1
    st[LAST] = p
    pts = play_points(st, SEQ, n, count)
    if pts and add_points(st, ev, I64(EV_PLAY), p, pts):
        return
    if count == 31:
        _reset(st)
    st[TO_ACT] = 1 - p
    if fits(st, 1 - p, 31 - st[COUNT]):
        return
    advance(st, ev, tabs)


#: the engine's rule, compiled as written (:func:`cribbage_env.rules.scoring.heels_points`).
heels_points = njit(cache=True)(_heels_points)


@njit(cache=True)
def heels(st, ev):
    """R5.2 when the starter is turned; True if the dealer's points reach the target."""
    pts = heels_points(st[STARTER])
    if pts:
        return add_points(st, ev, I64(EV_HEELS), st[DEALER], pts)
    return False


@njit(cache=True)
def legal_cards(st, out):
    """The player to act's legal cards into ``out`` in hand order; their number."""
    p = st[TO_ACT]
    lim = 31 - st[COUNT]
    n = 0
    for i in range(4):
        c = st[HANDS + 4 * p + i]
        if c >= 0 and _VALUE[c] <= lim:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def split_hand_totals(hands6, keep_index, tabs, out):
    """``out[i, s]``: the kept four of split ``s`` of six-card hand ``i`` scored against each
    of the 46 starters that hand cannot see, summed (46 x the exact hand EV of
    :func:`cribbage_env.analysis.discard.discard_values`)."""
    flat, lo_map, hi_map, key_lo, key_hi = tabs
    left = np.empty(13, dtype=np.int64)
    suit_left = np.empty(4, dtype=np.int64)
    for i in range(hands6.shape[0]):
        left[:] = 4
        suit_left[:] = 13
        for j in range(6):
            left[_RANK[hands6[i, j]]] -= 1
            suit_left[_SUIT[hands6[i, j]]] -= 1
        for s in range(keep_index.shape[0]):
            lo4 = 0
            hi4 = 0
            for j in range(4):
                c = hands6[i, keep_index[s, j]]
                lo4 += key_lo[c]
                hi4 += key_hi[c]
            total = 0
            # Starters of one rank score the same fifteens, pairs and runs; a rank below 8
            # changes only the low part of the key, a higher one only the high part.
            lo_base = lo_map[lo4]
            hi_base = hi_map[hi4]
            for r in range(7):
                if left[r]:
                    total += flat[lo_map[lo4 + key_lo[r]] + hi_base] * left[r]
            for r in range(7, 13):
                if left[r]:
                    total += flat[lo_base + hi_map[hi4 + key_hi[r]]] * left[r]
            su = _SUIT[hands6[i, keep_index[s, 0]]]
            flush = True
            for j in range(4):
                c = hands6[i, keep_index[s, j]]
                if _SUIT[c] != su:
                    flush = False
                if _RANK[c] == _JACK:  # nobs with every unseen starter of the jack's suit
                    total += suit_left[_SUIT[c]] * _NOBS
            if flush:  # 4 with every starter, 5 with the unseen ones of the same suit
                total += _FLUSH[0, 1] * 46 + (_FLUSH[0, 2] - _FLUSH[0, 1]) * suit_left[su]
            out[i, s] = total
