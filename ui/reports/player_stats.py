"""A player's statistics from the table's game history (``history/`` under the data folder).

Every finished game at the table is archived with its record. The player is the person's seat
(seat 0 against the computer; with two people at one screen, seat 0 too: "player 1"); games
the person only watched are left out. Per game: the result, skunks, the points of each deal by
role (pegging, hand, crib, read from the engine's events the same way tournaments do), and,
with reviews on, the person's error rate (mean winning chance lost per decision with a choice,
:mod:`agents.review`): the judge's own figure, with its default settings, the one the game-over
panel and the Review show. Its figures are kept in ``review-cache.json`` next to the history,
under the game's :func:`~agents.review.review_key` (what the review is a function of), so a
game reviewed at the table is not reviewed again; the history files are only read.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cribbage_env as ce
from agents.store.atomic import atomic_write_json
from agents.store.files import UnreadableFile, parse_json, read_text
from agents.tournament.game_result import SEAT_FIELDS, seat_stats
from agents.tournament.summary import role_table

from ..errors import UIError
from ..table.saves import SAVE_FORMAT

if TYPE_CHECKING:
    from agents.review import Review

#: Points per deal by role in expectimax self-play, counted the same way (the deal cut short by
#: the win included): ``cribbage bench expectimax expectimax --games 4000 --seed 5
#: --agent-seed 5`` (36,304 deals; benchmarks/RESULTS.md).
EXPECTED = {
    "dealer": {"pegging": 3.36, "hand": 7.50, "crib": 4.32},
    "pone": {"pegging": 2.10, "hand": 7.98, "crib": 0.0},
}
CACHE_NAME = "review-cache.json"


@dataclass(frozen=True)
class HistoryGame:
    path: Path
    game: ce.GameState
    seat: int  # the person's seat
    opponent: str  # the other seat's agent spec, or "person"


class HistoryError(UIError, ValueError):
    """The history folder is missing or holds nothing usable."""


def load_history(directory: Path) -> tuple[list[HistoryGame], list[str]]:
    """The finished games a person played, oldest first, and a note for each file skipped."""
    if not directory.is_dir():
        raise HistoryError(f"no game history at {directory} (finished games at the table go there)")
    games, skipped = [], []
    for path in sorted(directory.glob("game-*.json")):
        try:  # the checked reader: a FIFO, a device or a huge file is skipped, never waited on
            data = parse_json(read_text(path, what="saved game"))
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise ValueError("not a saved game of the table")
            agents = data.get("agents")
            if not isinstance(agents, list) or len(agents) != 2:
                raise ValueError("the seats are missing")
            game = ce.GameState.from_record(data["record"])
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            skipped.append(f"{path.name}: {str(exc)[:200]}")
            continue
        if not game.is_over:
            skipped.append(f"{path.name}: the game is not finished")
            continue
        people = [i for i in (0, 1) if agents[i] is None]
        if not people:
            continue  # watched, not played
        seat = people[0]
        other = agents[1 - seat]
        games.append(HistoryGame(path, game, seat, "person" if other is None else str(other)))
    return games, skipped


def counted_events(game: ce.GameState) -> list[ce.Event]:
    """The game's events with each scoring's points as counted (R10.2: nothing past the target,
    :meth:`~cribbage_env.rules.core.Rules.counted_points`): a last hand of 12 laid at 115 counts
    6 here as on the game-over panel, so the parts add up to the final score there and here.
    (The expected averages beside them count the points past the target too, less than a
    point a game.)"""
    rules = game.rules
    out = []
    for e in game.events:
        if e.points and e.player is not None:
            counted = rules.counted_points(e.points, e.scores[e.player])
            if counted != e.points:
                e = e._replace(points=counted, given_reasons=e.reasons)
        out.append(e)
    return out


def _per_deal(total: dict[str, int]) -> dict:
    """The person's points per deal by role (without the heels and the pone's empty crib),
    each with what good play is expected to score."""
    table = role_table(total, digits=2)
    del table["dealer"]["heels"], table["pone"]["crib"]
    for role, row in table.items():
        row["expected"] = EXPECTED[role]
    return table


def error_rates(
    games: list[HistoryGame], cache_path: Path | None, samples: int | None = None
) -> list[float]:
    """The person's error rate in each game, from the cache or reviewed (and cached) with the
    judge's settings (``samples`` guesses per decision: the judge's default unless given)."""
    from agents.coaching.judge import DEFAULT_SAMPLES
    from agents.review import review_game, review_key

    n = DEFAULT_SAMPLES if samples is None else samples
    cache = _read_cache(cache_path)
    out, changed = [], False
    for hg in games:
        key = review_key(hg.game, samples=n)
        if not _cached_rates(cache.get(key)):  # missing or malformed: reviewed again
            cache[key] = _rates(review_game(hg.game, samples=n))
            changed = True
        out.append(float(cache[key][hg.seat]))
    if changed and cache_path is not None:
        atomic_write_json(cache_path, cache, durable=False)
    return out


def remember_review(cache_path: Path, review: Review) -> None:
    """Keep a review made elsewhere (the table's, at game over) for :func:`error_rates`."""
    cache = _read_cache(cache_path)
    if review.key and cache.get(review.key) != _rates(review):
        cache[review.key] = _rates(review)
        atomic_write_json(cache_path, cache, durable=False)


def _rates(review: Review) -> list[float]:
    return [review.seat_summary(0)["error_rate"], review.seat_summary(1)["error_rate"]]


def _read_cache(path: Path | None) -> dict:
    """The review cache (checked reader); anything but a JSON object counts as empty."""
    if path is None or not os.path.lexists(path):
        return {}
    try:
        cache = parse_json(read_text(path, what="review cache"))
    except UnreadableFile:
        return {}
    return cache if isinstance(cache, dict) else {}


def _cached_rates(entry: object) -> bool:
    """Is ``entry`` two error rates, finite numbers in 0..1?"""
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(r, int | float) and not isinstance(r, bool) for r in entry)
        and all(math.isfinite(r) and 0 <= r <= 1 for r in entry)
    )


def _record(games: list[HistoryGame]) -> dict:
    """Games, wins and skunks, each game's skunk read from its own rules (a 61-50 win is no
    double skunk)."""
    wins = sum(hg.game.winner == hg.seat for hg in games)
    skunks = {"given": 0, "taken": 0, "double_given": 0, "double_taken": 0}
    for hg in games:
        level = ce.skunk_level(hg.game.scores, hg.game.rules)
        won = hg.game.winner == hg.seat
        if level >= 2:
            skunks["given" if won else "taken"] += 1
        if level == 3:
            skunks["double_given" if won else "double_taken"] += 1
    return {
        "games": len(games),
        "wins": wins,
        "losses": len(games) - wins,
        "win_rate": round(wins / len(games), 4) if games else None,
        "skunks": skunks,
    }


def player_stats(games: list[HistoryGame], rates: list[float] | None = None) -> dict:
    """Totals over the games (JSON-ready); ``rates`` from :func:`error_rates`. ``by_target``
    keeps the games to 61 and to 121 apart (keys: the target as a string)."""
    total = dict.fromkeys(SEAT_FIELDS, 0)
    by_opp: dict[str, list[int]] = {}
    by_target: dict[int, list[HistoryGame]] = {}
    for hg in games:
        won = hg.game.winner == hg.seat
        s = seat_stats(counted_events(hg.game))[hg.seat]
        for f in SEAT_FIELDS:
            total[f] += getattr(s, f)
        by_opp.setdefault(hg.opponent, [0, 0])[0 if won else 1] += 1
        by_target.setdefault(hg.game.rules.target, []).append(hg)
    out = {
        **_record(games),
        "by_target": {str(t): _record(hgs) for t, hgs in sorted(by_target.items())},
        "by_opponent": {k: {"wins": v[0], "losses": v[1]} for k, v in sorted(by_opp.items())},
        "points_per_deal": _per_deal(total),
    }
    if rates is not None:
        out["error_rate"] = [
            {"game": hg.path.name, "error_rate": round(r, 5)}
            for hg, r in zip(games, rates, strict=True)
        ]
        half = len(rates) // 2
        if half:
            out["error_rate_first_half"] = round(sum(rates[:half]) / half, 5)
            out["error_rate_second_half"] = round(sum(rates[half:]) / (len(rates) - half), 5)
    return out
