"""The coach on the table, as data: the hint's lines and its "All options" button, the table of
every option (shown on request), and coach mode's "Are you sure?" panel (:mod:`ui.table.teaching.coach`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..table.commands import Act
from ..words.hint_words import hint_words
from .scene import GOLD, PANEL, SOFT, WHITE, Label, Rect, Scene, act_button, wrapped_rows

if TYPE_CHECKING:
    from ..table.controller import TableController

HINT_COLOR = (150, 230, 255)
WORDS_COLOR = (255, 236, 170)
#: Characters the hint's words may take on their one line (13 pt from x 370 to the side panel;
#: about 0.55 em a character, erring long).
WORDS_CHARS = 68
OPTIONS = Rect(40, 120, 920, 580)
#: Column left edges of the options table (discard: crib, keep, hand, crib, pegging, chance).
DISCARD_COLS = (70, 230, 460, 550, 640, 760)
PLAY_COLS = (70, 230, 560)
WARNING = Rect(170, 280, 660, 240)


def hint_items(s: Scene, ctl: TableController) -> None:
    """The hint's lines under the pile and the button that opens the table of options."""
    h = ctl.coach.hint
    if h is None:
        return
    view = ctl.view(ctl.bottom_seat)
    words = hint_words(view, h.action, ctl.narrator)
    if wrapped_rows(words, WORDS_CHARS) > 1:  # one line: the discard's crib left out
        words = hint_words(view, h.action, ctl.narrator, short=True)
    # the best move, why in words, then its numbers (the runner-up is in All options); clear
    # of the pile above and of a prompt of two lines below
    lines = (h.lines[0], words, *h.lines[1:2]) if words else h.lines[:3]
    for i, line in enumerate(lines):
        color = WORDS_COLOR if line is words else HINT_COLOR
        s.labels.append(Label(line, 370, 324 - i * 18, 14 if line is not words else 13, color,
                              "left"))  # fmt: skip
    if h.rows:
        s.buttons.append(act_button(Act.OPTIONS, ctl.tr("All options"), Rect(820, 150, 150, 50),
                                toggled=ctl.coach.show_options))  # fmt: skip


def options_overlay(base: Scene, ctl: TableController) -> None:
    """Every option of the decision, best first, with its numbers (the judge's)."""
    h = ctl.coach.hint
    if h is None:
        return
    s = base.layer = Scene(modal=True)
    r = OPTIONS
    s.panels.append((r, PANEL))
    s.labels.append(Label(ctl.tr("All options, best first"), r.cx, r.y + r.h - 32, 20, GOLD,
                          bold=True))  # fmt: skip
    cols = DISCARD_COLS if len(h.header) == len(DISCARD_COLS) else PLAY_COLS
    top = r.y + r.h - 76
    for x, text in zip(cols, h.header, strict=True):
        s.labels.append(Label(text, x, top, 14, SOFT, "left", bold=True))
    step = min(28, (top - r.y - 90) / max(len(h.rows), 1))
    for i, row in enumerate(h.rows):
        y = top - 30 - i * step
        color = GOLD if i == 0 else WHITE
        for x, text in zip(cols, row, strict=True):
            s.labels.append(Label(text, x, y, 15, color, "left", bold=i == 0))
    s.buttons.append(act_button(Act.OPTIONS, ctl.tr("Close"), Rect(r.cx - 90, r.y + 16, 180, 56),
                            primary=True))  # fmt: skip


def warning_overlay(base: Scene, ctl: TableController) -> None:
    """Coach mode: the move held back, what it gives away and the best one."""
    w = ctl.coach.shown_warning
    if w is None:
        return
    s = base.layer = Scene(faces=base.faces)  # the cards stay in sight while deciding
    r = WARNING
    s.panels.append((r, PANEL))
    s.labels.append(
        Label(w.lines[0], r.cx, r.y + r.h - 48, 18, GOLD, bold=True, width=int(r.w) - 40)
    )
    for i, line in enumerate(w.lines[1:]):
        s.labels.append(Label(line, r.cx, r.y + r.h - 110 - i * 34, 16, WHITE))
    s.buttons.append(act_button(Act.TAKE_BACK, ctl.tr("Take it back"),
                            Rect(r.cx - 290, r.y + 20, 280, 60), primary=True))  # fmt: skip
    s.buttons.append(act_button(Act.CONFIRM, ctl.tr("Play it anyway"),
                                Rect(r.cx + 10, r.y + 20, 280, 60), name="coach:anyway"))  # fmt: skip


def question_overlay(base: Scene, ctl: TableController) -> None:
    """Restart asks first while a game is under way (:mod:`ui.table.safety`)."""
    if ctl.guard.asking != "restart":
        return
    tr = ctl.tr
    s = base.layer = Scene(modal=True)
    r = WARNING
    s.panels.append((r, PANEL))
    s.labels.append(Label(tr("Restart this game from the first deal?"), r.cx, r.y + r.h - 50, 20,
                          GOLD, bold=True, width=int(r.w) - 40))  # fmt: skip
    s.labels.append(Label(tr("The same cards are dealt again. Undo brings this game back."),
                          r.cx, r.y + r.h - 100, 16, WHITE, width=int(r.w) - 40))  # fmt: skip
    s.buttons.append(act_button(Act.ANSWER, tr("Keep playing"), Rect(r.cx - 290, r.y + 20, 280, 60), arg=0, name="ask:no",
                            primary=True))  # fmt: skip
    s.buttons.append(
        act_button(
            Act.ANSWER, tr("Restart"), Rect(r.cx + 10, r.y + 20, 280, 60), arg=1, name="ask:yes"
        )
    )
