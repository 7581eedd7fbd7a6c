"""The results database's layout: its SQL schema, its version and the columns of a game row.

Kept apart from the store (:mod:`agents.store.results_store`) so the layout can be read, e.g. by the
docs build, without opening a file. Columns added after schema 1 are listed separately: the store
adds them in place to older files (old files keep working).
"""

from __future__ import annotations

import sqlite3

from ..tournament.game_result import SEAT_FIELDS, GameResult, result_from_dict

SCHEMA_VERSION = 1
APP_ID = 0x43524942  # "CRIB": marks our files (PRAGMA application_id)
#: columns added after schema 1 (added in place when missing: old files keep working).
RUN_EXTRA = {"pid": "INTEGER", "host": "TEXT", "heartbeat": "REAL", "proc": "TEXT"}
#: game columns added after schema 1, in place when missing (a read-only old file reads without
#: them): why a seat lost without finishing (isolated seats), seat 0's luck (None: not measured).
GAME_EXTRA = {"forfeit": "TEXT NOT NULL DEFAULT ''", "luck_win": "REAL", "luck_points": "REAL"}

_GAME_COLUMNS = (
    ["pairing", "idx", "swapped", "seed", "winner", "score0", "score1", "first_dealer", "deals"]
    + [f"s{s}_{f}" for s in (0, 1) for f in SEAT_FIELDS]
    + ["moves"]
)
GAME_ALL = _GAME_COLUMNS + list(GAME_EXTRA)

SCHEMA = f"""
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
    summary TEXT,                      -- JSON, set when the run ends
    pid INTEGER,                       -- the process running it, on host
    host TEXT,
    heartbeat REAL,                    -- unix time the process last said it was alive
    proc TEXT                          -- boot id and start time of pid (a reused pid is not it)
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    {", ".join(f"{c} {'TEXT' if c == 'moves' else 'INTEGER'} NOT NULL" for c in _GAME_COLUMNS)},
    {", ".join(f"{c} {t}" for c, t in GAME_EXTRA.items())},
    PRIMARY KEY (run_id, pairing, idx, swapped)
);
"""


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
        g.forfeit,
        *((None, None) if g.luck is None else g.luck),
    )


def game_from_row(r: dict) -> GameResult:
    """The game of a ``games`` row, read as a result dictionary (:func:`result_from_dict`)."""
    return result_from_dict({
        **{k: r[k] for k in ("pairing", "swapped", "seed", "winner", "first_dealer", "deals")},
        "index": r["idx"],
        "scores": (r["score0"], r["score1"]),
        "seats": [{f: int(r[f"s{s}_{f}"]) for f in SEAT_FIELDS} for s in (0, 1)],
        "moves": str(r["moves"]).split(),
        "forfeit": r.get("forfeit") or "",
        "luck": None if r.get("luck_win") is None else (r["luck_win"], r["luck_points"]),
    })  # fmt: skip


def schema_columns() -> dict[str, set[str]]:
    """The columns of each of our tables, read from :data:`SCHEMA` itself.

    >>> sorted(schema_columns()["meta"])
    ['key', 'value']
    """
    con = sqlite3.connect(":memory:")
    try:
        con.executescript(SCHEMA)
        return {
            t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")}
            for t in ("meta", "runs", "games")
        }
    finally:
        con.close()
