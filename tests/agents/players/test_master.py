"""The ``master`` agent: its knobs, its budget, its discard candidates and the
policy-based inference from the opponent's plays. Legal moves, determinism and deciding from
the view alone are checked for every registered agent, master included, in tests/agents/players/test_agents.py."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents import AGENTS, LEVELS, AgentSpecError, make_agent
from agents.players.master import PLAYOUT_MS, MasterAgent
from agents.players.neural import DEFAULT_WEIGHTS
from agents.search.inference import _rank_scores, play_log_likelihood, play_steps
from agents.search.opponent_model import sample_modelled_arrays
from agents.search.peg_search import DANGER_COUNTS
from cribbage_env.rules.cards import VALUE, parse_cards
from cribbage_env.rules.core import Phase
from cribbage_env.rules.pegging import score_play


def test_master_is_registered_and_the_top_level() -> None:
    assert "master" in AGENTS
    assert list(LEVELS)[-1] == "master" and LEVELS["master"].spec == "master"
    assert make_agent("master").name == "master"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("master:worlds=0", "worlds must be an integer in 1..5000; got '0'"),
        ("master:time_ms=-1", "time_ms must be a finite number in 0..60000; got '-1'"),
        ("master:play_tau=nan", "play_tau must be a finite number in 0..100; got 'nan'"),
        ("master:rollout=random", "rollout must be one of heuristic, expectimax; got 'random'"),
        ("master:endgame=200", "endgame must be an integer in 0..121; got '200'"),
        ("master:path=/nonexistent/w.npz", "no weights file at /nonexistent/w.npz"),
        ("master:sims=5", "master has no parameter 'sims'"),
    ],
)
def test_bad_knobs_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as exc:
        make_agent(spec)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_path_loads_the_named_weights() -> None:
    a = make_agent(f"master:path={DEFAULT_WEIGHTS}")
    b = make_agent("master")
    x = np.ones((3, a._neural.discard_net.in_dim), dtype=np.float32)
    assert np.array_equal(a._neural.discard_net.score(x), b._neural.discard_net.score(x))


def test_the_time_budget_caps_the_worlds() -> None:
    free = MasterAgent(worlds=4000, time_ms=0)
    assert free.budget(4, model=True) == 4000
    capped = MasterAgent(worlds=4000, time_ms=10)
    n = capped.budget(4, model=False)
    assert n == int(10 / (4 * PLAYOUT_MS[capped.rollout])) and n < 4000
    assert MasterAgent(worlds=5, time_ms=0.001).budget(4, model=True) == 5
    assert MasterAgent(worlds=50, time_ms=0.001).budget(4, model=True) == 8


def _game_until(seed: int, phase: Phase, stop) -> ce.GameState:
    g = ce.new_game(seed)
    agent, rng = make_agent("expectimax"), np.random.default_rng(seed)
    while not g.is_over:
        v = g.view(g.current_player)
        if v.phase is phase and stop(v):
            return g
        g.apply(agent.act(v, rng))
    raise AssertionError("no such position")


def test_discard_options_lead_with_the_nets_choice_mid_game() -> None:
    """Far from the end the first option is the net's pick among the analyzer's five best
    (what ``neural`` plays), and every option is a legal discard once."""
    master, neural = make_agent("master"), make_agent("neural")
    for seed in range(4):
        g = ce.new_game(seed)
        v = g.view(g.current_player)
        opts = master.hint(v, np.random.default_rng(0), top=15).options
        assert opts[0].action == neural.act(v, np.random.default_rng(0))
        assert sorted(o.action for o in opts) == sorted(v.legal_actions)


def test_near_the_end_discards_are_ranked_by_winning_chance() -> None:
    g = _game_until(3, Phase.DISCARD, lambda v: max(v.scores) >= 95)
    v = g.view(g.current_player)
    opts = make_agent("master").hint(v, np.random.default_rng(1), top=15).options
    head = [o for o in opts if "winning chance after the deal" in o.reason]
    assert 2 <= len(head) <= 4 and list(opts[: len(head)]) == head
    assert all(0.0 <= o.value <= 1.0 for o in head)
    assert [o.value for o in head] == sorted((o.value for o in head), reverse=True)


def test_play_steps_rebuild_each_count_the_opponent_played_at() -> None:
    """Independent reference: the count and sequence the engine showed the opponent when it
    laid each card (its own view then) give the same rank scores as the rebuilt ones."""
    checked = 0
    for seed in range(12):
        g = ce.new_game(seed)
        agent, rng = make_agent("greedy"), np.random.default_rng(seed)
        seen: dict[int, list[tuple[int, tuple[int, ...], int]]] = {0: [], 1: []}
        while not g.is_over and g.deal_no == 0:
            p = g.current_player
            v = g.view(p)
            a = agent.act(v, rng)
            if v.phase is Phase.PLAY:
                seen[p].append((a, v.sequence, v.count))
            g.apply(a)
            if g.phase is Phase.PLAY and g.current_player is not None:
                me = g.current_player
                steps = play_steps(g.view(me), 1 - me)
                assert [s.card for s in steps] == [c for c, _, _ in seen[1 - me]]
                for s, (_, seq, count) in zip(steps, seen[1 - me], strict=True):
                    assert np.array_equal(s.scores, _rank_scores(list(seq), count))
                    checked += 1
    assert checked > 50


def test_rank_scores_are_points_now_with_the_heuristics_terms() -> None:
    seq = parse_cards("5H TD")  # count 15
    s = _rank_scores(seq, 15)
    for r in range(13):
        total = 15 + VALUE[r]
        if total > 31:
            assert s[r] == -np.inf
            continue
        pts = score_play([*seq, r])
        assert s[r] == pytest.approx(pts - DANGER_COUNTS.get(total, 0) + 0.01 * VALUE[r])


def test_play_likelihood_favours_hands_that_explain_the_plays() -> None:
    """The opponent laid a king on a ten (no points) where a ten would have paired (2 points):
    a guess that held a ten then is far less likely than one that did not."""
    from dataclasses import replace

    from cribbage_env.rules.views import PlayerView

    ts, kh = parse_cards("TS KH")
    view = PlayerView.at_deal(
        0, 1, parse_cards("2C 3C 4C"), phase=Phase.PLAY, deal=0, scores=(10, 10),
        to_act=0, kept=(ts, *parse_cards("2C 3C 4C")), discards=tuple(parse_cards("9C 8C")),
        opponent_discarded=True, starter=parse_cards("AH")[0], opponent_cards_left=3,
    )  # fmt: skip
    view = replace(view, played=((0, ts), (1, kh)), sequence=(ts, kh), count=20)
    steps = play_steps(view, 1)
    assert len(steps) == 1 and steps[0].card == kh
    kept = np.array([parse_cards("KH TH 2D 3D"), parse_cards("KH 6D 2D 3D")])
    ll = play_log_likelihood(kept, steps, 1.0)
    assert ll[0] < ll[1] - 0.9 and ll[1] < 0
    # Reference: the softmax of the heuristic over the cards held then (by rank).
    sc = steps[0].scores
    for i, ranks in enumerate([[12, 9, 1, 2], [12, 5, 1, 2]]):
        z = np.array([sc[r] for r in ranks])
        assert ll[i] == pytest.approx(sc[12] - np.log(np.exp(z).sum()))
    assert np.array_equal(play_log_likelihood(kept, steps, 0.0), np.zeros(2))


def test_play_inference_keeps_guesses_consistent_and_changes_them() -> None:
    g = _game_until(
        2, Phase.PLAY, lambda v: sum(p != v.seat for p, _ in v.played) >= 2 and len(v.hand) >= 2
    )
    v = g.view(g.current_player)
    opp_played = {c for p, c in v.played if p != v.seat}
    plain = sample_modelled_arrays(v, np.random.default_rng(4), 200, 0.5)
    inferred = sample_modelled_arrays(v, np.random.default_rng(4), 200, 0.5, play_tau=1.0)
    assert plain is not None and inferred is not None
    unseen = set(v.unseen_cards())
    for hands, discs in (plain, inferred):
        for h, d in zip(hands.tolist(), discs.tolist(), strict=True):
            assert set(h) | set(d) <= unseen and not (set(h) & opp_played)
    assert not np.array_equal(plain[0], inferred[0])
