"""Run a tournament plan on a backend with a progress bar; Ctrl-C keeps the finished games.

The runner streams: each finished block goes to ``on_block`` (e.g. the results store) and into a
running :class:`~agents.tournament.summary.Tally`, so a run of any length keeps only counts in memory
(``keep_results=False``; the default keeps the games too, for small runs and tests).
For storage and crash recovery use :func:`agents.bench.run_tournament`.

>>> from agents.tournament.tournament import make_plan
>>> out = run_plan(make_plan(["random", "random"], 4, seed=3), backend="serial")
>>> len(out.results), out.games_played, out.interrupted
(4, 4, False)
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .backends import check_sendable, make_backend
from .game_result import GameResult
from .summary import Tally
from .tournament import TournamentPlan


@dataclass(frozen=True)
class RunOutcome:
    """The games played (sorted by pairing, pair, seat swap, when kept) and how the run ended."""

    plan: TournamentPlan
    results: tuple[GameResult, ...]
    interrupted: bool
    elapsed: float
    backend: str
    workers: int
    tally: Tally = field(compare=False, repr=False, default=None)  # type: ignore[assignment]
    games_played: int = 0  # this run's games (a resumed run's earlier games are in the tally)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.elapsed if self.elapsed > 0 else 0.0

    def summary(self, prior: float = 1.0) -> dict:
        return self.tally.summary(prior)


class _Stop:
    """SIGINT/SIGTERM in the main thread: the first sets the flag the loop checks between blocks
    (an exception raised at an arbitrary point could leave the pool's locks held and hang the
    shutdown); a second one raises ``KeyboardInterrupt`` as usual."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._previous: dict[int, object] = {}

    def _handler(self, signum, frame) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.event.set()

    def __enter__(self) -> _Stop:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)  # type: ignore[arg-type]


def _handle(block: Sequence[GameResult], on_block: Callable | None) -> bool:
    """Give ``block`` to ``on_block``; True if the run must stop after it."""
    if on_block is None:
        return False
    try:
        return on_block(block) is False
    except KeyboardInterrupt:  # Ctrl-C while handling a block: it is kept, the run stops
        return True


def run_plan(
    plan: TournamentPlan,
    *,
    backend: str | Any = "pool",
    workers: int | None = None,
    address: str | None = None,
    on_block: Callable[[Sequence[GameResult]], bool | None] | None = None,
    on_tick: Callable[[], None] | None = None,
    progress: bool = False,
    keep_results: bool = True,
    skip: Callable[[int, int], bool] | None = None,
    tally: Tally | None = None,
) -> RunOutcome:
    """Play every game of ``plan`` (but the blocks ``skip(pairing, start)`` names).

    ``on_block`` sees each finished block before it is counted (e.g. to save it); returning
    ``False`` (or raising ``KeyboardInterrupt``) stops the run after that block; another
    exception from it ends the run and propagates (the block is not counted); ``on_tick`` is
    called at least every 0.25 s (a heartbeat). SIGINT and SIGTERM stop the run: finished blocks
    are kept and counted, ``interrupted=True``; blocks in flight are dropped (each is small).
    ``tally`` continues an earlier count (a resumed run).
    """
    be = _open_backend(plan, backend, workers, address)
    tally = tally if tally is not None else Tally(plan)
    results: list[GameResult] = []
    played = 0
    bar = _progress_bar(plan, tally, be) if progress else None
    start = time.perf_counter()
    with _Stop() as stop:
        try:
            for block in be.run(plan.iter_tasks(skip), stop.event):
                if block:
                    if _handle(block, on_block):
                        stop.event.set()  # the block is counted, then the run stops
                    tally.add(block)
                    played += len(block)
                    if keep_results:
                        results.extend(block)
                    if bar is not None:
                        bar.update(len(block))
                if on_tick is not None:
                    on_tick()
                if stop.event.is_set():
                    break
        except KeyboardInterrupt:
            stop.event.set()
        except Exception:
            # Ctrl-C reaches the whole process group; a pool worker still starting up (before it
            # ignores SIGINT) dies of it and breaks the pool. That is the interruption, not a failure.
            if not stop.event.is_set():
                raise
        finally:
            elapsed = time.perf_counter() - start
            if bar is not None:
                bar.close()
            be.close()
        interrupted = stop.event.is_set()
    results.sort(key=lambda r: r.key)
    return RunOutcome(
        plan, tuple(results), interrupted, elapsed, be.name, be.workers, tally, played
    )


def _open_backend(plan: TournamentPlan, backend: str | Any, workers, address) -> Any:
    """The backend named (or given), checked able to receive the plan's agents."""
    be: Any = (
        make_backend(backend, workers, address, ship=plan.agents)
        if isinstance(backend, str)
        else backend
    )
    try:
        check_sendable(plan, be.name)
    except Exception:
        be.close()
        raise
    return be


def _progress_bar(plan: TournamentPlan, tally: Tally, be: Any) -> Any:
    """A progress bar of the plan's games on stderr, from the games already counted."""
    from tqdm import tqdm

    return tqdm(
        total=plan.total_games, initial=tally.games, unit="game", file=sys.stderr,
        dynamic_ncols=True, desc=f"{be.name} x{be.workers}",
    )  # fmt: skip
