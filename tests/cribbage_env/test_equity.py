"""The equity tables: the solver against an independent recursion, the shipped table against
positions decided inside the first plays, the API and the CLI."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest

import cribbage_env as ce
from agents.registry import make_agent
from cribbage_env.equity import (
    EquityError,
    dealer_table,
    pone_table,
    solve,
    table_error,
    table_params,
    trace_counts,
    win_probability,
)
from cribbage_env.seeding import agent_rng
from ui.cli.cli import main as cli


def _toy_traces(rng: np.random.Generator, n: int) -> list[list[tuple[int, int]]]:
    """Random short deals: a few scoring events of 1..4 points by either role, at least one."""
    out = []
    for _ in range(n):
        k = int(rng.integers(1, 5))
        out.append([(int(rng.integers(2)), int(rng.integers(1, 5))) for _ in range(k)])
    return out


def _arrays(traces):
    offs = np.zeros(len(traces) + 1, dtype=np.int64)
    offs[1:] = np.cumsum([len(t) for t in traces])
    role = np.array([r for t in traces for r, _ in t])
    pts = np.array([p for t in traces for _, p in t])
    return offs, role, pts


def test_solver_matches_a_direct_recursion_over_the_traces():
    traces = _toy_traces(np.random.default_rng(5), 40)
    target = 9

    @cache
    def dealer_wins(a: int, b: int) -> float:  # replays every trace event by event
        total = 0.0
        for tr in traces:
            s = [a, b]
            for role, p in tr:
                s[role] += p
                if s[role] >= target:
                    total += 1.0 if role == 0 else 0.0
                    break
            else:
                total += 1.0 - dealer_wins(s[1], s[0])
        return total / len(traces)

    e = solve(*trace_counts(*_arrays(traces), target), target)
    ref = np.array([[dealer_wins(a, b) for b in range(target)] for a in range(target)])
    np.testing.assert_allclose(e, ref, atol=1e-12)


def test_trace_counts_add_up_for_every_pair_of_needs():
    traces = _toy_traces(np.random.default_rng(6), 200)
    t = 12
    wd, wp, f = trace_counts(*_arrays(traces), t)
    cum = f.cumsum(axis=0).cumsum(axis=1)
    for nd in range(1, t + 1):
        for np_ in range(1, t + 1):
            assert wd[nd, np_] + wp[np_, nd] + cum[nd - 1, np_ - 1] == len(traces)


def test_a_deal_without_points_is_refused():
    offs, role, pts = np.array([0, 0]), np.array([], dtype=int), np.array([], dtype=int)
    with pytest.raises(EquityError, match="no points"):
        solve(*trace_counts(offs, role, pts, 5), 5)


def test_shipped_table_shape_range_and_the_pone_view():
    d = dealer_table()
    assert d.shape == (121, 121) and np.all((d >= 0) & (d <= 1))
    np.testing.assert_allclose(pone_table(), 1 - d.T)
    assert 0.54 < d[0, 0] < 0.58  # the first dealer's known edge (about 56%)
    se = table_error()
    assert se.shape == d.shape and float(se.max()) < 0.01
    # More points never hurt, up to the Monte-Carlo error.
    assert np.all(np.diff(d, axis=0) > -4 * se[1:] - 1e-3)
    assert np.all(np.diff(d, axis=1) < 4 * se[:, 1:] + 1e-3)
    assert table_params()["deals"] >= 100_000


def test_win_probability_edges_and_errors():
    assert win_probability(121, 0, dealer=True) == 1.0
    assert win_probability(3, 121, dealer=True) == 0.0
    assert win_probability(50, 60, dealer=False) == pytest.approx(1 - dealer_table()[60, 50])
    assert dealer_table(61).shape == (61, 61)
    with pytest.raises(EquityError, match="no winning-chance table for the rules target=200"):
        win_probability(1, 1, dealer=True, target=200)
    with pytest.raises(EquityError, match="both"):
        win_probability(121, 125, dealer=True)
    with pytest.raises(EquityError, match="non-negative"):
        win_probability(-1, 0, dealer=True)


def _first_to(need: int, n: int) -> float:
    """Dealer's win rate over ``n`` real deals of expectimax self-play started with both
    players ``need`` points short of 121: decided by his heels or the first pegging points."""
    agent = make_agent("expectimax")
    wins = 0
    for seed in range(n):
        g = ce.new_game(10_000 + seed)
        g.scores_ = [121 - need, 121 - need]
        rngs = (agent_rng(0, seed, 0), agent_rng(0, seed, 1))
        while not g.is_over:
            p = g.current_player
            g.apply(agent.act(g.view(p), rngs[p]), p)
        assert g.deal_no == 0  # decided inside the first deal
        wins += g.winner == g.dealer
    return wins / n


@pytest.mark.parametrize("need", [1, 2])
def test_table_where_both_need_one_or_two_points(need):
    """An independent derivation: play those deals with the engine from the real scores (the
    agent sees the board and plays to win) and compare with the table built from traces."""
    n = 200
    p = _first_to(need, n)
    t = dealer_table()[121 - need, 121 - need]
    assert abs(p - t) < 4 * np.sqrt(t * (1 - t) / n) + 3 * table_error()[120, 120]
    # His heels alone (a jack turned, 1 in 13) wins for the dealer: a floor, exact.
    assert t > 1 / 13


def test_cli_equity_json_and_table(capsys):
    assert cli(["equity", "100", "110", "--dealer", "opponent", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["win"] == pytest.approx(1 - dealer_table()[110, 100], abs=1e-5)
    assert cli(["equity", "--table", "--json"]) == 0
    tabs = json.loads(capsys.readouterr().out)
    assert len(tabs["dealer"]) == 121 and all(len(r) == 121 for r in tabs["pone"])
    assert tabs["pone"][3][7] == pytest.approx(1 - tabs["dealer"][7][3], abs=2e-5)


@pytest.mark.parametrize(
    "argv", [["equity", "5"], ["equity", "5", "6"], ["equity", "--table", "4", "--dealer", "me"]]
)
def test_cli_equity_bad_input_exits_2(argv, capsys):
    assert cli(argv) == 2
    assert "cribbage equity:" in capsys.readouterr().err


def test_replay_text_gives_the_winning_chance_at_every_deal(tmp_path, capsys):
    from agents.tournament.play import play_game

    g = play_game("greedy", "greedy", 11, agent_seed=0)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    assert cli(["replay", str(path), "--text", "--lang", "en"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    chances = [ln for ln in lines if ln.startswith("Winning chance:")]
    assert len(chances) == g.deal_no + 1
    first_dealer = next(e.player for e in g.events if e.kind is ce.EventKind.DEAL)
    p0 = round(100 * win_probability(0, 0, dealer=first_dealer == 0))
    assert chances[0] == f"Winning chance: {p0}% – {100 - p0}%"
