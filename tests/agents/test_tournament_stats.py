"""Tournament math against hand-computed values: Wilson interval, mean CI, Bradley-Terry/Elo."""

from __future__ import annotations

import math

import pytest

from agents.stats import RatingError, bradley_terry, elo_ratings, mean_ci, wilson_interval


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        # Closed forms: 0/n -> (0, z^2/(n+z^2)); n/n -> (n/(n+z^2), 1); z = 1.959964.
        (0, 10, 0.0, 3.841459 / 13.841459),
        (10, 10, 10 / 13.841459, 1.0),
        # Worked by hand: centre (p + z^2/2n)/(1 + z^2/n), half z*sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n).
        (8, 10, 0.4902, 0.9433),
        (5, 10, 0.2366, 0.7634),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_matches_hand_computed_values(wins, n, low, high) -> None:
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_interval_rejects_impossible_counts_and_handles_no_games() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="wins"):
        wilson_interval(11, 10)


def test_mean_ci_uses_sample_sd_and_normal_quantile() -> None:
    # values 2, 4, 6, 8: mean 5, sample var 20/3, se = sqrt(20/3/4) = 1.290994
    mean, lo, hi = mean_ci([2, 4, 6, 8])
    assert mean == 5
    assert hi - mean == pytest.approx(1.959964 * 1.290994, rel=1e-6)
    assert mean - lo == pytest.approx(hi - mean)


def test_bradley_terry_two_players_is_the_win_ratio() -> None:
    s = bradley_terry({("a", "b"): 3, ("b", "a"): 1}, prior=0)
    assert s["a"] / s["b"] == pytest.approx(3.0)
    elo = elo_ratings({("a", "b"): 3, ("b", "a"): 1}, prior=0)
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo["a"] + elo["b"] == pytest.approx(0.0)


def test_bradley_terry_three_players_recovers_consistent_strengths() -> None:
    # Strengths 4 : 2 : 1 fit these counts exactly (a-b 20-10, b-c 20-10, a-c 40-10), so the
    # maximum-likelihood ratings are 400*log10(2) = 120.41 apart per step.
    wins = {
        ("a", "b"): 20,
        ("b", "a"): 10,
        ("b", "c"): 20,
        ("c", "b"): 10,
        ("a", "c"): 40,
        ("c", "a"): 10,
    }
    elo = elo_ratings(wins, prior=0, anchor="c")
    assert elo["c"] == 0
    assert elo["b"] == pytest.approx(120.41, abs=0.01)
    assert elo["a"] == pytest.approx(240.82, abs=0.01)


def test_prior_splits_virtual_games_so_a_clean_sweep_stays_finite() -> None:
    with pytest.raises(RatingError, match="never lost"):
        bradley_terry({("a", "b"): 5}, prior=0)
    elo = elo_ratings({("a", "b"): 5}, prior=1)  # 5.5 : 0.5 -> ratio 11
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(11))
    elo = elo_ratings({("a", "b"): 3, ("b", "a"): 1}, prior=1)  # 3.5 : 1.5
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(7 / 3))


def test_ratings_need_connected_players() -> None:
    with pytest.raises(RatingError, match="linked"):
        bradley_terry({("a", "b"): 1, ("b", "a"): 1, ("c", "d"): 1, ("d", "c"): 1})
