"""``cribbage stats``: the person's record from a history folder."""

from __future__ import annotations

import json

import cribbage_env as ce
from agents.tournament import play_game
from ui.cli import main as cli
from ui.controller import SAVE_FORMAT


def _history(tmp_path, n=3):
    folder = tmp_path / "history"
    folder.mkdir()
    games = []
    for i in range(n):
        g = play_game("random", "expectimax", 40 + i, agent_seed=0)  # the "person" is random
        data = {
            "format": SAVE_FORMAT,
            "version": 1,
            "seed": g.seed,
            "mode": "computer",
            "agents": [None, "expectimax"],
            "decisions": [],
            "cursor": 0,
            "finished": True,
            "record": g.to_record(),
        }
        (folder / f"game-2026120{i}-000000-seed{g.seed}.json").write_text(json.dumps(data))
        games.append(g)
    watched = dict(data, agents=["greedy", "expectimax"])
    (folder / "game-20261209-000000-seed1.json").write_text(json.dumps(watched))
    (folder / "game-20261210-000000-seed2.json").write_text("{broken")
    return folder, games


def test_stats_json_counts_games_wins_skunks_and_points(tmp_path, capsys):
    folder, games = _history(tmp_path)
    assert cli(["stats", "--dir", str(folder), "--json", "--samples", "2"]) == 0
    captured = capsys.readouterr()
    s = json.loads(captured.out)
    assert "skipped game-20261210" in captured.err  # the broken file, reported, not fatal
    assert s["games"] == 3 and s["wins"] == sum(g.winner == 0 for g in games)
    assert s["skunks"]["taken"] == sum(
        g.winner == 1 and ce.skunk_level(g.scores) >= 2 for g in games
    )
    ppd = s["points_per_deal"]
    total = ppd["dealer"]["deals"] * (
        ppd["dealer"]["pegging"] + ppd["dealer"]["hand"] + ppd["dealer"]["crib"]
    ) + ppd["pone"]["deals"] * (ppd["pone"]["pegging"] + ppd["pone"]["hand"])
    assert abs(total - sum(g.scores[0] for g in games)) < 0.01 * (ppd["dealer"]["deals"] + 40)
    assert len(s["error_rate"]) == 3 and all(r["error_rate"] >= 0 for r in s["error_rate"])
    assert s["by_opponent"] == {"expectimax": {"wins": s["wins"], "losses": 3 - s["wins"]}}


def test_stats_text_and_missing_folder(tmp_path, capsys):
    folder, _ = _history(tmp_path, n=1)
    assert cli(["stats", "--dir", str(folder), "--no-review"]) == 0
    assert "Points per deal" in capsys.readouterr().out
    assert cli(["stats", "--dir", str(tmp_path / "nope")]) == 2
    assert "no game history" in capsys.readouterr().err
