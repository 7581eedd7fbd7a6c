"""A run's blocks saved as they arrive: each in one transaction of the results store, a heartbeat
while the run waits for the next, and, when the store refuses one (disk full, locked, removed),
its games in a recovery file made with ``mkstemp`` and the run ended with what was saved.

The runner's ``on_block`` of :func:`agents.bench.play_plan` is a :class:`BlockSaver`; a Ctrl-C
inside a block's transaction finishes the transaction first, so a saved block is whole.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..store.db_errors import ResultsStoreError
from ..store.results_store import ResultsStore
from ..tournament.game_result import GameResult, result_to_dict

#: seconds between heartbeats written to the store while a run waits for its blocks.
BEAT_S = 2.0


class StorageFailed(Exception):
    """The store refused a block: the run ends with what was saved (a signal, not an error)."""


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


class BlockSaver:
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
                raise StorageFailed from None
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
