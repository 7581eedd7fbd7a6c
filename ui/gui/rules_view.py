"""The rules screen (R1-R10 in the table's language), reached from the start screen or the table;
Back returns to the screen it came from."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade

from ..commands import Act, Command, dispatch
from ..rules_scene import pages, rules_scene
from ..scene import Scene, hit_command
from .keys import PAGE_KEYS

if TYPE_CHECKING:
    from .app import GameWindow


class RulesView(arcade.View):
    """Pages of rules; Previous / Next (or the arrow keys), Back (or Escape)."""

    def __init__(self, window: GameWindow, lang: str, back: arcade.View) -> None:
        super().__init__(window)
        self.game_window = window
        self.lang = lang
        self.back = back
        self.page = 0
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None

    def current_scene(self) -> Scene:
        key = ("rules", self.lang, self.page)
        if key != self.scene_key or self.scene is None:
            self.scene = rules_scene(self.lang, self.page)
            self.scene_key = key
        return self.scene

    def on_update(self, delta_time: float) -> bool:
        return True

    def turn(self, step: int) -> None:
        self.page = max(0, min(self.page + step, len(pages(self.lang)) - 1))

    def click(self, wx: float, wy: float) -> Command | None:
        return dispatch(self, RULES_COMMANDS, hit_command(self.current_scene(), wx, wy))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self.click(*self.game_window.to_world(x, y))
        return True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        self.turn(-1 if scroll_y > 0 else 1)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        dispatch(self, RULES_COMMANDS, PAGE_KEYS.get(symbol))
        return True


#: What the rules screen's buttons and keys do.
RULES_COMMANDS: dict[Act, Callable[[RulesView, Command], object]] = {
    Act.PAGE: lambda v, cmd: v.turn(cmd.arg),
    Act.BACK: lambda v, cmd: v.game_window.show_screen(v.back),
}
