"""What can go wrong with a results database, and what the person is told to do about it: the
store's errors, and a SQLite error turned into one (locked, not a database, disk full, read-only).

Kept apart from the store (:mod:`agents.store.results_store`) so that the modules that read its
rows back can raise them too.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import AgentError


class ResultsStoreError(AgentError, RuntimeError):
    """The results database cannot be used (locked, corrupt, unwritable, or not ours)."""


class NamedNothing(ResultsStoreError, LookupError):
    """No database file (missing, a folder, a FIFO, a device) or no such run: bad input."""


def explain(path: Path, exc: sqlite3.Error) -> ResultsStoreError:
    msg = str(exc)
    if "locked" in msg or "busy" in msg:
        hint = "another process is writing to it; wait for it to finish or choose another file with --db"
    elif "not a database" in msg or "malformed" in msg or "disk image" in msg:
        hint = "the file is not a valid results database (corrupt or another format); choose another file with --db"
    elif "full" in msg or "disk I/O" in msg:
        hint = (
            "the disk is full or failing; the games saved so far are kept: free space, then "
            "`cribbage bench --resume RUN` finishes the run (or choose another file with --db)"
        )
    elif "readonly" in msg or "unable to open" in msg:
        hint = "the file or its folder is not writable; choose another file with --db"
    else:
        hint = "choose another file with --db"
    return ResultsStoreError(f"results database {path}: {msg} ({hint})")
