"""Results database: round trip, default path, and clear errors for locked or corrupt files."""

from __future__ import annotations

import sqlite3

import pytest

from agents.store.db_errors import ResultsStoreError
from agents.store.results_store import ResultsStore, default_db_path
from agents.tournament.runner import run_plan
from agents.tournament.tournament import make_plan


def test_default_path_follows_xdg_data_home(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "cribbage-env" / "results.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "cribbage-env" / "results.sqlite"


def test_run_games_and_summary_round_trip(tmp_path) -> None:
    plan = make_plan(["random", "random:"], 6, seed=4, block=2)
    out = run_plan(plan, backend="serial")
    summary = out.summary()
    path = tmp_path / "sub" / "r.sqlite"
    with ResultsStore(path) as store:
        run_id = store.start_run(plan.params(), backend="serial", workers=1)
        store.add_games(run_id, out.results[:2])
        store.add_games(run_id, out.results[2:])
        store.add_games(run_id, out.results[:1])  # saved twice: still one row
        store.finish_run(run_id, "complete", summary, out.elapsed)
    with ResultsStore(path, create=False) as store:
        (run,) = store.runs()
        assert run["id"] == run_id and run["status"] == "complete" and run["games_done"] == 6
        assert (
            run["agents"] == ["random", "random:"] and run["seed"] == 4 and run["duplicate"] is True
        )
        assert run["params"] == plan.params()
        assert run["summary"] == summary
        assert "numpy" in run["versions"] and "python" in run["versions"]
        assert store.games(run_id) == list(out.results)
        with pytest.raises(ResultsStoreError, match="no run 99"):
            store.run(99)


def test_corrupt_file_is_refused_and_left_untouched(tmp_path) -> None:
    path = tmp_path / "junk.sqlite"
    junk = b"this is not a database" * 100
    path.write_bytes(junk)
    with pytest.raises(ResultsStoreError, match="not a valid results database"):
        ResultsStore(path)
    assert path.read_bytes() == junk


def test_foreign_sqlite_database_is_refused(tmp_path) -> None:
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE customers (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(ResultsStoreError, match="not a cribbage-env results database"):
        ResultsStore(path)


def test_locked_database_is_a_clear_error(tmp_path) -> None:
    path = tmp_path / "r.sqlite"
    ResultsStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ResultsStoreError, match="locked.*another process"):
            ResultsStore(path, timeout=0.1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    ResultsStore(path).close()  # usable again once released
