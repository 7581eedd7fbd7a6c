"""`cribbage bench --records DIR [--record-every K]`: tournaments keep records of chosen games,
in the documented record format, readable by `cribbage replay FILE --text`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cribbage_env as ce
from agents.store.results_store import ResultsStore
from agents.tournament.play import play_game
from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory) -> tuple[Path, Path, int]:
    tmp = tmp_path_factory.mktemp("bench")
    records, db = tmp / "records", tmp / "r.sqlite"
    code = main(
        [
            *"bench random greedy novice --games 6 --seed 5 --backend serial --db".split(),
            str(db),
            "--records",
            str(records),
            "--record-every",
            "2",
            "--json",
        ]
    )
    assert code == 0
    with ResultsStore(db, create=False) as store:
        (run,) = store.runs()
    return records, db, run["id"]


def test_records_of_every_kth_seed_both_seats(bench_run) -> None:
    records, db, run_id = bench_run
    index = json.loads((records / "index.json").read_text())
    # 3 pairings x duplicate pairs 0 and 2 (of 0..2) x both seats = 12 games.
    assert len(index["games"]) == 12 and index["record_every"] == 2
    assert sorted({(g["pairing"], g["index"], g["swapped"]) for g in index["games"]}) == sorted(
        (p, i, s) for p in range(3) for i in (0, 2) for s in (False, True)
    )
    files = sorted(p.name for p in records.glob("*.json") if p.name != "index.json")
    assert files == sorted(g["file"] for g in index["games"])
    assert not list(records.glob(".*.tmp"))  # atomic writes leave no temporary files


def test_records_load_and_match_the_saved_results(bench_run) -> None:
    records, db, run_id = bench_run
    with ResultsStore(db, create=False) as store:
        saved = {g.key: g for g in store.games(run_id)}
    index = json.loads((records / "index.json").read_text())
    for entry in index["games"]:
        game = ce.GameState.from_record((records / entry["file"]).read_text())
        row = saved[(entry["pairing"], entry["index"], entry["swapped"])]
        assert game.is_over and game.seed == row.seed == entry["seed"]
        assert game.scores == row.scores and game.winner == row.winner
        assert list(game.decisions) == list(row.moves)
        # The seats named in the index really played it: the same agents replay the same game.
        agent_seed = index["params"]["agent_seed"]
        assert play_game(entry["seats"][0], entry["seats"][1], entry["seed"], agent_seed) == game


def test_records_replay_as_text(bench_run) -> None:
    records, _, _ = bench_run
    entry = json.loads((records / "index.json").read_text())["games"][0]
    path = records / entry["file"]
    before = path.read_bytes()
    r = subprocess.run(
        [sys.executable, "-m", "ui", "replay", str(path), "--text", "--lang", "en"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    a, b = (min(v, 121) for v in entry["scores"])  # the record keeps the points past 121
    assert f"Final score: {a} – {b}" in r.stdout and "wins!" in r.stdout
    assert path.read_bytes() == before


def test_record_every_needs_records(capsys, tmp_path) -> None:
    code = main(
        [
            *"bench random random --games 2 --record-every 3 --db".split(),
            str(tmp_path / "r.sqlite"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "--records" in err
    assert not (tmp_path / "r.sqlite").exists()


def test_unwritable_records_folder_exits_2_before_playing(capsys, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = main(
        [
            *"bench random random --games 2 --backend serial --records".split(),
            str(blocker / "sub"),
            "--db",
            str(tmp_path / "r.sqlite"),
        ]
    )
    assert code == 2  # bad input, found before any game
    assert "records folder" in capsys.readouterr().err
    assert blocker.read_text() == "not a folder" and not (tmp_path / "r.sqlite").exists()
