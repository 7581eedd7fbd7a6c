"""A run folder's ``final.json``: written last, so a run that has it is finished.

A resume reads it first and says the run is finished instead of training again; a run killed
before it was written resumes from its checkpoints and stages.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..store.atomic import atomic_write_text
from ..store.files import UnreadableFile, parse_json, read_text

FINAL = "final.json"


def mark_finished(run_dir: Path, model: Path, info: dict) -> Path:
    """Write ``final.json`` (atomically): the model's file name and ``info``."""
    text = json.dumps({"model": model.name, **info}, indent=1) + "\n"
    return atomic_write_text(run_dir / FINAL, text)


def finished(run_dir: Path) -> dict | None:
    """The ``final.json`` of a finished run whose model is there, else None (not finished, or
    a damaged record: the run resumes and writes it again)."""
    path = run_dir / FINAL
    if not os.path.lexists(path):
        return None
    try:
        info = parse_json(read_text(path, limit=1 << 20, what="run record"))
    except UnreadableFile:
        return None
    if not isinstance(info, dict) or not isinstance(info.get("model"), str):
        return None
    model = run_dir / Path(info["model"]).name
    return info if model.is_file() and not model.is_symlink() else None
