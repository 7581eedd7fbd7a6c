"""Files of the data folder that cannot be read are set aside, never waited on nor crashed on.

The table reads a few small files at launch (the start screen's choices, the autosave). Each is
read by :func:`agents.store.files.read_text` and :func:`agents.store.files.parse_json`: regular
files only (a FIFO is never opened for a blocking read), a size cap, and a nesting cap checked
before parsing. One that fails is renamed beside itself (``choices.json.bad-<time>``: nothing is
deleted, the player may look at it) and the game starts without it, with a one-line notice.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from agents.store.files import parse_json, read_text


def read_small_json(path: Path, *, limit: int, what: str) -> object:
    """The JSON value of the small regular file at ``path`` (UnreadableFile saying why not)."""
    return parse_json(read_text(path, limit=limit, what=what))


def set_aside(path: Path, why: str) -> str:
    """Rename the unreadable ``path`` to a free ``<name>.bad-<time>`` beside it; the notice
    (one line, naming the file and why)."""
    why = why if str(path) in why else f"{path}: {why}"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = path.with_name(f"{path.name}.bad-{stamp}"), 1
    while os.path.lexists(target):
        n += 1
        target = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    try:
        os.rename(path, target)
    except OSError as exc:
        return f"{why}; it could not be set aside ({exc.strerror or exc}) and is not used"
    return f"{why}; set aside as {target.name}, not used"
