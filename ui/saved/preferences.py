"""The Settings panel's choices (pace and look, :class:`~ui.scenes.preferences.Preferences`),
remembered across launches in ``settings.json`` in the player's data folder.

Written to a temp name and replaced (:func:`agents.store.atomic.atomic_write_json`), never
through a link; read only from a regular file of at most :data:`MAX_BYTES`, every value checked
against what the panel offers (a value it does not offer is left at its default).

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> save_preferences(d, Preferences(felt="blue", forced_card=True), durable=False)
>>> load_preferences(d) == Preferences(felt="blue", forced_card=True)
True
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from agents.store.atomic import atomic_write_json
from agents.store.files import UnreadableFile, read_text

from ..scenes.preferences import CHOICES, Preferences

PREFERENCES_NAME = "settings.json"
MAX_BYTES = 4096


def save_preferences(directory: Path, prefs: Preferences, *, durable: bool = True) -> None:
    data = {f.name: getattr(prefs, f.name) for f in fields(Preferences)}
    atomic_write_json(Path(directory) / PREFERENCES_NAME, data, durable=durable)


def load_preferences(directory: Path) -> Preferences:
    """The remembered settings (the defaults without a file, with a bad one, for a bad value)."""
    try:
        data = json.loads(read_text(Path(directory) / PREFERENCES_NAME, limit=MAX_BYTES))
    except (UnreadableFile, ValueError, RecursionError):
        return Preferences()
    if not isinstance(data, dict):
        return Preferences()
    kept: dict = {}
    for f in fields(Preferences):
        v = data.get(f.name)
        allowed = [value for value, _ in CHOICES[f.name][1]]
        if any(v == a and type(v) is type(a) for a in allowed):  # True is no 1
            kept[f.name] = v
    return Preferences(**kept)
