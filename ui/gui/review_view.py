"""The review screen: a finished game's mistakes stepped through on the table.

The review (:func:`agents.review.review_game`, about a second per game) runs in the window's
side thread; the screen says so meanwhile. Previous / Next (or the arrow keys) step through the
flagged decisions, a click on the chart goes to any decision, Back (or Escape) returns to the
game-over table.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from ..scenes.review_scene import ReviewBrowser, review_scene, waiting_scene
from ..scenes.scene import Scene
from ..table.commands import Act, Command
from ..table.controller import Mode, TableController
from .keys import PAGE_KEYS
from .screen_view import ScreenView, SideJobs

Handler = Callable[["ReviewView", Command], object]


class ReviewView(ScreenView[SideJobs]):
    """Reviews ``ctl``'s finished game; ``back`` is the screen Back returns to."""

    def __init__(self, window: SideJobs, ctl: TableController, back: arcade.View) -> None:
        super().__init__(window, back)
        self.ctl = ctl
        self.browser: ReviewBrowser | None = None
        self.failed = ""
        self._start()

    def _start(self) -> None:
        from agents.review import review_game

        game = self.ctl.game.clone()
        done = getattr(self.ctl, "game_review", None)
        pool = self.game_window._side_pool
        if done:  # the game-over summary's review: the same one
            self._take(lambda: done)
        elif pool is not None:
            self.future = pool.submit(review_game, game)
        else:
            self._take(lambda: review_game(game))

    def _take(self, get) -> None:
        try:
            review = get()
        except Exception as exc:  # noqa: BLE001 - a review error must not close the window
            self.failed = str(exc) or repr(exc)
            self.game_window.errors.append(f"review failed: {exc!r}")
            return
        seats = (0,) if self.ctl.mode is Mode.COMPUTER else (0, 1)
        self.browser = ReviewBrowser(review, self.ctl.game.clone(), seats)

    def key(self) -> tuple:
        b = self.browser
        state = (b.current, b.mistakes_only, b.seats) if b is not None else None
        return ("review", state, self.failed)

    def build(self) -> Scene:
        b, nar = self.browser, self.ctl.narrator
        if b is not None:
            names = (self.ctl.name(0), self.ctl.name(1))
            return review_scene(b, nar, names, viewer=b.seats[0])
        if self.failed:
            return waiting_scene(nar, nar.tr("The review failed: {error}", error=self.failed))
        return waiting_scene(nar, nar.tr("Reviewing the game…"))

    def commands(self) -> dict[Act, Handler]:
        return REVIEW_COMMANDS

    def on_update(self, delta_time: float) -> bool:
        fut = self.finished_job()
        if fut is not None:
            self._take(fut.result)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol not in (arcade.key.ENTER, arcade.key.RETURN):  # Back is Escape or Backspace
            self.do(PAGE_KEYS.get(symbol))
        return True


def _browse(step: Callable[[ReviewBrowser, Command], object]) -> Handler:
    """A command on the review's decisions: nothing until the review is there."""
    return lambda v, cmd: None if v.browser is None else step(v.browser, cmd)


def _mistakes(b: ReviewBrowser, cmd: Command) -> None:
    b.mistakes_only = not b.mistakes_only
    b.refilter()


def _seats(b: ReviewBrowser, cmd: Command) -> None:
    b.seats = (0, 1) if len(b.seats) == 1 else (0,)
    b.refilter()


#: What the review screen's buttons, keys and chart do.
REVIEW_COMMANDS: dict[Act, Handler] = {
    Act.BACK: lambda v, cmd: v.go_back(),
    Act.PAGE: _browse(lambda b, cmd: b.step(cmd.arg)),
    Act.MISTAKES: _browse(_mistakes),
    Act.SEATS: _browse(_seats),
    Act.CHART: _browse(lambda b, cmd: b.jump_to_fraction(cmd.at)),
}
