"""The statistics screen: the player's record from the table's game history.

The totals are read at once; the error rates need a review of each game (cached next to the
history, so a game is reviewed once), which runs game by game in the window's side thread and
fills the chart in as it goes. Back (or Escape) stops it and returns to the start screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import arcade

from ..reports.player_stats import (
    CACHE_NAME,
    HistoryError,
    HistoryGame,
    error_rates,
    load_history,
    player_stats,
)
from ..scenes.scene import Scene
from ..scenes.stats_scene import stats_scene
from ..table.commands import Act, Command
from ..words.i18n import Catalog
from .screen_view import ScreenView, SideJobs


class StatsView(ScreenView[SideJobs]):
    """Shows :func:`~ui.reports.player_stats.player_stats` of the games in ``history``."""

    def __init__(
        self, window: SideJobs, history: Path | None, lang: str, back: arcade.View
    ) -> None:
        super().__init__(window, back)
        self.lang = lang
        self.rates: list[float] = []
        self.note = ""
        self.games: list[HistoryGame] = []
        self._stop = threading.Event()
        tr = Catalog(lang).tr
        try:
            self.games, skipped = load_history(history) if history is not None else ([], [])
        except HistoryError:
            skipped = []
        if skipped:
            self.note = tr("{n} files of the history could not be read", n=len(skipped))
        if not self.games:
            return
        cache = history.parent / CACHE_NAME if history is not None else None
        pool = window._side_pool
        if pool is not None:
            self.future = pool.submit(self._review_all, cache)
        else:
            self._review_all(cache)

    def _review_all(self, cache: Path | None) -> None:
        """The error rate of every game, one at a time (the screen shows how far it got)."""
        for hg in self.games:
            if self._stop.is_set():
                return
            self.rates.append(error_rates([hg], cache)[0])

    @property
    def done(self) -> int:
        return len(self.rates)

    def key(self) -> tuple:
        return ("stats", self.done, self.note)

    def build(self) -> Scene:
        n = len(self.games)
        rates = list(self.rates) if self.done == n else None
        stats = player_stats(self.games, rates) if self.games else None
        if stats is not None and rates is None and self.rates:
            done = self.games[: self.done]
            partial = player_stats(done, list(self.rates[: self.done]))
            stats["error_rate"] = partial["error_rate"]
        return stats_scene(stats, self.lang, progress=(self.done, n), note=self.note)

    def commands(self) -> dict[Act, Callable[[StatsView, Command], object]]:
        return STATS_COMMANDS

    def on_update(self, delta_time: float) -> bool:
        fut = self.finished_job()
        exc = fut.exception() if fut is not None else None
        if exc is not None:
            self.game_window.errors.append(f"statistics failed: {exc!r}")
            self.note = Catalog(self.lang).tr(
                "The error rates could not be computed: {error}", error=str(exc)
            )
        return True

    def leave(self) -> None:
        self._stop.set()
        self.go_back()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.ESCAPE, arcade.key.BACKSPACE, arcade.key.ENTER):
            self.do(Command(Act.BACK))
        return True


#: What the statistics screen's button (and keys) do.
STATS_COMMANDS: dict[Act, Callable[[StatsView, Command], object]] = {
    Act.BACK: lambda v, cmd: v.leave(),
}
