"""The cribbage board as geometry (no Arcade): where every hole, number and line is.

A two-track continuous board: each player's track is 120 holes in four streets of 30 (up, down,
up, down), grouped in fives, the two tracks side by side in every street. Two start holes per
track sit at the foot of the first street, one shared game hole at the foot of the last. A line
marks the skunk line (a loser who has not passed 90 is skunked: a hole past it is 91) and the
double-skunk line (past 60). The renderer draws exactly these positions and tests check them.

>>> from ui.board import BOARD_HOLES, BoardRect, hole_position
>>> r = BoardRect(0, 0, 250, 520)
>>> hole_position(r, 0, BOARD_HOLES + 1) == hole_position(r, 1, BOARD_HOLES + 1)  # one game hole
True
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage_env.core import STANDARD

BOARD_HOLES = 120  # holes per track; the game hole is hole 121
STREET = 30  # holes per street
GROUP = 5  # holes per group
SKUNK_LINE = STANDARD.skunk  # first hole past the skunk line (a loser below it is skunked)
DOUBLE_SKUNK_LINE = STANDARD.double_skunk  # first hole past the double-skunk line
NUMBERED = tuple(range(10, BOARD_HOLES + 1, 10))  # holes with a number beside them

_BOTTOM = 40  # room for the start holes and the game hole
_TOP = 22
_GROUP_GAP = 0.9  # extra space between groups of five, in hole steps


@dataclass(frozen=True)
class BoardRect:
    """Left, bottom, width, height (the same fields as :class:`ui.scene.Rect`)."""

    x: float
    y: float
    w: float
    h: float


def street_x(board, street: int) -> float:
    """Centre line of street ``street`` (0..3)."""
    return board.x + board.w * (0.18 + 0.225 * street)


def lane_offset(board) -> float:
    """Half the distance between the two players' lanes of a street."""
    return board.w * 0.042


def _step(board) -> float:
    groups = STREET // GROUP
    return (board.h - _BOTTOM - _TOP) / (STREET - 1 + _GROUP_GAP * (groups - 1))


def _y_along(board, k: int) -> float:
    """Height of the k-th hole of a street counted from its foot (0..29)."""
    return board.y + _BOTTOM + _step(board) * (k + _GROUP_GAP * (k // GROUP))


def hole_position(board, player: int, hole: int) -> tuple[float, float]:
    """Centre of ``hole`` on ``player``'s track: 1..120 along the streets, 121 the game hole,
    0 the front start hole and -1 the back start hole (where the second peg waits)."""
    lane = (player - 0.5) * 2 * lane_offset(board)
    if hole <= 0:
        return street_x(board, 0) + lane, board.y + (24 if hole == 0 else 11)
    if hole > BOARD_HOLES:
        return street_x(board, 3), board.y + 17
    street, i = divmod(hole - 1, STREET)
    k = i if street % 2 == 0 else STREET - 1 - i
    return street_x(board, street) + lane, _y_along(board, k)


def peg_holes(front: int, back: int) -> tuple[int, int]:
    """Where a player's two pegs stand: scores past 120 sit in the game hole; at the start the
    back peg waits in the second start hole."""
    f = min(front, BOARD_HOLES + 1)
    b = min(back, BOARD_HOLES + 1)
    if b == f == 0:
        b = -1
    return f, b


def skunk_lines(board) -> tuple[tuple[int, float, float, float], ...]:
    """(first hole past the line, x0, x1, y) of the skunk and double-skunk lines: a bar across
    both lanes of the street, between the last hole before the line and the first past it."""
    out = []
    for past in (DOUBLE_SKUNK_LINE, SKUNK_LINE):
        street, i = divmod(past - 1, STREET)
        down = street % 2 == 1
        k = STREET - 1 - i if down else i
        y = _y_along(board, k) + (_step(board) * 0.75 if down else -_step(board) * 0.75)
        cx, half = street_x(board, street), lane_offset(board) * 2.2
        out.append((past, cx - half, cx + half, y))
    return tuple(out)


def number_positions(board) -> tuple[tuple[int, float, float], ...]:
    """(number, x, y) of the hole numbers: beside the holes 10, 20, ... 120, left of the lanes."""
    out = []
    for n in NUMBERED:
        _, y = hole_position(board, 0, n)
        street = (n - 1) // STREET
        out.append((n, street_x(board, street) - lane_offset(board) * 2 - 9, y))
    return tuple(out)
