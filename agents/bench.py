"""The tournament library API: plan, run on a backend, store incrementally, recover from crashes.

:func:`run_tournament` is what ``cribbage bench`` calls (the CLI only parses and prints), and what
a notebook calls with the bot it holds::

    from agents.bench import run_tournament
    out = run_tournament([MyBot, "expectimax"], games=200, backend="pool", store="results.sqlite")
    print(out.summary["pairings"][0]["win_rate"], out.status)
    out.agent_seed  # drawn fresh unless given: pass agent_seed=out.agent_seed to repeat the run

Agents are spec strings, agent instances or factories (a class or a function returning an
agent; see :mod:`agents.tournament.sources`). Pool workers and Ray receive objects by pickling, so define
them at module level in an importable file (a notebook's classes run on the serial backend).

With a store, every finished block is saved in one transaction as it arrives (a crash loses at
most the blocks in flight), a storage error (disk full, locked, removed) ends the run at once
with what was saved (the block that failed goes to a recovery file made with ``mkstemp``), and
:func:`resume_tournament` finishes an interrupted, failed or killed run: it replays only the
blocks not saved, with the run's recorded seeds, so the result equals an uninterrupted run.
Memory stays flat in the number of games (counts, not games, are kept; see :mod:`.summary`).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cribbage_env as ce

from .arena.seat import DEFAULT_LIMITS, SeatLimits, database_files
from .store.provenance import versions
from .store.results_store import ResultsStore, ResultsStoreError
from .tournament.backends import check_sendable, make_backend
from .tournament.game_result import GameResult, result_to_dict
from .tournament.runner import run_plan
from .tournament.sources import AgentSource
from .tournament.summary import Tally
from .tournament.tournament import (
    DEFAULT_BLOCK,
    AgentFailure,
    TournamentError,
    TournamentPlan,
    make_plan,
)
from .tournament.trust import check_stored_specs

#: seconds between heartbeats written to the store while a run waits for its blocks.
BEAT_S = 2.0


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
class Resumed:
    """What a stored run already holds when it is resumed: its id, the tally of its saved games,
    the blocks to skip (``skip(pairing, start)``) and what to warn about."""

    run_id: int
    tally: Tally
    skip: Callable[[int, int], bool]
    warn: tuple[str, ...] = ()


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


class _StorageFailed(Exception):
    pass


def write_recovery(
    db: Path, run_id: int | None, block: Sequence[GameResult], error: str
) -> Path | None:
    """The games of a block the store refused, as JSON in a fresh ``mkstemp`` file next to the
    database, else in the current folder, else the temporary folder; None if none could hold it."""
    data = json.dumps({"format": "cribbage-env/bench-recovery", "db": str(db), "run": run_id,
                       "error": error, "games": [result_to_dict(g) for g in block]})  # fmt: skip
    for folder in (db.parent, Path.cwd(), Path(tempfile.gettempdir())):
        name = None
        try:
            fd, name = tempfile.mkstemp(
                prefix=f"cribbage-bench-recovery-run{run_id}-", suffix=".json", dir=folder
            )
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            return Path(name)
        except OSError:
            if name is not None:
                try:
                    os.unlink(name)
                except OSError:
                    pass
    return None


class _Saver:
    """``on_block`` of the runner: saves each block, then hands it to the caller's hook."""

    def __init__(
        self, store: ResultsStore | None, run_id: int | None, hook: Callable | None
    ) -> None:
        self.store, self.run_id, self.hook = store, run_id, hook
        self.error: str | None = None
        self.recovery: Path | None = None
        self._beat = time.monotonic()

    def _save(self, block: Sequence[GameResult]) -> None:
        assert self.store is not None and self.run_id is not None
        try:
            self.store.add_games(self.run_id, block)
        except KeyboardInterrupt:  # Ctrl-C inside the transaction (rolled back): finish it
            self.store.add_games(self.run_id, block)
            raise

    def __call__(self, block: Sequence[GameResult]) -> bool | None:
        stop = False
        if self.store is not None:
            try:
                self._save(block)
            except KeyboardInterrupt:
                stop = True
            except ResultsStoreError as exc:
                self.error = str(exc)
                self.recovery = write_recovery(self.store.path, self.run_id, block, self.error)
                raise _StorageFailed from None
            self._beat = time.monotonic()
        if self.hook is not None:
            stop = self.hook(block) is False or stop
        return False if stop else None

    def tick(self) -> None:
        if self.store is None or time.monotonic() - self._beat < BEAT_S:
            return
        self._beat = time.monotonic()
        try:
            self.store.heartbeat(self.run_id)  # type: ignore[arg-type]
        except ResultsStoreError:
            pass  # the next block's save reports the store's trouble


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
    ``isolate`` (seconds per decision, e.g. :data:`agents.tournament.isolate.DEFAULT_TIMEOUT`) runs each
    agent in its own process (see :mod:`agents.tournament.isolate`): for agents you do not trust.
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
        plan, resumed = _resume_plan(db, run_id, agents)
        return _drive(plan, db, how, resumed)
    finally:
        if owned:
            db.close()


def _resume_plan(
    db: ResultsStore, run_id: int, agents: Sequence[AgentSource] | None
) -> tuple[TournamentPlan, Resumed]:
    run = db.run(run_id)
    status, params = run["status"], run["params"]
    if status == "running":
        raise TournamentError(
            f"run {run_id} is still running (process {run.get('pid')} on {run.get('host')}); "
            f"stop it first, or wait for it"
        )
    if status == "complete":
        raise TournamentError(f"run {run_id} is complete: nothing to resume")
    if params.get("kind", "tournament") != "tournament":
        raise TournamentError(
            f"run {run_id} is a {params['kind']} run, not a tournament: run it again"
        )
    if "agent_seed" not in params or "block" not in params:
        raise TournamentError(
            f"run {run_id} was made by an older version that did not record its agent seed: "
            f"it cannot be finished exactly; start a new run"
        )
    objects = params.get("objects") or []
    if objects and agents is None and str(objects[0]).startswith("exploit["):
        raise TournamentError(f"run {run_id} is an exploit run: `cribbage exploit --resume "
                              f"{run_id} --db {db.path}` finishes it")  # fmt: skip
    if objects and agents is None:
        raise TournamentError(
            f"run {run_id} played agent objects ({', '.join(objects)}), which a database cannot "
            f"rebuild: pass them again, resume_tournament({run_id}, ..., agents=[...])"
        )
    if (
        agents is None
    ):  # specs from the file are built only when plain built-ins (agents.tournament.trust)
        stored = params.get("agents")
        check_stored_specs(
            stored if isinstance(stored, list) else [stored],
            (),
            f"run {run_id} of {db.path}",
            f"name the run's agents again to resume it (cribbage bench --resume {run_id} AGENT ...)",
        )
    plan = _stored_plan(db, run_id, params, agents)
    mine = plan.params()
    if any(mine[k] != params.get(k) for k in mine if k != "objects"):
        raise TournamentError(
            f"the agents given ({', '.join(plan.agents)}) are not those of run {run_id} "
            f"({', '.join(params['agents'])})"
        )
    counts = db.block_counts(run_id, plan.block)

    def skip(pairing: int, start: int) -> bool:
        return counts.get((pairing, start), 0) >= plan.block_games(start)

    tally = Tally(plan).add(db.iter_games(run_id))
    warn = []
    then, now = run["versions"].get("git_commit"), versions().get("git_commit")
    if then and now and then != now:
        warn.append(f"run {run_id} was started by commit {then[:10]}, resumed by {now[:10]}")
    return plan, Resumed(run_id, tally, skip, tuple(warn))


def _stored_plan(db: ResultsStore, run_id: int, params: dict, agents, check: bool = True):
    """The plan run ``run_id`` recorded, rebuilt from its parameters (``check=False``: no agent
    is built or imported, for reading a run's games)."""
    try:
        limits = SeatLimits.from_json(params.get("seat_limits", {}))
    except ValueError as exc:
        raise ResultsStoreError(
            f"run {run_id} in {db.path} has damaged parameters ({exc})"
        ) from None
    try:
        return make_plan(
            agents if agents is not None else params["agents"], params["games"], params["seed"],
            duplicate=params["duplicate"], block=params["block"], agent_seed=params["agent_seed"],
            rules=ce.Rules.from_json(params.get("rules", {})), check_agents=check,
            isolate=params.get("isolate"), deal_key=params.get("deal_key"),
            seat_limits=limits, hidden=database_files(db.path),
        )  # fmt: skip
    except (KeyError, TypeError, ce.RulesError) as exc:
        raise ResultsStoreError(
            f"run {run_id} in {db.path} has damaged parameters ({exc})"
        ) from None


def summary_so_far(db: ResultsStore, run_id: int, prior: float = 1.0) -> dict:
    """The report of the games run ``run_id`` has saved, for a run still running or stopped
    before its end (a finished run has its summary saved). Builds no agent."""
    params = db.run(run_id)["params"]
    plan = _stored_plan(db, run_id, params, params.get("agents"), check=False)
    return Tally(plan).add(db.iter_games(run_id)).summary(prior)


def _drive(
    plan: TournamentPlan, db: ResultsStore | None, how: PlayOptions, resumed: Resumed | None = None
) -> TournamentRun:
    if db is not None and (plan.seating.isolate is not None or plan.deal_key):  # no sealed seat
        db.keep_journal()  # reads the results
        hidden = tuple(dict.fromkeys([*plan.seating.hidden, *database_files(db.path)]))
        plan = replace(plan, seating=replace(plan.seating, hidden=hidden))
    run_id = None if resumed is None else resumed.run_id
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
    tally = Tally(plan) if resumed is None else resumed.tally
    before = tally.games
    saver = _Saver(db, run_id, how.on_block)
    status, error, outcome = "complete", None, None
    start = time.perf_counter()
    try:
        outcome = run_plan(plan, backend=be, on_block=saver, on_tick=saver.tick,
                           progress=how.progress, keep_results=how.keep_results,
                           skip=None if resumed is None else resumed.skip, tally=tally)  # fmt: skip
        status = "interrupted" if outcome.interrupted else "complete"
    except _StorageFailed:
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
    if db is not None and run_id is not None and saver.error is None:
        try:
            db.finish_run(run_id, status, summary, elapsed)
        except (ResultsStoreError, KeyboardInterrupt) as exc:  # left running: reaped on next open
            if isinstance(exc, ResultsStoreError):
                status, error = "failed", str(exc)
                summary["run"]["status"], summary["error"] = status, error
    elif db is not None and run_id is not None:
        try:  # the store failed: try to say so (it may refuse; then the next open reaps the run)
            db.finish_run(run_id, "failed", summary, elapsed)
        except (ResultsStoreError, KeyboardInterrupt):
            pass
    return TournamentRun(
        plan, status, summary, run_id, None if db is None else str(db.path), error,
        None if saver.recovery is None else str(saver.recovery), played, elapsed, be.name,
        be.workers, outcome.results if outcome is not None else (),
        () if resumed is None else resumed.warn,
    )  # fmt: skip
