"""The start screen: opponent level, mode, language, New game / Continue saved game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import arcade

from ..saved.autosave import SaveStore
from ..scenes.preferences import next_value
from ..scenes.scene import Scene
from ..scenes.screens.settings_scene import settings_layer
from ..scenes.screens.start_scene import StartOptions, move_focus, next_variant, start_scene
from ..table.commands import Act, Command
from ..table.teaching.coach import COACH_LIMITS
from ..words.i18n import LANGUAGES, Catalog
from .keys import ENTER
from .screen_view import ScreenView, Shell
from .sound import Sounds


class FirstSeed(Protocol):
    """The window's settings as the start screen reads them: the first game's seed, if given."""

    seed: int | None


class StartShell(Shell, Protocol):
    """What the start screen asks of its window: the options it edits, the data folder they are
    remembered in, and the ways out (a game, the rules, the statistics, the tutorial, quit)."""

    errors: list[str]
    options: StartOptions
    store: SaveStore | None
    sounds: Sounds

    @property
    def settings(self) -> FirstSeed: ...

    def new_game(self, seed: int | None = None) -> None: ...
    def continue_saved(self) -> None: ...
    def resume_unfinished(self, i: int) -> None: ...
    def show_rules(self) -> None: ...
    def show_stats(self) -> None: ...
    def start_tutorial(self) -> None: ...
    def apply_prefs(self) -> None: ...
    def close(self) -> None: ...


#: The keys that move the focus on the start screen (Tab and Shift+Tab, the arrows).
FOCUS_KEYS = {
    arcade.key.LEFT: "left",
    arcade.key.RIGHT: "right",
    arcade.key.UP: "up",
    arcade.key.DOWN: "down",
}

#: what a command does on a screen
Handler = Callable[["StartView", Command], object]


class StartView(ScreenView[StartShell]):
    """Edits the window's :class:`~ui.scenes.screens.start_scene.StartOptions` and starts or resumes a game."""

    def key(self) -> tuple:
        return ("start", *vars(self.game_window.options).values())

    def build(self) -> Scene:
        o = self.game_window.options
        s = start_scene(o)
        if o.settings_open:
            settings_layer(s, o.prefs, Catalog(o.lang).tr)
        return s

    def commands(self) -> dict[Act, Handler]:
        return START_COMMANDS

    def do(self, cmd: Command | None) -> Command | None:
        """Do what ``cmd`` asks of the start screen (:data:`START_COMMANDS`)."""
        o = self.game_window.options
        if cmd is None or (o.listing and cmd.act not in (Act.BACK, Act.RESUME, Act.ANSWER)):
            return cmd  # nothing, or the list is on top: only its own buttons answer
        if o.settings_open and cmd.act not in (Act.BACK, Act.PREF, Act.ANSWER):
            return cmd  # the Settings panel is on top
        if o.confirm_quit and cmd.act is not Act.ANSWER:
            return cmd  # the question is on top: only its answers
        o.message = ""
        if cmd.act is not Act.PLAY:
            o.confirm_new = False
        super().do(cmd)
        self.scene_key = None
        self.remember()
        return cmd

    def remember(self) -> None:
        """The choices and settings written to the data folder, for the next launch (own games
        only)."""
        win = self.game_window
        win.apply_prefs()
        if win.store is None or not win.store.writable:
            return
        from ..saved.choices import save_choices
        from ..saved.preferences import save_preferences

        try:
            save_choices(win.store.dir, win.options)
            save_preferences(win.store.dir, win.options.prefs)
        except OSError as exc:  # remembering is a convenience: the game goes on
            win.errors.append(f"the start screen's choices were not saved: {exc}")

    def close_layer(self) -> None:
        """Back: closes the Settings panel, or the list of unfinished games."""
        o = self.game_window.options
        o.settings_open = o.listing = False

    def new_game(self) -> None:
        """New game: asked first when one is under way (it is kept in the unfinished games)."""
        win = self.game_window
        o = win.options
        if o.has_save and not o.confirm_new:
            o.confirm_new = True
            o.message = Catalog(o.lang).tr(
                "Your game under way is kept in the unfinished games. Press New game again to "
                "start a new one."
            )
        else:
            o.confirm_new = False
            win.new_game(win.settings.seed)

    def continue_game(self) -> None:
        """The saved game, else the newest unfinished one."""
        win = self.game_window
        if win.store is not None and not win.store.exists():
            win.resume_unfinished(0)  # the newest kept game
        else:
            win.continue_saved()

    def resume(self, i: int) -> None:
        self.game_window.options.listing = False
        self.game_window.resume_unfinished(i)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Tab, Shift+Tab and the arrows move the focus; Enter or Space press the focused
        button; Esc asks to quit (or closes the question, or the list of unfinished games)."""
        o = self.game_window.options
        scene = self.current_scene()
        if symbol == arcade.key.TAB:
            step = "prev" if modifiers & arcade.key.MOD_SHIFT else "next"
            o.focus = move_focus(scene, o.focus, step)
        elif symbol in FOCUS_KEYS:
            o.focus = move_focus(scene, o.focus, FOCUS_KEYS[symbol])
        elif symbol in ENTER:
            level = scene.layer if scene.layer is not None and scene.layer.modal else scene
            focused = next((b for b in level.buttons if b.focused and b.enabled), None)
            self.do(focused.command if focused is not None else Command(Act.PLAY))
        elif symbol == arcade.key.ESCAPE:
            if o.settings_open:
                self.do(Command(Act.BACK))
            else:
                self.do(
                    Command(Act.ANSWER, 0) if o.confirm_quit or o.listing else Command(Act.QUIT)
                )
        self.scene_key = None
        return True

    def ask_quit(self) -> None:
        o = self.game_window.options
        o.confirm_quit, o.focus = True, "quit:no"  # Enter again keeps playing

    def answer(self, yes: bool) -> None:
        """The quit question's answer (Esc on the list of unfinished games: Back)."""
        o = self.game_window.options
        if o.listing:
            o.listing = False
        elif yes:
            self.game_window.close()
        else:
            o.confirm_quit, o.focus = False, "quit"


def _option(field: str, value: Callable[[Command, StartOptions], object]) -> Handler:
    """A command that sets the option ``field`` to ``value(command, options)``."""

    def do(view: StartView, cmd: Command) -> None:
        o = view.game_window.options
        setattr(o, field, value(cmd, o))

    return do


def _sound(view: StartView, cmd: Command) -> None:
    o, win = view.game_window.options, view.game_window
    o.sound = win.sounds.on = not o.sound and win.sounds.available


def _next_coach(o: StartOptions) -> float:
    """Off, 2%, 5%, off..."""
    k = COACH_LIMITS.index(o.coach) if o.coach in COACH_LIMITS else 0
    return COACH_LIMITS[(k + 1) % len(COACH_LIMITS)]


#: What each button (and Enter) of the start screen does.
START_COMMANDS: dict[Act, Handler] = {
    Act.LEVEL: _option("level", lambda cmd, o: cmd.name),
    Act.PLAYERS: _option("hotseat", lambda cmd, o: cmd.name == "hotseat"),
    Act.LANGUAGE: _option("lang", lambda cmd, o: cmd.name if cmd.name in LANGUAGES else o.lang),
    Act.PLAY: lambda v, cmd: v.new_game(),
    Act.UNFINISHED: _option("listing", lambda cmd, o: True),
    Act.CONTINUE: lambda v, cmd: v.continue_game(),
    Act.RESUME: lambda v, cmd: v.resume(cmd.arg),
    Act.BACK: lambda v, cmd: v.close_layer(),
    Act.SETTINGS: _option("settings_open", lambda cmd, o: True),
    Act.PREF: _option("prefs", lambda cmd, o: next_value(o.prefs, cmd.name)),
    Act.RULES: lambda v, cmd: v.game_window.show_rules(),
    Act.TUTORIAL: lambda v, cmd: v.game_window.start_tutorial(),
    Act.STATS: lambda v, cmd: v.game_window.show_stats(),
    Act.FOUR_COLOUR: _option("four_colour", lambda cmd, o: not o.four_colour),
    Act.VARIANT: _option("rules", lambda cmd, o: next_variant(o.rules)),
    Act.COACH: _option("coach", lambda cmd, o: _next_coach(o)),
    Act.SOUND: _sound,
    Act.QUIT: lambda v, cmd: v.ask_quit(),
    Act.ANSWER: lambda v, cmd: v.answer(cmd.arg == 1),
}
