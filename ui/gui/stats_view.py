"""The statistics screen: the player's record from the table's game history; and the list of
past games it leads to, each opened again in the Review or replayed on the table.

The totals are read at once; the error rates need a review of each game (cached next to the
history, so a game is reviewed once), which runs game by game in the window's side thread and
fills the chart in as it goes. Back (or Escape) stops it and returns to the start screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import arcade

from ..reports.player_stats import (
    CACHE_NAME,
    HistoryError,
    HistoryGame,
    error_rates,
    load_history,
    player_stats,
)
from ..reports.progress import progress
from ..saved.past_games import PastGame, past_games, past_row
from ..scenes.scene import Scene
from ..scenes.screens.past_scene import page_count, past_scene
from ..scenes.screens.stats_scene import level_name, stats_scene
from ..table.commands import Act, Command
from ..words.i18n import Catalog
from .screen_view import ScreenView, SideJobs


class StatsView(ScreenView["PastShell"]):
    """Shows :func:`~ui.reports.player_stats.player_stats` of the games in ``history``."""

    def __init__(
        self, window: PastShell, history: Path | None, lang: str, back: arcade.View
    ) -> None:
        super().__init__(window, back)
        self.lang = lang
        self.rates: list[float] = []
        self.note = ""
        self.games: list[HistoryGame] = []
        self.history = history
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
        if stats is not None:
            stats["progress"] = progress(self.games)
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

    def show_past(self) -> None:
        """The list of past games; its Back returns here."""
        self.game_window.show_screen(PastGamesView(self.game_window, self.history, self.lang, self))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.ESCAPE, arcade.key.BACKSPACE, arcade.key.ENTER):
            self.do(Command(Act.BACK))
        return True


#: What the statistics screen's button (and keys) do.
STATS_COMMANDS: dict[Act, Callable[[StatsView, Command], object]] = {
    Act.BACK: lambda v, cmd: v.leave(),
    Act.PAST: lambda v, cmd: v.show_past(),
}


class PastShell(SideJobs, Protocol):
    """What the list of past games asks of its window: to open one in the Review or replay it."""

    def open_past(self, game: PastGame, back: arcade.View, *, replay: bool) -> None: ...


class PastGamesView(ScreenView[PastShell]):
    """The finished games of ``history``, newest first (:mod:`ui.saved.past_games`)."""

    def __init__(self, window: PastShell, history: Path | None, lang: str, back: arcade.View):
        super().__init__(window, back)
        self.lang = lang
        self.page = 0
        tr = Catalog(lang).tr
        self.games, skipped = past_games(history) if history is not None else ([], 0)
        self.rows = [past_row(g, tr, lambda spec: level_name(spec, tr)) for g in self.games]
        self.note = tr("{n} files of the history could not be read", n=skipped) if skipped else ""

    def key(self) -> tuple:
        return ("past", self.page, self.note)

    def build(self) -> Scene:
        games = self.games
        return past_scene(self.rows, self.lang, self.page, note=self.note,
                          won=lambda i: games[i].won)  # fmt: skip

    def commands(self) -> dict[Act, Callable[[PastGamesView, Command], object]]:
        return PAST_COMMANDS

    def turn(self, step: int) -> None:
        self.page = max(0, min(self.page + step, page_count(len(self.games)) - 1))

    def open(self, i: int, replay: bool) -> None:
        if 0 <= i < len(self.games):
            self.game_window.open_past(self.games[i], self, replay=replay)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.ESCAPE, arcade.key.BACKSPACE):
            self.do(Command(Act.BACK))
        elif symbol in (arcade.key.LEFT, arcade.key.PAGEUP, arcade.key.RIGHT, arcade.key.PAGEDOWN):
            self.turn(-1 if symbol in (arcade.key.LEFT, arcade.key.PAGEUP) else 1)
        return True


#: What the past games' buttons and keys do.
PAST_COMMANDS: dict[Act, Callable[[PastGamesView, Command], object]] = {
    Act.BACK: lambda v, cmd: v.go_back(),
    Act.PAGE: lambda v, cmd: v.turn(cmd.arg),
    Act.REVIEW: lambda v, cmd: v.open(cmd.arg, replay=False),
    Act.REPLAY: lambda v, cmd: v.open(cmd.arg, replay=True),
}
