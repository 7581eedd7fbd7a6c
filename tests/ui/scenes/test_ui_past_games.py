"""Past games: every finished game is kept in the history, listed after a restart (a new store on
the same folder), and opens again in the Review or replays to the same end."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.saved.past_games import MAX_GAME_BYTES, past_games, past_row, past_table
from ui.scenes.screens.past_scene import PER_PAGE, page_count, past_scene
from ui.table.controller import Mode, TableController
from ui.words.i18n import LANGUAGES, Catalog


def play_to_the_end(ctl: TableController, seed: int) -> TableController:
    """The person at random, the computer by itself, the show skipped, to the game's end."""
    rng = np.random.default_rng(seed)
    while not ctl.game.is_over:
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(int(rng.integers(40)))
        elif not ctl.game.is_over:
            legal = ctl.game.legal_actions()
            ctl.decide(legal[int(rng.integers(len(legal)))])
    return ctl


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """Two finished games archived by the autosave, the store then closed (the app quit)."""
    folder = tmp_path_factory.mktemp("data")
    store = SaveStore(folder, durable=False)
    store.open()
    games = []
    for seed in (5, 6):
        ctl = TableController(seed, mode=Mode.COMPUTER, opponent="greedy", rules="short",
                              agent_seed=seed, on_change=store.save)  # fmt: skip
        games.append(play_to_the_end(ctl, seed).game)
    store.close()
    return folder, games


def test_the_list_survives_a_restart(kept) -> None:
    folder, games = kept
    store = SaveStore(folder, durable=False)  # the next launch
    store.open()
    listed, skipped = past_games(store.history)
    store.close()
    assert skipped == 0 and len(listed) == 2
    assert not store.exists()  # finished games leave no autosave behind
    by_final = {(g.scores[0], g.scores[1]) for g in listed}
    counted = {tuple(g.rules.counted(x) for x in g.scores) for g in games}
    assert by_final == counted  # the person's seat is seat 0; the winner's score the target
    for g in listed:
        assert g.opponent == "greedy" and g.mode == "computer" and g.target == 61
        assert g.won == (g.scores[0] > g.scores[1])


def test_a_past_game_opens_at_its_end_and_replays_from_its_start(kept) -> None:
    folder, games = kept
    listed, _ = past_games(folder / "history")
    for g in listed:
        ctl = past_table(g.path, "es", replay=False)
        assert ctl.game.is_over and ctl.mode is Mode.COMPUTER
        assert ctl.seats[1].agent is None  # nothing built: the record decides
        assert tuple(ctl.rules.counted(x) for x in ctl.game.scores) == g.scores
        assert ctl.name(0) == Catalog("es").tr("You")
        replay = past_table(g.path, "fr", replay=True)
        assert replay.mode is Mode.WATCH and replay.game.deal_no <= 0
        while replay.computer.to_act or replay.show.running:
            replay.show.skip()
            if replay.computer.to_act:
                replay.computer.step()
        assert replay.game.is_over and replay.game.scores == ctl.game.scores


def test_a_game_against_an_agent_that_runs_code_opens_without_running_it(kept, tmp_path) -> None:
    folder, _ = kept
    source = sorted((folder / "history").glob("game-*.json"))[0]
    data = json.loads(source.read_text())
    data["agents"][1] = "file:/somewhere/bot.py"
    history = tmp_path / "history"
    history.mkdir()
    (history / "game-20990101-000000-seed1.json").write_text(json.dumps(data))
    (listed,), _ = past_games(history)
    ctl = past_table(listed.path, "en", replay=False)
    assert ctl.game.is_over and ctl.seats[1].agent is None


def test_bad_files_are_skipped_and_left_alone(tmp_path) -> None:
    history = tmp_path / "history"
    history.mkdir()
    (history / "game-1.json").write_text("{not json")
    (history / "game-2.json").write_text(json.dumps({"format": "other"}))
    (history / "game-3.json").write_bytes(b" " * (MAX_GAME_BYTES + 1))
    os.mkfifo(history / "game-4.json")  # never waited on
    (history / "game-5.json").symlink_to(history / "game-1.json")
    listed, skipped = past_games(history)
    assert listed == [] and skipped == 5
    assert (history / "game-1.json").read_text() == "{not json"
    assert past_games(tmp_path / "missing") == ([], 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rows_and_pages(kept, lang: str) -> None:
    folder, _ = kept
    listed, _ = past_games(folder / "history")
    tr = Catalog(lang).tr
    rows = [past_row(g, tr, str) for g in listed] * 5  # ten rows: two pages
    assert page_count(len(rows)) == 2
    first = past_scene(rows, lang, 0)
    assert len([b for b in first.buttons if b.id.startswith("past:review:")]) == PER_PAGE
    last = past_scene(rows, lang, 1)
    assert last.button("past:review:9") is not None and not last.button("past:next").enabled
    date, who, score, result = rows[0]
    assert who == "greedy" and "–" in score and result in {
        tr(w) for w in ("won", "lost", "won, skunk", "lost, skunked", "won, double skunk",
                        "lost, double skunked")
    }  # fmt: skip
    assert ce.skunk_level((61, 20), ce.Rules.named("short")) >= 1


def test_statistics_and_the_game_over_panel_count_the_same_points(kept) -> None:
    """A last scoring past the target counts up to it only, in Statistics as on the game-over
    panel: each game's parts add up to its counted final score in both."""
    from agents.tournament.game_result import seat_stats
    from ui.reports.player_stats import counted_events
    from ui.table.show import points_by_part

    _, games = kept
    past_the_target = 0
    for g in games:
        rules = g.rules
        panel = points_by_part(g.events, rules)
        stats = seat_stats(counted_events(g))
        for seat in (0, 1):
            s = stats[seat]
            parts = s.peg_dealer + s.peg_pone + s.hand_dealer + s.hand_pone + s.crib
            assert parts == panel[seat].total == rules.counted(g.scores[seat])
        past_the_target += max(g.scores) > rules.target
    assert past_the_target  # the seeds include a game won with points to spare


def test_progress_survives_a_restart_and_counts_streaks(kept) -> None:
    """Records per level, streaks, achievements and the months come from the history alone: a
    new launch reads the same; streaks count runs of wins and of losses."""
    from types import SimpleNamespace

    from ui.reports.player_stats import load_history
    from ui.reports.progress import earned, progress, streaks

    folder, games = kept
    loaded, _ = load_history(folder / "history")
    prog = progress(loaded)
    assert prog == progress(load_history(folder / "history")[0])  # read again: the same
    wins = sum(g.winner == 0 for g in games)
    assert prog["by_level"] == {
        "greedy": {
            "wins": wins,
            "losses": len(games) - wins,
            "best_margin": max(
                (g.rules.counted(g.scores[0]) - g.rules.counted(g.scores[1]) for g in games
                 if g.winner == 0), default=0),
        }
    }  # fmt: skip
    assert sum(m["games"] for m in prog["by_month"]) == len(games)
    for hg in loaded:
        thirty_one = any(
            e.kind.value == "play" and e.player == hg.seat and "31" in " ".join(map(str, e.reasons))
            for e in hg.game.events
        ) or any(
            e.player == hg.seat and any(r.kind.value == "thirty-one" for r in e.reasons)
            for e in hg.game.events
        )
        assert ("thirty_one" in earned(hg)) == thirty_one

    def fake(won: bool):
        return SimpleNamespace(seat=0, game=SimpleNamespace(winner=0 if won else 1))

    results = [True, True, False, True, True, True, False, False]
    assert streaks([fake(w) for w in results]) == {"current": -2, "best_wins": 3}
