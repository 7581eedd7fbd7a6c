"""Fresh game seeds for the table, from the operating system's entropy.

A game is a pure function of its seed (the deals) and its decisions, so whoever knows the seed
knows every card. A seed from the clock (``time_ns() % 2e9``) can be found by trying the few
billion candidates against the cards one can see; a seed of 63 bits from :mod:`secrets` cannot.
The seed is still recorded in the autosave and the game record, so Continue, Restart and
``cribbage replay`` give the same deals.
"""

from __future__ import annotations

import secrets

#: Bits of a fresh game seed: every seed fits the results store's 64-bit integers.
GAME_SEED_BITS = 63


def new_game_seed() -> int:
    """A seed nobody can guess from the table (record it to replay the game).

    >>> 0 <= new_game_seed() < 2**63
    True
    """
    return secrets.randbits(GAME_SEED_BITS)
