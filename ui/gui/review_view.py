"""The review screen: a finished game's mistakes stepped through on the table (issue 13).

The review (:func:`agents.review.review_game`, about a second per game) runs in the window's
side thread; the screen says so meanwhile. Previous / Next (or the arrow keys) step through the
flagged decisions, a click on the chart goes to any decision, Back (or Escape) returns to the
game-over table.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade

from ..commands import Act, Command, dispatch
from ..controller import Mode, TableController
from ..review_scene import ReviewBrowser, review_scene, waiting_scene
from ..scene import Scene, hit_command
from .keys import PAGE_KEYS

if TYPE_CHECKING:
    from .app import GameWindow

Handler = Callable[["ReviewView", Command], object]


class ReviewView(arcade.View):
    """Reviews ``ctl``'s finished game; ``back`` is the screen Back returns to."""

    def __init__(self, window: GameWindow, ctl: TableController, back: arcade.View) -> None:
        super().__init__(window)
        self.game_window = window
        self.ctl = ctl
        self.back = back
        self.browser: ReviewBrowser | None = None
        self.failed = ""
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None
        self.future: cf.Future | None = None
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

    def current_scene(self) -> Scene:
        b = self.browser
        state = (b.current, b.mistakes_only, b.seats) if b is not None else None
        key = ("review", state, self.failed)
        if key != self.scene_key or self.scene is None:
            nar = self.ctl.narrator
            if b is not None:
                names = (self.ctl.name(0), self.ctl.name(1))
                self.scene = review_scene(b, nar, names, viewer=b.seats[0])
            elif self.failed:
                text = nar.tr("The review failed: {error}", error=self.failed)
                self.scene = waiting_scene(nar, text)
            else:
                self.scene = waiting_scene(nar, nar.tr("Reviewing the game…"))
            self.scene_key = key
        return self.scene

    def on_update(self, delta_time: float) -> bool:
        fut = self.future
        if fut is not None and fut.done():
            self.future = None
            self._take(fut.result)
        return True

    def click(self, wx: float, wy: float) -> Command | None:
        return dispatch(self, REVIEW_COMMANDS, hit_command(self.current_scene(), wx, wy))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self.click(*self.game_window.to_world(x, y))
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol not in (arcade.key.ENTER, arcade.key.RETURN):  # Back is Escape or Backspace
            dispatch(self, REVIEW_COMMANDS, PAGE_KEYS.get(symbol))
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
    Act.BACK: lambda v, cmd: v.game_window.show_screen(v.back),
    Act.PAGE: _browse(lambda b, cmd: b.step(cmd.arg)),
    Act.MISTAKES: _browse(_mistakes),
    Act.SEATS: _browse(_seats),
    Act.CHART: _browse(lambda b, cmd: b.jump_to_fraction(cmd.at)),
}
