"""The cribbage board as geometry (no Arcade): where every hole, number and line is.

A two-track continuous board: each player's track is 120 holes in four streets of 30 (up, down,
up, down), grouped in fives, the two tracks side by side in every street. Two start holes per
track sit at the foot of the first street, one shared game hole at the foot of the last. A line
marks the skunk line (a loser who has not passed 90 is skunked: a hole past it is 91) and the
double-skunk line (past 60). The renderer draws exactly these positions and tests check them.
A shorter game has its own board (:class:`BoardShape` of the rules), its lines where its rules
put them: to 61, two streets of 30, the game hole at the foot of the second, the skunk line
before 31; to 91, three streets, the game hole at the head of the third.
A board rectangle wider than high is the same board lying on its side (the table's long board
across the middle): its streets run left and right, the first along the top, starting at the left.

>>> from ui.table.board import BOARD_HOLES, BoardRect, hole_position
>>> r = BoardRect(0, 0, 250, 520)
>>> hole_position(r, 0, BOARD_HOLES + 1) == hole_position(r, 1, BOARD_HOLES + 1)  # one game hole
True
>>> from cribbage_env.rules.core import SHORT
>>> BoardShape.of(SHORT).holes, BoardShape.of(SHORT).lines
(60, (31,))
>>> from cribbage_env.rules.core import Rules
>>> BoardShape.of(Rules(target=91)).streets, BoardShape.of(Rules(target=91)).lines
(3, (31, 61))
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage_env.rules.core import STANDARD, Rules, implements

BOARD_HOLES = 120  # holes per track on the standard board; the game hole is hole 121
STREET = 30  # holes per street
#: The table draws the target (its board) and the skunk lines; it plays every rule the engine does.
TABLE = implements("the table", "target", "skunk", "double_skunk")
GROUP = 5  # holes per group
SKUNK_LINE = STANDARD.skunk  # first hole past the skunk line (a loser below it is skunked)
DOUBLE_SKUNK_LINE = STANDARD.double_skunk  # first hole past the double-skunk line
NUMBERED = tuple(range(10, BOARD_HOLES + 1, 10))  # holes with a number beside them


@dataclass(frozen=True)
class BoardShape:
    """The board a game's rules are pegged on: ``holes`` per track (the game hole is the next),
    and the first hole past each skunk line drawn."""

    holes: int = BOARD_HOLES
    lines: tuple[int, ...] = (DOUBLE_SKUNK_LINE, SKUNK_LINE)

    @classmethod
    def of(cls, rules: Rules) -> BoardShape:
        """Streets of 30 up and down to the target, the game hole past the end of the last:
        the games to 61, 91 and 121 (any other target is refused, and so are rules the table
        does not implement)."""
        TABLE.check(rules)
        holes = rules.target - 1
        if holes % STREET or not 2 * STREET <= holes <= BOARD_HOLES:
            raise ValueError(f"no board for a game to {rules.target} (61, 91 and 121 have one)")
        # a line past hole 1 (the short game's double skunk: no point pegged) is the start itself
        lines = tuple(x for x in (rules.double_skunk, rules.skunk) if 1 < x <= holes)
        return cls(holes, lines)

    @property
    def streets(self) -> int:
        return self.holes // STREET

    @property
    def game_hole(self) -> int:
        return self.holes + 1

    @property
    def ends_up(self) -> bool:
        """Whether the last street runs up, so that the game hole is at its head."""
        return self.streets % 2 == 1


STANDARD_BOARD = BoardShape()

_BOTTOM = 40  # room for the start holes and the game hole
_TOP = 22  # room above the streets (the game hole's, as at the bottom, when the last runs up)
_GAPS = {2: 0.36, 3: 0.29, 4: 0.225}  # distance between streets, in fractions of the width
_GROUP_GAP = 0.9  # extra space between groups of five, in hole steps


@dataclass(frozen=True)
class BoardRect:
    """Left, bottom, width, height (the same fields as :class:`ui.scenes.scene.Rect`)."""

    x: float
    y: float
    w: float
    h: float


def _lying(board) -> bool:
    """Whether ``board`` lies on its side (wider than high)."""
    return bool(board.w > board.h)


def _upright(board) -> BoardRect:
    """The upright board a lying one is turned from (a quarter turn clockwise)."""
    return BoardRect(0, 0, board.h, board.w)


def _turned(board, x: float, y: float) -> tuple[float, float]:
    """A point of :func:`_upright` placed on the lying ``board``."""
    return board.x + y, board.y + board.h - x


def street_x(board, street: int, shape: BoardShape = STANDARD_BOARD) -> float:
    """Centre line of street ``street`` (0..3 on the standard board, 0..1 on the 61 board)."""
    gap = _GAPS[shape.streets]
    first = 0.5175 - gap * (shape.streets - 1) / 2
    return board.x + board.w * (first + gap * street)


def lane_offset(board) -> float:
    """Half the distance between the two players' lanes of a street."""
    return board.w * 0.042


def _step(board, shape: BoardShape) -> float:
    groups = STREET // GROUP
    top = _BOTTOM if shape.ends_up else _TOP
    return (board.h - _BOTTOM - top) / (STREET - 1 + _GROUP_GAP * (groups - 1))


def _y_along(board, k: int, shape: BoardShape) -> float:
    """Height of the k-th hole of a street counted from its foot (0..29)."""
    return board.y + _BOTTOM + _step(board, shape) * (k + _GROUP_GAP * (k // GROUP))


def hole_position(
    board, player: int, hole: int, shape: BoardShape = STANDARD_BOARD
) -> tuple[float, float]:
    """Centre of ``hole`` on ``player``'s track: 1..120 along the streets (1..60 on the 61
    board), the next the game hole, 0 the front start hole and -1 the back start hole (where
    the second peg waits)."""
    if _lying(board):
        return _turned(board, *hole_position(_upright(board), player, hole, shape))
    lane = (player - 0.5) * 2 * lane_offset(board)
    if hole <= 0:
        return street_x(board, 0, shape) + lane, board.y + (24 if hole == 0 else 11)
    if hole > shape.holes:
        y = board.y + board.h - 17 if shape.ends_up else board.y + 17
        return street_x(board, shape.streets - 1, shape), y
    street, i = divmod(hole - 1, STREET)
    k = i if street % 2 == 0 else STREET - 1 - i
    return street_x(board, street, shape) + lane, _y_along(board, k, shape)


def peg_holes(front: int, back: int, shape: BoardShape = STANDARD_BOARD) -> tuple[int, int]:
    """Where a player's two pegs stand: scores past the last hole sit in the game hole; at the
    start the back peg waits in the second start hole."""
    f = min(front, shape.game_hole)
    b = min(back, shape.game_hole)
    if b == f == 0:
        b = -1
    return f, b


def skunk_lines(
    board, shape: BoardShape = STANDARD_BOARD
) -> tuple[tuple[int, float, float, float], ...]:
    """(first hole past the line, x0, x1, y) of the skunk and double-skunk lines: a bar across
    both lanes of the street, between the last hole before the line and the first past it
    (on an upright board; a lying one is painted upright and turned)."""
    out = []
    for past in shape.lines:
        street, i = divmod(past - 1, STREET)
        down = street % 2 == 1
        k = STREET - 1 - i if down else i
        step = _step(board, shape)
        y = _y_along(board, k, shape) + (step * 0.75 if down else -step * 0.75)
        cx, half = street_x(board, street, shape), lane_offset(board) * 2.2
        out.append((past, cx - half, cx + half, y))
    return tuple(out)


def number_positions(
    board, shape: BoardShape = STANDARD_BOARD
) -> tuple[tuple[int, float, float], ...]:
    """(number, x, y) of the hole numbers: beside the holes 10, 20, ..., left of the lanes
    (above them on a lying board)."""
    if _lying(board):
        up = number_positions(_upright(board), shape)
        return tuple((n, *_turned(board, x, y)) for n, x, y in up)
    out = []
    for n in range(10, shape.holes + 1, 10):
        _, y = hole_position(board, 0, n, shape)
        street = (n - 1) // STREET
        out.append((n, street_x(board, street, shape) - lane_offset(board) * 2 - 9, y))
    return tuple(out)
