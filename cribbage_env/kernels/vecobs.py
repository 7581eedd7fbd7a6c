"""The learner's observation and mask of a batched game, written in place into the batch's row.

:func:`cribbage_env.encoding.encode` of the learner's view, compiled: :func:`features` lists the
observation's ones (at most :data:`MAX_ONES`) and its four counted values (count, both scores
capped at the target, the opponent's cards left), and :func:`write` puts them in the row: the
standard ``float32[OBS_SIZE]`` (count / 31, scores / target, cards / 6) or the compact
``uint8[COMPACT_SIZE]`` (the :data:`BITS` binary values bit-packed as ``np.packbits`` packs
them, then the four counts as bytes).
The mask is built from the hand itself (no per-card legality test). Only the row of the game
that moved is touched, while its state is in cache, and in it only the ones it held and holds
now (a list kept per row); ``tests/cribbage_env/envs/test_vecenv.py`` compares every row
with :class:`~cribbage_env.envs.single.CribbageEnv`'s.
"""

from __future__ import annotations

import numpy as np

from .. import encoding as E
from . import simkernel as K
from . import veckernel as V
from .kernelcache import inner

#: Binary part of the observation (everything before count, scores and cards left).
BITS = E.SLICES["count"].start
PACKED_BYTES = (BITS + 7) // 8
COMPACT_SIZE = PACKED_BYTES + 4
#: Most ones an observation holds (hand 6, kept 4, discards 2, pending, starter, 8 cards each in
#: sequence, recent ranks and played, phase and 6 flags): 45, rounded up.
MAX_ONES = 48

_AT = {name: part.start for name, part in E.SLICES.items()}  # where each slice starts
_HAND, _PENDING, _DISCARDS, _KEPT = (
    _AT["hand"],
    _AT["pending_discard"],
    _AT["discards"],
    _AT["kept"],
)
_STARTER, _SEQ, _RECENT = _AT["starter"], _AT["sequence"], _AT["recent_ranks"]
_OWN, _OPP, _PH, _FL = _AT["played_own"], _AT["played_opponent"], _AT["phase"], _AT["flags"]
_REAL = BITS  # count, scores (2), opponent_cards_left: the non-binary tail
_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_VALUE = np.array([min(c % 13 + 1, 10) for c in range(52)], dtype=np.int64)


@inner
def features(st, ones, counts, mask, i):
    """The ones of the learner's observation into ``ones`` (their number is returned), count,
    own and opponent's score (capped at the target) and the opponent's cards left into
    ``counts``, the legal cards into ``mask[i]`` (already zero)."""
    s = st[V.SEAT]
    o = 1 - s
    target = st[K.TARGET]
    counts[1] = min(st[K.SCORES + s], target)
    counts[2] = min(st[K.SCORES + o], target)
    over = st[V.PHASE] == V.OVER_PHASE
    if st[V.DEAL_EPISODE] == 1 and st[K.DONE] == 1 and not over:
        # finished_deal_view: the finished deal's dealer and scores, no cards (envs/single.py).
        ones[0] = _PH + 3
        ones[1] = _FL
        counts[0] = 0
        counts[3] = 0
        return 2 if st[V.FIRST_DEALER] == s else 1
    n = _cards(st, ones, s)
    return _flags(st, ones, n, counts, mask, i, s, over)


@inner
def _cards(st, ones, s):
    """Hand, kept and discarded cards, the sequence (and its ranks), cards played, starter."""
    n = 0
    if st[K.DISCARDS + 2 * s] >= 0:
        for i in range(4):
            c = st[K.HANDS + 4 * s + i]
            if c >= 0:
                ones[n] = _HAND + c
                n += 1
            ones[n] = _KEPT + st[K.KEPT + 4 * s + i]
            n += 1
        ones[n] = _DISCARDS + st[K.DISCARDS + 2 * s]
        ones[n + 1] = _DISCARDS + st[K.DISCARDS + 2 * s + 1]
        n += 2
    else:
        for i in range(6):
            c = st[V.HAND6 + 6 * s + i]
            if c >= 0:
                ones[n] = _HAND + c
                n += 1
    nseq = st[K.NSEQ]
    for i in range(nseq):
        c = st[K.SEQ + i]
        ones[n] = _SEQ + c
        ones[n + 1] = _RECENT + 13 * (nseq - 1 - i) + _RANK[c]
        n += 2
    for i in range(st[K.NPLAYED]):
        ones[n] = (_OWN if st[K.PLAYED_BY + i] == s else _OPP) + st[K.PLAYED + i]
        n += 1
    if st[K.STARTER] >= 0:
        ones[n] = _STARTER + st[K.STARTER]
        n += 1
    return n


@inner
def _flags(st, ones, n, counts, mask, i, s, over):
    """Phase, flags, count, the opponent's cards left and the mask."""
    o = 1 - s
    my_turn = not over and st[K.TO_ACT] == s
    pending = st[V.PENDING]
    if over:
        ones[n] = _PH + 3
    elif st[V.PHASE] == V.PLAY_PHASE:
        ones[n] = _PH + 2
    elif pending >= 0:
        ones[n] = _PENDING + pending
        n += 1
        ones[n] = _PH + 1
    else:
        ones[n] = _PH
    n += 1
    opp_discarded = st[K.DISCARDS + 2 * o] >= 0
    flag = (
        st[K.DEALER] == s,
        my_turn,
        opp_discarded,
        st[K.GO + s] != 0,
        st[K.GO + o] != 0,
        st[K.NSEQ] > 0 and st[K.PLAYED_BY + st[K.NPLAYED] - 1] == s,
    )
    for f in range(6):
        if flag[f]:
            ones[n] = _FL + f
            n += 1
    left = 0
    if opp_discarded:
        for j in range(4):
            left += st[K.HANDS + 4 * o + j] >= 0
    else:
        for j in range(6):
            left += st[V.HAND6 + 6 * o + j] >= 0
    counts[0] = st[K.COUNT]
    counts[3] = left
    if my_turn:
        _mask(st, mask, i, s, pending)
    return n


@inner
def _mask(st, mask, i, s, pending):
    """The learner's legal cards (:func:`cribbage_env.kernels.veckernel.learner_legal`, card by card)."""
    if st[V.PHASE] == V.DISCARD_PHASE:
        for j in range(6):
            c = st[V.HAND6 + 6 * s + j]
            if c >= 0 and c != pending:
                mask[i, c] = 1
        return
    room = 31 - st[K.COUNT]
    for j in range(4):
        c = st[K.HANDS + 4 * s + j]
        if c >= 0 and _VALUE[c] <= room:
            mask[i, c] = 1


@inner
def write(st, i, obs, packed, mask, ones, counts, prev, full):
    """Game ``i``'s observation into ``obs[i]`` (standard; ``packed`` is empty) or
    ``packed[i]`` (compact), its mask into ``mask[i]``. Elements, not row views: a view would
    count references (atomically) on every write. ``prev[i]`` (when ``prev`` has rows) lists
    the ones the row holds: only they are cleared (a row is 34 cache lines, its ones touch a
    few), unless ``full``."""
    for c in range(mask.shape[1]):
        mask[i, c] = 0
    n = features(st, ones, counts, mask, i)
    target = st[K.TARGET]
    if packed.shape[0] == 0:
        keep = prev.shape[0] > 0
        if full or not keep:
            for k in range(BITS):
                obs[i, k] = 0.0
        else:
            for j in range(prev[i, 0]):
                obs[i, prev[i, j + 1]] = 0.0
        for j in range(n):
            obs[i, ones[j]] = 1.0
            if keep:
                prev[i, j + 1] = ones[j]
        if keep:
            prev[i, 0] = n
        obs[i, _REAL] = counts[0] / 31.0
        obs[i, _REAL + 1] = counts[1] / target
        obs[i, _REAL + 2] = counts[2] / target
        obs[i, _REAL + 3] = counts[3] / 6.0
        return
    for b in range(PACKED_BYTES):
        packed[i, b] = 0
    for j in range(n):
        k = ones[j]
        packed[i, k >> 3] |= 128 >> (k & 7)
    for j in range(4):
        packed[i, PACKED_BYTES + j] = counts[j]
