"""The statistics screen: the player's record from the table's game history (issue 13).

The totals are read at once; the error rates need a review of each game (cached next to the
history, so a game is reviewed once), which runs game by game in the window's side thread and
fills the chart in as it goes. Back (or Escape) stops it and returns to the start screen.
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from ..commands import Act, Command, dispatch
from ..i18n import Catalog
from ..player_stats import (
    CACHE_NAME,
    STATS_SAMPLES,
    HistoryError,
    HistoryGame,
    error_rates,
    load_history,
    player_stats,
)
from ..scene import Scene, hit_command
from ..stats_scene import stats_scene

if TYPE_CHECKING:
    from .app import GameWindow


class StatsView(arcade.View):
    """Shows :func:`~ui.player_stats.player_stats` of the games in ``history``."""

    def __init__(
        self, window: GameWindow, history: Path | None, lang: str, back: arcade.View
    ) -> None:
        super().__init__(window)
        self.game_window = window
        self.lang = lang
        self.back = back
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None
        self.rates: list[float] = []
        self.note = ""
        self.games: list[HistoryGame] = []
        self._stop = threading.Event()
        self.future: cf.Future | None = None
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
            self.rates.append(error_rates([hg], cache, STATS_SAMPLES)[0])

    @property
    def done(self) -> int:
        return len(self.rates)

    def current_scene(self) -> Scene:
        key = ("stats", self.done, self.note)
        if key != self.scene_key or self.scene is None:
            n = len(self.games)
            rates = list(self.rates) if self.done == n else None
            stats = player_stats(self.games, rates) if self.games else None
            if stats is not None and rates is None and self.rates:
                done = self.games[: self.done]
                partial = player_stats(done, list(self.rates[: self.done]))
                stats["error_rate"] = partial["error_rate"]
            self.scene = stats_scene(stats, self.lang, progress=(self.done, n), note=self.note)
            self.scene_key = key
        return self.scene

    def on_update(self, delta_time: float) -> bool:
        fut = self.future
        if fut is not None and fut.done():
            self.future = None
            exc = fut.exception()
            if exc is not None:
                self.game_window.errors.append(f"statistics failed: {exc!r}")
                self.note = Catalog(self.lang).tr(
                    "The error rates could not be computed: {error}", error=str(exc)
                )
        return True

    def leave(self) -> None:
        self._stop.set()
        self.game_window.show_screen(self.back)

    def click(self, wx: float, wy: float) -> Command | None:
        return dispatch(self, STATS_COMMANDS, hit_command(self.current_scene(), wx, wy))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self.click(*self.game_window.to_world(x, y))
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.ESCAPE, arcade.key.BACKSPACE, arcade.key.ENTER):
            dispatch(self, STATS_COMMANDS, Command(Act.BACK))
        return True


#: What the statistics screen's button (and keys) do.
STATS_COMMANDS: dict[Act, Callable[[StatsView, Command], object]] = {
    Act.BACK: lambda v, cmd: v.leave(),
}
