"""Win-aware play: the objective knob of expert and expectimax, and the table's point weights."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import AgentSpecError
from agents.registry import make_agent
from agents.search.peg_search import play_out
from cribbage_env.equity import end_value, point_weights, win_probability
from cribbage_env.rules.cards import parse_cards
from cribbage_env.rules.engine import GameState


def test_objective_knob_and_its_errors():
    assert make_agent("expert:objective=equity").objective == "equity"
    assert "objective=equity" in make_agent("expert:objective=equity").spec
    assert make_agent("expert").objective == "equity"  # win-aware by default
    assert make_agent("expectimax:objective=equity").equity
    for spec in ("expert:objective=margin", "expectimax:objective=wins"):
        with pytest.raises((AgentSpecError, ValueError), match="objective"):
            make_agent(spec)


def test_point_weights_average_one_and_follow_the_table():
    for a, b, d in [(0, 0, True), (40, 70, False), (85, 60, True)]:
        w_me, w_opp = point_weights(a, b, d)
        assert w_me + w_opp == pytest.approx(2.0) and w_me > 0 and w_opp > 0
        # Against a direct finite difference of the table at the board after the deal.
        me, opp = a + (16 if d else 10), b + (10 if d else 16)
        dm = win_probability(me + 3, opp, dealer=not d) - win_probability(me - 3, opp, dealer=not d)
        do = win_probability(me, opp - 3, dealer=not d) - win_probability(me, opp + 3, dealer=not d)
        assert w_me / w_opp == pytest.approx(dm / do, rel=1e-9)
    assert point_weights(110, 100, True) == (1.0, 1.0)  # near the end: the play-outs decide


def _position(scores):
    return GameState.from_position(
        [parse_cards("5H 9C 8C 7C"), parse_cards("5D KS QS JH")],
        parse_cards("AH 2H 3H 4D"),
        parse_cards("6S")[0],
        dealer=0,
        scores=scores,
    )


def test_play_out_with_an_objective_scores_the_end_state():
    g = _position((60, 50))
    ref = g.clone()
    v = play_out(g, 1, parse_cards("5D")[0], value=end_value)
    assert v == pytest.approx(end_value(g, 1)) and 0 < v < 1
    assert play_out(ref, 1, parse_cards("5D")[0]) == (g.scores_[1] - g.scores_[0]) - (50 - 60)


def test_win_aware_expert_plays_the_winning_card():
    g = _position((119, 120))
    g.apply(parse_cards("5D")[0])
    agent = make_agent("expert:objective=equity,sims=8")
    assert agent.act(g.view(0), np.random.default_rng(0)) == parse_cards("5H")[0]


def test_compiled_and_engine_play_outs_agree_on_the_equity_objective():
    from agents.search.peg_search import sample_guesses, search_play

    g = _position((100, 104))
    g.apply(parse_cards("5D")[0])
    view = g.view(0)
    guesses = sample_guesses(view, np.random.default_rng(3), 12)
    fast = search_play(view, None, 12, 0.0, "heuristic", guesses, objective="equity")
    slow = search_play(view, None, 12, 0.0, None, guesses, objective="equity")
    assert [e.card for e in fast] == [e.card for e in slow]
    assert [e.value for e in fast] == pytest.approx([e.value for e in slow], abs=1e-12)
    assert all(0.0 <= e.value <= 1.0 for e in fast)
