"""The Past games screen as data: every finished game, newest first, a page at a time, each with
Review and Replay buttons (:mod:`ui.saved.past_games` reads them).

Columns: date, opponent, score (yours first), result. Previous / Next page, Back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...table.commands import Act
from ...words.i18n import Catalog
from ..scene import GOLD, HEIGHT, SOFT, WHITE, WIDTH, Label, Rect, Scene, act_button

#: Games a page holds (each row is a 48 px target, RULES R11.7).
PER_PAGE = 8
ROW_H, TOP = 66, HEIGHT - 150
#: Left edge of each column (date, opponent, score, result) and of the two buttons.
COLUMNS = (70, 270, 500, 610)
REVIEW_X, REPLAY_X, BUTTON_W = 940, 1085, 135

Row = tuple[str, str, str, str]


def page_count(n: int) -> int:
    """Pages for ``n`` games (at least one: the empty list has its page).

    >>> page_count(0), page_count(8), page_count(9)
    (1, 1, 2)
    """
    return max(1, -(-n // PER_PAGE))


def past_scene(
    rows: Sequence[Row], lang: str, page: int, *, note: str = "",
    won: Callable[[int], bool] = lambda i: True,
) -> Scene:  # fmt: skip
    """Page ``page`` of ``rows`` (one per game, newest first); ``won(i)`` colours a result."""
    tr = Catalog(lang).tr
    pages = page_count(len(rows))
    page = max(0, min(page, pages - 1))
    s = Scene()
    s.labels.append(Label(tr("Past games"), WIDTH / 2, HEIGHT - 50, 30, GOLD, bold=True))
    if not rows:
        text = tr("No finished games yet: every game you finish at the table is kept here.")
        s.labels.append(Label(text, WIDTH / 2, 420, 18, WHITE, width=900))
    else:
        s.labels.append(Label(f"{page + 1} / {pages}", WIDTH - 60, HEIGHT - 50, 14, SOFT))
        heads = (tr("Date"), tr("Opponent"), tr("Score"), tr("Result"))
        for x, head in zip(COLUMNS, heads, strict=True):
            s.labels.append(Label(head, x, TOP + 44, 15, GOLD, "left", bold=True))
    first = page * PER_PAGE
    for k, row in enumerate(rows[first : first + PER_PAGE]):
        i = first + k
        y = TOP - k * ROW_H
        s.panels.append((Rect(50, y - ROW_H / 2 + 4, WIDTH - 100, ROW_H - 8), (16, 70, 44)))
        for x, text in zip(COLUMNS, row, strict=True):
            color = (WHITE if won(i) else SOFT) if x == COLUMNS[3] else WHITE
            s.labels.append(Label(text, x, y, 15, color, "left"))
        s.buttons.append(act_button(Act.REVIEW, tr("Review"), Rect(REVIEW_X, y - 24, BUTTON_W, 48),
                                    arg=i, name=f"past:review:{i}"))  # fmt: skip
        s.buttons.append(act_button(Act.REPLAY, tr("Replay"), Rect(REPLAY_X, y - 24, BUTTON_W, 48),
                                    arg=i, name=f"past:replay:{i}"))  # fmt: skip
    if note:
        s.labels.append(Label(note, WIDTH / 2, 104, 13, SOFT, width=900))
    s.buttons.append(act_button(Act.PAGE, tr("Previous"), Rect(WIDTH / 2 - 400, 24, 240, 64),
                                page > 0, arg=-1, name="past:prev"))  # fmt: skip
    s.buttons.append(act_button(Act.PAGE, tr("Next"), Rect(WIDTH / 2 - 120, 24, 240, 64),
                                page < pages - 1, arg=1, name="past:next"))  # fmt: skip
    s.buttons.append(act_button(Act.BACK, tr("Back"), Rect(WIDTH / 2 + 160, 24, 240, 64),
                                primary=True, name="past:back"))  # fmt: skip
    return s
