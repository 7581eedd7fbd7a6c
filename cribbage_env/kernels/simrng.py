"""numpy's PCG64 and ``Generator.integers(n)`` in compiled code, draw for draw.

The batched env (:mod:`cribbage_env.envs.batched`) runs the ``random`` opponent inside its kernel;
to give the same games as :class:`~cribbage_env.envs.single.CribbageEnv` it must draw the same numbers
from the opponent's ``Generator(PCG64(seed))``. A generator is six ``uint64`` words: the 128-bit
state and increment (high, low) and numpy's buffered 32-bit half (flag, value). Tests compare
long streams with numpy's.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit, uint64

from .simkernel import address_as_pointer

_MUL_HI = np.uint64(2549297995355413924)
_MUL_LO = np.uint64(4865540595714422341)
_M32 = np.uint64(0xFFFFFFFF)
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS32, UINT32 = range(6)
WORDS = 6


def pcg64_words(seed: int) -> np.ndarray:
    """The six words of ``numpy.random.PCG64(seed)`` (what ``Generator(PCG64(seed))`` starts
    from)."""
    return generator_words(np.random.Generator(np.random.PCG64(seed)))


def generator_words(rng: np.random.Generator) -> np.ndarray:
    """The six words of a PCG64 ``Generator``'s current state."""
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"a PCG64 generator is needed, got {st['bit_generator']}")
    s, inc = st["state"]["state"], st["state"]["inc"]
    m = (1 << 64) - 1
    return np.array(
        [s >> 64, s & m, inc >> 64, inc & m, st["has_uint32"], st["uinteger"]], dtype=np.uint64
    )


@njit(cache=True)
def borrow_words(a):
    """A generator's words without a reference count (see :func:`simkernel.borrow`)."""
    return carray(address_as_pointer(a.ctypes.data), a.shape, np.uint64)


@njit(cache=True)
def mul64(a, b):
    """Full 128-bit product of two uint64 as (high, low)."""
    a_lo = a & _M32
    a_hi = a >> uint64(32)
    b_lo = b & _M32
    b_hi = b >> uint64(32)
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    mid = (p0 >> uint64(32)) + (p1 & _M32) + (p2 & _M32)
    lo = (p0 & _M32) | (mid << uint64(32))
    hi = p3 + (p1 >> uint64(32)) + (p2 >> uint64(32)) + (mid >> uint64(32))
    return hi, lo


@njit(cache=True)
def next_uint64(g):
    """PCG64 (XSL-RR 128/64): step the state, then output from the new state."""
    hi, lo = mul64(g[STATE_LO], _MUL_LO)
    hi += g[STATE_LO] * _MUL_HI + g[STATE_HI] * _MUL_LO
    lo2 = lo + g[INC_LO]
    carry = uint64(1) if lo2 < lo else uint64(0)
    hi2 = hi + g[INC_HI] + carry
    g[STATE_HI] = hi2
    g[STATE_LO] = lo2
    x = hi2 ^ lo2
    rot = hi2 >> uint64(58)
    return (x >> rot) | (x << ((uint64(64) - rot) & uint64(63)))


@njit(cache=True)
def next_uint32(g):
    if g[HAS32]:
        g[HAS32] = uint64(0)
        return g[UINT32]
    x = next_uint64(g)
    g[HAS32] = uint64(1)
    g[UINT32] = x >> uint64(32)
    return x & _M32


@njit(cache=True)
def integers(g, n):
    """``Generator.integers(n)`` for 1 <= n < 2**32 (Lemire's method, numpy's draws)."""
    if n == 1:
        return 0
    rng_excl = uint64(n)
    m = next_uint32(g) * rng_excl
    leftover = m & _M32
    if leftover < rng_excl:
        threshold = (_M32 - (rng_excl - uint64(1))) % rng_excl
        while leftover < threshold:
            m = next_uint32(g) * rng_excl
            leftover = m & _M32
    return np.int64(m >> uint64(32))
