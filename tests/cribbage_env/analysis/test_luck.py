"""Luck of chance events and luck-adjusted results: zero mean, unbiasedness, the
report's shape, the store's round trip (old files too) and exact resumes."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

import cribbage_env as ce
from agents.bench import resume_tournament, run_tournament
from agents.store.results_store import ResultsStore
from agents.tournament.game_result import GameResult, SeatStats
from agents.tournament.luck_stats import LuckTally
from agents.tournament.play import play_game, result_of
from cribbage_env.analysis.luck import cut_luck, deal_luck_values, game_luck, luck_of, starter_luck


def _at_first_starter(seed: int) -> ce.GameState:
    """A game just before its first starter is turned (both discards made but the dealer's)."""
    g = ce.new_game(seed)
    g.apply(g.legal_actions()[0])
    return g


def test_starter_luck_is_exactly_zero_over_the_forty_starters() -> None:
    g = _at_first_starter(5)
    dealer = g.dealer
    hands = [list(h) for h in g.hands]
    a = g.legal_actions()[3]
    g.apply(a)
    kept, crib = [list(k) for k in g.kept], list(g.crib)
    dealt = {*kept[0], *kept[1], *crib}
    starters = [c for c in range(52) if c not in dealt]
    assert len(starters) == 40 and g.starter in starters and hands
    lucks = np.array([starter_luck(kept, crib, dealer, (0, 0), s, 121) for s in starters])
    assert np.abs(lucks.sum(axis=0)).max() < 1e-9  # the exact mean over the true distribution
    assert lucks[:, 0].std() > 0.005  # and it is not zero for each starter


def test_cut_luck_is_zero_mean_and_favours_the_first_dealer() -> None:
    for target in (121, 61):
        a, b = cut_luck(0, target), cut_luck(1, target)
        assert a == pytest.approx(-b) and a > 0


def test_deal_luck_has_mean_zero_over_true_deals() -> None:
    """Deals drawn like the engine's (a uniform shuffle), independently of the luck's re-deals:
    the mean luck is within 3 standard errors of 0, though single deals vary a lot."""
    rng = np.random.default_rng(2027)
    n = 600
    decks = np.argsort(rng.random((n, 52)), axis=1)
    vals = []
    for i, deck in enumerate(decks):
        hands = [deck[0:12:2].tolist(), deck[1:12:2].tolist()]  # seat 0 is the pone
        vals.append(deal_luck_values(i, 1, hands, 1, (40, 52), 121))
    v = np.array(vals)
    mean, se = v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(n)
    assert v[:, 0].std() > 0.02
    assert np.all(np.abs(mean) < 3 * se), (mean, se)


def test_game_luck_is_deterministic_and_a_post_pass_equals_it() -> None:
    g = play_game("greedy", "random", 11, 3)
    luck = game_luck(g)
    assert luck == game_luck(g) == luck_of(g.seed, g.decisions)
    assert len(luck.deals) == g.deal_no + 1
    assert luck.win == pytest.approx(luck.cut + sum(d.cards + d.starter for d in luck.deals))
    short = ce.new_game(11, rules="short")
    while not short.is_over:
        short.apply(short.legal_actions()[0])
    assert len(game_luck(short).deals) == short.deal_no + 1  # the 61 table


@pytest.mark.integration  # 160 whole games with their luck: a statistical run
def test_adjusted_estimate_is_unbiased_for_an_agent_against_itself() -> None:
    """Single games of greedy against itself: the true rate is 1/2; the adjusted mean over
    many games is within its interval, with a smaller variance than the plain one."""
    t = LuckTally()
    for i in range(160):
        g = play_game("greedy", "greedy", 1000 + i, i)
        t.add(result_of(g, 0, i, bool(i % 2)))
    s = t.summary()
    assert s is not None and s["units"] == 160
    assert s["win_ci"][0] <= 0.5 <= s["win_ci"][1]
    assert s["variance_ratio"] > 1.0


def _result(index: int, swapped: bool, winner: int, luck) -> GameResult:
    z = SeatStats()
    return GameResult(0, index, swapped, 1, winner, (121, 100) if winner == 0 else (100, 121),
                      0, 8, (z, z), (), luck=luck)  # fmt: skip


def test_luck_tally_pairs_games_and_subtracts_agent_a_luck() -> None:
    t = LuckTally()
    t.add(_result(0, False, 0, (0.25, 5.0)))  # A in seat 0 won, lucky by 0.25
    t.add(_result(0, True, 0, (0.25, 5.0)))  # A in seat 1 lost; seat 0 (B) lucky by 0.25
    t.add(_result(1, False, 1, None))  # not measured: its pair is left out
    t.add(_result(1, True, 1, (0.0, 0.0)))
    s = t.summary()
    assert s is not None and s["units"] == 1 and s["games_without_luck"] == 1
    # A: (1 - 0.25) and (0 + 0.25): pair mean 0.5; margins (21 - 5) and (-21 + 5): 0
    assert s["win"] == 0.5 and s["margin"] == 0.0 and s["plain_win"] == 0.5


def test_no_variance_ratio_from_a_zero_variance_and_too_few_pairs_say_so() -> None:
    """A wins every game: the plain variance is zero, so there is no ratio (not 0.00); the
    adjusted win may leave [0, 1] (unbiased, not bounded) and, below MIN_UNITS pairs, the
    report says there are too few games instead of printing it."""
    from agents.tournament.luck_stats import MIN_UNITS
    from ui.reports.bench_report import format_luck

    t = LuckTally()
    for i in range(2):  # two pairs, A wins all four games, unlucky in each
        t.add(_result(i, False, 0, (-0.1, -3.0)))
        t.add(_result(i, True, 1, (0.1 + 0.05 * i, 3.0)))
    s = t.summary()
    assert s is not None and s["plain_win"] == 1.0 and s["win"] > 1.0  # unbiased, unbounded
    assert s["variance_ratio"] is None and s["too_few"] and s["units"] == 2 < MIN_UNITS
    name = "maskable_ppo:path=a/very/long/run/name/weights.zip"
    lines = format_luck({"pairings": [{"agents": [name, "random"], "luck_adjusted": s}]})
    (row,) = [t for t in lines if t.startswith(name + " vs random")]  # the name is never cut
    assert f"too few games: 2 duplicate pairs, the estimate needs {MIN_UNITS}" in row
    assert "unbiased" in "\n".join(lines) and "[0, 100%]" in "\n".join(lines)
    assert "%" not in row and "0.00" not in row
    for i in range(2, MIN_UNITS):  # enough pairs: the figures are shown
        t.add(_result(i, False, int(i % 3 == 0), (0.02 * (i % 5), 1.0)))
        t.add(_result(i, True, 1, (-0.01 * (i % 4), -1.0)))
    s = t.summary()
    assert s is not None and not s["too_few"] and s["variance_ratio"] > 0
    lines = format_luck({"pairings": [{"agents": [name, "random"], "luck_adjusted": s}]})
    (row,) = [t for t in lines if t.startswith(name + " vs random")]
    assert "too few" not in row and f"{100 * s['win']:5.1f}" in row


def test_bench_json_has_the_luck_adjusted_block() -> None:
    run = run_tournament(["greedy", "random"], 8, seed=3, agent_seed=1, backend="serial")
    la = run.summary["pairings"][0]["luck_adjusted"]
    assert set(la) >= {"win", "win_ci", "margin", "margin_ci", "variance_ratio"}
    assert la["win_ci"][0] <= la["win"] <= la["win_ci"][1]
    assert la["margin_ci"][0] <= la["margin"] <= la["margin_ci"][1]
    assert la["games"] == 8 and la["units"] == 4


def test_store_round_trip_keeps_luck_and_reads_old_files(tmp_path) -> None:
    path = tmp_path / "r.sqlite"
    run = run_tournament(["greedy", "random"], 4, seed=3, agent_seed=1, backend="serial",
                         store=path, keep_results=True)  # fmt: skip
    with ResultsStore(path) as db:
        games = db.games(run.run_id)
    assert games == list(run.results) and all(g.luck is not None for g in games)
    # An old file: the games table without the luck columns (as schema 1 made it).
    con = sqlite3.connect(path)
    with con:
        con.execute("ALTER TABLE games DROP COLUMN luck_win")
        con.execute("ALTER TABLE games DROP COLUMN luck_points")
    con.close()
    with ResultsStore(path) as db:
        old = db.games(run.run_id)
        assert [g.luck for g in old] == [None] * 4
        db.add_games(run.run_id, run.results[:1])  # the columns came back: writes work
        assert {r[1] for r in db._db.execute("PRAGMA table_info(games)")} >= {"luck_win"}


def test_resume_keeps_the_luck_adjusted_result_exact(tmp_path) -> None:
    full = run_tournament(["greedy", "random"], 12, seed=5, agent_seed=2, block=2,
                          backend="serial")  # fmt: skip
    path = tmp_path / "r.sqlite"
    calls = []

    def stop_after_two(block) -> bool:
        calls.append(block)
        return len(calls) < 2

    part = run_tournament(["greedy", "random"], 12, seed=5, agent_seed=2, block=2,
                          backend="serial", store=path, on_block=stop_after_two)  # fmt: skip
    assert part.status == "interrupted"
    done = resume_tournament(part.run_id, path, backend="serial")
    assert done.status == "complete"
    a, b = full.summary["pairings"][0], done.summary["pairings"][0]
    assert a["luck_adjusted"] == b["luck_adjusted"] and a["luck_adjusted"]["games"] == 12


def test_the_guide_snippet_runs(capsys) -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs/guide/luck.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(code, "luck.md", "exec"), {})
    assert "luck-adjusted result" in capsys.readouterr().out


def test_bench_stops_once_the_interval_is_narrow_enough(tmp_path, capsys) -> None:
    from ui.cli.cli import main

    db = tmp_path / "r.sqlite"
    code = main(["bench", "greedy", "random", "--ci-width", "0.9", "--games", "400", "--block",
                 "5", "--backend", "serial", "--db", str(db), "--json", "--seed", "2"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["run"]["status"] == "complete" and "stopped" in out["run"]
    assert out["games_played"] < 400
    la = out["pairings"][0]["luck_adjusted"]
    assert la["win_ci"][1] - la["win_ci"][0] < 0.9
    with ResultsStore(db) as store:
        assert store.run(out["run"]["id"])["status"] == "complete"


def test_stopping_rules_need_a_new_head_to_head(capsys) -> None:
    from ui.cli.cli import main

    assert main(["bench", "greedy", "random", "expectimax", "--until-separated"]) == 2
    assert "exactly two agents" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:  # argparse: one line on stderr, exit code 2
        main(["bench", "greedy", "random", "--ci-width", "2"])
    assert exc.value.code == 2 and "between 0 and 1" in capsys.readouterr().err
