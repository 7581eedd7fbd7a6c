"""Run a tournament plan on a backend with a progress bar; Ctrl-C keeps the finished games.

>>> from agents.tournament import make_plan
>>> out = run_plan(make_plan(["random", "random"], 4, seed=3), backend="serial")
>>> len(out.results), out.interrupted
(4, False)
"""

from __future__ import annotations

import sys
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

    A ``KeyboardInterrupt`` stops the run: blocks already finished are kept and returned with
    ``interrupted=True``; blocks in flight are dropped (each block is small).
    """
    be = make_backend(backend, workers, address) if isinstance(backend, str) else backend
    results: list[GameResult] = []
    interrupted = False
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=plan.total_games, unit="game", file=sys.stderr, dynamic_ncols=True,
                   desc=f"{be.name} x{be.workers}")
    start = time.perf_counter()
    try:
        for block in be.run(plan.tasks()):
            results.extend(block)
            if on_block is not None:
                on_block(block)
            if bar is not None:
                bar.update(len(block))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        elapsed = time.perf_counter() - start
        if bar is not None:
            bar.close()
        be.close()
    results.sort(key=lambda r: r.key)
    return RunOutcome(plan, tuple(results), interrupted, elapsed, be.name, be.workers)
