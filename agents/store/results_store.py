"""The results database: every tournament run with its parameters, versions, games and summary.

SQLite (``sqlite3``), by default ``$XDG_DATA_HOME/cribbage-env/results.sqlite`` (or under
``~/.local/share``). Games are written block by block, each in one transaction, so an interrupted
run keeps them. Every failure of the file (locked, corrupt, full, not ours, hand-edited rows) is
a :class:`ResultsStoreError` saying which file and what to do; a name that is no database file,
or a run it does not hold, a :class:`NamedNothing` (bad input).

A running run records its process (host, pid) and a heartbeat. A run whose process died (SIGKILL,
a crash, a power cut) is marked ``interrupted`` when the database opens (its pid is gone; for
another host's run, its heartbeat is older than :data:`~agents.store.run_rows.STALE_S`), and
``cribbage bench --resume RUN`` finishes it. The file's layout (schema, game rows) is
:mod:`agents.store.results_schema`; a run row read back, :mod:`agents.store.run_rows`; the
errors and their hints, :mod:`agents.store.db_errors`.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..tournament.game_result import GameResult
from ..tournament.procs import process_token
from . import integrity
from .db_errors import NamedNothing, ResultsStoreError, explain
from .files import path_problem
from .integrity import foreign_objects, game_problem, run_rules, summary_problem
from .provenance import versions
from .results_schema import (
    APP_ID,
    GAME_ALL,
    GAME_EXTRA,
    RUN_EXTRA,
    SCHEMA,
    SCHEMA_VERSION,
    game_from_row,
    game_row,
    schema_columns,
)
from .run_rows import decode_run, run_is_dead


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/cribbage-env/results.sqlite`` or ``~/.local/share/cribbage-env/...``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cribbage-env" / "results.sqlite"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


#: The columns of each of our tables (a column of another program's makes the file foreign).
_COLUMNS = schema_columns()


class ResultsStore:
    """One open results database. Use as a context manager; every write is one transaction."""

    def __init__(
        self, path: str | os.PathLike | None = None, *, timeout: float = 5.0, create: bool = True
    ) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        if problem := path_problem(self.path, "database"):
            raise NamedNothing(f"results database {problem} (choose another file with --db)")
        if not create and not self.path.exists():
            raise NamedNothing(
                f"results database {self.path} does not exist (run `cribbage bench` first or pass --db)"
            )
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ResultsStoreError(f"cannot create the folder of {self.path}: {exc}") from None
        try:
            self._db = sqlite3.connect(str(self.path), timeout=timeout)
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None
        try:
            self._db.execute("PRAGMA foreign_keys = ON")
            self._init()
        except sqlite3.Error as exc:
            self._db.close()
            raise explain(self.path, exc) from None
        except ResultsStoreError:
            self._db.close()
            raise
        self.reap_dead_runs()

    def keep_journal(self) -> None:
        """Keep the rollback journal as a file that is never deleted (``journal_mode=PERSIST``),
        so a sealed seat that must not read it can be shown an empty file in its place (the
        run's first write makes it, before any seat starts)."""
        self._db.execute("PRAGMA journal_mode = PERSIST")

    def _init(self) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app not in (0, APP_ID) or (tables and app != APP_ID):
            raise ResultsStoreError(
                f"results database {self.path}: this SQLite file is not a cribbage-env results database "
                f"(it has other tables); choose another file with --db"
            )
        foreign = foreign_objects(db) + [
            f"column {t}.{c}" for t, cols in _COLUMNS.items() for c in self._cols(t) - cols
        ]
        if foreign:  # before anything is written: a trigger would rewrite what we store
            raise ResultsStoreError(
                f"results database {self.path} holds what our schema does not make "
                f"({', '.join(foreign[:4])}): another program changed it; choose another file with --db"
            )
        if not tables:
            with db:
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA application_id = {APP_ID}")
                db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            return
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        try:
            version = int(row[0])
        except (TypeError, ValueError):
            version = SCHEMA_VERSION + 1
        if version > SCHEMA_VERSION:
            raise ResultsStoreError(
                f"results database {self.path} has schema {row and row[0]}, newer than this version "
                f"({SCHEMA_VERSION}) understands; upgrade cribbage-env or use another --db"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise ResultsStoreError(
                f"results database {self.path} is damaged ({check}); choose another file with --db"
            )
        extras = (("runs", RUN_EXTRA), ("games", GAME_EXTRA))
        missing = [(t, c, k) for t, x in extras for c, k in x.items() if c not in self._cols(t)]
        if missing:
            try:
                with db:
                    for table, col, kind in missing:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {col} {kind}")
            except sqlite3.OperationalError as exc:
                if "readonly" not in str(exc):
                    raise
                self._readonly = True
        self._game_cols = [c for c in GAME_ALL if c in self._cols("games")]  # read-only: old ones

    def _cols(self, table: str) -> set[str]:
        return {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}

    _readonly, _game_cols = False, GAME_ALL

    def reap_dead_runs(self) -> list[int]:
        """Mark ``running`` runs whose process is gone as ``interrupted``; their ids."""
        if self._readonly:
            return []
        try:
            rows = self._read(
                "SELECT id, pid, host, heartbeat, created, proc FROM runs WHERE status = 'running'"
            )
        except ResultsStoreError:
            return []
        dead = [r["id"] for r in rows if run_is_dead(r)]
        for run_id in dead:
            note = json.dumps(
                {
                    "error": "the run's process stopped without finishing (killed or crashed); "
                    f"`cribbage bench --resume {run_id}` finishes it"
                }
            )
            try:
                self._write(
                    "UPDATE runs SET status = 'interrupted', finished = ?, summary = COALESCE(summary, ?) "
                    "WHERE id = ? AND status = 'running'",
                    (_now(), note, run_id),
                )
            except ResultsStoreError:
                return []  # read-only or locked: the next writer marks them
        return dead

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, args: Any = (), many: bool = False) -> sqlite3.Cursor:
        try:
            with self._db:
                return self._db.executemany(sql, args) if many else self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    def _read(self, sql: str, args: Sequence = ()) -> list[dict]:
        try:
            cur = self._db.execute(sql, args)
            cols = [d[0] for d in cur.description]
            return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    # ------------------------------------------------------------------------- writing
    def start_run(
        self, params: dict, *, backend: str, workers: int, extra_versions: dict | None = None
    ) -> int:
        """Record a new run (status ``running``) and return its id."""
        cur = self._write(
            "INSERT INTO runs (created, status, agents, games, seed, duplicate, backend, workers, params,"
            " versions, pid, host, heartbeat, proc) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _now(),
                json.dumps(params["agents"]),
                params["games"],
                params["seed"],
                int(params["duplicate"]),
                backend,
                workers,
                json.dumps(params),
                json.dumps({**versions(), **(extra_versions or {})}),
                os.getpid(),
                socket.gethostname(),
                time.time(),
                process_token(os.getpid()),
            ),
        )
        assert cur.lastrowid is not None  # set by the INSERT
        return cur.lastrowid

    def reopen_run(self, run_id: int, *, backend: str, workers: int) -> None:
        """Mark an unfinished run ``running`` again in this process (``--resume``)."""
        self._write(
            "UPDATE runs SET status = 'running', finished = NULL, summary = NULL, backend = ?, workers = ?,"
            " pid = ?, host = ?, heartbeat = ?, proc = ? WHERE id = ?",
            (
                backend,
                workers,
                os.getpid(),
                socket.gethostname(),
                time.time(),
                process_token(os.getpid()),
                run_id,
            ),  # fmt: skip
        )

    def heartbeat(self, run_id: int) -> None:
        """Say the run's process is alive (see :data:`~agents.store.run_rows.STALE_S`)."""
        self._write("UPDATE runs SET heartbeat = ? WHERE id = ?", (time.time(), run_id))

    def add_games(self, run_id: int, games: Sequence[GameResult]) -> None:
        """Save finished games and the run's count in one transaction (all or nothing); saving a
        game twice keeps one row."""
        rows = [(run_id, *game_row(g)) for g in games]
        db = self._db
        try:
            with db:
                before = db.total_changes
                db.executemany(
                    f"INSERT OR IGNORE INTO games (run_id, {', '.join(GAME_ALL)}) "
                    f"VALUES ({', '.join('?' * (len(GAME_ALL) + 1))})",
                    rows,
                )
                new = db.total_changes - before
                db.execute(
                    "UPDATE runs SET games_done = games_done + ?, heartbeat = ? WHERE id = ?",
                    (new, time.time(), run_id),
                )
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None
        except (OverflowError, ValueError, TypeError) as exc:  # a value SQLite cannot hold
            raise ResultsStoreError(
                f"results database {self.path}: cannot store a game: {exc}"
            ) from None

    def finish_run(self, run_id: int, status: str, summary: dict, elapsed: float) -> None:
        self._write(
            "UPDATE runs SET status = ?, finished = ?, summary = ?, elapsed = ? WHERE id = ?",
            (status, _now(), json.dumps(summary), elapsed, run_id),
        )

    # ------------------------------------------------------------------------- reading
    def runs(self) -> list[dict]:
        """Every run, newest first, without per-game rows (a damaged row shows as ``damaged``)."""
        rows = self._read("SELECT * FROM runs ORDER BY id DESC")
        return [decode_run(r, self.path, strict=False) for r in rows]

    def run(self, run_id: int) -> dict:
        rows = self._read("SELECT * FROM runs WHERE id = ?", (run_id,))
        if not rows:
            known = [r["id"] for r in self._read("SELECT id FROM runs ORDER BY id")]
            raise NamedNothing(
                f"no run {run_id} in {self.path}; runs there: {', '.join(map(str, known)) or 'none'}"
            )
        return decode_run(rows[0], self.path)

    def games(self, run_id: int) -> list[GameResult]:
        """The saved games of a run, sorted by pairing, pair and seat swap."""
        return list(self.iter_games(run_id))

    def iter_games(self, run_id: int) -> Iterator[GameResult]:
        """The saved games of a run one at a time (memory flat in the number of games), each
        checked against its run's seed and its moves (:mod:`agents.store.integrity`)."""
        run = self.run(run_id)
        rules = run_rules(run)
        try:
            cur = self._db.execute(
                f"SELECT {', '.join(self._game_cols)} FROM games WHERE run_id = ? ORDER BY pairing, idx, swapped",
                (run_id,),
            )
            cols = [d[0] for d in cur.description]
            for row in cur:
                r = dict(zip(cols, row, strict=True))
                try:
                    g = game_from_row(r)
                    seed = integrity.run_seed(run, g.index)
                    problem = game_problem(g, rules, seed)
                except (KeyError, TypeError, ValueError, AttributeError) as exc:
                    problem = str(exc)
                if problem is not None:
                    raise ResultsStoreError(
                        f"results database {self.path}: run {run_id} is damaged: its game (pairing "
                        f"{r.get('pairing')}, pair {r.get('idx')}, swapped {r.get('swapped')}) was "
                        f"changed after it was played ({problem})"
                    ) from None
                yield g
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    def verify(self, run_id: int) -> None:
        """Check every stored game of a run, the luck of a random sample of them, and its saved
        summary against them (ResultsStoreError: the run is damaged)."""
        run, games = self.run(run_id), self.games(run_id)
        problem = integrity.luck_problem(games, run_rules(run), integrity.LUCK_SAMPLE)
        problem = problem or summary_problem(run.get("summary") or {}, games)
        if problem is not None:
            raise ResultsStoreError(
                f"results database {self.path}: run {run_id} is damaged: {problem}"
            )

    def block_counts(self, run_id: int, block: int) -> dict[tuple[int, int], int]:
        """Saved games per (pairing, first pair index of the block) of a run: what to replay."""
        rows = self._read(
            "SELECT pairing, (idx / ?) * ? AS start, COUNT(*) AS n FROM games WHERE run_id = ?"
            " GROUP BY pairing, start",
            (block, block, run_id),
        )
        return {(int(r["pairing"]), int(r["start"])): int(r["n"]) for r in rows}
