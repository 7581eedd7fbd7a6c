"""The results database: every tournament run with its parameters, versions, games and summary.

SQLite (stdlib ``sqlite3``). The default file is ``$XDG_DATA_HOME/cribbage-env/results.sqlite``
(``~/.local/share/cribbage-env/results.sqlite`` when XDG_DATA_HOME is unset). Games are written
block by block as they finish, each block in one transaction, so an interrupted run keeps them.
Every failure of the file (locked, corrupt, not a results database) becomes a
:class:`ResultsStoreError` that says which file and what to do.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import subprocess
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path

from .tournament import SEAT_FIELDS, GameResult, SeatStats

SCHEMA_VERSION = 1
APP_ID = 0x43524942  # "CRIB": marks our files (PRAGMA application_id)

_GAME_COLUMNS = (
    ["pairing", "idx", "swapped", "seed", "winner", "score0", "score1", "first_dealer", "deals"]
    + [f"s{s}_{f}" for s in (0, 1) for f in SEAT_FIELDS]
    + ["moves"]
)

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,              -- running / complete / interrupted / failed
    agents TEXT NOT NULL,              -- JSON list of specs
    games INTEGER NOT NULL,            -- planned games per pairing
    seed INTEGER NOT NULL,
    duplicate INTEGER NOT NULL,
    backend TEXT NOT NULL,
    workers INTEGER NOT NULL,
    params TEXT NOT NULL,              -- JSON
    versions TEXT NOT NULL,            -- JSON
    games_done INTEGER NOT NULL DEFAULT 0,
    elapsed REAL,
    summary TEXT                       -- JSON, set when the run ends
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    {", ".join(f"{c} {'TEXT' if c == 'moves' else 'INTEGER'} NOT NULL" for c in _GAME_COLUMNS)},
    PRIMARY KEY (run_id, pairing, idx, swapped)
);
"""


class ResultsStoreError(RuntimeError):
    """The results database cannot be used (locked, corrupt, unwritable, or not ours)."""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/cribbage-env/results.sqlite`` or ``~/.local/share/cribbage-env/...``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cribbage-env" / "results.sqlite"


def versions() -> dict:
    """Versions that can change results: package, Python, numpy, platform, git commit if any."""
    import numpy

    import cribbage_env

    out = {
        "cribbage_env": getattr(cribbage_env, "__version__", "?"),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "platform": platform.platform(),
    }
    try:
        root = Path(__file__).resolve().parent.parent
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5
        )
        if commit.returncode == 0:
            out["git_commit"] = commit.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _explain(path: Path, exc: sqlite3.Error) -> ResultsStoreError:
    msg = str(exc)
    if "locked" in msg or "busy" in msg:
        hint = "another process is writing to it; wait for it to finish or choose another file with --db"
    elif (
        "not a database" in msg
        or "malformed" in msg
        or isinstance(exc, sqlite3.DatabaseError)
        and "disk image" in msg
    ):
        hint = "the file is not a valid results database (corrupt or another format); choose another file with --db"
    elif "readonly" in msg or "unable to open" in msg:
        hint = "the file or its folder is not writable; choose another file with --db"
    else:
        hint = "choose another file with --db"
    return ResultsStoreError(f"results database {path}: {msg} ({hint})")


class ResultsStore:
    """One open results database. Use as a context manager; every write is one transaction."""

    def __init__(
        self, path: str | os.PathLike | None = None, *, timeout: float = 5.0, create: bool = True
    ) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        if not create and not self.path.exists():
            raise ResultsStoreError(
                f"results database {self.path} does not exist (run `cribbage bench` first or pass --db)"
            )
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ResultsStoreError(f"cannot create the folder of {self.path}: {exc}") from None
        try:
            self._db = sqlite3.connect(str(self.path), timeout=timeout)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._init()
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    def _init(self) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app not in (0, APP_ID) or (tables and app != APP_ID):
            raise ResultsStoreError(
                f"results database {self.path}: this SQLite file is not a cribbage-env results database "
                f"(it has other tables); choose another file with --db"
            )
        if not tables:
            with db:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA application_id = {APP_ID}")
                db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            return
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None or int(row[0]) > SCHEMA_VERSION:
            raise ResultsStoreError(
                f"results database {self.path} has schema {row and row[0]}, newer than this version "
                f"({SCHEMA_VERSION}) understands; upgrade cribbage-env or use another --db"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise ResultsStoreError(
                f"results database {self.path} is damaged ({check}); choose another file with --db"
            )

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _write(
        self, sql: str, args: Sequence | Iterable[Sequence] = (), many: bool = False
    ) -> sqlite3.Cursor:
        try:
            with self._db:
                return self._db.executemany(sql, args) if many else self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    def _read(self, sql: str, args: Sequence = ()) -> list[dict]:
        try:
            cur = self._db.execute(sql, args)
            cols = [d[0] for d in cur.description]
            return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    # ------------------------------------------------------------------------- writing
    def start_run(
        self, params: dict, *, backend: str, workers: int, extra_versions: dict | None = None
    ) -> int:
        """Record a new run (status ``running``) and return its id."""
        cur = self._write(
            "INSERT INTO runs (created, status, agents, games, seed, duplicate, backend, workers, params, versions)"
            " VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ),
        )
        return int(cur.lastrowid)

    def add_games(self, run_id: int, games: Sequence[GameResult]) -> None:
        """Save finished games (one transaction); saving a game twice keeps one row."""
        rows = [(run_id, *game_row(g)) for g in games]
        self._write(
            f"INSERT OR REPLACE INTO games (run_id, {', '.join(_GAME_COLUMNS)}) "
            f"VALUES ({', '.join('?' * (len(_GAME_COLUMNS) + 1))})",
            rows,
            many=True,
        )
        self._write(
            "UPDATE runs SET games_done = (SELECT COUNT(*) FROM games WHERE run_id = ?) WHERE id = ?",
            (run_id, run_id),
        )

    def finish_run(self, run_id: int, status: str, summary: dict, elapsed: float) -> None:
        self._write(
            "UPDATE runs SET status = ?, finished = ?, summary = ?, elapsed = ? WHERE id = ?",
            (status, _now(), json.dumps(summary), elapsed, run_id),
        )

    # ------------------------------------------------------------------------- reading
    def runs(self) -> list[dict]:
        """Every run, newest first, without per-game rows."""
        rows = self._read("SELECT * FROM runs ORDER BY id DESC")
        return [_decode_run(r) for r in rows]

    def run(self, run_id: int) -> dict:
        rows = self._read("SELECT * FROM runs WHERE id = ?", (run_id,))
        if not rows:
            known = [r["id"] for r in self._read("SELECT id FROM runs ORDER BY id")]
            raise ResultsStoreError(
                f"no run {run_id} in {self.path}; runs there: {', '.join(map(str, known)) or 'none'}"
            )
        return _decode_run(rows[0])

    def games(self, run_id: int) -> list[GameResult]:
        """The saved games of a run, sorted by pairing, pair and seat swap."""
        self.run(run_id)
        rows = self._read(
            f"SELECT {', '.join(_GAME_COLUMNS)} FROM games WHERE run_id = ? ORDER BY pairing, idx, swapped",
            (run_id,),
        )
        return [game_from_row(r) for r in rows]


def _decode_run(r: dict) -> dict:
    out = dict(r)
    for key in ("agents", "params", "versions", "summary"):
        if out.get(key) is not None:
            out[key] = json.loads(out[key])
    out["duplicate"] = bool(out["duplicate"])
    return out


def game_row(g: GameResult) -> tuple:
    seat_vals = [getattr(g.seats[s], f) for s in (0, 1) for f in SEAT_FIELDS]
    return (
        g.pairing,
        g.index,
        int(g.swapped),
        g.seed,
        g.winner,
        g.scores[0],
        g.scores[1],
        g.first_dealer,
        g.deals,
        *seat_vals,
        " ".join(map(str, g.moves)),
    )


def game_from_row(r: dict) -> GameResult:
    seats = tuple(SeatStats(**{f: int(r[f"s{s}_{f}"]) for f in SEAT_FIELDS}) for s in (0, 1))
    return GameResult(
        pairing=int(r["pairing"]),
        index=int(r["idx"]),
        swapped=bool(r["swapped"]),
        seed=int(r["seed"]),
        winner=int(r["winner"]),
        scores=(int(r["score0"]), int(r["score1"])),
        first_dealer=int(r["first_dealer"]),
        deals=int(r["deals"]),
        seats=seats,  # type: ignore[arg-type]
        moves=tuple(int(m) for m in r["moves"].split()),
    )
