"""Crash recovery of `cribbage bench`: killed, terminated and double-Ctrl-C runs do not stay
`running`, `--resume` finishes them, workers die with their parent, hand-edited rows give clear
errors, stale temporary record files are cleaned."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cribbage_env as ce
from agents.store.bench_records import clean_stale_tmp
from agents.store.db_errors import ResultsStoreError
from agents.store.results_store import ResultsStore
from agents.tournament.play import play_game
from agents.tournament.procs import descendants, pid_alive
from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]


def _start(db: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "ui", "bench", "random", "random:", "--db", str(db), "--json",
         "--agent-seed", "123", "--block", "2", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip


def _wait_saved(proc: subprocess.Popen, db: Path, at_least: int = 1, timeout: float = 90) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(db, timeout=1) as con:
                n = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            if n >= at_least:
                return n
        except sqlite3.Error:
            pass
    raise AssertionError(f"no game saved before the deadline: {proc.communicate()}")


def _check_games(db: Path, run_id: int, planned: int) -> None:
    with ResultsStore(db, create=False) as store:
        run = store.run(run_id)
        games = store.games(run_id)
    assert run["status"] == "complete" and run["games_done"] == planned == len(games)
    assert len({g.key for g in games}) == planned
    for g in games[:: max(1, planned // 10)]:  # a sample replays exactly, agents included
        spec = ("random:", "random") if g.swapped else ("random", "random:")
        assert play_game(*spec, g.seed, run["params"]["agent_seed"]).decisions == list(g.moves)


@pytest.mark.integration  # a process pool killed mid-run, then resumed to the end
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_sigkill_leaves_no_worker_and_resume_finishes_the_run(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    proc = _start(db, "--games", "200000", "--workers", "2")
    _wait_saved(proc, db)
    family = descendants(proc.pid)
    assert family, "a pool run has a fork server and workers"
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 15
    while any(pid_alive(p) for p in family) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in family if pid_alive(p)], "workers outlived their killed parent"
    with ResultsStore(db) as store:  # opening reaps the dead run
        run = store.run(1)
    assert run["status"] == "interrupted" and "--resume 1" in run["summary"]["error"]
    # Resume with a smaller plan is impossible (the plan is the run's); finish a small one instead.
    proc = _start(db, "--games", "400", "--workers", "2")
    _wait_saved(proc, db, at_least=run["games_done"] + 2)
    proc.kill()
    proc.communicate(timeout=30)
    code = main(["bench", "--resume", "2", "--db", str(db), "--workers", "2", "--json"])
    assert code == 0
    _check_games(db, 2, 400)


@pytest.mark.integration  # a child run killed: seconds of waiting
def test_sigterm_ends_the_run_as_interrupted(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    proc = _start(db, "--games", "200000", "--backend", "serial")
    _wait_saved(proc, db)
    t0 = time.monotonic()
    proc.terminate()
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 5
    assert proc.returncode == 130, err
    assert json.loads(out)["run"]["status"] == "interrupted"
    with ResultsStore(db, create=False) as store:
        assert store.run(1)["status"] == "interrupted"


@pytest.mark.integration  # a child run interrupted twice: seconds of waiting
def test_two_quick_ctrl_c_do_not_leave_the_run_running(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    proc = _start(db, "--games", "200000", "--workers", "2")
    _wait_saved(proc, db)
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 10
    with ResultsStore(db) as store:
        assert store.run(1)["status"] == "interrupted"


def test_ctrl_c_on_a_serial_run_is_answered_within_a_game(tmp_path) -> None:
    """A serial block of 20,000 pairs takes a minute or more; the runner stops between games."""
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui", "bench", "random", "random:", "--db", str(db), "--json",
         "--games", "200000", "--backend", "serial", "--block", "20000"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:  # the run has started playing
        time.sleep(0.2)
        try:
            with sqlite3.connect(db, timeout=1) as con:
                if con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]:
                    break
        except sqlite3.Error:
            pass
    time.sleep(0.5)  # well into the first block
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 10, err  # a game takes milliseconds, the block a minute
    assert proc.returncode == 130


def _damage(db: Path, sql: str) -> None:
    with sqlite3.connect(db) as con:
        con.execute(sql)


def test_hand_edited_rows_give_clear_errors(tmp_path, capsys) -> None:
    db = tmp_path / "r.sqlite"
    for _ in range(2):
        assert (
            main(["bench", "random", "random:", "--games", "4", "--workers", "1", "--db", str(db)])
            == 0
        )
    capsys.readouterr()
    _damage(db, "UPDATE runs SET params = '[1, 2' WHERE id = 1")
    _damage(db, "UPDATE games SET moves = 'x y' WHERE run_id = 2")
    assert main(["results", "--db", str(db)]) == 0  # the list still shows every run
    out = capsys.readouterr().out
    assert "damaged" in out and out.count("\n") >= 3
    assert main(["results", "1", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "run 1" in err and "damaged" in err
    assert main(["results", "2", "--per-game", "--json", "--db", str(db)]) == 1
    assert "damaged" in capsys.readouterr().err
    assert main(["bench", "--resume", "1", "--db", str(db)]) == 1
    assert "damaged" in capsys.readouterr().err
    _damage(db, "UPDATE runs SET status = 'interrupted', summary = 'nope' WHERE id = 2")
    assert main(["results", "2", "--db", str(db)]) == 1
    assert "damaged" in capsys.readouterr().err
    _damage(db, """UPDATE runs SET summary = '{"pairings": [1]}' WHERE id = 2""")
    assert main(["results", "2", "--db", str(db)]) == 1
    assert "summary of run 2 is damaged" in capsys.readouterr().err
    assert main(["results", "2", "2", "--db", str(db)]) == 1
    assert "damaged" in capsys.readouterr().err
    _damage(db, "UPDATE meta SET value = 'abc' WHERE key = 'schema_version'")
    with pytest.raises(ResultsStoreError, match="schema"):
        ResultsStore(db)


def test_dead_runs_are_reaped_and_live_ones_kept(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    with ResultsStore(db) as store:
        live = store.start_run({"agents": ["a", "b"], "games": 2, "seed": 0, "duplicate": True},
                               backend="serial", workers=1)  # fmt: skip
        dead = store.start_run({"agents": ["a", "b"], "games": 2, "seed": 0, "duplicate": True},
                               backend="serial", workers=1)  # fmt: skip
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    _damage(db, f"UPDATE runs SET pid = {child.pid} WHERE id = {dead}")
    with ResultsStore(db) as store:
        assert store.run(live)["status"] == "running"
        assert store.run(dead)["status"] == "interrupted"
    _damage(db, f"UPDATE runs SET heartbeat = {time.time() - 10_000} WHERE id = {live}")
    with ResultsStore(db) as store:  # a long serial block: its process runs, so it runs
        assert store.run(live)["status"] == "running"
    _damage(db, f"UPDATE runs SET proc = 'another-boot:1' WHERE id = {live}")
    with ResultsStore(db) as store:  # its pid now names another process (reboot, reuse): dead
        assert store.run(live)["status"] == "interrupted"
    _damage(
        db, f"UPDATE runs SET status = 'running', proc = NULL, host = 'elsewhere' WHERE id = {live}"
    )
    with ResultsStore(db) as store:  # another machine's run, silent for hours: dead
        assert store.run(live)["status"] == "interrupted"


def test_stale_temporary_record_files_are_cleaned(tmp_path) -> None:
    old, fresh, other = (
        tmp_path / ".a.json.x1.tmp",
        tmp_path / ".b.json.x2.tmp",
        tmp_path / "keep.tmp",
    )
    for p in (old, fresh, other):
        p.write_text("{")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    os.utime(other, (time.time() - 3600, time.time() - 3600))
    assert clean_stale_tmp(tmp_path) == [old]
    assert fresh.exists() and other.exists() and not old.exists()
    assert ce.new_game(1) is not None


def test_ctrl_c_while_importing_is_an_interruption(monkeypatch, capsys) -> None:
    """Ctrl-C while the subcommands import: numpy, for one, turns it into an ImportError."""
    import ui.cli.cli as cli

    def interrupted_import(only=None):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise ImportError("PyCapsule_Import could not import module 'datetime'") from exc

    monkeypatch.setattr(cli, "build_parser", interrupted_import)
    assert cli.main(["bench"]) == 130
    assert "interrupted" in capsys.readouterr().err

    def broken_import(only=None):
        raise ImportError("no module named nope")

    monkeypatch.setattr(cli, "build_parser", broken_import)
    with pytest.raises(ImportError, match="nope"):  # a real import error is not hidden
        cli.main(["bench"])


def test_resume_of_a_missing_database_creates_nothing(tmp_path, capsys) -> None:
    db = tmp_path / "none.sqlite"
    assert main(["bench", "--resume", "3", "--db", str(db)]) == 2
    assert "does not exist" in capsys.readouterr().err and not db.exists()
