"""Chance from the seed: every shuffle and cut of one game, derived per deal (RULES R11.1).

A deal's deck is a function of (seed, deal) only, drawn from ``numpy`` generators derived with
``SeedSequence`` spawn keys, so replay, undo and restart reproduce it exactly and a cut's depth
never changes the card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

import numpy as np

#: Deals whose shuffles are drawn from one derived generator (cheap: one generator per block).
_DEALS_PER_BLOCK = 16
_STREAM_DEALS = 1
_STREAM_FIRST_CUT = 2


def check_seed(seed: Any) -> None:
    """A seed is a non-negative int (numpy ints too, bools not)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")


def _generator(seed: int, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


class ChanceSource(Protocol):
    """Where a state's cards come from: :class:`Chance` (the seed's) or a driver's own draws.

    ``first_cut`` is asked only by a game that starts with the cut for the first deal.
    """

    def deck(self, deal: int) -> list[int]: ...

    def first_cut(self, attempt: int) -> tuple[int, int]: ...


class Chance:
    """Every random draw of one game, derived from its seed; shared by clones (read-only).

    >>> c = Chance(5)
    >>> c.deck(3) == Chance(5).deck(3), sorted(c.deck(0)) == list(range(52))
    (True, True)
    """

    __slots__ = ("seed", "_blocks", "_first_cuts")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._blocks: dict[int, list[list[int]]] = {}
        self._first_cuts: list[tuple[int, int]] = []

    def deck(self, deal: int) -> list[int]:
        """Shuffled deck of deal ``deal``: a function of (seed, deal) only."""
        block, row = divmod(deal, _DEALS_PER_BLOCK)
        return self.block(block)[row]

    def block(self, block: int) -> list[list[int]]:
        """The decks of deals ``16 * block`` to ``16 * block + 15``, drawn together (the
        batched env loads them a block at a time)."""
        decks = self._blocks.get(block)
        if decks is None:
            rng = _generator(self.seed, _STREAM_DEALS, block)
            decks = np.argsort(rng.random((_DEALS_PER_BLOCK, 52)), axis=1).tolist()
            self._blocks[block] = decks
        return decks

    def first_cut(self, attempt: int) -> tuple[int, int]:
        """The two cards cut for first deal at attempt ``attempt`` (player 0's, player 1's)."""
        while len(self._first_cuts) <= attempt:
            rng = _generator(self.seed, _STREAM_FIRST_CUT, len(self._first_cuts))
            a, b = rng.choice(52, 2, replace=False).tolist()
            self._first_cuts.append((a, b))
        return self._first_cuts[attempt]


@lru_cache(maxsize=32)
def shared_chance(seed: int) -> Chance:
    """One cached :class:`Chance` per seed, for the many set-up states a search makes."""
    return Chance(seed)
