"""Batch show scoring and the exhaustive distribution (R9) against score_hand, an independent
brute-force scorer, and the published table."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force_reference import brute_show

import cribbage_env as ce
from cribbage_env.rules import scoring
from cribbage_env.unseen.batch import (
    N_SHOW_COMBINATIONS,
    BatchInputError,
    distribution_mean,
    rank_points_of_keys,
    score_batch,
    show_distribution,
)

#: Published distribution of 4-card hand + starter scores under hand rules (S. Lumetta,
#: "Amusing Cribbage Facts", lumetta.web.engr.illinois.edu/humor/cribbage.html; also Wikipedia,
#: "Cribbage statistics").
PUBLISHED_HAND = {
    0: 1009008,
    1: 99792,
    2: 2813796,
    3: 505008,
    4: 2855676,
    5: 697508,
    6: 1800268,
    7: 751324,
    8: 1137236,
    9: 361224,
    10: 388740,
    11: 51680,
    12: 317340,
    13: 19656,
    14: 90100,
    15: 9168,
    16: 58248,
    17: 11196,
    18: 2708,
    19: 0,
    20: 8068,
    21: 2496,
    22: 444,
    23: 356,
    24: 3680,
    25: 0,
    26: 0,
    27: 0,
    28: 76,
    29: 4,
}


def _random_rows(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    five = np.array([rng.choice(52, 5, replace=False) for _ in range(n)])
    return five[:, :4], five[:, 4]


def _special_rows() -> tuple[np.ndarray, np.ndarray]:
    """Flushes, nobs, 29 and four-of-a-kind, which random samples rarely hit."""
    from cribbage_env.rules.cards import parse_cards

    rows = [
        "5H 5D 5C JS 5S",
        "2H 4H 7H 9H TC",
        "2H 4H 7H 9H TH",
        "JH 2H 4H 9H 5H",
        "JH 2H 4H 9H 5C",
        "JC 5C 5H 5D 5S",
        "4H 4D 4C 4S 7H",
        "AH 2H 3H 4H 5H",
        "3S 3H 4D 5C 5S",
        "TC JC QC KC AC",
    ]
    cards = np.array([parse_cards(r) for r in rows])
    return cards[:, :4], cards[:, 4]


@pytest.mark.parametrize("crib", [False, True])
def test_r9_batch_equals_score_hand_and_brute_force(crib: bool) -> None:
    """R9.2-R9.6: every row of the batch scorer equals score_hand and the brute-force scorer."""
    hands, starters = _random_rows(3000, seed=1 + crib)
    sh, ss = _special_rows()
    hands = np.concatenate([hands, sh])
    starters = np.concatenate([starters, ss])
    got = score_batch(hands, starters, crib=crib)
    for h, s, g in zip(hands.tolist(), starters.tolist(), got.tolist(), strict=True):
        assert g == brute_show(h, s, crib), (h, s)
        assert g == scoring.score_hand(h, s, crib=crib)


def test_r9_flush_crib_rule_differs_only_for_four_card_flushes() -> None:
    """R9.5: a four-card flush with an off-suit starter scores 4 in hand, 0 in the crib."""
    from cribbage_env.rules.cards import parse_cards

    h = np.array([parse_cards("AH 3H 7H 9H")])  # no fifteen, pair or run
    s = np.array(parse_cards("KC"))
    assert score_batch(h, s).tolist() == [4]
    assert score_batch(h, s, crib=True).tolist() == [0]


def test_rank_points_of_keys_reads_the_scoring_table() -> None:
    keys = np.array(sorted(scoring.RANK_POINTS))
    assert rank_points_of_keys(keys).tolist() == [scoring.RANK_POINTS[int(k)] for k in keys]


@pytest.mark.parametrize(
    "hands, starters, match",
    [
        (np.zeros((2, 3), dtype=int), np.zeros(2, dtype=int), "shape"),
        (np.array([[0, 1, 2, 3]]), np.array([4, 5]), "starters"),
        (np.array([[0, 1, 2, 52]]), np.array([4]), "0..51"),
        (np.array([[0, 1, 2, 3]]), np.array([3]), "repeats"),
        (np.array([[0.0, 1, 2, 3]]), np.array([4]), "integers"),
    ],
)
def test_batch_rejects_bad_arrays(hands, starters, match) -> None:
    with pytest.raises(BatchInputError, match=match):
        score_batch(hands, starters)


def test_r9_hand_distribution_matches_published_table() -> None:
    """R9: all 12,994,800 (hand, starter) pairs give the published table and mean 4.769152."""
    dist = ce.show_distribution()  # the public name
    assert dist == PUBLISHED_HAND
    assert sum(dist.values()) == N_SHOW_COMBINATIONS
    assert round(distribution_mean(dist), 6) == 4.769152


def test_r9_5_crib_distribution_totals_and_published_zero_count() -> None:
    """R9.5: under crib rules 1,022,208 combinations score zero (published, Wikipedia
    "Cribbage statistics"); only four-card flushes move, so high scores are unchanged."""
    crib = show_distribution(crib=True)
    hand = show_distribution()
    assert sum(crib.values()) == N_SHOW_COMBINATIONS
    assert crib[0] == 1_022_208
    assert crib[29] == 4 and crib[28] == 76
    assert distribution_mean(crib) < distribution_mean(hand)
