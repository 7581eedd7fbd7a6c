"""The table screen: one game at the table, drawn from :func:`ui.scene.table_scene`.

The view paces what the controller decides: the computer's move after its delay (computed in a
worker thread when the window has one), the show one combination at a time. Clicks and keys go
to the controller; "menu" and "new game" go back to the window, which owns the screens.
"""

from __future__ import annotations

import concurrent.futures as cf
from typing import TYPE_CHECKING

import arcade

from cribbage_env.engine import Phase

from ..controller import TableController
from ..scene import Scene, apply_click, table_scene
from .keys import TABLE_KEYS, lookup

if TYPE_CHECKING:
    from .app import GameWindow


class TableView(arcade.View):
    """Shows one :class:`~ui.controller.TableController` and forwards input to it."""

    def __init__(self, window: GameWindow, ctl: TableController) -> None:
        super().__init__(window)
        self.game_window = window
        self.ctl = ctl
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None
        self.future: cf.Future | None = None
        self.ticket: int | None = None
        self._wait = 0.0
        self._show_wait = 0.0

    # ------------------------------------------------------------------------ frame
    def current_scene(self) -> Scene:
        ctl = self.ctl
        key = ("table", id(ctl), ctl.version)
        if key != self.scene_key or self.scene is None:
            self.scene = table_scene(ctl)
            self.scene_key = key
        return self.scene

    def on_update(self, delta_time: float) -> bool:
        ctl = self.ctl
        if ctl.show_running:
            self._pace_show(delta_time)
            return True
        self._show_wait = 0.0
        if self.future is not None:
            if self.future.done():
                fut, self.future = self.future, None
                try:
                    ctl.apply_computer(fut.result(), self.ticket)
                except Exception as exc:  # noqa: BLE001 - an agent bug must not kill the window
                    self._agent_failed(exc)
            return True
        if ctl.computer_should_move:
            self._wait += delta_time
            if self._wait >= self.game_window.settings.computer_delay:
                self._wait = 0.0
                self._start_computer()
        else:
            self._wait = 0.0
        return True

    def _pace_show(self, delta_time: float) -> None:
        """One combination of the show per ``show_delay`` (longer on a hand's total)."""
        self._show_wait += delta_time
        step = self.ctl.show_step
        pause = self.game_window.settings.show_delay * (
            1.6 if step is not None and step.points and not step.highlight else 1
        )
        if self._show_wait >= pause:
            self._show_wait = 0.0
            self.ctl.advance_show()

    def _start_computer(self) -> None:
        ctl = self.ctl
        ticket, job = ctl.computer_job()
        self.ticket = ticket
        pool = self.game_window._pool
        if pool is not None:
            self.future = pool.submit(job)
            return
        try:
            ctl.apply_computer(job(), ticket)
        except Exception as exc:  # noqa: BLE001 - see _agent_failed
            self._agent_failed(exc)

    def _agent_failed(self, exc: Exception) -> None:
        """An agent raised or answered an illegal move: keep the game going with the first legal
        move of its own view, and keep the error (tests assert there are none)."""
        ctl = self.ctl
        self.game_window.errors.append(f"computer move failed: {exc!r}")
        if ctl.computer_to_act:
            legal = ctl.game.view(ctl.to_act).legal_actions
            if legal:
                ctl.apply_computer(int(legal[0]))

    # ------------------------------------------------------------------------ input
    def click(self, wx: float, wy: float) -> str | None:
        """A click in virtual coordinates (tests and the mouse handler)."""
        what = apply_click(self.ctl, self.current_scene(), wx, wy)
        if what == "menu":
            self.game_window.show_menu()
        elif what == "newgame":
            self.game_window.next_game()
        return what

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        # Any button and any touch: no right-click-only actions (R11.7).
        self.click(*self.game_window.to_world(x, y))
        return True

    def key_state(self) -> str:
        ctl = self.ctl
        if ctl.show_running:
            return "show"
        if ctl.game.is_over:
            return "over"
        return "reveal" if ctl.needs_reveal else "turn"

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        binding = lookup(TABLE_KEYS, self.key_state(), symbol, modifiers)
        if binding is not None:
            self.do(binding.action, binding.arg, symbol)
        return True

    def do(self, action: str, arg: int = 0, symbol: int = 0) -> None:
        """Carry out a key-map action (see :data:`ui.gui.keys.TABLE_KEYS`)."""
        ctl = self.ctl
        if action == "undo":
            ctl.undo()
        elif action == "redo":
            ctl.redo()
        elif action == "menu":
            self.game_window.show_menu()
        elif action == "next":
            ctl.advance_show()
        elif action == "newgame":
            self.game_window.next_game()
        elif action == "reveal":
            ctl.reveal()
        elif action == "select":
            ctl.select_position(arg)
        elif action == "focus":
            ctl.move_focus(arg)
        elif action == "select_focus":
            ctl.select_position(ctl.focus)
        elif action == "hint":
            ctl.clear_hint() if ctl.hint else ctl.request_hint()
        elif action in ("go", "go_or_select"):
            if ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
                ctl.cut_at(26 if ctl.phase is not Phase.STARTER_CUT else 20)
            elif not ctl.confirm() and action == "go_or_select":
                ctl.select_position(ctl.focus)
