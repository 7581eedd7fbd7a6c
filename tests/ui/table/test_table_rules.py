"""Every tool at the table reads the game's own rules: the review, the
review screen, the statistics, the chances, the hint, the export and the replay of a game to 61."""

from __future__ import annotations

import json

import numpy as np
import pytest
from random_games import random_game

import cribbage_env as ce
from agents.review import review_game
from cribbage_env.equity import win_probability
from cribbage_env.rules.core import SHORT, STANDARD
from ui.reports.player_stats import HistoryGame, player_stats
from ui.scenes.review_scene import ReviewBrowser
from ui.table.controller import Mode, TableController
from ui.table.saves import SAVE_FORMAT
from ui.table.teaching.chances import ChanceMeter


def short_game(seed: int, rules=SHORT) -> ce.GameState:
    """A quick game between two random players (any legal action, seeded)."""
    return random_game(seed, np.random.default_rng(seed), rules=rules)


@pytest.fixture(scope="module")
def game61() -> ce.GameState:
    return short_game(5)


def test_the_review_of_a_game_to_61_ends_where_the_game_ended(game61) -> None:
    rev = review_game(game61, samples=2)
    assert rev.winner == game61.winner and rev.scores == game61.scores
    assert max(rev.scores) >= 61 and rev.curve[-1] == (1.0 if game61.winner == 0 else 0.0)
    # every decision was rated inside a game to 61: nobody had reached 61 before the last deal
    assert all(max(r.scores) < 61 for r in rev.ratings)


def test_the_review_screen_rebuilds_positions_with_the_games_rules(game61) -> None:
    rev = review_game(game61, samples=2)
    b = ReviewBrowser(rev, game61, mistakes_only=False)
    view, _ = b.position(len(rev.ratings) - 1)
    assert view.rules == SHORT
    assert view.scores == rev.ratings[-1].scores


def _stats_of(games: list[ce.GameState]) -> dict:
    hgs = [HistoryGame(None, g, 0, "random") for g in games]  # type: ignore[arg-type]
    return player_stats(hgs)


def test_statistics_count_skunks_by_each_games_rules() -> None:
    games = [short_game(s) for s in range(6)] + [short_game(s, STANDARD) for s in range(2)]
    st = _stats_of(games)
    want = {"given": 0, "taken": 0, "double_given": 0, "double_taken": 0}
    for g in games:
        level = g.rules.game_points(g.scores)
        won = g.winner == 0
        want["given" if won else "taken"] += level >= 2
        want["double_given" if won else "double_taken"] += level == 3
    assert st["skunks"] == want
    # a 61-point game is never a double skunk (its rules have none)
    assert all(g.rules.game_points(g.scores) <= 2 for g in games[:6])


def test_statistics_keep_61_and_121_games_apart() -> None:
    games = [short_game(s) for s in range(3)] + [short_game(s, STANDARD) for s in range(2)]
    st = _stats_of(games)
    by = st["by_target"]
    assert set(by) == {"61", "121"}
    assert by["61"]["games"] == 3 and by["121"]["games"] == 2
    assert by["61"]["wins"] == sum(g.winner == 0 for g in games[:3])
    assert by["121"]["wins"] == sum(g.winner == 0 for g in games[3:])


def _apart(ctl: TableController) -> tuple[float, float] | None:
    """Seat 0's table chances to 61 and to 121 at a discard, when they differ by > 0.1."""
    if ctl.phase is not ce.Phase.DISCARD or ctl.game.view(0).discards:
        return None
    me, opp = ctl.game.scores
    dealer = ctl.game.dealer == 0
    p61 = win_probability(me, opp, dealer=dealer, target=61)
    p121 = win_probability(me, opp, dealer=dealer, target=121)
    return (p61, p121) if abs(p61 - p121) > 0.1 else None


def test_the_chance_indicator_reads_the_61_table() -> None:
    """Where the scores mean something else in a game to 61 than to 121, the indicator of the
    short game moves the way the 61 table does from the same position read as a game to 121
    (same cards, same guesses)."""
    for seed in range(20):
        ctl = TableController(
            seed, mode=Mode.WATCH, agents=("greedy", "random"), rules="short", agent_seed=1
        )
        while not ctl.game.is_over and (found := _apart(ctl)) is None:
            ctl.show.skip()
            ctl.computer.step()
        if found is not None:
            break
    p61, p121 = found
    std = TableController(seed, mode=Mode.WATCH, agents=("greedy", "random"), agent_seed=1)
    std.resume(ctl.decisions, len(ctl.decisions))
    r61, r121 = (ChanceMeter(on=True).job(c)() for c in (ctl, std))
    assert r61 is not None and r121 is not None
    assert (r61.chance - r121.chance) * (p61 - p121) > 0
    assert abs(r61.chance - r121.chance) > 0.05


def test_the_export_and_replay_of_a_short_table_game_keep_its_rules(tmp_path) -> None:
    ctl = TableController(4, mode=Mode.WATCH, agents=("greedy", "greedy"), rules="short")
    while not ctl.game.is_over:
        ctl.show.skip()
        ctl.computer.step()
    rec = ctl.game.to_record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec))
    from ui.cli.cmd_replay import load

    g = load(path)
    assert g.rules == SHORT and g.scores == ctl.game.scores and g.winner == ctl.game.winner
    saved = {"format": SAVE_FORMAT, "record": rec}
    assert ce.GameState.from_record(saved["record"]).rules == SHORT


def test_the_statistics_screen_and_text_show_each_target_apart() -> None:
    from ui.cli.cmd_stats import stats_text
    from ui.scenes.screens.stats_scene import stats_scene

    games = [short_game(s) for s in range(2)] + [short_game(s, STANDARD) for s in range(1)]
    st = _stats_of(games)
    text = stats_text(st)
    assert "games to 61: 2" in text and "games to 121: 1" in text
    for lang in ("en", "fr", "es"):
        labels = [lab.text for lab in stats_scene(st, lang).labels]
        assert any("61" in t and "121" in t for t in labels)
