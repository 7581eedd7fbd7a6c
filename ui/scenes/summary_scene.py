"""The deal summary at the end of the show and the game-over summary, as data.

After the last count the show waits for Continue with each player's points of the deal (pegging,
hand, crib, total); the game-over panel adds the game's points by the same parts and, once the
review has run (in the window's side thread), the person's flagged decisions and mean winning
chance lost (:func:`error_line`) and each player's luck beside their mistakes
(:func:`luck_parts`, the Review screen's own line: parts that add up to how the game went): every number with its unit, every count
in the language's plural form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..table.show import DealPoints, points_by_part
from .scene import GOLD, PLAYER_COLORS, SOFT, WHITE, Label, Rect, Scene, wrapped_rows

if TYPE_CHECKING:
    from agents.review import Review

    from ..table.controller import TableController
    from ..words.i18n import Catalog

LUCK_COLOR = (120, 235, 120)
COLS = (250, 150, 120, 120, 120)  # name, pegging, hand, crib, total (widths)


def _table(s: Scene, ctl: TableController, rows: tuple[DealPoints, DealPoints], cx: float,
           top: float) -> None:  # fmt: skip
    """Header and one row per player, centred on ``cx``."""
    tr = ctl.tr
    x = cx - sum(COLS) / 2
    xs = [x + sum(COLS[:i]) for i in range(len(COLS))]
    heads = ("", tr("pegging"), tr("hand"), tr("crib"), tr("total"))
    for x0, w, text in zip(xs, COLS, heads, strict=True):
        s.labels.append(Label(text, x0 + w / 2, top, 14, SOFT, bold=True))
    for seat, p in enumerate(rows):
        y = top - 30 - 28 * seat
        s.labels.append(Label(ctl.short_name(seat), xs[0] + COLS[0] - 10, y, 16,
                              PLAYER_COLORS[seat], "right", bold=True))  # fmt: skip
        values = (p.pegging, p.hand, p.crib, p.total)
        for i, (x0, w, v, part) in enumerate(zip(xs[1:], COLS[1:], values,
                                                 ("pegging", "hand", "crib", "total"),
                                                 strict=True)):  # fmt: skip
            text = "—" if part in p.uncounted else str(v)  # a count never made is no 0
            s.labels.append(Label(text, x0 + w / 2, y, 16, WHITE, bold=i == 3))


def deal_summary_items(s: Scene, ctl: TableController, r: Rect) -> None:
    """The deal's points in the show panel (in place of the cards counted)."""
    summary = ctl.show.summary
    if summary is None:
        return
    s.labels.append(Label(ctl.tr("Deal summary"), r.cx, r.y + r.h - 100, 20, GOLD, bold=True))
    _table(s, ctl, summary, r.cx, r.y + r.h - 150)


def game_summary_items(s: Scene, ctl: TableController, r: Rect, top: float) -> None:
    """The game's points by part and, once reviewed, the person's error rate."""
    _table(s, ctl, points_by_part(ctl._all_events(), ctl.game.rules), r.cx, top)
    rev = getattr(ctl, "game_review", None)
    people = [seat for seat in (0, 1) if ctl.is_human(seat)]
    if not people:
        return
    y = top - 110
    if not rev:  # None: being reviewed; False: the review failed (nothing to say)
        if rev is None:
            s.labels.append(Label(ctl.tr("Reviewing the game…"), r.cx, y, 15, SOFT))
        return
    for seat in people:
        s.labels.append(Label(error_line(rev, seat, ctl.short_name(seat), ctl.cat), r.cx, y, 14,
                              WHITE, width=int(r.w) - 40))  # fmt: skip
        y -= 40
    _luck_items(s, ctl, rev, r, y - 6)


def error_line(review: Review, seat: int, name: str, cat: Catalog) -> str:
    """The seat's flagged decisions and mean winning chance lost per decision, counted in
    words (plural forms of the language)."""
    sm = review.seat_summary(seat)
    return cat.tr(
        "{name}: {blunders} and {bad} in {decisions}; {rate} winning chance lost per decision "
        "on average",
        name=name,
        blunders=cat.ntr("{n} blunder", "{n} blunders", sm["blunder"]),
        bad=cat.ntr("{n} bad move", "{n} bad moves", sm["bad"]),
        decisions=cat.ntr("{n} decision", "{n} decisions", sm["decisions"]),
        rate=cat.percent(sm["error_rate"], digits=2),
    )


def luck_parts(review: Review, names: tuple[str, str], cat: Catalog) -> list[str]:
    """Each player's winning chance from the start to the result split into the luck of the
    cards, their own decisions, the other's and what the review cannot explain, in percentage
    points that add up exactly (:meth:`~agents.review.Review.split`), written as the language
    writes numbers; empty when the game's rules have no equity table."""
    tr, percent = cat.tr, cat.percent

    def points(v: float) -> str:
        return cat.number(v, sign=True)

    parts = []
    for seat in (0, 1):
        sp = review.split(seat)
        if sp is None:
            return []
        change, luck, own, other, rest = sp.points()
        parts.append(
            tr(
                "{name}: from {start} to {end}, {change} points = luck {luck}, decisions: "
                "{name} {own}, {other} {theirs}, unexplained {rest}",
                name=names[seat],
                other=names[1 - seat],
                start=percent(sp.start, digits=0),
                end=percent(sp.end, digits=0),
                change=points(change),
                luck=points(luck),
                own=points(own),
                theirs=points(other),
                rest=points(rest),
            )
        )
    return parts


def _luck_items(s: Scene, ctl: TableController, rev: Review, r: Rect, y: float) -> None:
    """The luck lines, each wrapped inside the panel (a long line in Spanish or French takes
    two rows rather than running past the panel's edge)."""
    parts = luck_parts(rev, (ctl.short_name(0), ctl.short_name(1)), ctl.cat)
    if not parts:
        return
    s.labels.append(Label(ctl.tr("Luck and decisions, in points of winning chance"), r.cx, y, 15, LUCK_COLOR,
                          bold=True))  # fmt: skip
    width = int(r.w) - 60
    per_line = int(width / (14 * 4 / 3 * 0.62))  # ~0.55 em a character: erring long
    top = y - 16
    for i, text in enumerate(parts):
        rows = wrapped_rows(text, per_line)
        s.labels.append(Label(text, r.cx, top - 12 * rows, 14, PLAYER_COLORS[i], width=width))
        top -= 24 * rows + 4
