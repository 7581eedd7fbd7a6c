"""Playing a plan's games: one game between two agents, and a block of duplicate pairs (a
:class:`~agents.tournament.tournament.Task`, the unit every backend runs) into its rows.

Kept apart from the plan (:mod:`agents.tournament.tournament`: what the games are) because this
is what a worker process runs: it builds each seat's agent once per process (a spec or a
factory), or an isolated seat, draws the agents' generators from the run's agent seed and the
game seed (:func:`cribbage_env.seeding.agent_rng`), and turns an agent's error, an illegal action
or a sealed seat's forfeit into what the tournament reports.
"""

from __future__ import annotations

import cribbage_env as ce
from cribbage_env.seeding import agent_rng, new_agent_seed

from ..arena.client import SeatForfeit
from ..arena.sandbox import hide_from_seats
from ..registry import make_agent
from ..seats.isolate import isolated_players
from ..seats.sources import AgentSource, agent_label, is_factory
from .game_result import GameResult, game_luck_pair, seat_stats_fast
from .tournament import AgentFailure, Task, TournamentError

_AGENT_CACHE: dict[tuple[object, int], object] = {}


class TaskStopped(Exception):
    """A block stopped between two games because the run is being interrupted."""


def _agent(src: AgentSource, seat: int):
    """The agent for ``seat``: one per (spec or factory, seat) per process, cheap to reuse and
    never shared by seats; an agent instance is used as it is."""
    if not isinstance(src, str) and not is_factory(src):
        return src
    key = (src, seat)
    agent = _AGENT_CACHE.get(key)
    if agent is None:
        agent = make_agent(src) if isinstance(src, str) else src()  # type: ignore[operator]
        _AGENT_CACHE[key] = agent
    return agent


def play_game(
    spec0: AgentSource,
    spec1: AgentSource,
    seed: int,
    agent_seed: int | None = None,
    rules: ce.Rules | str = ce.STANDARD,
) -> ce.GameState:
    """Play one game of ``rules``, ``spec0`` in seat 0; raises :class:`AgentFailure` on an
    illegal action.

    ``agent_seed`` seeds the agents' generators (``None``: a fresh one from OS entropy).
    """
    players = (_agent(spec0, 0), _agent(spec1, 1))
    return _play(players, (spec0, spec1), seed, agent_seed, ce.Rules.named(rules))[0]


def _play(
    players: tuple, specs: tuple, seed: int, agent_seed: int | None, rules: ce.Rules
) -> tuple[ce.GameState, tuple[int, str] | None]:
    """Play one game; an isolated seat's forfeit ends it: ``(state, (seat, reason))``."""
    names = (agent_label(specs[0]), agent_label(specs[1]))
    if agent_seed is None:
        agent_seed = new_agent_seed()
    rngs = (agent_rng(agent_seed, seed, 0), agent_rng(agent_seed, seed, 1))
    g = ce.new_game(seed, rules=rules)
    while not g.is_over:
        p = g.to_act  # the player to act (the game is not over)
        try:
            action = players[p].act(g.view(p), rngs[p])
        except SeatForfeit as exc:
            return g, (p, f"{names[p]} (seat {p}) {exc}")
        except Exception as exc:  # the agent's bug, reported with where it happened
            raise AgentFailure(
                f"agent {names[p]!r} (seat {p}) failed in game seed {seed}: {exc!r}"
            ) from exc
        try:
            g.apply(action, p)
        except ce.IllegalActionError as exc:
            raise AgentFailure(
                f"agent {names[p]!r} (seat {p}) in game seed {seed}: {exc}"
            ) from None
    return g, None


def result_of(
    g: ce.GameState, pairing: int, index: int, swapped: bool, forfeit: tuple[int, str] | None = None
) -> GameResult:
    """The row of a finished game, or of one a seat forfeited (``(seat, reason)``)."""
    first = next(e.player for e in g.events if e.kind is ce.EventKind.DEAL)
    winner = g.winner if forfeit is None else 1 - forfeit[0]
    if winner is None or first is None:
        raise TournamentError(f"game seed {g.seed} is not finished")
    return GameResult(
        pairing=pairing,
        index=index,
        swapped=swapped,
        seed=g.seed,
        winner=winner,
        scores=g.scores,
        first_dealer=first,
        deals=g.deal_no + 1,
        seats=seat_stats_fast(g),
        moves=tuple(g.decisions),
        forfeit="" if forfeit is None else forfeit[1],
        luck=game_luck_pair(g),
    )


def play_task(task: Task, stop: object | None = None) -> list[GameResult]:
    """Play every game of a block (the function each backend runs).

    ``stop`` (an object with ``is_set()``, e.g. a ``threading.Event``) is checked between games:
    when set, the block raises :class:`TaskStopped` (its games are dropped, the block replays on
    resume), so a serial run answers Ctrl-C within a game.
    """
    a = task.a if task.source_a is None else task.source_a
    b = task.b if task.source_b is None else task.source_b
    out = []
    for index, seed in task.items:
        for swapped in (False, True) if task.duplicate else (False,):
            if stop is not None and stop.is_set():  # type: ignore[attr-defined]
                raise TaskStopped
            specs = (b, a) if swapped else (a, b)
            hide_from_seats(task.seating.hidden)  # a sealed: spec's seat reads no results either
            players = (
                (_agent(specs[0], 0), _agent(specs[1], 1))
                if task.seating.isolate is None
                else isolated_players(
                    specs, task.seating.isolate, task.seating.limits, task.seating.hidden
                )  # fmt: skip
            )
            g, forfeit = _play(players, specs, seed, task.agent_seed, task.rules)
            out.append(result_of(g, task.pairing, index, swapped, forfeit))
    return out
