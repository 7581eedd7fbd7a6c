"""Skunks are counted by each run's own rules: the lines follow the target (30 and 60 under it)."""

from __future__ import annotations

import json

import pytest

import cribbage_env as ce
from agents.tournament.game_result import GameResult, SeatStats
from agents.tournament.summary import summarize_pairing
from agents.tournament.tournament import Pairing
from ui.cli.cli import main
from ui.reports.bench_plots import score_lines


def _row(index: int, scores: tuple[int, int]) -> GameResult:
    return GameResult(0, index, False, index, 0, scores, 0, 8, (SeatStats(), SeatStats()))


def test_loss_skunks_follow_the_target_of_the_run() -> None:
    # Under the standard lines every one of these losses would be a skunk or a double skunk.
    rows = [_row(0, (91, 75)), _row(1, (91, 61)), _row(2, (91, 60)), _row(3, (91, 30))]
    s = summarize_pairing(Pairing(0, "x", "y"), rows, ce.Rules.named("target=91"))
    assert s["match_points"] == [1 + 1 + 2 + 3, 0]
    assert s["skunks"] == [2, 0] and s["double_skunks"] == [1, 0]


@pytest.mark.parametrize("rules", ["short", "target=91"])
def test_bench_counts_skunks_by_its_rules(tmp_path, capsys, rules: str) -> None:
    argv = ["bench", "random", "random", "--games", "6", "--backend", "serial",
            "--rules", rules, "--db", str(tmp_path / "r.sqlite"), "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    r = ce.Rules.named(rules)
    (p,) = report["pairings"]
    games = _games(tmp_path / "r.sqlite")
    levels = [ce.skunk_level(g.scores, r) for g in games]
    assert len(games) == 6 and all(max(g.scores) >= r.target for g in games)
    assert sum(p["skunks"]) == sum(v >= 2 for v in levels)
    assert sum(p["double_skunks"]) == sum(v == 3 for v in levels)
    assert sum(p["match_points"]) == sum(levels)
    assert sum(p["double_skunks"]) < 6  # random play to 61 would be all double skunks at 91/61


def _games(db_path) -> list[GameResult]:
    from agents.store.results_store import ResultsStore

    with ResultsStore(db_path) as db:
        (run,) = db.runs()
        return list(db.iter_games(run["id"]))


def test_plots_mark_the_lines_of_the_game() -> None:
    assert score_lines(ce.STANDARD) == [(121, "target 121"), (91, "skunk line 91"),
                                        (61, "double skunk 61")]  # fmt: skip
    assert [v for v, _ in score_lines(ce.SHORT)] == [61, 31, 1]
    assert [v for v, _ in score_lines(ce.Rules(target=31))] == [31, 1]
