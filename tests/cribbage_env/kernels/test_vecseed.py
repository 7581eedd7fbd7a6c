"""The compiled seeding draws exactly numpy's: ``PCG64(seed)``, ``SeedSequence`` spawn keys,
``Chance(seed).block``, the first cut's dealer and ``episode_seed`` (the batched env's new
games are CribbageEnv's, game for game)."""

from __future__ import annotations

import numpy as np
import pytest

from cribbage_env.envs.episode import episode_seed
from cribbage_env.kernels import vecseed
from cribbage_env.kernels.simrng import pcg64_words
from cribbage_env.kernels.veckernel import draw_deck
from cribbage_env.rules.chance import Chance
from cribbage_env.rules.engine import new_game

SEEDS = [0, 1, 5, 2**32 - 1, 2**32, 2**63 - 2, 123456789012345] + [
    int(s) for s in np.random.default_rng(1).integers(0, 2**63 - 1, 60)
]


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_matches_numpy(seed: int) -> None:
    g = np.zeros(6, dtype=np.uint64)
    vecseed.pcg64_seed(seed, 0, 0, False, g)
    assert g.tolist() == pcg64_words(seed).tolist()
    deck = np.zeros(13, dtype=np.int64)
    for block in (0, 1, 3):
        vecseed.pcg64_seed(seed, 1, block, True, g)
        for row in Chance(seed).block(block):
            draw_deck(g, deck)
            assert deck.tolist() == row[:13]
    assert vecseed.first_dealer(seed, g) == new_game(seed).dealer
    r = np.random.Generator(np.random.PCG64(seed))
    w = pcg64_words(seed)
    for _ in range(3):
        assert vecseed.seed_below_2_63(w) == episode_seed(r)


def test_first_cut_ties_recut() -> None:
    """Seeds whose first cut ties (R2.2) recut with the next attempt's generator."""
    g = np.zeros(6, dtype=np.uint64)
    tied = [
        s for s in range(400) if Chance(s).first_cut(0)[0] % 13 == Chance(s).first_cut(0)[1] % 13
    ]
    assert tied
    for s in tied:
        assert vecseed.first_dealer(s, g) == new_game(s).dealer
