"""The batched env's compiled opponent generators are ``agent_rng``'s, word for word: the BLAKE2b
digest of the agent seed and the game's key, then numpy's ``PCG64`` of that 256-bit int."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cribbage_env.kernels import vecagent
from cribbage_env.kernels.simrng import pcg64_words
from cribbage_env.seeding import PERSON, agent_entropy

AGENT_SEEDS = [0, 1, 5, 10**12, 2**64, 2**128 - 1] + [
    int(s) for s in np.random.default_rng(3).integers(0, 2**62, 8)
]
GAME_SEEDS = [0, 9, 10, 2**63 - 2] + [
    int(s) for s in np.random.default_rng(4).integers(0, 2**63 - 1, 5)
]


@pytest.mark.parametrize("agent_seed", AGENT_SEEDS)
def test_opponent_generator_is_agent_rngs(agent_seed: int) -> None:
    prefix = vecagent.prefix(agent_seed)
    g = np.zeros(6, dtype=np.uint64)
    for game_seed in GAME_SEEDS:
        for seat in (0, 1):
            vecagent.opponent_generator(prefix, game_seed, seat, g)
            want = pcg64_words(agent_entropy(agent_seed, game_seed, seat))
            assert g.tolist() == want.tolist(), (agent_seed, game_seed, seat)


def test_blake2b_matches_hashlib_at_every_length() -> None:
    out = np.zeros(4, dtype=np.uint64)
    text = np.frombuffer(bytes(range(48, 48 + 128)), dtype=np.uint8)
    for n in range(129):
        vecagent.blake2b_256(text, n, out)
        want = hashlib.blake2b(text[:n].tobytes(), digest_size=32, person=PERSON).digest()
        assert out.astype("<u8").tobytes() == want, n


def test_high_zero_words_are_dropped_as_numpy_drops_them() -> None:
    """numpy seeds from an int's 32-bit words without its high zeros (a digest whose top words
    are zero, once in 2**32 games): two words seed as the 64-bit int they make."""
    ent = np.array([7, 3, 0, 0, 0, 0, 0, 0], dtype=np.uint32)
    g = np.zeros(6, dtype=np.uint64)
    from cribbage_env.kernels.vecseed import pcg64_from_entropy

    pcg64_from_entropy(ent, 2, g)
    assert g.tolist() == pcg64_words(7 + (3 << 32)).tolist()
