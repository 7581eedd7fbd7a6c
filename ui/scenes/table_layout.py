"""Where things lie on the table: the places of the deck, the starter, the pile, the board, the
log and the count, and the rows the cards are laid in (no controller, no Arcade).

The table (:mod:`ui.scenes.table_scene`), the review screen that shows a game on the same table
(:mod:`ui.scenes.review_scene`), the large board, the lesson and the window's pop-ups all place
their items by these, so a card or a score is where the person saw it on every screen.
"""

from __future__ import annotations

from ..table.board import STANDARD_BOARD, BoardShape, peg_holes
from .scene import (
    HEIGHT,
    PLAYER_COLORS,
    SMALL_H,
    SMALL_W,
    TABLE_RIGHT,
    WIDTH,
    Board,
    Label,
    Rect,
    Scene,
)

CENTER = TABLE_RIGHT / 2
DECK = Rect(170, 385, SMALL_W, SMALL_H)
STARTER = Rect(DECK.x + SMALL_W + 20, DECK.y, SMALL_W, SMALL_H)
PILE = Rect(366, 336, 384, SMALL_H + 14)  # the current sequence fans inside this
FIRST_CUT = Rect(TABLE_RIGHT + 20, 330, 180, SMALL_H)  # the first deal's two cut cards, beside
FIRST_CUT_TAG = "first-cut"  # their cards' keys and their names' tag
PILE_STEP = 44  # the index of every card in the fan stays visible
OLDER_STEP = 22
OLDER_SCALE = 0.7
#: The board lies across the table between the play and the other hand, its start at the left.
BOARD_RECT = Rect(250, 526, 725, 114)
#: The Review's board: upright beside its screen.
SIDE_BOARD = Rect(TABLE_RIGHT + 20, 254, 250, 462)
TOP_HAND_Y = HEIGHT - 150
#: The log of the last moves, beside the table under the scores (wrapped to the side's width).
LOG_X, LOG_W, LOG_TOP, LOG_STEP = TABLE_RIGHT + 16, 258, 690, 62
COUNT_X = 870
#: The prompt wraps between the player's label (left, up to x ~ 220) and the table's edge.
PROMPT_X, PROMPT_W = 600, 700
#: The winning-chance indicator's bar, beside the scores.
CHANCE_BAR = Rect(770, HEIGHT - 32, 200, 16)


def hand_row(n: int, y: float, w: float, h: float, center: float, gap: float = 12) -> list[Rect]:
    total = n * w + (n - 1) * gap
    left = center - total / 2
    return [Rect(left + i * (w + gap), y, w, h) for i in range(n)]


def shown_score(score: int, shape: BoardShape = STANDARD_BOARD) -> int:
    """A pegger stops in the game hole: the winner's score reads 121 (61), however far past."""
    return min(score, shape.game_hole)


def pile_rects(n_older: int, n_seq: int) -> tuple[list[Rect], list[Rect]]:
    """Where the cards of the play lie: earlier sequences small above, the current one fanned
    in the pile. Steps are wide enough that every card's index corner stays visible."""
    ow, oh = SMALL_W * OLDER_SCALE, SMALL_H * OLDER_SCALE
    older = [Rect(370 + i * OLDER_STEP, 445, ow, oh) for i in range(n_older)]
    seq = [Rect(370 + i * PILE_STEP, 340, SMALL_W, SMALL_H) for i in range(n_seq)]
    return older, seq


def board_items(
    s: Scene,
    scores: tuple[int, int],
    pegs: tuple[tuple[int, int], tuple[int, int]],
    names: tuple[str, str],
    short: tuple[str, str],
    shape: BoardShape = STANDARD_BOARD,
    rect: Rect = SIDE_BOARD,
) -> None:
    """The board at ``rect`` and the two score lines beside the table (the table and the
    review screen)."""
    shown = tuple(shown_score(v, shape) for v in scores)
    holes = tuple(peg_holes(f, b, shape) for f, b in pegs)
    s.board = Board(rect, (holes[0], holes[1]), names, (shown[0], shown[1]), shape)
    for seat in (0, 1):
        y = HEIGHT - 28 - seat * 32
        color = PLAYER_COLORS[seat]
        s.labels.append(Label(short[seat], TABLE_RIGHT + 44, y, 16, color, "left", bold=True))
        s.labels.append(Label(str(shown[seat]), WIDTH - 20, y, 20, color, "right", bold=True,
                              tag="score"))  # fmt: skip
