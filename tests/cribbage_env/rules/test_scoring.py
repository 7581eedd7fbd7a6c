"""Show scoring (R9) and pegging scoring (R7), checked against the brute-force references in
``tests/brute_force_reference.py`` (which share no code with ``cribbage_env.rules.scoring``)."""

from __future__ import annotations

import os
from itertools import combinations
from math import comb

import numpy as np
import pytest
from brute_force_reference import _value, brute_peg, brute_show
from hypothesis import given, settings
from hypothesis import strategies as st

import cribbage_env as ce
from cribbage_env.rules.pegging import play_points_fast
from cribbage_env.rules.scoring import score_fast

P = ce.parse_cards


def card(text: str) -> int:
    return ce.parse_card(text)


# ------------------------------------------------------------------ R9 focused tests
def test_r9_2_fifteens_every_combination_scores_2() -> None:
    assert ce.score_hand(P("5H TD KS QS"), card("2C")) == 6  # 5+T, 5+K, 5+Q
    assert ce.score_hand(P("5H 9D QS JC"), card("2C")) == 4 + 1  # 5+Q, 5+J, and nobs


def test_r9_3_pairs_and_pair_royal_and_double_pair_royal() -> None:
    assert ce.score_hand(P("2H 2D 9C KS"), card("7C")) == 2  # one pair, no fifteen
    assert ce.score_hand(P("AH AD AC 8S"), card("QC")) == 6  # three of a kind: 3 pairs
    assert ce.score_hand(P("AH AD AC AS"), card("QC")) == 12  # four of a kind: 6 pairs


def test_r9_4_double_run_of_three() -> None:
    items = ce.score_hand_breakdown(P("AH AD 2C 3S"), card("7C"))
    runs = [i for i in items if i.kind is ce.ScoreKind.RUN]
    assert [len(i.cards) for i in runs] == [3, 3]
    assert ce.score_hand(P("AH AD 2C 3S"), card("7C")) == 2 + 2 * 3


def test_r9_4_triple_run() -> None:
    assert ce.score_hand(P("AH AD AC 2S"), card("3C")) == 6 + 3 * 3


def test_r9_4_double_double_run() -> None:
    assert ce.score_hand(P("AH AD 2C 2S"), card("3C")) == 2 + 2 + 4 * 3


def test_r9_4_double_run_of_four_and_run_of_five() -> None:
    assert ce.score_hand(P("AH AD 2C 3S"), card("4C")) == 2 + 2 * 4
    assert ce.score_hand(P("AH 2D 3C 4S"), card("5C")) == 2 + 5  # 1+2+3+4+5 = 15, run of 5


def test_r1_3_queen_king_ace_is_not_a_run() -> None:
    assert ce.score_hand(P("QH KD AC 7S"), card("9C")) == 0


def test_r9_5_four_card_flush_counts_in_hand_but_not_in_crib() -> None:
    hand, off_suit = P("2H 4H 6H 8H"), card("KC")  # all even values: no fifteen
    assert ce.score_hand(hand, off_suit) == 4
    assert ce.score_hand(hand, off_suit, crib=True) == 0


def test_r9_5_five_card_flush_counts_in_hand_and_crib() -> None:
    hand, same_suit = P("2H 4H 6H 8H"), card("KH")
    assert ce.score_hand(hand, same_suit) == 5
    assert ce.score_hand(hand, same_suit, crib=True) == 5


def test_r9_5_three_hand_cards_and_starter_of_one_suit_is_no_flush() -> None:
    assert ce.score_hand(P("2H 4H 6H 8C"), card("KH")) == 0


def test_r9_6_nobs_is_the_jack_of_the_starters_suit_in_hand() -> None:
    assert ce.score_hand(P("JH 2C 4D 6S"), card("8H")) == 1
    assert ce.score_hand(P("JH 2C 4D 6S"), card("8S")) == 0
    assert ce.score_hand(P("JH 2C 4D 6S"), card("8H"), crib=True) == 1  # crib too


def test_r5_2_vs_r9_6_a_jack_starter_is_his_heels_not_nobs_in_the_show() -> None:
    # The starter jack earns the dealer 2 at the cut (engine), never nobs in any show.
    assert ce.score_hand(P("2C 4D 6S 8D"), card("JH")) == 0
    kinds = [i.kind for i in ce.score_hand_breakdown(P("2C 4D 6S 8D"), card("JH"))]
    assert ce.ScoreKind.NOBS not in kinds


def test_r9_7_the_29_hand_and_only_four_of_them() -> None:
    assert ce.score_hand(P("5H 5D 5C JS"), card("5S")) == 29
    assert [i.points for i in ce.score_hand_breakdown(P("5H 5D 5C JS"), card("5S"))] == (
        [2] * 8 + [2] * 6 + [1]
    )
    fives = [4 + 13 * s for s in range(4)]
    found = []
    for s in range(4):  # the jack's suit = the starter's suit
        jack = 10 + 13 * s
        five = fives[s]
        hand = [f for f in fives if f != five] + [jack]
        found.append(ce.score_hand(hand, five))
    assert found == [29] * 4


def test_28_hand_four_fives_and_a_ten_card() -> None:
    assert ce.score_hand(P("5H 5D 5C 5S"), card("KC")) == 28


def test_zero_hand() -> None:
    assert ce.score_hand(P("2C 4D 6S 8D"), card("QH")) == 0


def test_breakdown_reads_the_way_players_count() -> None:
    items = ce.score_hand_breakdown(P("AH AD 2C 3S"), card("7C"))
    assert ce.narrate(items) == "a pair is 2, a run of 3 is 5, a run of 3 is 8"


@pytest.mark.parametrize(
    ("hand", "starter"),
    [
        ([30, 17], 4),
        ([30, 17, 4, 43], 4),
        ([30, 17, 4, 4], 43),
        ([30, 17, 4, 60], 5),
        ([30, 17, 4, 43], 30),
    ],
)
def test_score_hand_refuses_bad_input(hand: list[int], starter: int) -> None:
    with pytest.raises(ValueError):
        ce.score_hand(hand, starter)


# ------------------------------------------------------------------ stratified sample vs brute force
N_HANDS = comb(52, 4)
N_COMBINATIONS = N_HANDS * 48
assert N_COMBINATIONS == 12_994_800


def _unrank_hand(index: int) -> list[int]:
    """The ``index``-th 4-card subset of the deck in colexicographic order."""
    out = []
    for k in (4, 3, 2, 1):
        c = k - 1
        while comb(c + 1, k) <= index:
            c += 1
        index -= comb(c, k)
        out.append(c)
    return out


def _combination(index: int) -> tuple[list[int], int]:
    hand_index, starter_index = divmod(index, 48)
    hand = _unrank_hand(hand_index)
    rest = [c for c in range(52) if c not in hand]
    return hand, rest[starter_index]


def _stratified_sample(strata: int, seed: int) -> list[tuple[list[int], int]]:
    """One combination drawn uniformly inside each of ``strata`` equal blocks of all 12,994,800."""
    rng = np.random.default_rng(seed)
    edges = np.linspace(0, N_COMBINATIONS, strata + 1).astype(np.int64)
    return [
        _combination(int(rng.integers(lo, hi)))
        for lo, hi in zip(edges[:-1], edges[1:], strict=True)
    ]


def test_unranking_covers_every_hand_once_at_the_ends() -> None:
    assert _unrank_hand(0) == [3, 2, 1, 0]
    assert _unrank_hand(N_HANDS - 1) == [51, 50, 49, 48]
    assert len({tuple(_unrank_hand(i)) for i in range(5000)}) == 5000


def test_r9_stratified_sample_of_all_hand_starter_pairs_matches_brute_force() -> None:
    sample = _stratified_sample(4000, seed=2024)
    # Strata that a uniform sample rarely hits: flush hands (with and without a matching starter),
    # hands holding the jack of the starter's suit, and hands of five-card rank patterns with
    # many fives and tens (long fifteen counts).
    rng = np.random.default_rng(7)
    for _ in range(400):
        suit = int(rng.integers(4))
        hand = [int(13 * suit + r) for r in rng.choice(13, 4, replace=False)]
        rest = [c for c in range(52) if c not in hand]
        sample.append((hand, rest[int(rng.integers(48))]))
        starter = int(13 * suit + rng.choice([r for r in range(13) if 13 * suit + r not in hand]))
        sample.append((hand, starter))
    for _ in range(400):
        starter = int(rng.integers(52))
        jack = 13 * (starter // 13) + 10
        if jack == starter:
            continue
        others = [c for c in range(52) if c not in (starter, jack)]
        hand = [jack, *(int(c) for c in rng.choice(others, 3, replace=False))]
        sample.append((hand, starter))
    rich = [c for c in range(52) if c % 13 in (3, 4, 5, 9, 10, 11, 12)]
    for _ in range(400):
        five = [int(c) for c in rng.choice(rich, 5, replace=False)]
        sample.append((five[:4], five[4]))
    checked = 0
    for hand, starter in sample:
        for crib in (False, True):
            expected = brute_show(hand, starter, crib)
            assert ce.score_hand(hand, starter, crib) == expected, (
                ce.cards_str(hand),
                ce.card_str(starter),
                crib,
            )
            items = ce.score_hand_breakdown(hand, starter, crib)
            assert sum(i.points for i in items) == expected
            checked += 1
    assert checked >= 2 * 5000


def test_fast_and_checked_scorers_agree_with_brute_force_on_the_29_and_28s() -> None:
    for hand, starter, pts in [
        (P("5H 5D 5C JS"), card("5S"), 29),
        (P("5H 5D 5C 5S"), card("JC"), 28),
        (P("5H 5D 5C JC"), card("5S"), 28),
    ]:
        assert brute_show(hand, starter, False) == pts
        assert score_fast(*hand, starter, False) == pts


# ------------------------------------------------------------------ R7 pegging
def test_r7_1_fifteen_and_thirty_one_score_2() -> None:
    assert ce.score_play(P("TH 5D")) == 2
    assert ce.score_play(P("TH KD AC")) == 0
    assert ce.score_play(P("TH KD 6C 5S")) == 2
    kinds = [i.kind for i in ce.score_play_breakdown(P("TH KD 6C 5S"))]
    assert kinds == [ce.ScoreKind.THIRTY_ONE]


def test_r7_2_pairs_2_6_12_only_at_the_end_of_the_sequence() -> None:
    assert ce.score_play(P("3H 3D")) == 2
    assert ce.score_play(P("3H 3D 3C")) == 6
    assert ce.score_play(P("3H 3D 3C 3S")) == 12
    assert ce.score_play(P("3H 3D 4C")) == 0  # the pair is no longer at the end
    assert ce.score_play(P("3H 4D 3C")) == 0  # not consecutive


def test_r7_3_runs_in_any_order() -> None:
    assert ce.score_play(P("4H 2D 3C")) == 3
    assert ce.score_play(P("2H 4D 3C 5S")) == 4 + 0  # 14: no fifteen
    assert ce.score_play(P("3H 4D 2C 6S 5C")) == 5 + 0  # 20


def test_r7_3_only_the_one_longest_final_run_counts() -> None:
    assert ce.score_play(P("2H 3D 4C 5S")) == 4  # not 3 + 4


def test_r7_3_trap_5_5_4_6_scores_a_run_of_three_in_the_tail() -> None:
    assert ce.score_play(P("5H 5D 4C 6S")) == 3
    run = [i for i in ce.score_play_breakdown(P("5H 5D 4C 6S")) if i.kind is ce.ScoreKind.RUN]
    assert [ce.cards_str(i.cards) for i in run] == ["4C 5D 6S"]


def test_r7_trap_7_8_7_scores_nothing() -> None:
    assert ce.score_play(P("7H 8D 7C")) == 0


def test_r7_3_a_repeated_rank_inside_breaks_the_run() -> None:
    assert ce.score_play(P("3H 4D 4C 5S")) == 0


def test_r7_4_run_and_fifteen_on_one_card() -> None:
    assert ce.score_play(P("4H 6D 5C")) == 2 + 3
    assert ce.score_play(P("KH 7D 7C 7S")) == 2 + 6  # thirty-one and a pair royal


def test_score_play_refuses_bad_sequences() -> None:
    for bad in ([], P("KH KD KC 5S"), [3, 3]):
        with pytest.raises(ValueError):
            ce.score_play(bad)


def _random_sequences(seed: int, n: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        deck = [int(c) for c in rng.permutation(52)]
        seq: list[int] = []
        for c in deck:
            if sum(_value(x) for x in seq) + _value(c) > 31:
                break
            seq.append(c)
            out.append(list(seq))
    return out


def test_r7_score_play_matches_brute_force_on_random_sequences() -> None:
    for seq in _random_sequences(11, 1500):
        expected = brute_peg(seq)
        assert ce.score_play(seq) == expected, ce.cards_str(seq)
        total = sum(_value(c) for c in seq)
        assert play_points_fast(seq, total) == expected, ce.cards_str(seq)


low_ranks = st.lists(st.integers(0, 6), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(low_ranks, st.integers(0, 3))
def test_r7_low_card_sequences_with_many_pairs_and_runs_match_brute_force(
    ranks: list[int], rot: int
) -> None:
    # Low ranks make repeated ranks and runs common; suits rotate to keep the cards distinct.
    used: set[int] = set()
    seq: list[int] = []
    for i, r in enumerate(ranks):
        for k in range(4):
            c = 13 * ((i + k + rot) % 4) + r
            if c not in used:
                break
        else:
            continue
        if sum(_value(x) for x in seq) + _value(c) > 31:
            break
        used.add(c)
        seq.append(c)
    if seq:
        assert ce.score_play(seq) == brute_peg(seq)
        assert play_points_fast(seq, sum(_value(x) for x in seq)) == brute_peg(seq)


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("CRIBBAGE_SLOW") != "1",
    reason="enumerates all 12,994,800 shows (about 10 s); set CRIBBAGE_SLOW=1",
)
def test_r9_full_distribution_matches_the_published_figures() -> None:
    """Mean 4.769152, 76 hands of 28, 4 of 29, 1,009,008 zeros (published figures, not ours)."""
    hist = [0] * 30
    for a, b, c, d in combinations(range(52), 4):
        for s in range(52):
            if s != a and s != b and s != c and s != d:
                hist[score_fast(a, b, c, d, s, False)] += 1
    n = sum(hist)
    assert n == N_COMBINATIONS
    assert (hist[0], hist[28], hist[29]) == (1_009_008, 76, 4)
    assert hist[19] == hist[25] == hist[26] == hist[27] == 0  # scores no hand can make
    assert round(sum(i * k for i, k in enumerate(hist)) / n, 6) == 4.769152


def test_shipped_rank_table_is_the_definition() -> None:
    """data/rank_points.json (shipped so the import is fast) equals the table built from R9.2-R9.4."""
    from cribbage_env.rules.scoring import RANK_POINTS, build_rank_table

    assert RANK_POINTS == build_rank_table()
    assert len(RANK_POINTS) == 1820 + 6175  # multisets of 4 ranks, and of 5 with at most 4 alike
