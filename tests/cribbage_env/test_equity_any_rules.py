"""Winning chances for any rules: every target up to 121 reads the corner of the 121 table
(a position is the points each side still needs); rules with no table (a target above 121)
make the expert, the hint, the review and the chance meter go by points with a one-line
notice, never an exception at the table."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import cribbage_env as ce
from agents.coaching.chance import seat_chance
from agents.review import review_game
from agents.tournament.play import play_game
from cribbage_env import equity
from ui.table.teaching.hints import hint_for

TO_91 = ce.Rules(target=91)
TO_150 = ce.Rules(target=150, skunk=120, double_skunk=90)


def test_the_table_of_a_target_is_the_corner_of_the_121_table() -> None:
    full = equity.dealer_table(121)
    assert np.array_equal(equity.dealer_table(61), full[60:, 60:])  # the shipped 61 table
    assert np.array_equal(equity.dealer_table(TO_91), full[30:, 30:])
    assert equity.win_probability(0, 0, dealer=True, target=TO_91) == pytest.approx(full[30, 30])
    # Solving the same toy traces for two targets gives the same chance per points needed.
    offs, role, pts = np.array([0, 2, 3]), np.array([0, 1, 1]), np.array([2, 1, 3])
    small = equity.solve(*equity.trace_counts(offs, role, pts, 9), 9)
    large = equity.solve(*equity.trace_counts(offs, role, pts, 14), 14)
    np.testing.assert_allclose(small, large[5:, 5:])


def test_which_rules_have_a_table() -> None:
    assert equity.has_table(ce.STANDARD) and equity.has_table(ce.SHORT) and equity.has_table(TO_91)
    assert not equity.has_table(TO_150) and not equity.has_table(150)
    with pytest.raises(equity.EquityError, match="target=150"):
        equity.dealer_table(TO_150)
    assert issubclass(equity.EquityError, ce.CribbageError)


def _mid_play(rules: ce.Rules, seed: int = 3) -> ce.GameState:
    g = ce.new_game(seed, rules=rules)
    while g.phase is not ce.Phase.PLAY:
        g.apply(g.legal_actions()[0])
    return g


@pytest.mark.parametrize("rules", [TO_91, TO_150], ids=["to91", "to150"])
def test_expert_hint_review_and_chances_play_any_rules(rules: ce.Rules) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = play_game("expert:sims=8", "expectimax:objective=equity", 11, agent_seed=1,
                      rules=rules)  # fmt: skip
        assert g.is_over and max(g.scores) >= rules.target
        rng = np.random.default_rng(0)
        start = ce.new_game(4, rules=rules)
        for view in (start.view(start.to_act), _mid_play(rules).view(_mid_play(rules).to_act)):
            options = hint_for(view, rng)
            assert options and options[0].action in view.legal_actions
            chance = seat_chance(view, rng, 8)
            assert (chance is None) is (rules is TO_150)
        review = review_game(g, samples=4, candidates=2)
    notices = [w for w in caught if issubclass(w.category, equity.NoTableWarning)]
    assert bool(notices) is (rules is TO_150)
    assert all(str(w.message) == equity.no_table(rules) for w in notices)
    data = json.loads(json.dumps(review.to_json(), allow_nan=False))
    assert len(review.ratings) > 10 and data["rows"]
    if rules is TO_91:
        assert not review.notice and all(0 <= c <= 1 for c in review.curve)
    else:  # by points: no chance, no flags, the best by points still named
        assert review.notice == equity.no_table(rules) and data["notice"] == review.notice
        assert data["curve"][-1] in (0.0, 1.0) and None in data["curve"]
        assert all(r.flag == "" and r.loss == 0 for r in review.ratings)
