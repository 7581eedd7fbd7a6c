"""The board large in the middle of the table (a larger central board option).

A tap on the board across the table (or the B key) lays it out again upright at the table's
height, with the names and scores large beside it, over the table; a tap on Close (or B) puts
it back. The pegs and holes are the same :class:`~ui.scenes.scene.Board` drawn at another size, so
what is shown large is exactly what the small board shows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..table.commands import Act, Command
from .scene import HEIGHT, PANEL, PLAYER_COLORS, SOFT, Label, Rect, Scene, Target, act_button
from .table_layout import CENTER

if TYPE_CHECKING:
    from ..table.controller import TableController

#: The large board: upright, at the table's height, centred on the table.
BIG_H = 660
BIG_W = round(250 * BIG_H / 462)
BIG_BOARD = Rect(CENTER - BIG_W / 2 - 150, 70, BIG_W, BIG_H)
BOARD_ID = "board"


def with_board(s: Scene, ctl: TableController, big: bool) -> Scene:
    """The table ``s`` with its board as a target (a tap shows it large) and, when ``big``, the
    large board over it."""
    if s.board is not None:
        s.targets.append(Target(BOARD_ID, s.board.rect, Command(Act.BOARD)))
        if big:
            big_board_overlay(s, ctl)
    return s


def big_board_overlay(base: Scene, ctl: TableController) -> None:
    """The board of ``base`` large in the middle, the names and scores beside it (modal: the
    table's buttons beside the board still answer)."""
    board = base.board
    if board is None:
        return
    s = base.layer = Scene(modal=True, faces=base.faces)
    s.panels.append((Rect(20, 20, 950, HEIGHT - 40), PANEL))
    s.board = replace(board, rect=BIG_BOARD)
    x = BIG_BOARD.x + BIG_BOARD.w + 60
    for seat in (0, 1):
        y = HEIGHT - 170 - 170 * seat
        color = PLAYER_COLORS[seat]
        s.labels.append(Label(board.names[seat], x, y, 26, color, "left", bold=True))
        s.labels.append(Label(str(board.scores[seat]), x, y - 60, 48, color, "left", bold=True))
    target = ctl.tr("Game to {target}", target=ctl.rules.target)
    s.labels.append(Label(target, x, 250, 20, SOFT, "left"))
    s.buttons.append(act_button(Act.BOARD, ctl.tr("Close"), Rect(x, 60, 220, 64), primary=True))
