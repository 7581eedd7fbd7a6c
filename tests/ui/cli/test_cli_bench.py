"""`cribbage bench` and `cribbage results` end to end, on small runs with temporary databases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.store.db_errors import ResultsStoreError
from agents.store.results_store import ResultsStore
from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]


def _bench(capsys, line: str, *more: object) -> tuple[int, str, str]:
    """``cribbage bench`` with the words of ``line`` and then ``more``; (code, stdout, stderr)."""
    code = main(["bench", *line.split(), *map(str, more)])
    out, err = capsys.readouterr()
    return code, out, err


def test_bench_json_has_the_stable_names(capsys, tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    code, out, _ = _bench(
        capsys, "random random: --games 6 --seed 3 --workers 1 --db", db, "--json"
    )
    assert code == 0
    data = json.loads(out)
    (p,) = data["pairings"]
    assert p["agents"] == ["random", "random:"]
    assert p["games"] == 6 and sum(p["wins"]) == 6
    lo, hi = p["win_rate_ci"]
    assert 0 <= lo <= p["wins"][0] / 6 <= hi <= 1
    assert isinstance(p["mean_margin"], float)
    assert data["run"]["status"] == "complete"
    with ResultsStore(db, create=False) as store:
        assert len(store.games(data["run"]["id"])) == 6


@pytest.mark.integration  # serial and pool alike: tests/agents/tournament/test_tournament.py in the README's tier
def test_bench_same_seed_same_answer_on_serial_and_pool(capsys, tmp_path) -> None:
    common = [
        *"random random: --games 8 --seed 21 --agent-seed 5 --block 1 --json --db".split(),
        str(tmp_path / "r.sqlite"),
    ]
    _, serial, _ = _bench(capsys, *common, "--backend", "serial")
    _, pool, _ = _bench(capsys, *common, "--workers", "2")
    a, b = json.loads(serial), json.loads(pool)
    assert a["run"]["workers"] == 1 and b["run"]["workers"] == 2
    assert a["pairings"] == b["pairings"] and a["ratings"] == b["ratings"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "wizard"], "unknown agent 'wizard'"),
        (["random", "random", "--games", "0"], "positive integer"),
        (["random", "random", "--games", "lots"], "positive integer"),
        (["random", "random", "--games", "5"], "even"),
        (["random"], "at least two agents"),
        (["random", "random", "--address", "127.0.0.1:1"], "--backend ray"),
        (["random", "random", "--prior", "-1"], "--prior"),
        (["random", "random", "--seed", str(2**63)], "2**63 - 1"),
        (["random", "random", "--seed", "9" * 5000], "2**63 - 1"),
        (["random", "random", "--agent-seed", str(2**128)], "2**128 - 1"),
    ],
)
def test_bench_usage_errors_exit_2(capsys, tmp_path, args, message) -> None:
    try:
        code = main(["bench", *args, "--db", str(tmp_path / "r.sqlite")])
    except SystemExit as exc:  # argparse type errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert not (tmp_path / "r.sqlite").exists()  # nothing ran, nothing written


def test_bench_corrupt_db_exits_1_and_keeps_the_file(capsys, tmp_path) -> None:
    db = tmp_path / "bad.sqlite"
    db.write_bytes(b"garbage" * 50)
    code, out, err = _bench(
        capsys, "random", "random", "--games", "2", "--workers", "1", "--db", db
    )
    assert code == 1
    assert "not a valid results database" in err and str(db) in err
    assert db.read_bytes() == b"garbage" * 50


def test_bench_db_failure_mid_run_stops_cleanly_and_resume_finishes_it(
    capsys, tmp_path, monkeypatch
) -> None:
    """A storage error (here: the disk fills up after the first block) ends the run at once with
    what was saved; the failed block goes to a mkstemp recovery file; --resume finishes the run
    to exactly the games of an uninterrupted run."""
    calls = []
    real = ResultsStore.add_games

    def disk_full_after_one(self, run_id, games):
        calls.append(len(games))
        if len(calls) >= 2:
            raise ResultsStoreError("results database x: database or disk is full (test)")
        real(self, run_id, games)

    db = tmp_path / "r.sqlite"
    common = ["--block", "1", "--workers", "1", "--agent-seed", "77", "--seed", "4", "--json"]
    monkeypatch.setattr(ResultsStore, "add_games", disk_full_after_one)
    code, out, err = _bench(capsys, "random", "random:", "--games", "8", *common, "--db", db)
    assert code == 1
    assert "disk is full" in err and "--resume 1" in err
    assert len(calls) == 2  # stopped at the failure instead of playing on
    summary = json.loads(out)
    assert summary["run"]["status"] == "failed" and summary["games_played"] == 2
    rec = Path(summary["run"]["recovery_file"])
    assert rec.name.startswith("cribbage-bench-recovery-run1-") and rec.parent == tmp_path
    saved = json.loads(rec.read_text())
    assert [(g["index"], g["swapped"]) for g in saved["games"]] == [(1, False), (1, True)]
    monkeypatch.undo()
    with ResultsStore(db, create=False) as store:
        assert store.run(1)["status"] == "failed" and len(store.games(1)) == 2
    code, out, err = _bench(capsys, "--resume", "1", "--workers", "1", "--db", db, "--json")
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["run"]["status"] == "complete" and resumed["games_played"] == 8
    code, out, _ = _bench(capsys, "random", "random:", "--games", "8", *common, "--db", db)
    whole = json.loads(out)
    assert resumed["pairings"] == whole["pairings"]
    with ResultsStore(db, create=False) as store:
        assert store.games(1) == store.games(2)
        assert store.run(1)["status"] == "complete" and store.run(1)["games_done"] == 8


def test_bench_interrupted_run_saves_finished_games_and_exits_130(
    capsys, tmp_path, monkeypatch
) -> None:
    calls = []
    real = ResultsStore.add_games

    def interrupt_on_third(self, run_id, games):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C while saving a block: the block is saved at the end
        real(self, run_id, games)

    monkeypatch.setattr(ResultsStore, "add_games", interrupt_on_third)
    db = tmp_path / "r.sqlite"
    code, out, err = _bench(
        capsys, "random random: --games 20 --block 1 --workers 1 --db", db, "--json"
    )
    assert code == 130
    assert "interrupted" in err
    summary = json.loads(out)
    assert summary["games_played"] == 6 and summary["run"]["status"] == "interrupted"
    monkeypatch.undo()
    with ResultsStore(db, create=False) as store:
        run = store.run(summary["run"]["id"])
        assert run["status"] == "interrupted" and run["games_done"] == 6
        assert len(store.games(run["id"])) == 6


def test_results_lists_shows_compares_and_exports(capsys, tmp_path) -> None:
    db = str(tmp_path / "r.sqlite")
    for seed in ("1", "2"):
        assert (
            _bench(capsys, "random random: --games 4 --seed", seed, "--workers", "1", "--db", db)[0]
            == 0
        )
    assert main(["results", "--db", db, "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [r["id"] for r in runs] == [2, 1] and runs[0]["games_done"] == 4
    assert main(["results", "1", "--db", db]) == 0
    assert "random vs random:" in capsys.readouterr().out
    assert main(["results", "1", "2", "--db", db, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["pairings"]
    assert row["agent_a"] == "random" and row["games_1"] == row["games_2"] == 4
    csv_path = tmp_path / "games.csv"
    assert main(["results", "2", "--per-game", "--csv", str(csv_path), "--db", db]) == 0
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith("pairing,index,swapped,seed,winner") and len(lines) == 5
    assert main(["results", "7", "--db", db]) == 2  # no such run: bad input
    assert "no run 7" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["results", str(2**63), "--db", db])
    assert exc.value.code == 2 and "run id" in capsys.readouterr().err
    assert main(["results", "7", "--db", db]) == 2
    assert "no run 7" in capsys.readouterr().err
    assert main(["results", "--db", str(tmp_path / "missing.sqlite")]) == 2


def test_bench_csv_and_plots(capsys, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    csv_path, plots = tmp_path / "p.csv", tmp_path / "plots"
    code, out, _ = _bench(
        capsys,
        "random random: random --games 4 --workers 1 --db",
        tmp_path / "r.sqlite",
        "--csv",
        csv_path,
        "--plot",
        plots,
    )
    assert code == 0
    assert "ratings" in out
    assert len(csv_path.read_text().splitlines()) == 1 + 3
    for name in ("win_rates.png", "points_per_deal.png", "sample_game.png"):
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_ray_unreachable_address_exits_1(capsys, tmp_path) -> None:
    pytest.importorskip("ray")
    code, _, err = _bench(
        capsys,
        "random random --games 2 --backend ray --address 127.0.0.1:1 --db",
        tmp_path / "r.sqlite",
    )
    assert code == 1
    assert "cannot reach the Ray cluster" in err


@pytest.mark.integration  # a child interpreter: `python -m ui` is checked in the README's tier
def test_python_m_ui_bench_runs_as_a_command(tmp_path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            *"-m ui bench random random: --games 4 --workers 2 --db".split(),
            str(tmp_path / "r.sqlite"),
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["pairings"][0]["games"] == 4


@pytest.mark.integration  # a pool started and stopped: seconds of waiting
def test_ctrl_c_on_a_pool_run_stops_quickly_and_keeps_saved_games(tmp_path) -> None:
    """SIGINT to the whole process group (what a terminal's Ctrl-C does) during a pool run."""
    import os
    import signal
    import sqlite3
    import time

    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen(
        [
            sys.executable,
            *"-m ui bench random random: --games 200000 --workers 2 --block 2 --db".split(),
            str(db),
            "--json",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        done = 0
        while done == 0 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=1) as con:
                        done = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.Error:
                    pass
        assert done > 0, "no game was saved before the deadline"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    summary = json.loads(out)
    assert summary["run"]["status"] == "interrupted"
    assert 0 < summary["games_played"] < 200000
    with ResultsStore(db, create=False) as store:
        run = store.run(summary["run"]["id"])
        assert run["status"] == "interrupted"
        assert len(store.games(run["id"])) == summary["games_played"]


def test_bench_locked_db_exits_1_before_playing(capsys, tmp_path, monkeypatch) -> None:
    import sqlite3

    db = tmp_path / "r.sqlite"
    ResultsStore(db).close()
    monkeypatch.setitem(ResultsStore.__init__.__kwdefaults__, "timeout", 0.1)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, out, err = _bench(
            capsys, "random", "random", "--games", "2", "--workers", "1", "--db", db
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 1
    assert "database is locked" in err and "another process" in err
    with ResultsStore(db, create=False) as store:
        assert store.runs() == []


def test_bench_ray_backend_without_ray_says_how_to_install(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code, _, err = _bench(
        capsys, "random random --games 2 --backend ray --db", tmp_path / "r.sqlite"
    )
    assert code == 1
    assert "pip install 'cribbage-env[ray]'" in err


def test_bench_prints_its_agent_seed_and_that_seed_repeats_the_run(capsys, tmp_path) -> None:
    """The agents' seed is drawn fresh each run (so two runs differ); the output says
    which it was and how to repeat the run, and the Python API gives the same seed."""
    import re

    from agents.bench import run_tournament

    common = ["random", "greedy", "--games", "6", "--workers", "1", "--db", str(tmp_path / "r.db")]
    code, first, _ = _bench(capsys, *common)
    m = re.search(r"^agent seed (\d+); pass --agent-seed (\d+) to repeat$", first, re.M)
    assert code == 0 and m and m.group(1) == m.group(2)
    code, again, _ = _bench(capsys, *common, "--agent-seed", m.group(1))
    assert code == 0 and again.splitlines()[1:] == first.splitlines()[1:]  # all but the run line
    run = run_tournament(["random", "greedy"], 6, agent_seed=int(m.group(1)), backend="serial")
    assert run.agent_seed == int(m.group(1)) and run.repeat_hint in first
    code, js, _ = _bench(capsys, *common, "--agent-seed", m.group(1), "--json")
    assert run.summary["pairings"][0]["wins"] == json.loads(js)["pairings"][0]["wins"]


def test_bench_tables_show_full_agent_names(capsys, tmp_path) -> None:
    """Long specs were cut (``policy_net:path=/tmp/... vs ran``)."""
    import numpy as np

    from agents.players.policy_net import save_policy
    from cribbage_env.encoding import OBS_SIZE

    path = tmp_path / ("a_rather_long_folder_name_" * 3) / "actor.npz"
    path.parent.mkdir()
    save_policy(path, [(np.zeros((OBS_SIZE, 52), np.float32), np.zeros(52, np.float32))], {})
    spec = f"policy_net:path={path}"
    code, out, _ = _bench(capsys, spec, "random", "--games", "2", "--workers", "1",
                          "--db", str(tmp_path / "r.db"))  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith(f"{spec} vs random ") for line in lines)
    assert sum(line.startswith(f"{spec} ") for line in lines) >= 3  # pairing, by-role rows
    assert any(line.strip().startswith(spec) for line in lines if "+" in line or "-" in line)


def test_results_of_a_run_without_its_summary_reports_the_games_saved(capsys, tmp_path) -> None:
    """A run still running (or killed before its end) has no saved summary: `results RUN`
    reports the games saved so far instead of calling the summary damaged."""
    import sqlite3

    db = str(tmp_path / "r.sqlite")
    assert _bench(capsys, *"random greedy --games 6 --workers 1 --db".split(), db)[0] == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE runs SET summary = NULL, status = 'interrupted', finished = NULL")
    assert main(["results", "1", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "random vs greedy" in out and "bench --resume 1" in out
    assert main(["results", "1", "--db", db, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert summary["so_far"] and summary["games_played"] == 6
    assert summary["pairings"][0]["games"] == 6
