"""The guided first deal laid out: the table (:func:`ui.scenes.table_scene.table_scene`) with the lesson
of :mod:`ui.table.teaching.tutorial` where it covers nothing the person needs.

A lesson first comes whole on a panel over the middle of the table, the person's hand in sight
below it, and waits for "Got it"; it then folds to its title and one line (what to do now, with
its rule) that takes the log's place beside the table (over the empty hand row before the
deal); the newest line of the log stays under it. During the show the lesson lies under the
show's panel; the welcome and the end have a panel of their own.
"""

from __future__ import annotations

from ..table.teaching.chances import Reading
from ..table.teaching.tutorial import Lesson, Tutorial, Where
from .scene import (
    FELT,
    GOLD,
    HEIGHT,
    PANEL,
    SOFT,
    TABLE_RIGHT,
    WHITE,
    Label,
    Rect,
    Scene,
    act_button,
    wrapped_rows,
)
from .table_layout import STARTER
from .table_scene import table_scene

#: Where a folded lesson lies (see :class:`ui.table.teaching.tutorial.Where`), and the whole one.
RECTS = {
    Where.LOW: Rect(110, 90, 780, 100),
    Where.HIGH: Rect(TABLE_RIGHT + 6, 470, 278, 250),  # beside the table, in the log's place
    Where.SHOW: Rect(40, 6, 920, 118),
    Where.CENTER: Rect(140, 170, 700, 460),
}
WHOLE_X, WHOLE_W, WHOLE_TOP = 160, 806, 586  # a lesson not yet read: above the hand (y >= 200)
WHOLE_LOW = 16  # before the deal: over the empty hand row, under the spread (y < 320)
LESSON_COLOR = (255, 236, 170)
TUTOR_BG = (30, 30, 60)
SIZE, LINE = 14, 22  # the lessons' text size and line height (px)


def tutorial_scene(t: Tutorial, chance: Reading | None = None, chances_on: bool = False) -> Scene:
    """The table of the tutorial's deal with its lesson."""
    s = table_scene(t.ctl, chance, chances_on)
    lesson = t.lesson()
    if lesson.where == Where.CENTER:
        _center(s, lesson)
    elif lesson.where == Where.SHOW and s.layer is not None:
        _panel(s.layer, lesson.title, lesson.lines, RECTS[Where.SHOW], aside=lesson.short)
    elif not lesson.read and s.layer is None:
        s.labels = [lb for lb in s.labels if lb.tag != "log"]  # under the panel: said after
        _whole(s, lesson)
    else:
        last = t.ctl.messages[-1] if t.ctl.messages else ""
        if lesson.where == Where.HIGH:  # the folded lesson takes the log's place
            s.labels = [lb for lb in s.labels if lb.tag != "log"]
        _panel(s, lesson.title, (lesson.short,), RECTS[lesson.where], last)
    return s


def rows(text: str, width: float, size: int = SIZE) -> int:
    """Rows a label wrapped to ``width`` takes (a glyph is at most ~0.55 em on average)."""
    return wrapped_rows(text, max(int(width / (size * 4 / 3 * 0.55)), 1))


def _lines(s: Scene, lines: tuple[str, ...], x: float, top: float, width: int) -> float:
    """Wrapped lines top-down from ``top``; returns the y under the last."""
    y = top
    for line in lines:
        n = rows(line, width)
        s.labels.append(Label(line, x, y - LINE * n / 2, SIZE, LESSON_COLOR, "left", width=width,
                              tag="lesson"))  # fmt: skip
        y -= LINE * n + 4
    return y


def _panel(s: Scene, title: str, lines: tuple[str, ...], r: Rect, last: str = "",
           aside: str = "") -> None:  # fmt: skip
    """Title and lines top-down in ``r``; ``last`` (the newest log line) at its foot, ``aside``
    right of the title."""
    s.panels.append((r, TUTOR_BG))
    narrow = r.w < 400  # beside the table: the title and the log's line wrapped
    if narrow:
        n = rows(title, r.w - 32, 17)
        s.labels.append(Label(title, r.x + 16, r.y + r.h - 8 - 12 * n, 17, GOLD, "left",
                              bold=True, width=int(r.w) - 32, tag="lesson"))  # fmt: skip
        top = r.y + r.h - 20 - 24 * n
    else:
        s.labels.append(Label(title, r.x + 16, r.y + r.h - 17, 17, GOLD, "left", bold=True,
                              tag="lesson"))  # fmt: skip
        top = r.y + r.h - 32
    if aside:
        s.labels.append(Label(aside, r.x + r.w - 16, r.y + r.h - 17, SIZE, SOFT, "right",
                              tag="lesson"))  # fmt: skip
    _lines(s, lines, r.x + 16, top, int(r.w) - 32)
    if last:  # its two lines at the foot of a narrow panel
        s.labels.append(Label(last, r.x + 16, r.y + (26 if narrow else 12), 12, SOFT, "left",
                              width=int(r.w) - 32 if narrow else 0, tag="lesson"))  # fmt: skip


def whole_rect(lesson: Lesson) -> Rect:
    """The panel of a lesson not yet read: as tall as its lines, its top under the other hand."""
    n = sum(rows(line, WHOLE_W - 40) for line in lesson.lines)
    h = 40 + n * LINE + 4 * len(lesson.lines) + 84
    if lesson.where == Where.LOW:
        return Rect(WHOLE_X, WHOLE_LOW, WHOLE_W, h)
    if lesson.key == "starter_cut":  # over the other's backs, clear of the spread (y < 430)
        return Rect(WHOLE_X + 50, 440, WHOLE_W - 50, h)  # and of the crib's label
    h = max(h, WHOLE_TOP - 350)  # down to the starter's label or none of it (y ~ 372)
    if lesson.key == "play":  # the starter just turned stays in sight, left of the panel
        x = STARTER.x + STARTER.w + 20
        w = WHOLE_X + WHOLE_W - x
        n = sum(rows(line, w - 40) for line in lesson.lines)
        h = max(40 + n * LINE + 4 * len(lesson.lines) + 84, h)
        return Rect(x, WHOLE_TOP - h, w, h)
    return Rect(WHOLE_X, WHOLE_TOP - h, WHOLE_W, h)


def _whole(base: Scene, lesson: Lesson) -> None:
    """A lesson not yet read, whole, with "Got it" (not modal: the hand stays in sight)."""
    s = base.layer = Scene(faces=base.faces)
    r = whole_rect(lesson)
    s.panels.append((r, TUTOR_BG))
    s.labels.append(Label(lesson.title, r.x + 20, r.y + r.h - 22, 20, GOLD, "left", bold=True,
                          tag="lesson"))  # fmt: skip
    _lines(s, lesson.lines, r.x + 20, r.y + r.h - 44, int(r.w) - 40)
    act, label = lesson.buttons[0]
    s.buttons.append(act_button(act, label, Rect(r.x + r.w - 220, r.y + 14, 200, 56), primary=True))


def _center(base: Scene, lesson: Lesson) -> None:
    """The welcome and the end: a panel of their own; the table waits under it."""
    s = base.layer = Scene(modal=True, faces=base.faces)
    r = RECTS[Where.CENTER]
    s.panels.append((Rect(0, 0, TABLE_RIGHT, HEIGHT), FELT))  # the table out of sight
    s.panels.append((r, PANEL))
    s.labels.append(Label(lesson.title, r.cx, r.y + r.h - 50, 28, GOLD, bold=True))
    y = r.y + r.h - 120
    step = 80 if len(lesson.lines) > 2 else 100
    for line in lesson.lines:
        s.labels.append(Label(line, r.cx, y, 17, WHITE, width=int(r.w) - 80, tag="lesson"))
        y -= step
    n = len(lesson.buttons)
    w, gap = 200, 20
    left = r.cx - (n * w + (n - 1) * gap) / 2
    for i, (act, label) in enumerate(lesson.buttons):
        s.buttons.append(act_button(act, label, Rect(left + i * (w + gap), r.y + 26, w, 64),
                                    primary=i == 0))  # fmt: skip
