"""The start screen's choices, remembered across launches in the player's data folder.

The opponent's level, the players, the language, the four-colour deck, sound, the coach and the
game's variant are written to ``choices.json`` (to a temp name, then replaced) whenever one
changes, and read back at the next launch for every choice the command line did not give. The
file is small and plain data: it is read only up to :data:`MAX_BYTES`, every value is checked
against what the start screen offers, and a value that is not one of them is left out.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> save_choices(d, StartOptions(level="hard", lang="fr", coach=0.05), durable=False)
>>> sorted(load_choices(d).items())[:3]
[('coach', 0.05), ('four_colour', False), ('hotseat', False)]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agents.registry import LEVELS
from agents.store.atomic import atomic_write_json
from agents.store.files import UnreadableFile
from cribbage_env.rules.core import VARIANTS

from ..scenes.screens.start_scene import StartOptions
from ..table.teaching.coach import COACH_LIMITS
from ..words.i18n import LANGUAGES
from .aside import read_small_json, set_aside

CHOICES_NAME = "choices.json"
MAX_BYTES = 4096
#: Each remembered choice and the values it may take (a set, or a type for booleans).
ALLOWED: dict[str, Any] = {
    "level": set(LEVELS),
    "hotseat": bool,
    "lang": set(LANGUAGES),
    "four_colour": bool,
    "sound": bool,
    "coach": set(COACH_LIMITS),
    "rules": set(VARIANTS),
}


def _value(field: str, o: StartOptions) -> object:
    if field == "rules":  # a variant by its name (rules of no variant are not remembered)
        return next((k for k, v in VARIANTS.items() if v == o.rules), None)
    return getattr(o, field)


def save_choices(directory: Path, o: StartOptions, *, durable: bool = True) -> None:
    """Write the choices of ``o`` (atomically: a reader sees the old file or the new one)."""
    data = {f: v for f in ALLOWED if (v := _value(f, o)) is not None}
    atomic_write_json(Path(directory) / CHOICES_NAME, data, durable=durable)


def load_choices(directory: Path) -> dict[str, object]:
    """The remembered choices that are still valid ({} without a file or with a bad one, which
    is left as it is)."""
    return read_choices(directory, aside=False)[0]


def read_choices(directory: Path, *, aside: bool = True) -> tuple[dict[str, object], str | None]:
    """The remembered choices that are still valid, and a notice (one line) when the file could
    not be read: not a regular file (a FIFO is never waited on), over :data:`MAX_BYTES`, nested
    too deep, not JSON. ``aside``: such a file is then renamed beside itself (:mod:`.aside`), so
    the next launch starts clean; values that are merely unknown are left out in silence."""
    path = Path(directory) / CHOICES_NAME
    if not os.path.lexists(path):
        return {}, None
    try:
        data = read_small_json(path, limit=MAX_BYTES, what="start screen's choices file")
    except UnreadableFile as exc:
        return {}, set_aside(path, str(exc)) if aside else str(exc)
    return _valid(data), None


def _valid(data: object) -> dict[str, object]:
    """The choices of ``data`` that the start screen offers."""
    if not isinstance(data, dict):
        return {}
    out: dict[str, object] = {}
    for field, allowed in ALLOWED.items():
        v = data.get(field)
        if allowed is bool:
            if isinstance(v, bool):
                out[field] = v
        elif isinstance(v, (str, int, float)) and not isinstance(v, bool) and v in allowed:
            out[field] = v
    return out


def apply_choices(o: StartOptions, choices: dict[str, object], given: set[str]) -> None:
    """Set on ``o`` each remembered choice the command line did not give (``given``)."""
    for field, v in choices.items():
        if field in given:
            continue
        setattr(o, field, VARIANTS[str(v)] if field == "rules" else v)
