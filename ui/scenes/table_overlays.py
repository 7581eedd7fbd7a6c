"""What is laid over the table, as data: the pass-the-screen panel of pass and play (the hands
stay face down under it), the show counted step by step with the deal's summary at its end, and
the game over with the game's points by part.

:func:`ui.scenes.table_scene.table_scene` lays one of them over the table (the coach's panels
are :mod:`ui.scenes.coach_scene`'s); they read the controller's public state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..table.commands import Act
from .scene import (
    CARD_H,
    CARD_W,
    GOLD,
    PANEL,
    PLAYER_COLORS,
    SOFT,
    WHITE,
    CardItem,
    Label,
    Rect,
    Scene,
    act_button,
)
from .summary_scene import deal_summary_items, game_summary_items
from .table_layout import STARTER, hand_row

if TYPE_CHECKING:
    from ..table.controller import TableController


def reveal_overlay(base: Scene, ctl: TableController) -> None:
    """Pass and play: not modal (undo etc. stay available); the hands stay face down."""
    tr = ctl.tr
    assert ctl.to_act is not None  # a person is to act
    name = ctl.name(ctl.to_act)
    o = base.layer = Scene()
    r = Rect(STARTER.x + STARTER.w + 20, 300, 605, 220)  # the deck and the starter in sight,
    # the count under it whole (it ends near x 960)
    o.panels.append((r, PANEL))
    o.labels.append(
        Label(tr("Pass the screen to {name}", name=name), r.cx, r.y + 170, 22, WHITE, bold=True)
    )
    o.buttons.append(
        act_button(Act.REVEAL, tr("See my hand — {name}", name=name),
               Rect(r.cx - 200, r.y + 50, 400, 80), primary=True)
    )  # fmt: skip


def show_overlay(base: Scene, ctl: TableController, step) -> None:
    tr = ctl.tr
    s = base.layer = Scene(modal=True, faces=base.faces)
    r = Rect(40, 130, 920, 560)
    s.panels.append((r, PANEL))
    color = PLAYER_COLORS[step.player]
    s.labels.append(Label(step.title, r.cx, r.y + r.h - 40, 24, color, bold=True))
    if ctl.show.at_end and ctl.show.summary is not None:
        deal_summary_items(s, ctl, r)  # the deal's points, waiting for Continue
    else:
        hl = set(step.highlight)
        cards = list(step.cards) + [step.starter]
        rects = hand_row(len(cards), r.y + r.h - 250, CARD_W, CARD_H, r.cx, 16)
        for i, (c, rc) in enumerate(zip(cards, rects, strict=True)):
            x = rc.x + (24 if i == 4 else 0)
            rect = Rect(x, rc.y + (18 if c in hl else 0), rc.w, rc.h)
            s.cards.append(CardItem(c, rect, highlight=c in hl, key=f"c{c}"))
        s.labels.append(Label(tr("Starter"), rects[4].cx + 24, rects[4].y - 14, 13, SOFT))
    for i, note in enumerate(ctl.show.intro):  # how the play ended, under the count
        s.labels.append(Label(note, r.x + 24, r.y + 70 - i * 22, 13, SOFT, "left"))
    prev = step.said[:-1][-3:] if step.line else step.said[-3:]
    for i, line in enumerate(prev):
        s.labels.append(Label(line, r.cx, r.y + 150 + (len(prev) - 1 - i) * 22, 15, SOFT))
    if step.line:
        s.labels.append(Label(step.line, r.cx, r.y + 105, 24, GOLD, bold=True))
    if ctl.show.at_end:
        s.buttons.append(act_button(Act.NEXT, tr("Continue"), Rect(r.x + r.w - 300, r.y + 20, 270, 56),
                                primary=True))  # fmt: skip
        return
    s.buttons.append(
        act_button(Act.NEXT, tr("Next"), Rect(r.x + r.w - 300, r.y + 20, 130, 56), primary=True)
    )
    s.buttons.append(act_button(Act.SKIP, tr("Skip"), Rect(r.x + r.w - 160, r.y + 20, 130, 56)))


def game_over_overlay(base: Scene, ctl: TableController) -> None:
    """Result and skunk, the game's points by part, the person's error rate."""
    tr = ctl.tr
    s = base.layer = Scene(modal=True)
    r = Rect(100, 110, 800, 600)
    s.panels.append((r, PANEL))
    lines = ctl.game_over_lines()
    for i, line in enumerate(lines):
        size, color = (30, GOLD) if i == 0 else (20, WHITE)
        s.labels.append(Label(line, r.cx, r.y + r.h - 50 - i * 40, size, color, bold=i == 0))
    game_summary_items(s, ctl, r, r.y + r.h - 90 - 40 * len(lines))
    s.buttons.append(
        act_button(Act.NEWGAME, tr("New game"), Rect(r.cx - 330, r.y + 24, 210, 64), primary=True)
    )
    s.buttons.append(act_button(Act.REVIEW, tr("Review"), Rect(r.cx - 105, r.y + 24, 210, 64)))
    s.buttons.append(act_button(Act.RESTART, tr("Restart"), Rect(r.cx + 120, r.y + 24, 210, 64)))
