"""Past games: every finished game at the table, listed from the history folder and opened again
in the Review or replayed.

The autosave (:mod:`ui.saved.autosave`) moves each finished game to ``history/`` with its
record, so a game's review is never lost when the game-over panel is left: the list reads the
folder (newest first), each file with the checked reader (a regular file of bounded size, plain
JSON), replays the record to check it, and shows date, opponent, score and result. Opening a game
builds a table from the record alone: the seats' agents are never built (a replay makes their
decisions from the record), so a game against an agent that would run code opens safely too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import cribbage_env as ce
from agents.store.files import UnreadableFile, parse_json, read_text

from ..table.controller import Mode, TableController
from ..table.saves import SAVE_FORMAT, SaveError

#: A history file larger than this is skipped (a game to 121 is about 10 kB).
MAX_GAME_BYTES = 512 * 1024
#: The newest games read for the list (older ones stay on disk, and in the statistics).
MAX_LISTED = 500


@dataclass(frozen=True)
class PastGame:
    """One finished game: its file and what the list says about it."""

    path: Path
    when: float  # seconds since the epoch (the file's modification time)
    mode: str  # "computer", "hotseat" or "watch"
    opponent: str | None  # the other seat's agent spec; None: another person
    seat: int  # the person's seat (seat 0 in pass and play and when watching)
    scores: tuple[int, int]  # the person's score first, as counted (the winner's is the target)
    target: int
    won: bool  # the person's seat won
    skunk: int  # 1 none, 2 skunk, 3 double skunk (of the loser)


def read_game(path: Path) -> tuple[dict, ce.GameState]:
    """The saved data and the replayed finished game of one history file; :class:`SaveError`
    (the file untouched) if it is not one."""
    try:
        data = parse_json(read_text(path, limit=MAX_GAME_BYTES, what="past game"))
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("not a saved game of the table")
        agents = data.get("agents")
        if not isinstance(agents, list) or len(agents) != 2:
            raise ValueError("the seats are missing")
        if data.get("mode") not in ("computer", "hotseat", "watch"):
            raise ValueError("the mode is missing")
        game = ce.GameState.from_record(data["record"])
    except (UnreadableFile, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise SaveError(f"{path.name}: {str(exc)[:200]}") from None
    if not game.is_over:
        raise SaveError(f"{path.name}: the game is not finished")
    return data, game


def describe(path: Path) -> PastGame:
    """The list's line of facts about the history file at ``path`` (:class:`SaveError`)."""
    data, game = read_game(path)
    agents = data["agents"]
    seat = next((i for i in (0, 1) if agents[i] is None), 0)
    other = agents[1 - seat]
    counted = game.rules.counted  # the winner's score is the target, as on the board
    scores = (counted(game.scores[seat]), counted(game.scores[1 - seat]))
    return PastGame(
        path,
        path.stat().st_mtime,
        str(data["mode"]),
        None if other is None else str(other),
        seat,
        scores,
        game.rules.target,
        game.winner == seat,
        ce.skunk_level(game.scores, game.rules),
    )


def past_games(history: Path) -> tuple[list[PastGame], int]:
    """The finished games in ``history``, newest first, and how many files were skipped."""
    if not history.is_dir() or history.is_symlink():
        return [], 0
    files = sorted(history.glob("game-*.json"), reverse=True)[:MAX_LISTED]
    out, skipped = [], 0
    for path in files:
        if path.is_symlink() or not path.is_file():
            skipped += 1
            continue
        try:
            out.append(describe(path))
        except (SaveError, OSError):
            skipped += 1
    return out, skipped


def past_table(path: Path, lang: str, *, replay: bool) -> TableController:
    """A table holding the finished game of ``path``: at its end for the Review, or from its
    first decision with both seats played from the record (``replay``). No agent is built."""
    data, game = read_game(path)
    decisions = list(game.decisions)
    rules = game.rules
    if replay:
        ctl = TableController(game.seed, mode=Mode.WATCH, agents=("record", "record"), lang=lang,
                              interactive_cuts=game.interactive_cuts, script=decisions,
                              rules=rules)  # fmt: skip
        return ctl
    mode = Mode(data["mode"])
    kwargs: dict = {"mode": mode, "lang": lang, "interactive_cuts": game.interactive_cuts,
                    "script": decisions, "rules": rules}  # fmt: skip
    if mode is Mode.COMPUTER:
        kwargs["opponent"] = str(data["agents"][1])
    elif mode is Mode.WATCH:
        kwargs["agents"] = [str(a) for a in data["agents"]]
    ctl = TableController(game.seed, **kwargs)
    ctl.resume(decisions, len(decisions))
    return ctl


def past_row(g: PastGame, tr, opponent_name) -> tuple[str, str, str, str]:
    """The list's columns for ``g``: date, opponent, score (yours first), result."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.when))
    who = tr("Another person") if g.opponent is None else opponent_name(g.opponent)
    score = f"{g.scores[0]}–{g.scores[1]}"
    if g.won:
        result = {2: tr("won, skunk"), 3: tr("won, double skunk")}.get(g.skunk, tr("won"))
    else:
        result = {2: tr("lost, skunked"), 3: tr("lost, double skunked")}.get(g.skunk, tr("lost"))
    return when, who, score, result
