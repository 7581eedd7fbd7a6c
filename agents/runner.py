"""Run a tournament plan on a backend with a progress bar; Ctrl-C keeps the finished games.

>>> from agents.tournament import make_plan
>>> out = run_plan(make_plan(["random", "random"], 4, seed=3), backend="serial")
>>> len(out.results), out.interrupted
(4, False)
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .backends import make_backend
from .tournament import GameResult, TournamentPlan, summarize


@dataclass(frozen=True)
class RunOutcome:
    """The games played (sorted by pairing, pair, seat swap) and how the run ended."""

    plan: TournamentPlan
    results: tuple[GameResult, ...]
    interrupted: bool
    elapsed: float
    backend: str
    workers: int

    @property
    def games_per_second(self) -> float:
        return len(self.results) / self.elapsed if self.elapsed > 0 else 0.0

    def summary(self, prior: float = 1.0) -> dict:
        return summarize(self.plan, self.results, prior=prior)


def run_plan(
    plan: TournamentPlan,
    *,
    backend: str | object = "pool",
    workers: int | None = None,
    address: str | None = None,
    on_block: Callable[[Sequence[GameResult]], None] | None = None,
    progress: bool = False,
) -> RunOutcome:
    """Play every game of ``plan``; ``on_block`` sees each finished block (e.g. to save it).

    Ctrl-C (SIGINT) stops the run: blocks already finished are kept and returned with
    ``interrupted=True``; blocks in flight are dropped (each block is small). In the main thread
    the first SIGINT only sets a flag that the loop checks between blocks (an exception raised at
    an arbitrary point could leave the process pool's locks held and hang the shutdown); a second
    one raises ``KeyboardInterrupt`` as usual. A ``KeyboardInterrupt`` from ``on_block`` also stops.
    """
    be = make_backend(backend, workers, address) if isinstance(backend, str) else backend
    results: list[GameResult] = []
    interrupted = False
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(
            total=plan.total_games,
            unit="game",
            file=sys.stderr,
            dynamic_ncols=True,
            desc=f"{be.name} x{be.workers}",
        )
    stop = threading.Event()

    def on_sigint(signum, frame) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, on_sigint)
    start = time.perf_counter()
    try:
        for block in be.run(plan.tasks()):
            if block:
                results.extend(block)
                if on_block is not None:
                    on_block(block)
                if bar is not None:
                    bar.update(len(block))
            if stop.is_set():
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    except Exception:
        # Ctrl-C reaches the whole process group; a pool worker still starting up (before it
        # ignores SIGINT) dies of it and breaks the pool. That is the interruption, not a failure.
        if not stop.is_set():
            raise
        interrupted = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        elapsed = time.perf_counter() - start
        if bar is not None:
            bar.close()
        be.close()
    results.sort(key=lambda r: r.key)
    return RunOutcome(plan, tuple(results), interrupted, elapsed, be.name, be.workers)
