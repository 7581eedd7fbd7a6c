"""The guided first deal's screen: the table screen with the lesson (:mod:`ui.tutorial`).

It is a :class:`~ui.gui.table_view.TableView` of the tutorial's controller, laid out by
:func:`ui.tutorial_scene.tutorial_scene`; the deal waits while the welcome is read, and the
tutorial's own buttons (Start, Play a game) are answered here. Nothing of it is saved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board_scene import with_board
from ..scene import Scene
from ..tutorial import Tutorial
from ..tutorial_scene import tutorial_scene
from .keys import ENTER
from .table_view import TableView

if TYPE_CHECKING:
    from .app import GameWindow


class TutorialView(TableView):
    """The table of the tutorial's deal, with its lesson."""

    def __init__(self, window: GameWindow, tutorial: Tutorial) -> None:
        super().__init__(window, tutorial.ctl)
        self.tutorial = tutorial

    def layout(self, reading, chances_on: bool) -> Scene:
        scene = tutorial_scene(self.tutorial, reading, chances_on)
        return with_board(scene, self.ctl, self.big_board)

    def on_update(self, delta_time: float) -> bool:
        if self.tutorial.waiting:  # nothing moves while a lesson is read
            return True
        return super().on_update(delta_time)

    def click(self, wx: float, wy: float) -> str | None:
        what = super().click(wx, wy)
        self._tutorial_button(what)
        return what

    def _tutorial_button(self, what: str | None) -> None:
        if what == "tutorial:start":
            self.tutorial.start()
        elif what == "tutorial:ok":
            self.tutorial.got_it()
        elif what == "tutorial:play":
            self.game_window.new_game()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        lesson = self.tutorial.lesson()
        if lesson.buttons and symbol in ENTER:  # Enter: the panel's first button
            self._tutorial_button(lesson.buttons[0][0])
            return True
        return super().on_key_press(symbol, modifiers)
