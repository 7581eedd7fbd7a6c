"""numpy's seeding in compiled code: ``SeedSequence``, ``PCG64(seed)``, ``random()``,
bounded 64-bit ``integers`` and ``choice(52, 2, replace=False)``, draw for draw.

Why: the batched env starts a new game in every step somewhere in a large batch; doing it as
:class:`~cribbage_env.envs.single.CribbageEnv` does (``episode_seed``, ``new_game(seed)`` with its
:class:`~cribbage_env.rules.chance.Chance`) costs ~100 us of Python per game, more than the step
itself. These kernels derive the same seeds, decks and first cuts inside the step kernel;
``tests/cribbage_env/kernels/test_vecseed.py`` compares them with numpy over many seeds.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint32, uint64

from .kernelcache import inner
from .simrng import HAS32, INC_HI, INC_LO, STATE_HI, STATE_LO, UINT32, integers, mul64, next_uint64

_INIT_A = uint32(0x43B0D7E5)
_MULT_A = uint32(0x931E8875)
_INIT_B = uint32(0x8B51F9DD)
_MULT_B = uint32(0x58F38DED)
_MIX_L = uint32(0xCA01F9DD)
_MIX_R = uint32(0x4973F715)
_POOL = 4
_STREAM_DEALS, _STREAM_FIRST_CUT = 1, 2
_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_I = np.int64  # constants passed to kernels: one compile, not one per value


@inner
def _hashmix(value, hc):
    value ^= hc[0]
    hc[0] = uint32(hc[0] * _MULT_A)
    value = uint32(value * hc[0])
    return uint32(value ^ (value >> uint32(16)))


@inner
def _mix(x, y):
    r = uint32(uint32(_MIX_L * x) - uint32(_MIX_R * y))
    return uint32(r ^ (r >> uint32(16)))


@inner
def _entropy(seed, key0, key1, has_key, out):
    """``SeedSequence(seed, spawn_key=(key0, key1))``'s assembled entropy words; their number."""
    n = 0
    s = uint64(seed)
    if s == 0:
        out[0] = uint32(0)
        n = 1
    while s > 0:
        out[n] = uint32(s & uint64(0xFFFFFFFF))
        s >>= uint64(32)
        n += 1
    if has_key:
        while n < _POOL:  # numpy pads the run entropy when there is a spawn key
            out[n] = uint32(0)
            n += 1
        out[n] = uint32(key0)
        out[n + 1] = uint32(key1)
        n += 2
    return n


@njit(cache=True)
def pcg64_seed(seed, key0, key1, has_key, g):
    """Set ``g`` (six words, :mod:`cribbage_env.kernels.simrng`) to
    ``PCG64(SeedSequence(seed[, spawn_key=(key0, key1)]))``."""
    ent = np.empty(8, dtype=np.uint32)
    n = _entropy(seed, key0, key1, has_key, ent)
    pcg64_from_entropy(ent, n, g)


@njit(cache=True)
def pcg64_from_entropy(ent, n, g):
    """Set ``g`` to ``PCG64(SeedSequence)`` of the assembled entropy words ``ent[:n]``."""
    pool = np.empty(_POOL, dtype=np.uint32)
    hc = np.empty(1, dtype=np.uint32)
    hc[0] = _INIT_A
    for i in range(_POOL):
        pool[i] = _hashmix(ent[i] if i < n else uint32(0), hc)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                pool[i_dst] = _mix(pool[i_dst], _hashmix(pool[i_src], hc))
    for i_src in range(_POOL, n):
        for i_dst in range(_POOL):
            pool[i_dst] = _mix(pool[i_dst], _hashmix(ent[i_src], hc))
    words = np.empty(8, dtype=np.uint32)  # generate_state(4, uint64)
    h = _INIT_B
    for i in range(8):
        v = uint32(pool[i % _POOL] ^ h)
        h = uint32(h * _MULT_B)
        v = uint32(v * h)
        words[i] = uint32(v ^ (v >> uint32(16)))
    st = np.empty(4, dtype=np.uint64)
    for i in range(4):
        st[i] = uint64(words[2 * i]) | (uint64(words[2 * i + 1]) << uint64(32))
    # pcg_setseq_128_srandom_r: state 0, inc = initseq << 1 | 1, step, state += initstate, step
    g[INC_HI] = (st[2] << uint64(1)) | (st[3] >> uint64(63))
    g[INC_LO] = (st[3] << uint64(1)) | uint64(1)
    g[STATE_HI] = uint64(0)
    g[STATE_LO] = uint64(0)
    next_uint64(g)
    lo = g[STATE_LO] + st[1]
    g[STATE_HI] = g[STATE_HI] + st[0] + (uint64(1) if lo < st[1] else uint64(0))
    g[STATE_LO] = lo
    next_uint64(g)
    g[HAS32] = uint64(0)
    g[UINT32] = uint64(0)


@njit(cache=True)
def seed_below_2_63(g):
    """``integers(0, 2**63 - 1)`` (``episode_seed``): numpy's 64-bit Lemire."""
    rng_excl = uint64(2**63 - 1)
    hi, lo = mul64(next_uint64(g), rng_excl)
    if lo < rng_excl:
        threshold = (uint64(0) - rng_excl) % rng_excl
        while lo < threshold:
            hi, lo = mul64(next_uint64(g), rng_excl)
    return np.int64(hi)


@njit(cache=True)
def first_dealer(seed, g):
    """Who deals first in ``new_game(seed)`` (R2): cut attempts until the ranks differ, the lower
    card deals. Each attempt is ``choice(52, 2, replace=False)`` (Floyd, then a shuffle)."""
    attempt = _I(0)  # an int64 from the start: a literal 0 would compile pcg64_seed twice
    while True:
        pcg64_seed(seed, _I(_STREAM_FIRST_CUT), attempt, np.bool_(True), g)
        a = integers(g, _I(51))
        b = integers(g, _I(52))
        if b == a:
            b = 51
        if integers(g, _I(2)) == 0:
            a, b = b, a
        if _RANK[a] != _RANK[b]:
            return 0 if _RANK[a] < _RANK[b] else 1
        attempt += 1
