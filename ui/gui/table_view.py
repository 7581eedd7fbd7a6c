"""The table screen: one game at the table, drawn from :func:`ui.scenes.table_scene.table_scene`.

The view draws the table (with motion between two scenes, and the points said where they were
scored) and paces what the controller decides (its base :class:`~ui.gui.table_pace.TablePace`:
the computer's move after its delay, the show one combination at a time). Clicks and keys go to
the controller; "menu" and "new game" go back to the window, which owns the screens.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import arcade

from agents.store.atomic import atomic_write_json
from cribbage_env.rules.core import EventKind

from ..saved.autosave import data_dir
from ..scenes.board_scene import with_board
from ..scenes.motion import Popup, Transition
from ..scenes.scene import (
    GOLD,
    PANEL,
    TABLE_RIGHT,
    Button,
    Label,
    Rect,
    Scene,
    act_button,
    hit_command,
)
from ..scenes.table_layout import CENTER, COUNT_X
from ..scenes.table_scene import table_scene
from ..table.commands import Act, Command, run
from ..table.controller import Mode, TableController
from ..table.teaching.chances import ChanceMeter
from .keys import TABLE_KEYS, lookup
from .screen_view import TableShell, arcade_window
from .table_pace import TablePace

#: The export's note and its "Open the folder": over the log beside the table, clear of every
#: card and of the board.
EXPORT_PANEL = Rect(TABLE_RIGHT + 6, 470, 278, 160)


class TableView(TablePace, arcade.View):
    """Shows one :class:`~ui.table.controller.TableController` and forwards input to it."""

    game_window: TableShell

    def __init__(self, window: TableShell, ctl: TableController) -> None:
        super().__init__(arcade_window(window))
        self.game_window = window
        self.ctl = ctl
        self.scene: Scene | None = None
        self.scene_key: tuple | None = None
        self.future: cf.Future | None = None
        self.ticket: int | None = None
        self._wait = 0.0
        self._show_wait = 0.0
        self.transition: Transition | None = None
        self.motion_t = 0.0
        self._events_seen = ctl.game.event_count
        self.note = ""  # a line under the prompt (where an export went)
        self.exported_to: Path | None = None  # the folder of the export the note is about
        self._noted: tuple[Scene, Scene] | None = None
        self.meter: ChanceMeter = ChanceMeter(on=window.settings.chances or ctl.mode is Mode.WATCH)
        self.meter_future: cf.Future | None = None
        self.big_board = False  # the board large in the middle (a tap on the board, or B)

    # ------------------------------------------------------------------------ frame
    def current_scene(self) -> Scene:
        """The scene of the game as it is now (what clicks hit)."""
        ctl = self.ctl
        reading = self.meter.shown(ctl)
        key = ("table", id(ctl), ctl.version, reading, self.meter.on, self.big_board)
        if key != self.scene_key or self.scene is None:
            old = self.scene
            self.scene = self.layout(reading, self.meter.on)
            self.scene_key = key
            self.note, self.exported_to = "", None
            popups = self._popups(self.scene)
            if old is not None and self.game_window.settings.motion:
                t = Transition(old, self.scene, popups)
                self.transition, self.motion_t = (None if t.idle else t), 0.0
        return self.scene

    def layout(self, reading, chances_on: bool) -> Scene:
        """The table laid out (the tutorial's screen adds its lesson)."""
        return with_board(table_scene(self.ctl, reading, chances_on), self.ctl, self.big_board)

    def frame_scene(self) -> Scene:
        """What to draw this frame: the scene, or a frame of the motion towards it."""
        scene = self.current_scene()
        if self.transition is not None:
            scene = self.transition.frame(self.motion_t)
        if self.note:
            if self._noted is None or self._noted[0] is not scene:
                layer = scene.layer
                if layer is not None and layer.modal:  # over the game-over panel: said there
                    label = Label(self.note, CENTER, 96, 14, GOLD, width=900)
                    noted = replace(layer, labels=[*layer.labels, label])
                    self._noted = (scene, replace(scene, layer=noted))
                elif self.exported_to is not None and scene.layer is None:  # over the log
                    self._noted = (scene, self._export_panel(scene))
                else:
                    label = Label(self.note, CENTER + 60, 230, 13, GOLD, width=820)
                    self._noted = (scene, replace(scene, labels=[*scene.labels, label]))
            return self._noted[1]
        return scene

    def _export_panel(self, scene: Scene) -> Scene:
        """Where the export went, in words, on a panel over the log, with "Open the folder"
        where the system can open folders; it goes with the table's next change."""
        panel = EXPORT_PANEL
        label = Label(
            self.note,
            panel.x + 16,
            panel.y + panel.h - 45,
            14,
            GOLD,
            "left",
            width=int(panel.w) - 32,
        )
        opener = self._note_button()
        layer = Scene(panels=[(panel, PANEL)], labels=[label], faces=scene.faces,
                      buttons=[opener] if opener is not None else [])  # fmt: skip
        return replace(scene, layer=layer)

    def _note_button(self) -> Button | None:
        """ "Open the folder" under the export's note, where the system can open folders."""
        if self.exported_to is None or folder_opener() is None:
            return None
        p = EXPORT_PANEL
        label = self.ctl.tr("Open the folder")
        return act_button(Act.OPEN_EXPORTS, label, Rect(p.x + 12, p.y + 12, p.w - 24, 56))

    def open_exports(self) -> None:
        """The exports folder in the file manager (the system's own opener, never a shell)."""
        opener = folder_opener()
        if self.exported_to is not None and opener is not None:
            subprocess.Popen([*opener, str(self.exported_to)])  # noqa: S603 - our own folder

    def export(self) -> Path | None:
        """Write the record of the game so far (``docs/RECORD_FORMAT.md``) to the exports folder
        of the data directory and say where; the game itself is not touched."""
        ctl = self.ctl
        if not ctl.can_export:  # pass and play: the record holds both hands
            return None
        store = self.game_window.store
        folder = (store.dir if store is not None else data_dir()) / "exports"
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"game-{stamp}-seed{ctl.seed}-{len(ctl.decisions)}.json"
        try:
            atomic_write_json(path, ctl.game.to_record())
        except (OSError, ValueError) as exc:
            self.note = ctl.tr("The game could not be exported: {error}", error=str(exc))
            return None
        self.note = ctl.tr("Game exported to your exports folder")
        self.exported_to = folder
        self.game_window._redraw = True
        return path

    @property
    def animating(self) -> bool:
        return self.transition is not None

    def skip_motion(self) -> None:
        """A click ends the motion at once (the click still does what it does)."""
        if self.transition is not None:
            self.transition = None
            self.game_window._redraw = True

    def _popups(self, scene: Scene) -> tuple[Popup, ...]:
        """Points scored since the last scene, said where they were scored (and heard)."""
        game = self.ctl.game
        n, seen = game.event_count, self._events_seen
        self._events_seen = n
        if n <= seen:  # undo, restart: nothing new was scored
            return ()
        out = []
        new = game.events_since(seen)
        kinds = {e.kind for e in new}
        sound = "win" if EventKind.GAME_OVER in kinds else None
        sound = sound or ("points" if any(e.points for e in new) else None)
        sound = sound or ("card" if kinds & {EventKind.PLAY, EventKind.DISCARD} else None)
        if sound is not None:
            self.game_window.sounds.play(sound)
        for e in new:
            if not e.points or e.kind not in (EventKind.PLAY, EventKind.SCORE):
                continue
            x, y, anchor, card = float(COUNT_X), 455.0, "center", None
            if e.kind is EventKind.PLAY:  # over the card, once it has landed, right of the starter
                item = next((i for i in scene.cards if i.card == e.cards[-1]), None)
                if item is not None:
                    x, y = item.rect.x, item.rect.y + item.rect.h + 16
                    anchor, card = "left", item.card
            if e.player is not None:  # points always have a scorer
                text = self.ctl.scorer_text(e.player, e.reasons)
                out.append(Popup(text, x, y, anchor_x=anchor, card=card))
        return tuple(out)

    def advance_motion(self, delta_time: float) -> None:
        """The motion ``delta_time`` further on; over once everything has landed."""
        if self.transition is not None:
            self.motion_t += delta_time
            if self.motion_t >= self.transition.total:
                self.skip_motion()

    def on_update(self, delta_time: float) -> bool:
        self.advance_motion(delta_time)
        return self.pace(delta_time)

    # ------------------------------------------------------------------------ input
    def click(self, wx: float, wy: float) -> Command | None:
        """A click in virtual coordinates (tests and the mouse handler)."""
        opener = self._note_button() if self.note else None
        if opener is not None and opener.rect.contains(wx, wy):
            self.open_exports()
            return opener.command
        cmd = hit_command(self.current_scene(), wx, wy)
        if cmd is not None:
            self.do(cmd)
        return cmd

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        # Any button and any touch: no right-click-only actions (R11.7).
        self.skip_motion()
        self.click(*self.game_window.to_world(x, y))
        return True

    def key_state(self) -> str:
        ctl = self.ctl
        if ctl.show.running:
            return "show"
        if ctl.game.is_over:
            return "over"
        return "reveal" if ctl.needs_reveal else "turn"

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        binding = lookup(TABLE_KEYS, self.key_state(), symbol, modifiers)
        if binding is not None:
            self.do(binding.command)
        return True

    def do(self, cmd: Command) -> None:
        """Carry out a command of a click or a key: the window's own (:data:`WINDOW_COMMANDS`),
        else the controller's (:data:`ui.table.commands.TABLE`)."""
        handler = WINDOW_COMMANDS.get(cmd.act)
        if handler is not None:
            handler(self)
        else:
            run(self.ctl, cmd)

    def _review(self) -> None:
        if self.ctl.game.is_over and not self.ctl.show.running:
            self.game_window.show_review(self.ctl, self)

    def _toggle_board(self) -> None:
        """The board large in the middle of the table, or back in its place."""
        self.big_board = not self.big_board

    def _mute(self) -> None:
        win = self.game_window
        win.options.sound = win.sounds.on = not win.sounds.on and win.sounds.available


#: What the window does itself: the screens, the export, the meter, the sound.
WINDOW_COMMANDS: dict[Act, Callable[[TableView], object]] = {
    Act.MENU: lambda v: v.game_window.show_menu(),
    Act.NEWGAME: lambda v: v.game_window.next_game(),
    Act.RULES: lambda v: v.game_window.show_rules(),
    Act.EXPORT: TableView.export,
    Act.CHANCES: lambda v: v.meter.toggle(),
    Act.BOARD: TableView._toggle_board,
    Act.REVIEW: TableView._review,
    Act.MUTE: TableView._mute,
    Act.OPEN_EXPORTS: TableView.open_exports,
}


def folder_opener() -> list[str] | None:
    """The command that shows a folder in the system's file manager (None headless, or where
    there is none)."""
    if os.environ.get("ARCADE_HEADLESS"):
        return None
    if sys.platform == "win32":
        return ["explorer"]
    name = "open" if sys.platform == "darwin" else "xdg-open"
    found = shutil.which(name)
    return [found] if found else None
