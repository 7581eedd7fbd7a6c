"""What the screens other than the table share: a scene built again only when what it shows
changes, clicks turned into the commands of its buttons and done through the screen's table
(:func:`ui.table.commands.dispatch`), and a side job (a review) collected when it is done."""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import arcade

from ..scenes.scene import Scene, hit_command
from ..table.commands import Act, Command, dispatch

if TYPE_CHECKING:
    from .app import GameWindow


class ScreenView(arcade.View):
    """A screen drawn from :meth:`build` whenever :meth:`key` changes; ``back`` is the screen
    its Back returns to (None: it has none)."""

    def __init__(self, window: GameWindow, back: arcade.View | None = None) -> None:
        super().__init__(window)
        self.game_window = window
        self.back = back
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None
        self.future: cf.Future | None = None  # a side job of the window's side pool

    def key(self) -> tuple:
        """What the scene shows: a new key builds it again."""
        raise NotImplementedError

    def build(self) -> Scene:
        raise NotImplementedError

    def commands(self) -> Mapping[Act, Callable[[Any, Command], object]]:
        """The screen's table: what each command of its buttons and keys does."""
        raise NotImplementedError

    def current_scene(self) -> Scene:
        key = self.key()
        if key != self.scene_key or self.scene is None:
            self.scene = self.build()
            self.scene_key = key
        return self.scene

    def do(self, cmd: Command | None) -> Command | None:
        return dispatch(self, self.commands(), cmd)

    def click(self, wx: float, wy: float) -> Command | None:
        return self.do(hit_command(self.current_scene(), wx, wy))

    def go_back(self) -> None:
        if self.back is not None:
            self.game_window.show_screen(self.back)

    def finished_job(self) -> cf.Future | None:
        """The side job once it is done (then it is no longer the screen's), else None."""
        fut = self.future
        if fut is None or not fut.done():
            return None
        self.future = None
        return fut

    def on_update(self, delta_time: float) -> bool:
        return True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self.click(*self.game_window.to_world(x, y))
        return True
