"""The rules screen (R1-R11 in the table's language), reached from the start screen or the table;
Back returns to the screen it came from."""

from __future__ import annotations

from collections.abc import Callable

import arcade

from ..scenes.scene import Scene
from ..scenes.screens.rules_scene import pages, rules_scene
from ..table.commands import Act, Command
from .keys import PAGE_KEYS
from .screen_view import ScreenView, Shell


class RulesView(ScreenView[Shell]):
    """Pages of rules; Previous / Next (or the arrow keys), Back (or Escape)."""

    def __init__(self, window: Shell, lang: str, back: arcade.View) -> None:
        super().__init__(window, back)
        self.lang = lang
        self.page = 0

    def key(self) -> tuple:
        return ("rules", self.lang, self.page)

    def build(self) -> Scene:
        return rules_scene(self.lang, self.page)

    def commands(self) -> dict[Act, Callable[[RulesView, Command], object]]:
        return RULES_COMMANDS

    def turn(self, step: int) -> None:
        self.page = max(0, min(self.page + step, len(pages(self.lang)) - 1))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        self.turn(-1 if scroll_y > 0 else 1)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        self.do(PAGE_KEYS.get(symbol))
        return True


#: What the rules screen's buttons and keys do.
RULES_COMMANDS: dict[Act, Callable[[RulesView, Command], object]] = {
    Act.PAGE: lambda v, cmd: v.turn(cmd.arg),
    Act.BACK: lambda v, cmd: v.go_back(),
}
