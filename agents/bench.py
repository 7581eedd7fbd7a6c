"""The tournament library API: plan, run on a backend, store incrementally, recover from crashes.

:func:`run_tournament` is what ``cribbage bench`` calls (the CLI only parses and prints), and what
a notebook calls with the bot it holds::

    from agents.bench import run_tournament
    out = run_tournament([MyBot, "expectimax"], games=200, backend="pool", store="results.sqlite")
    print(out.summary["pairings"][0]["win_rate"], out.status)
    out.agent_seed  # drawn fresh unless given: pass agent_seed=out.agent_seed to repeat the run

Agents are spec strings, agent instances or factories (a class or a function returning an
agent; see :mod:`agents.seats.sources`). Pool workers and Ray receive objects by pickling, so define
them at module level in an importable file (a notebook's classes run on the serial backend).

With a store, every finished block is saved in one transaction as it arrives (a crash loses at
most the blocks in flight), a storage error (disk full, locked, removed) ends the run at once
with what was saved (the block that failed goes to a recovery file made with ``mkstemp``), and
:func:`resume_tournament` finishes an interrupted, failed or killed run: it replays only the
blocks not saved, with the run's recorded seeds, so the result equals an uninterrupted run (the
saving is :mod:`agents.stored_runs.saving`, the reading back :mod:`agents.stored_runs.resuming`).
Memory stays flat in the number of games (counts, not games, are kept; see :mod:`.summary`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cribbage_env as ce

from .arena.seat import DEFAULT_LIMITS, SeatLimits, database_files
from .seats.sources import AgentSource
from .store.db_errors import ResultsStoreError
from .store.results_store import ResultsStore
from .stored_runs.resuming import Resumed, resume_plan
from .stored_runs.saving import BlockSaver, StorageFailed
from .tournament.backends import check_sendable, make_backend
from .tournament.game_result import GameResult
from .tournament.runner import run_plan
from .tournament.summary import Tally
from .tournament.tournament import (
    DEFAULT_BLOCK,
    AgentFailure,
    TournamentPlan,
    make_plan,
)


@dataclass(frozen=True)
class PlayOptions:
    """How and where a plan's games are played (never what they are): the backend and its
    workers (a Ray ``address``), a progress bar, ``on_block`` shown every saved block (False
    stops the run), whether the results are kept in memory, the prior of the summary's ratings."""

    backend: str = "pool"
    workers: int | None = None
    address: str | None = None
    progress: bool = False
    on_block: Callable[[Sequence[GameResult]], bool | None] | None = None
    keep_results: bool = False
    prior: float = 1.0


@dataclass(frozen=True)
class TournamentRun:
    """How a run ended: ``status`` is ``complete``, ``interrupted`` or ``failed``."""

    plan: TournamentPlan
    status: str
    summary: dict  # the report of every saved game (a resumed run's earlier ones too)
    run_id: int | None = None
    db: str | None = None
    error: str | None = None  # why a failed run failed
    recovery_file: str | None = None  # the unsaved block, when the store failed
    games_played: int = 0  # in this call
    elapsed: float = 0.0
    backend: str = ""
    workers: int = 0
    results: tuple[GameResult, ...] = field(default=(), repr=False)  # with keep_results
    warnings: tuple[str, ...] = ()

    @property
    def interrupted(self) -> bool:
        return self.status == "interrupted"

    @property
    def agent_seed(self) -> int:
        """The seed of the agents' randomness: drawn fresh unless given (see
        :mod:`cribbage_env.seeding`); ``run_tournament(..., agent_seed=run.agent_seed)`` repeats the run."""
        return self.plan.agent_seed

    @property
    def repeat_hint(self) -> str:
        """The line ``cribbage bench`` prints so that a run can be repeated exactly."""
        return f"agent seed {self.agent_seed}; pass --agent-seed {self.agent_seed} to repeat"


def _open(store: ResultsStore | str | os.PathLike | None) -> tuple[ResultsStore | None, bool]:
    if store is None or isinstance(store, ResultsStore):
        return store, False
    return ResultsStore(store), True


def run_tournament(
    agents: Sequence[AgentSource],
    games: int = 1000,
    seed: int = 0,
    *,
    agent_seed: int | None = None,
    duplicate: bool = True,
    block: int = DEFAULT_BLOCK,
    check_agents: bool = True,
    rules: ce.Rules | str = ce.STANDARD,
    isolate: float | None = None,
    seat_limits: SeatLimits = DEFAULT_LIMITS,
    deal_key: str | None = None,
    **play: Any,
) -> TournamentRun:
    """Plan and play a tournament (see the module doc): :func:`~agents.tournament.tournament.make_plan`
    of the arguments, then :func:`play_plan` with ``play`` (``backend``, ``workers``,
    ``address``, ``store``, ``progress``, ``on_block``, ``keep_results``, ``prior``).
    Bad parameters raise :class:`TournamentError` (or AgentSpecError) before any game is played.
    ``isolate`` (seconds per decision, e.g. :data:`agents.seats.isolate.DEFAULT_TIMEOUT`) runs each
    agent in its own process (see :mod:`agents.seats.isolate`): for agents you do not trust.
    ``deal_key`` (hex) repeats the deals of a run with that key (see ``make_plan``).
    """
    store = play.get("store")
    where = store.path if isinstance(store, ResultsStore) else store
    plan = make_plan(agents, games, seed, duplicate=duplicate, block=block, agent_seed=agent_seed,
                     check_agents=check_agents, rules=rules, isolate=isolate,
                     seat_limits=seat_limits, deal_key=deal_key,
                     hidden=database_files(where) if where is not None else ())  # fmt: skip
    return play_plan(plan, **play)


def play_plan(
    plan: TournamentPlan,
    *,
    backend: str = "pool",
    workers: int | None = None,
    address: str | None = None,
    store: ResultsStore | str | os.PathLike | None = None,
    progress: bool = False,
    on_block: Callable[[Sequence[GameResult]], bool | None] | None = None,
    keep_results: bool = False,
    prior: float = 1.0,
) -> TournamentRun:
    """Play a plan made once by :func:`~agents.tournament.tournament.make_plan` (``cribbage bench`` makes
    it, checks it and hands it to its record writer too). ``store`` is a results database (path
    or open :class:`ResultsStore`) or None to keep nothing. ``on_block`` sees every saved block
    (return False to stop). An unusable store raises :class:`ResultsStoreError`, an unavailable
    backend ``BackendError`` — before any game is played; what happens during the run is in the
    returned status."""
    db, owned = _open(store)
    how = PlayOptions(backend, workers, address, progress, on_block, keep_results, prior)
    try:
        return _drive(plan, db, how)
    finally:
        if owned and db is not None:
            db.close()


def resume_tournament(
    run_id: int,
    store: ResultsStore | str | os.PathLike,
    *,
    agents: Sequence[AgentSource] | None = None,
    backend: str = "pool",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = False,
    on_block: Callable[[Sequence[GameResult]], bool | None] | None = None,
    keep_results: bool = False,
    prior: float = 1.0,
) -> TournamentRun:
    """Finish run ``run_id`` of ``store``: replay the blocks it has not saved, with its recorded
    seeds and agent seed. ``agents`` is needed only when the run used agent objects."""
    db, owned = _open(store)
    assert db is not None
    how = PlayOptions(backend, workers, address, progress, on_block, keep_results, prior)
    try:
        plan, resumed = resume_plan(db, run_id, agents)
        return _drive(plan, db, how, resumed)
    finally:
        if owned:
            db.close()


def _drive(
    plan: TournamentPlan, db: ResultsStore | None, how: PlayOptions, resumed: Resumed | None = None
) -> TournamentRun:
    if db is not None and (plan.seating.isolate is not None or plan.deal_key):  # no sealed seat
        db.keep_journal()  # reads the results
        hidden = tuple(dict.fromkeys([*plan.seating.hidden, *database_files(db.path)]))
        plan = replace(plan, seating=replace(plan.seating, hidden=hidden))
    be, run_id = _start(plan, db, how, None if resumed is None else resumed.run_id)
    tally = Tally(plan) if resumed is None else resumed.tally
    before = tally.games
    saver = BlockSaver(db, run_id, how.on_block)
    status, error, outcome = "complete", None, None
    start = time.perf_counter()
    try:
        outcome = run_plan(plan, backend=be, on_block=saver, on_tick=saver.tick,
                           progress=how.progress, keep_results=how.keep_results,
                           skip=None if resumed is None else resumed.skip, tally=tally)  # fmt: skip
        status = "interrupted" if outcome.interrupted else "complete"
    except StorageFailed:
        status, error = "failed", saver.error
    except KeyboardInterrupt:  # a second Ctrl-C while the backend shut down
        status = "interrupted"
    except (AgentFailure, RuntimeError, OSError) as exc:  # BackendError is a RuntimeError
        status, error = "failed", str(exc)
    elapsed = outcome.elapsed if outcome is not None else time.perf_counter() - start
    played = tally.games - before
    summary = tally.summary(how.prior)
    summary["run"] = {
        "id": run_id, "db": None if db is None else str(db.path), "backend": be.name,
        "workers": be.workers, "elapsed_s": round(elapsed, 3),
        "games_per_s": round(played / elapsed, 2) if elapsed > 0 else 0.0, "status": status,
    }  # fmt: skip
    if error is not None:
        summary["error"] = error
    if saver.recovery is not None:
        summary["run"]["recovery_file"] = str(saver.recovery)
    if db is not None and run_id is not None:
        status, error = _finish(db, run_id, saver.error is None, status, error, summary, elapsed)
    return TournamentRun(
        plan, status, summary, run_id, None if db is None else str(db.path), error,
        None if saver.recovery is None else str(saver.recovery), played, elapsed, be.name,
        be.workers, outcome.results if outcome is not None else (),
        () if resumed is None else resumed.warn,
    )  # fmt: skip


def _start(plan: TournamentPlan, db: ResultsStore | None, how: PlayOptions, run_id: int | None):
    """The backend of a run, checked able to receive its agents, and the run recorded in the
    store (``run_id`` reopened, or a new one): (backend, run id)."""
    be = make_backend(how.backend, how.workers, how.address, ship=plan.agents)
    try:
        check_sendable(plan, be.name)
        if db is not None:
            if run_id is None:
                run_id = db.start_run(plan.params(), backend=be.name, workers=be.workers)
            else:
                db.reopen_run(run_id, backend=be.name, workers=be.workers)
    except BaseException:
        be.close()
        raise
    return be, run_id


def _finish(
    db: ResultsStore,
    run_id: int,
    saved: bool,
    status: str,
    error: str | None,
    summary: dict,
    elapsed: float,
) -> tuple[str, str | None]:
    """The run's end recorded in the store: its status and summary, or, when the store failed
    (``saved`` False), "failed" if it still takes it (else the next open reaps the run). The
    status and error as they end up (a store that fails here fails the run)."""
    if saved:
        try:
            db.finish_run(run_id, status, summary, elapsed)
        except (ResultsStoreError, KeyboardInterrupt) as exc:  # left running: reaped on next open
            if isinstance(exc, ResultsStoreError):
                status, error = "failed", str(exc)
                summary["run"]["status"], summary["error"] = status, error
    else:
        try:  # the store failed: try to say so (it may refuse; then the next open reaps the run)
            db.finish_run(run_id, "failed", summary, elapsed)
        except (ResultsStoreError, KeyboardInterrupt):
            pass
    return status, error
