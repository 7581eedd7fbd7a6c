"""The opponent's generator of a batched game in compiled code: ``agent_rng(agent_seed,
game_seed, seat)`` (:mod:`cribbage_env.seeding`), word for word.

Why: a batched game that ends starts the next one in the same step, and its opponent needs its
own generator, a BLAKE2b digest of the env's agent seed and the new game's key. Drawn in Python
that was ~10 us per episode, more than the rest of the episode's end; here it is the kernel's.
The digest is RFC 7693's BLAKE2b (32-byte digest, no key, the seeding module's personalisation)
of the same text ``"agent_seed,game_seed,seat"``; its 256 bits seed ``PCG64`` as numpy seeds it
from an int (:func:`cribbage_env.kernels.vecseed.pcg64_from_entropy`). ``tests/cribbage_env/kernels/test_vecagent.py``
compares the words with :func:`cribbage_env.seeding.agent_rng`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint32, uint64

from ..seeding import PERSON, check_agent_seed
from .kernelcache import inner
from .vecseed import pcg64_from_entropy

_IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)
_SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    dtype=np.int64,
)
_PERSON = np.frombuffer(PERSON.ljust(16, b"\0"), dtype="<u8").astype(np.uint64)
#: parameter block word 0: 32-byte digest, no key, fanout 1, depth 1
_PARAM0 = np.uint64(0x01010020)
_MAX_TEXT = 128  # one block: "agent_seed,game_seed,seat" is at most 39 + 1 + 19 + 1 + 1 bytes


def prefix(agent_seed: int) -> np.ndarray:
    """The text's first part, ``"agent_seed,"``, as bytes for :func:`opponent_generator`."""
    return np.frombuffer(f"{check_agent_seed(agent_seed)},".encode("ascii"), dtype=np.uint8)


#: the eight G applications of a round: the four columns, then the four diagonals of ``v``
_G = np.array(
    [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]
    + [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]],
    dtype=np.int64,
)


_ROT = np.array([32, 24, 16, 63], dtype=np.uint64)  # G's rotations (arrays: one compile)


@inner
def _rotr(x, n):
    return (x >> n) | (x << (uint64(64) - n))


@njit(cache=True)
def blake2b_256(text, n, out):
    """BLAKE2b-256 of ``text[:n]`` (``n <= 128``) with the agents' personalisation: four
    little-endian words into ``out`` (one block; loops, not slices: short to compile)."""
    m = np.zeros(16, dtype=np.uint64)
    for i in range(n):
        m[i // 8] |= uint64(text[i]) << uint64(8 * (i % 8))
    v = np.empty(16, dtype=np.uint64)
    for i in range(8):
        v[i] = _IV[i]
        v[i + 8] = _IV[i]
    v[0] ^= _PARAM0
    v[6] ^= _PERSON[0]
    v[7] ^= _PERSON[1]
    h0 = (v[0], v[1], v[2], v[3])
    v[12] ^= uint64(n)
    v[14] = ~v[14]  # the last block
    for r in range(12):
        for j in range(8):
            a, b, c, d = _G[j, 0], _G[j, 1], _G[j, 2], _G[j, 3]
            x = m[_SIGMA[r % 10, 2 * j]]
            y = m[_SIGMA[r % 10, 2 * j + 1]]
            v[a] = v[a] + v[b] + x
            v[d] = _rotr(v[d] ^ v[a], _ROT[0])
            v[c] = v[c] + v[d]
            v[b] = _rotr(v[b] ^ v[c], _ROT[1])
            v[a] = v[a] + v[b] + y
            v[d] = _rotr(v[d] ^ v[a], _ROT[2])
            v[c] = v[c] + v[d]
            v[b] = _rotr(v[b] ^ v[c], _ROT[3])
    for i in range(4):
        out[i] = h0[i] ^ v[i] ^ v[i + 8]


@inner
def _digits(x, text, n):
    """Append the decimal digits of ``x >= 0`` to ``text[:n]``; the new length."""
    k = 1
    while x // k >= 10:
        k *= 10
    while k > 0:
        text[n] = 48 + (x // k) % 10
        n += 1
        k //= 10
    return n


@njit(cache=True)
def opponent_generator(agent_prefix, game_seed, seat, g):
    """Set ``g`` (six words) to ``agent_rng(agent_seed, game_seed, seat)``'s PCG64."""
    text = np.empty(_MAX_TEXT, dtype=np.uint8)
    n = agent_prefix.shape[0]
    for i in range(n):
        text[i] = agent_prefix[i]
    n = _digits(game_seed, text, n)
    text[n] = 44  # ","
    n = _digits(seat, text, n + 1)
    digest = np.empty(4, dtype=np.uint64)
    blake2b_256(text, n, digest)
    ent = np.empty(8, dtype=np.uint32)
    for k in range(8):
        ent[k] = uint32((digest[k // 2] >> uint64(32 * (k % 2))) & uint64(0xFFFFFFFF))
    words = 8
    while words > 1 and ent[words - 1] == 0:  # an int's words, high zeros dropped (numpy)
        words -= 1
    pcg64_from_entropy(ent, words, g)
