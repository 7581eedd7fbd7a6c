"""Agent randomness that reveals nothing about the game's chance.

A game's deals come from its *game seed*; an agent must not be able to learn that seed from the
generator it is handed (``rng.bit_generator.seed_seq.entropy``, ``spawn_key`` and ``state`` are
all readable). So an agent's generator is seeded by a one-way hash (BLAKE2b) of an independent
*agent seed* and the game's key (game seed, seat, and whatever else the caller needs, e.g. the
decision index in the GUI). What an agent can read is a 256-bit digest: recovering the game seed
from it means guessing the agent seed as well.

The agent seed is drawn from OS entropy for every run (:func:`new_agent_seed`, 128 bits) unless
the user pins one to re-run exactly; callers record it with the run (the results store, a save)
so resuming and replaying give the same decisions. A pinned agent seed is only as secret as it is
hard to guess: pin a recorded, drawn one rather than ``0``.

Everything here is a pure function of integers, so serial, pool and Ray runs agree. It lives
with the engine so that the environments derive their opponents' generators the same way as
tournaments do (``agent_rng(agent_seed, game_seed, seat)``, the env's own agent seed).

>>> a = agent_rng(12345, 7, 0)
>>> b = agent_rng(12345, 7, 0)
>>> int(a.integers(1 << 30)) == int(b.integers(1 << 30))
True
>>> agent_rng(12345, 7, 0).bit_generator.seed_seq.entropy == 7
False
"""

from __future__ import annotations

import hashlib
import secrets

import numpy as np

#: bits of a drawn agent seed.
AGENT_SEED_BITS = 128
PERSON = b"cribbage-agents"  # domain separation: these digests are agent streams only


def new_agent_seed() -> int:
    """A fresh agent seed from the operating system's entropy (record it to re-run exactly)."""
    return secrets.randbits(AGENT_SEED_BITS)


def check_agent_seed(value: object) -> int:
    """``value`` if it is a usable agent seed (an integer ``0 <= value < 2**128``), else ValueError."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value < 1 << AGENT_SEED_BITS
    ):
        raise ValueError(
            f"an agent seed is an integer from 0 to 2**{AGENT_SEED_BITS} - 1, got {value!r}"
        )
    return value


def agent_entropy(agent_seed: int, *key: int) -> int:
    """The 256-bit BLAKE2b digest of the agent seed and ``key`` (one agent's stream).

    >>> agent_entropy(1, 2, 3) == agent_entropy(1, 2, 3) != agent_entropy(1, 23)
    True
    """
    check_agent_seed(agent_seed)
    text = ",".join(str(int(k)) for k in (agent_seed, *key)).encode("ascii")
    return int.from_bytes(hashlib.blake2b(text, digest_size=32, person=PERSON).digest(), "little")


def agent_rng(agent_seed: int, *key: int) -> np.random.Generator:
    """The generator handed to an agent: ``key`` names the stream, e.g. ``(game_seed, seat)``.

    Tournaments use ``agent_rng(agent_seed, game_seed, seat)``; the GUI adds the decision index
    so undo/redo and restart replay the computer's choices exactly.
    """
    return np.random.Generator(np.random.PCG64(agent_entropy(agent_seed, *key)))


def keyed_seed(seed: int, key: int) -> int:
    """The game seed of ``seed`` dealt from a secret ``key`` (``SeedSequence((key << 64) |
    seed, spawn_key=(0,))``, as a keyed tournament's first game): a player who knows or
    guesses ``seed`` but not ``key`` cannot replay the deal.

    >>> keyed_seed(5, 1) == keyed_seed(5, 1) != keyed_seed(5, 2)
    True
    """
    child = np.random.SeedSequence((int(key) << 64) | int(seed), spawn_key=(0,))
    return int(child.generate_state(1, np.uint64)[0]) >> 1


def new_deal_key() -> int:
    """A fresh 128-bit deal key from the operating system's entropy."""
    return secrets.randbits(128)


def deals_from_secret(*agents: object) -> bool:
    """Must a game with ``agents`` be dealt from a secret key? Yes when one of them plays
    outside this process (a sealed seat, a protocol bot: its ``secret_deals`` is true), since
    it may know the public derivation of deals from a seed."""
    return any(getattr(a, "secret_deals", False) for a in agents)
