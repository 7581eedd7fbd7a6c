"""Games of a ``cribbage bench --records DIR`` folder as statistics input (``cribbage stats
--records DIR``): one agent's games, seen from its seat, the way the table's history is.

The folder's ``index.json`` names the seats of every game; only the record files it names, as
plain names inside the folder, are read (each a small regular file: :mod:`agents.store.files`).
"""

from __future__ import annotations

from pathlib import Path

import cribbage_env as ce
from agents.store.files import UnreadableFile, parse_json, read_text

from .player_stats import HistoryError, HistoryGame

INDEX_FORMAT = "cribbage-env/bench-records"
#: an index lists every recorded game (about 250 bytes each): room for 100,000 games.
INDEX_BYTES = 32 * 1024 * 1024


def _index(directory: Path) -> list[dict]:
    if not directory.is_dir():
        raise HistoryError(f"no records folder at {directory} (cribbage bench --records DIR)")
    path = directory / "index.json"
    try:
        data = parse_json(read_text(path, limit=INDEX_BYTES, what="records index"))
    except UnreadableFile as exc:
        raise HistoryError(f"{path}: {exc} (not a cribbage bench --records folder?)") from None
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
        raise HistoryError(f"{path} is not a cribbage bench records index")
    games = data.get("games")
    if not isinstance(games, list):
        raise HistoryError(f"{path} lists no games")
    return games


def _entry(e: object) -> tuple[str, list[str]]:
    if not isinstance(e, dict):
        raise ValueError("not a game entry")
    name, seats = e.get("file"), e.get("seats")
    if not isinstance(name, str) or Path(name).name != name or name.startswith("."):
        raise ValueError(f"{name!r} is not a file name in the folder")
    if not (isinstance(seats, list) and len(seats) == 2 and all(isinstance(s, str) for s in seats)):
        raise ValueError("the seats are missing")
    return name, seats


def load_records(
    directory: Path, agent: str | None = None
) -> tuple[list[HistoryGame], list[str], str]:
    """``agent``'s finished games in the folder (default: agent A of the first pairing), notes
    for entries skipped, and the agent. In a self-play pairing (the same spec in both seats)
    the agent is seat 0."""
    games: list[HistoryGame] = []
    skipped: list[str] = []
    for e in _index(directory):
        try:
            name, seats = _entry(e)
        except ValueError as exc:
            skipped.append(f"index entry {str(e)[:60]}: {exc}")
            continue
        if agent is None:
            agent = seats[1] if e.get("swapped") else seats[0]  # the pairing's agent A
        if agent not in seats:
            continue
        path = directory / name
        try:
            game = ce.GameState.from_record(read_text(path, what="game record"))
        except (UnreadableFile, ValueError, KeyError, TypeError, RecursionError) as exc:
            skipped.append(f"{name}: {exc}")
            continue
        if not game.is_over:
            skipped.append(f"{name}: the game is not finished")
            continue
        seat = seats.index(agent)
        games.append(HistoryGame(path, game, seat, seats[1 - seat]))
    if agent is None:
        why = f": {skipped[0]}" if skipped else ""
        raise HistoryError(f"{directory / 'index.json'} lists no usable games{why}")
    return games, skipped, agent
