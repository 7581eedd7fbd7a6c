"""A player's progress from the table's game history: records per opponent level, streaks,
skunks, a few achievements, and the record month by month (statistics over time, not only per
game). Everything is read from the finished games the history keeps (:mod:`ui.reports.player_stats`
loads them), so it survives every restart and needs no file of its own.

Achievements (each counted, with the first game that earned it):

- ``hand24``: a hand or crib of 24 points or more;
- ``thirty_one``: 31 for 2 in the play;
- ``skunk`` / ``double_skunk``: a game won with the loser under the skunk / double-skunk line;
- ``hand29``: the perfect 29.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import cribbage_env as ce
from cribbage_env.rules.scoring import ScoreKind

from ..words.i18n import N_
from .player_stats import HistoryGame, counted_events

#: The achievements in the order the screen lists them, with their words.
ACHIEVEMENTS = {
    "hand24": N_("A hand of 24 or more"),
    "thirty_one": N_("31 for 2"),
    "skunk": N_("A skunk"),
    "double_skunk": N_("A double skunk"),
    "hand29": N_("The perfect 29"),
}
_STAMP = re.compile(r"game-(\d{4})(\d{2})(\d{2})-")


def game_month(path: Path) -> str:
    """``YYYY-MM`` of a history file (its name's stamp, else its modification time).

    >>> game_month(Path("game-20261206-172300-seed5.json"))
    '2026-12'
    """
    m = _STAMP.match(path.name)
    if m:
        return f"{m.group(1)}-{m.group(2)}"
    return time.strftime("%Y-%m", time.localtime(path.stat().st_mtime))


def _game_date(path: Path) -> str:
    m = _STAMP.match(path.name)
    return f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else game_month(path)


def earned(hg: HistoryGame) -> set[str]:
    """The achievements the person earned in one game."""
    out: set[str] = set()
    for e in counted_events(hg.game):
        if e.player != hg.seat or not e.points:
            continue
        if e.kind is ce.EventKind.SHOW and e.points >= 24:
            out |= {"hand24", "hand29"} if e.points == 29 else {"hand24"}
        elif e.kind is ce.EventKind.PLAY and any(r.kind is ScoreKind.THIRTY_ONE for r in e.reasons):
            out.add("thirty_one")
    if hg.game.winner == hg.seat:
        level = ce.skunk_level(hg.game.scores, hg.game.rules)
        out |= {"skunk"} if level == 2 else {"skunk", "double_skunk"} if level == 3 else set()
    return out


def streaks(games: list[HistoryGame]) -> dict[str, int]:
    """The current streak (wins positive, losses negative) and the longest run of wins, the
    games taken oldest first."""
    current = best = 0
    for hg in games:
        won = hg.game.winner == hg.seat
        current = max(current, 0) + 1 if won else min(current, 0) - 1
        best = max(best, current)
    return {"current": current, "best_wins": best}


def streak_words(st: dict[str, int], cat) -> str:
    """The streaks in words, counted in the language's plural forms."""
    n = st["current"]
    now = (cat.ntr("{n} win", "{n} wins", n) if n > 0 else
           cat.ntr("{n} loss", "{n} losses", -n) if n < 0 else cat.tr("none"))  # fmt: skip
    best = cat.ntr("{n} win", "{n} wins", st["best_wins"])
    return cat.tr("Streak: {now} · longest: {best}", now=now, best=best)


def progress(games: list[HistoryGame]) -> dict:
    """Records per opponent (wins, losses, best margin), streaks, achievements and the record of
    each month, from ``games`` oldest first (JSON-ready)."""
    by_level: dict[str, dict[str, int]] = {}
    months: dict[str, list[int]] = {}
    found: dict[str, list] = {}
    for hg in games:
        g = hg.game
        won = g.winner == hg.seat
        r = by_level.setdefault(hg.opponent, {"wins": 0, "losses": 0, "best_margin": 0})
        r["wins" if won else "losses"] += 1
        if won:
            counted = [g.rules.counted(x) for x in g.scores]
            r["best_margin"] = max(r["best_margin"], counted[hg.seat] - counted[1 - hg.seat])
        m = months.setdefault(game_month(hg.path), [0, 0])
        m[0] += 1
        m[1] += won
        for key in earned(hg):
            entry = found.setdefault(key, [0, _game_date(hg.path)])
            entry[0] += 1
    return {
        "by_level": by_level,
        "streaks": streaks(games),
        "achievements": [
            {"key": k, "count": found[k][0], "first": found[k][1]}
            for k in ACHIEVEMENTS
            if k in found
        ],
        "by_month": [{"month": k, "games": v[0], "wins": v[1]} for k, v in sorted(months.items())],
    }
