"""The start screen: opponent level, mode, language, New game / Continue saved game."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from ..coach import COACH_LIMITS
from ..i18n import LANGUAGES, Catalog
from ..scene import Scene, hit, next_variant, start_scene
from .keys import START_KEYS, lookup

if TYPE_CHECKING:
    from .app import GameWindow


class StartView(arcade.View):
    """Edits the window's :class:`~ui.scene.StartOptions` and starts or resumes a game."""

    def __init__(self, window: GameWindow) -> None:
        super().__init__(window)
        self.game_window = window
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None

    def current_scene(self) -> Scene:
        o = self.game_window.options
        key = ("start", *vars(o).values())
        if key != self.scene_key or self.scene is None:
            self.scene = start_scene(o)
            self.scene_key = key
        return self.scene

    def on_update(self, delta_time: float) -> bool:
        return True

    def click(self, wx: float, wy: float) -> str | None:
        what = hit(self.current_scene(), wx, wy)
        self.choose(what)
        return what

    def choose(self, what: str | None) -> None:
        """Do what the button ``what`` means on the start screen."""
        win = self.game_window
        o = win.options
        if what is None:
            return
        if o.listing and what != "list:back" and not what.startswith("resume:"):
            return  # the list is on top: only its own buttons answer
        o.message = ""
        if what != "play":
            o.confirm_new = False
        if what.startswith("level:"):
            o.level = what[6:]
        elif what == "mode:computer":
            o.hotseat = False
        elif what == "mode:hotseat":
            o.hotseat = True
        elif what.startswith("lang:") and what[5:] in LANGUAGES:
            o.lang = what[5:]
        elif what in ("play", "list", "continue", "list:back") or what.startswith("resume:"):
            self._choose_game(what)
        elif what == "rules":
            win.show_rules()
        elif what == "tutorial":
            win.start_tutorial()
        elif what == "stats":
            win.show_stats()
        elif what == "four_colour":
            o.four_colour = not o.four_colour
        elif what == "variant":
            o.rules = next_variant(o.rules)
        elif what == "coach":  # off, 2%, 5%, off...
            k = COACH_LIMITS.index(o.coach) if o.coach in COACH_LIMITS else 0
            o.coach = COACH_LIMITS[(k + 1) % len(COACH_LIMITS)]
        elif what == "sound":
            o.sound = win.sounds.on = not o.sound and win.sounds.available
        self.scene_key = None

    def _choose_game(self, what: str) -> None:
        """New game (asked first when one is under way: it is kept), continue, the list of
        unfinished games (issue 29)."""
        win = self.game_window
        o = win.options
        if what == "play" and o.has_save and not o.confirm_new:
            o.confirm_new = True
            o.message = Catalog(o.lang).tr(
                "Your game under way is kept in the unfinished games. Press New game again to "
                "start a new one."
            )
        elif what == "play":
            o.confirm_new = False
            win.new_game(win.settings.seed)
        elif what == "list":
            o.listing = True
        elif what == "continue" and win.store is not None and not win.store.exists():
            win.resume_unfinished(0)  # the newest kept game
        elif what == "continue":
            win.continue_saved()
        elif what.startswith("resume:"):
            o.listing = False
            win.resume_unfinished(int(what[7:]))
        else:  # list:back
            o.listing = False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self.click(*self.game_window.to_world(x, y))
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        binding = lookup(START_KEYS, "start", symbol, modifiers)
        if binding is not None:
            self.choose(binding.action)
        return True
