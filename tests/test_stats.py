"""``cribbage stats``: the person's record from a history folder."""

from __future__ import annotations

import json

import cribbage_env as ce
from agents.tournament.play import play_game
from ui.cli.cli import main as cli
from ui.table.saves import SAVE_FORMAT


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
        g.winner == 1 and ce.skunk_level(g.scores, g.rules) >= 2 for g in games
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


def test_stats_reads_a_bench_records_folder_from_an_agents_seat(tmp_path, capsys):
    """``cribbage stats`` once ignored bench games; ``--records DIR`` reads them, each game
    from the chosen agent's seat (checked against the index's winners and scores)."""
    rec = tmp_path / "rec"
    db = str(tmp_path / "r.db")
    assert cli(["bench", "greedy", "random", "--games", "6", "--seed", "2", "--agent-seed", "1",
                "--workers", "1", "--db", db, "--records", str(rec)]) == 0  # fmt: skip
    capsys.readouterr()
    index = json.loads((rec / "index.json").read_text())["games"]
    for agent in ("greedy", "random"):
        assert cli(["stats", "--records", str(rec), "--agent", agent, "--json", "--no-review"]) == 0
        s = json.loads(capsys.readouterr().out)
        mine = [(e, e["seats"].index(agent)) for e in index]
        assert s["agent"] == agent and s["games"] == 6
        assert s["wins"] == sum(e["winner"] == seat for e, seat in mine)
        ppd = s["points_per_deal"]
        total = ppd["dealer"]["deals"] * (
            ppd["dealer"]["pegging"] + ppd["dealer"]["hand"] + ppd["dealer"]["crib"]
        ) + ppd["pone"]["deals"] * (ppd["pone"]["pegging"] + ppd["pone"]["hand"])
        # each scoring counts up to the target only (R10.2), as on the game-over panel
        want = sum(min(e["scores"][seat], 121) for e, seat in mine)
        assert abs(total - want) < 0.01 * (ppd["dealer"]["deals"] + ppd["pone"]["deals"]) + 0.5
        other = "random" if agent == "greedy" else "greedy"
        assert set(s["by_opponent"]) == {other}
    assert cli(["stats", "--records", str(rec), "--no-review"]) == 0  # default: agent A, greedy
    assert capsys.readouterr().out.startswith(f"greedy in {rec}:")
    assert cli(["stats", "--records", str(tmp_path)]) == 2  # no index.json
    assert "index.json" in capsys.readouterr().err
    assert cli(["stats", "--agent", "greedy"]) == 2
    assert "--records" in capsys.readouterr().err


def test_stats_records_reads_only_files_inside_the_folder(tmp_path, capsys):
    rec = tmp_path / "rec"
    rec.mkdir()
    (tmp_path / "outside.json").write_text("{}")
    entry = {"file": "../outside.json", "seats": ["a", "b"], "swapped": False}
    index = {"format": "cribbage-env/bench-records", "games": [entry]}
    (rec / "index.json").write_text(json.dumps(index))
    assert cli(["stats", "--records", str(rec), "--no-review"]) == 2
    err = capsys.readouterr().err
    assert "not a file name in the folder" in err and "no usable games" in err
