"""Results that cannot be forged after the fact: a database is exactly our schema, and each
stored game is what its seed and its moves play to.

A game is a pure function of its seed and its decisions, so a row is its own witness: replaying
its moves from its seed must reach its winner, scores, first dealer and number of deals (a
forfeited game stops where the forfeiting seat failed, and its winner is the other seat). A row
edited by hand, by another program or by a bot does not replay, and the store then calls the
run damaged instead of handing the row on. A file with objects of its own (a trigger that
rewrites what we insert, a view in place of a table) is refused before anything is written.
"""

from __future__ import annotations

import math
import re
import secrets
import sqlite3

import numpy as np

import cribbage_env as ce

from ..tournament.game_result import GameResult, game_luck_pair, seat_stats_fast

#: The objects our schema makes (``sqlite_sequence`` comes with AUTOINCREMENT; the automatic
#: indexes of the primary keys are ``sqlite_autoindex_<table>_<n>``).
OUR_TABLES = frozenset({"meta", "runs", "games", "sqlite_sequence"})
_AUTO_INDEX = re.compile(r"sqlite_autoindex_(meta|runs|games)_\d+\Z")
_SEAT = re.compile(r"\(seat ([01])\)")


def foreign_objects(db: sqlite3.Connection) -> list[str]:
    """The objects of ``db`` that our schema does not make (``"trigger flip"``), sorted.

    >>> con = sqlite3.connect(":memory:")
    >>> _ = con.execute("CREATE TABLE games (x)")
    >>> _ = con.execute("CREATE VIEW runs AS SELECT 1")
    >>> foreign_objects(con)
    ['view runs']
    """
    out = []
    for kind, name in db.execute("SELECT type, name FROM sqlite_master"):
        if kind == "table" and name in OUR_TABLES:
            continue
        if kind == "index" and _AUTO_INDEX.match(str(name)):
            continue
        out.append(f"{kind} {name}")
    return sorted(out)


def game_problem(
    g: GameResult, rules: ce.Rules, seed: int | None = None, luck: bool = False
) -> str | None:
    """Why the stored game ``g`` is not what its seed and moves play to, or None: its winner,
    scores, first dealer, deals and points by role; its seed must be ``seed`` (the run's seed
    of its index) and, with ``luck``, its luck what the replay measures (costly: a sample).

    >>> from agents.tournament.play import play_game, result_of
    >>> state = play_game("random", "random", 5, agent_seed=1)
    >>> row = result_of(state, 0, 0, False)
    >>> game_problem(row, ce.STANDARD) is None
    True
    >>> import dataclasses
    >>> game_problem(dataclasses.replace(row, winner=1 - row.winner), ce.STANDARD)  # doctest: +ELLIPSIS
    'its moves play to winner ...'
    """
    if seed is not None and g.seed != seed:
        return f"its seed {g.seed} is not the run's seed {seed} of its deal pair {g.index}"
    try:
        state = ce.replay(g.seed, g.moves, rules=rules)
    except (ce.IllegalActionError, ValueError, TypeError, IndexError) as exc:
        return f"its moves do not replay from its seed ({str(exc)[:120]})"
    if g.forfeit:
        seat = _SEAT.search(g.forfeit)
        if state.is_over or seat is None:
            return "it is marked forfeited but its moves finish the game"
        winner = 1 - int(seat.group(1))
    else:
        if not state.is_over:
            return "its moves do not finish the game"
        winner = state.winner  # type: ignore[assignment]
    first = next(e.player for e in state.events if e.kind is ce.EventKind.DEAL)
    played = (winner, tuple(state.scores), first, state.deal_no + 1)
    stored = (g.winner, tuple(g.scores), g.first_dealer, g.deals)
    if played != stored:
        names = ("winner", "scores", "first dealer", "deals")
        diff = [f"{n} {a} (stored {b})" for n, a, b in zip(names, played, stored, strict=True)
                if a != b]  # fmt: skip
        return "its moves play to " + ", ".join(diff)
    if seat_stats_fast(state) != g.seats:
        return f"its moves play to points by role {seat_stats_fast(state)} (stored {g.seats})"
    if luck and not _same_luck(game_luck_pair(state), g.luck):
        return f"its moves play to luck {game_luck_pair(state)} (stored {g.luck})"
    return None


def _same_luck(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    if a is None or b is None:
        return a is b
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b, strict=True))


#: Games of a run whose luck a full check measures again, drawn at random.
LUCK_SAMPLE = 24


def luck_problem(games: list[GameResult], rules: ce.Rules, sample: int) -> str | None:
    """Why one of ``sample`` games drawn at random (by a generator seeded by the OS, unknown
    to whoever wrote the file) does not have the luck its moves play to, or None."""
    draw = np.random.default_rng(secrets.randbits(64))
    for i in sorted(draw.permutation(len(games))[:sample].tolist()):
        g = games[i]
        problem = game_problem(g, rules, luck=True)
        if problem is not None:
            return (f"its game (pairing {g.pairing}, pair {g.index}, swapped {int(g.swapped)}) "
                    f"was changed after it was played ({problem})")  # fmt: skip
    return None


def run_seed(run: dict, index: int) -> int | None:
    """The seed of deal pair ``index`` of a run, from its stored parameters (None when they
    are damaged: the run's other checks say so)."""
    from ..tournament.tournament import Seeds, deal_entropy

    try:
        params = run["params"]
        games, duplicate = int(params["games"]), bool(params["duplicate"])
        root = deal_entropy(int(params["seed"]), str(params.get("deal_key") or ""))
        seeds = Seeds(root, games // 2 if duplicate else games)
        return seeds[index] if 0 <= index < len(seeds) else -1
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def run_rules(run: dict) -> ce.Rules:
    """The rules a run's games were played under (a damaged value: the standard game's
    checks fail on the run's first game, which then says so)."""
    try:
        return ce.Rules.from_json(run["params"].get("rules", {}))
    except (ce.RulesError, TypeError, ValueError, AttributeError):
        return ce.STANDARD


def summary_problem(summary: dict, games: list[GameResult]) -> str | None:
    """Why a finished run's saved summary does not count its stored games, or None: each
    pairing's games and first agent's wins (the first agent sits in seat 1 of a swapped game)."""
    if not summary.get("pairings"):
        return None
    counted: dict[int, list[int]] = {}
    for g in games:
        n_wa = counted.setdefault(g.pairing, [0, 0])
        n_wa[0] += 1
        n_wa[1] += g.winner == (1 if g.swapped else 0)
    for p, row in enumerate(summary.get("pairings") or []):
        n, wa = counted.get(p, [0, 0])
        if [row.get("games"), (row.get("wins") or [None])[0]] != [n, wa]:
            return (
                f"its summary says pairing {p} has {row.get('games')} games and "
                f"{(row.get('wins') or ['?'])[0]} wins for {row.get('agents', ['?'])[0]}, its "
                f"stored games count {n} and {wa}"
            )
    return None
