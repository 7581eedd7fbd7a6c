"""What the screens ask of their window, and what the screens other than the table share.

Each screen takes the window as a small Protocol of what it uses (:class:`Shell`,
:class:`SideJobs`, :class:`TableShell`; the start screen's and the tutorial's beside them), not
the whole :class:`ui.gui.app.GameWindow`, so the window imports its screens and no screen
imports the window. :class:`ScreenView` is a scene built again only when what it shows changes,
clicks turned into the commands of its buttons and done through the screen's table
(:func:`ui.table.commands.dispatch`), and a side job (a review) collected when it is done."""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

import arcade

from ..saved.autosave import SaveStore
from ..scenes.scene import Scene, hit_command
from ..scenes.screens.start_scene import StartOptions
from ..table.commands import Act, Command, dispatch
from ..table.controller import TableController
from .sound import Sounds


class Shell(Protocol):
    """What every screen asks of its window (:class:`ui.gui.app.GameWindow`): to show another
    screen, and where a click lands."""

    def show_screen(self, view: arcade.View) -> None: ...
    def to_world(self, x: float, y: float) -> tuple[float, float]: ...


class SideJobs(Shell, Protocol):
    """A window that runs a screen's side jobs (a review, the statistics) in its side thread
    (None: at once) and keeps the errors they met."""

    errors: list[str]
    _side_pool: cf.ThreadPoolExecutor | None


class Pacing(Protocol):
    """The window's settings as the table reads them: its delays, motion and the meter."""

    computer_delay: float
    show_delay: float
    motion: bool
    chances: bool


class TableShell(SideJobs, Protocol):
    """What the table asks of its window: its settings, sounds and data folder, the worker
    thread of the computer's moves, a redraw, and the other screens (menu, rules, review)."""

    _redraw: bool
    _pool: cf.ThreadPoolExecutor | None
    options: StartOptions
    store: SaveStore | None
    sounds: Sounds

    @property
    def settings(self) -> Pacing: ...

    def show_menu(self) -> None: ...
    def show_rules(self) -> None: ...
    def show_review(self, ctl: TableController, back: arcade.View) -> None: ...
    def next_game(self) -> None: ...


#: The window a screen is given: the Protocol of what that screen asks of it.
W = TypeVar("W", bound=Shell)


def arcade_window(window: Shell) -> arcade.Window:
    """``window`` as the Arcade window a view is drawn in (a screen types it by what it asks)."""
    if not isinstance(window, arcade.Window):
        raise TypeError(f"a screen needs an arcade.Window, got {type(window).__name__}")
    return window


class ScreenView(arcade.View, Generic[W]):
    """A screen drawn from :meth:`build` whenever :meth:`key` changes; ``back`` is the screen
    its Back returns to (None: it has none)."""

    def __init__(self, window: W, back: arcade.View | None = None) -> None:
        super().__init__(arcade_window(window))
        self.game_window: W = window
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
