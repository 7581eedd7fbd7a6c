"""The guided first deal's screen: the table screen with the lesson (:mod:`ui.table.teaching.tutorial`).

It is a :class:`~ui.gui.table_view.TableView` of the tutorial's controller, laid out by
:func:`ui.scenes.tutorial_scene.tutorial_scene`; the deal waits while the welcome is read, and the
tutorial's own buttons (Start, Play a game) are answered here. Nothing of it is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from ..scenes.board_scene import with_board
from ..scenes.scene import Scene
from ..scenes.tutorial_scene import tutorial_scene
from ..table.commands import Act, Command
from ..table.teaching.tutorial import Tutorial
from .keys import ENTER
from .table_view import TableShell, TableView


class TutorialShell(TableShell, Protocol):
    """The table's window, and the new game the tutorial's last lesson starts."""

    def new_game(self, seed: int | None = None) -> None: ...


class TutorialView(TableView):
    """The table of the tutorial's deal, with its lesson."""

    game_window: TutorialShell

    def __init__(self, window: TutorialShell, tutorial: Tutorial) -> None:
        super().__init__(window, tutorial.ctl)
        self.tutorial = tutorial

    def layout(self, reading, chances_on: bool) -> Scene:
        scene = tutorial_scene(self.tutorial, reading, chances_on)
        return with_board(scene, self.ctl, self.big_board)

    def on_update(self, delta_time: float) -> bool:
        if self.tutorial.waiting:  # the deal waits while a lesson is read; what flies lands
            self.advance_motion(delta_time)
            return True
        return super().on_update(delta_time)

    def frame_scene(self) -> Scene:
        """The table; a lesson's panel only once the table shows what it talks about (the
        hand dealt, the computer's discards, the starter turned)."""
        scene = super().frame_scene()
        if self.transition is not None and scene.layer is not None and not scene.layer.modal:
            return replace(scene, layer=None)
        return scene

    def do(self, cmd: Command) -> None:
        """The lesson's own buttons (:data:`LESSON_COMMANDS`), else the table's."""
        handler = LESSON_COMMANDS.get(cmd.act)
        if handler is not None:
            handler(self)
        else:
            super().do(cmd)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        lesson = self.tutorial.lesson()
        if lesson.buttons and symbol in ENTER:  # Enter: the panel's first button
            self.do(Command(lesson.buttons[0][0]))
            return True
        return super().on_key_press(symbol, modifiers)


#: What the lesson's buttons do (the table's commands go on to :class:`TableView`).
LESSON_COMMANDS: dict[Act, Callable[[TutorialView], object]] = {
    Act.LESSON_START: lambda v: v.tutorial.start(),
    Act.LESSON_OK: lambda v: v.tutorial.got_it(),
    Act.LESSON_PLAY: lambda v: v.game_window.new_game(),
}
