"""The review screen as data: a finished game's decisions rated by :mod:`agents.review`, stepped
through on the table with the better move shown.

:class:`ReviewBrowser` holds the review, which decisions are stepped through (mistakes only or
every decision with a choice; one seat or both) and the one shown; :func:`review_scene` lays
that decision out as the deciding seat saw it: its hand with the card(s) played marked gold and
the better one(s) blue, the pile and the count, the starter, the board at that moment, what the
decision cost, and the winning-chance chart of the whole game (a click on it goes to that
decision). The other hand stays face down: a decision is rated from what its maker knew.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cribbage_env as ce
from agents.review import Rating, Review
from cribbage_env.rules.actions import discard_cards, is_discard, parse_action
from cribbage_env.rules.core import Phase

from ..table.board import BoardShape
from ..table.commands import Act, Command
from ..table.show import peg_holes
from ..words.narration import Narrator
from .scene import (
    CARD_H,
    CARD_W,
    GOLD,
    HEIGHT,
    PLAYER_COLORS,
    SMALL_H,
    SMALL_W,
    SOFT,
    TABLE_RIGHT,
    WHITE,
    CardItem,
    Color,
    Label,
    Rect,
    Scene,
    Target,
    act_button,
)
from .summary_scene import LUCK_COLOR, luck_parts
from .table_layout import CENTER, COUNT_X, DECK, board_items, hand_row, pile_rects

CHART = Rect(30, 590, 900, 80)  # its axis labels end before the side panel (TABLE_RIGHT)
#: The header above the chart, top down: the title with the legend at its right, then for each
#: player shown a block of two rows: the decisions' summary (the player's colour) and the split
#: of the winning chance into luck and decisions (the luck line's green), each row its own.
ROW_X, ROW_TOP, ROW_STEP, ROW_SIZE = CHART.x, HEIGHT - 50, 17, 12
FLAG_COLORS = {"blunder": (235, 70, 60), "bad": (245, 150, 60), "doubtful": (235, 215, 90)}
BETTER = (90, 210, 255)


@dataclass
class ReviewBrowser:
    """Which rated decisions are stepped through, and the one on the table."""

    review: Review
    game: ce.GameState  # the finished game (positions are rebuilt from its decisions)
    seats: tuple[int, ...] = (0, 1)
    mistakes_only: bool = True
    current: int = -1  # index into review.ratings; -1: the first of the selection
    _views: dict[int, tuple[ce.PlayerView, tuple]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.current < 0:
            items = self.items()
            self.current = items[0] if items else (0 if self.review.ratings else -1)

    def items(self) -> list[int]:
        """Indices of the ratings stepped through: the chosen seats' decisions that had a
        choice, flagged ones only when ``mistakes_only``."""
        return [
            i
            for i, r in enumerate(self.review.ratings)
            if r.seat in self.seats and r.options > 1 and (r.flag or not self.mistakes_only)
        ]

    @property
    def rating(self) -> Rating | None:
        rs = self.review.ratings
        return rs[self.current] if 0 <= self.current < len(rs) else None

    def step(self, d: int) -> None:
        """To the previous (-1) or next (+1) decision of the selection."""
        items = self.items()
        if not items:
            return
        if d > 0:
            nxt = [i for i in items if i > self.current]
            self.current = nxt[0] if nxt else self.current
        else:
            prev = [i for i in items if i < self.current]
            self.current = prev[-1] if prev else self.current

    def can_step(self, d: int) -> bool:
        items = self.items()
        return (
            any(i > self.current for i in items) if d > 0 else any(i < self.current for i in items)
        )

    def refilter(self) -> None:
        """After the selection changed: stay, or go to its next decision (else its last)."""
        items = self.items()
        if items and self.current not in items:
            later = [i for i in items if i >= self.current]
            self.current = later[0] if later else items[-1]

    def jump_to_fraction(self, fx: float) -> None:
        """A click on the chart at ``fx`` (0..1 across it): the decision drawn there."""
        n = len(self.review.ratings)
        if n:
            self.current = min(max(int(fx * (n + 1)), 0), n - 1)

    def position(self, i: int) -> tuple[ce.PlayerView, tuple]:
        """The deciding seat's view before rating ``i`` and the events so far (for the pegs)."""
        if i not in self._views:
            r = self.review.ratings[i]
            g = ce.new_game(
                self.game.seed, interactive_cuts=self.game.interactive_cuts, rules=self.game.rules
            )
            for a in self.game.decisions[: r.index]:
                g.apply(a)
            self._views[i] = (g.view(r.seat), tuple(g.events))
        return self._views[i]


def _cards_of(action_text: str) -> tuple[int, ...]:
    a = parse_action(action_text)
    return discard_cards(a) if is_discard(a) else (a,)


def review_scene(b: ReviewBrowser, nar: Narrator, names: tuple[str, str], viewer: int = 0) -> Scene:
    """The review screen for the decision ``b.current``; ``viewer``'s chance is charted."""
    tr = nar.tr
    s = Scene()
    s.panels.append((Rect(TABLE_RIGHT, 0, 3, HEIGHT), (12, 60, 38)))
    _summary(s, b, nar, names)
    _chart(s, b, viewer, nar)
    r = b.rating
    if r is not None:
        view, events = b.position(b.current)
        shape = BoardShape.of(view.rules)
        board_items(s, view.scores, peg_holes(events, view.scores), names, names, shape)
        _position(s, view, r, nar)
        _explain(s, view, r, nar, names)
    else:
        s.labels.append(Label(tr("No decisions to review"), CENTER, 400, 20, WHITE, bold=True))
    if b.review.notice:
        no_table = tr("No winning-chance table for these rules: decisions are rated by points")
        s.labels.append(Label(no_table, CENTER + 60, 210, 13, GOLD))
    _buttons(s, b, tr)
    return s


def _summary(s: Scene, b: ReviewBrowser, nar: Narrator, names: tuple[str, str]) -> None:
    tr = nar.tr
    s.labels.append(Label(tr("Review"), 30, HEIGHT - 26, 26, GOLD, "left", bold=True))
    items = b.items()
    if b.current in items:
        where = tr("{k} of {n}", k=items.index(b.current) + 1, n=len(items))
    elif not items:
        where = tr("No mistakes flagged") if b.mistakes_only else ""
    else:
        where = ""
    s.labels.append(Label(where, CHART.x + CHART.w, CHART.y - 20, 15, SOFT, "right"))
    luck = luck_parts(b.review, names, nar.cat)
    if luck:
        legend = tr("Green line: luck alone")
        s.labels.append(
            Label(legend, CHART.x + CHART.w, HEIGHT - 26, ROW_SIZE, LUCK_COLOR, "right")
        )
    rows: list[tuple[str, Color, float]] = []
    for seat in b.seats:
        rows.append((_decisions_line(b, nar, names, seat), PLAYER_COLORS[seat], ROW_X))
        if luck:
            rows.append((luck[seat], LUCK_COLOR, ROW_X + 16))
    room = TABLE_RIGHT - ROW_X - 36
    longest = max(len(text) for text, _, _ in rows)
    size = max(12, min(ROW_SIZE, int(room / (0.55 * 4 / 3 * longest))))  # ~0.55 em a character
    for j, (text, color, x) in enumerate(rows):
        s.labels.append(Label(text, x, ROW_TOP - ROW_STEP * j, size, color, "left"))


def _decisions_line(b: ReviewBrowser, nar: Narrator, names: tuple[str, str], seat: int) -> str:
    """One player's flagged decisions and the winning chance they lost."""
    m, cat = b.review.seat_summary(seat), nar.cat
    return nar.tr(
        "{name} — {blunders}, {bad}, {doubtful} in {decisions}; {lost} winning chance lost",
        name=names[seat],
        blunders=cat.ntr("{n} blunder", "{n} blunders", m["blunder"]),
        bad=cat.ntr("{n} bad move", "{n} bad moves", m["bad"]),
        doubtful=cat.ntr("{n} doubtful move", "{n} doubtful moves", m["doubtful"]),
        decisions=cat.ntr("{n} decision", "{n} decisions", m["decisions"]),
        lost=cat.percent(m["total_loss"]),
    )


def _chart(s: Scene, b: ReviewBrowser, viewer: int, nar: Narrator) -> None:
    """The viewer's winning chance before each decision (columns in their colour on the
    other's), flags as marks above, the decision shown outlined in gold."""
    c = CHART
    curve = b.review.curve
    n = len(curve)
    s.panels.append((Rect(c.x - 2, c.y - 2, c.w + 4, c.h + 4), (12, 40, 26)))
    s.panels.append((c, _dim(PLAYER_COLORS[1 - viewer])))
    w = c.w / max(n, 1)
    for i, v in enumerate(curve):
        p = v if viewer == 0 else 1.0 - v
        x0 = c.x + round(i * w)
        x1 = c.x + round((i + 1) * w)
        if p > 0:
            s.panels.append((Rect(x0, c.y, x1 - x0, c.h * p), PLAYER_COLORS[viewer]))
    s.panels.append((Rect(c.x, c.cy - 1, c.w, 2), WHITE))
    for i, r in enumerate(b.review.ratings):
        if r.flag and r.seat in b.seats:
            x = c.x + (i + 0.5) * w
            s.panels.append((Rect(x - 3, c.y + c.h + 5, 6, 6), FLAG_COLORS[r.flag]))
    if 0 <= b.current < len(b.review.ratings):
        x = c.x + (b.current + 0.5) * w
        s.panels.append((Rect(x - 1.5, c.y - 8, 3, c.h + 16), GOLD))
    _luck_line(s, b, viewer, w)
    top, bottom = nar.cat.percent(1.0, digits=0), nar.cat.percent(0.0, digits=0)
    s.labels.append(Label(top, c.x + c.w + 4, c.y + c.h - 6, 12, SOFT, "left"))
    s.labels.append(Label(bottom, c.x + c.w + 4, c.y + 6, 12, SOFT, "left"))
    s.targets.append(Target("chart", Rect(c.x, c.y - 6, c.w, c.h + 9), Command(Act.CHART),
                            along=True))  # fmt: skip


def _luck_line(s: Scene, b: ReviewBrowser, viewer: int, w: float) -> None:
    """Luck vs decisions: the viewer's chance if only luck had counted (50% plus the luck so
    far, :meth:`~agents.review.Review.luck_path`), drawn as a line over the winning-chance
    columns; the gap between them is what both players' decisions made of it."""
    c = CHART
    sign = 1.0 if viewer == 0 else -1.0
    for i, x in enumerate(b.review.luck_path()):
        p = min(max(0.5 + sign * x, 0.0), 1.0)
        x0 = c.x + round(i * w)
        s.panels.append((Rect(x0, c.y + c.h * p - 1.5, max(round(w), 2), 3), LUCK_COLOR))


def _dim(color) -> tuple[int, int, int]:
    return (color[0] // 3 + 20, color[1] // 3 + 40, color[2] // 3 + 30)


def _position(s: Scene, view: ce.PlayerView, r: Rating, nar: Narrator) -> None:
    """The deciding seat's table: the other hand face down, the pile, its own hand."""
    played, better = set(_cards_of(r.action)), set(_cards_of(r.best))
    # left of centre: "3 of 12" or "No mistakes flagged" lies right of them, under the chart
    backs = hand_row(view.opponent_cards_left, HEIGHT - 330, SMALL_W, SMALL_H, CENTER - 70, 8)
    for i, rect in enumerate(backs):
        s.cards.append(CardItem(None, rect, key=f"h:{i}"))
    if view.starter is not None:
        s.cards.append(CardItem(view.starter, Rect(DECK.x + 10, 360, SMALL_W, SMALL_H)))
        starter = nar.tr("Starter")  # left of the card: the decision's title runs below it
        s.labels.append(Label(starter, DECK.x, 360 + SMALL_H / 2, 13, SOFT, "right"))
    if view.phase is Phase.PLAY:
        older = [c for _, c in view.played if c not in view.sequence][-8:]
        o_rects, q_rects = pile_rects(len(older), len(view.sequence))
        for c, rect in zip(older, o_rects, strict=True):
            s.cards.append(CardItem(c, Rect(rect.x, rect.y - 20, rect.w, rect.h), dimmed=True))
        for c, rect in zip(view.sequence, q_rects, strict=True):
            s.cards.append(CardItem(c, Rect(rect.x, rect.y + 20, rect.w, rect.h)))
        count = nar.tr("Count: {count}", count=view.count)
        s.labels.append(Label(count, COUNT_X, 425, 24, GOLD, bold=True))
    hand = sorted(view.hand, key=lambda c: (c % 13, c // 13))
    for c, rect in zip(hand, hand_row(len(hand), 40, CARD_W, CARD_H, CENTER - 60, 14), strict=True):
        up = 30 if c in played else 0
        s.cards.append(
            CardItem(c, Rect(rect.x, rect.y + up, rect.w, rect.h), selected=c in played,
                     hinted=c in better and better != played)
        )  # fmt: skip


def _explain(
    s: Scene, view: ce.PlayerView, r: Rating, nar: Narrator, names: tuple[str, str]
) -> None:
    tr, cat = nar.tr, nar.cat
    role = tr("dealer") if view.is_dealer else tr("pone")
    head = tr(
        "Deal {deal} · {name} ({role}) · {a}–{b}",
        deal=r.deal + 1,
        name=names[r.seat],
        role=role,
        a=view.scores[0],
        b=view.scores[1],
    )
    x = CENTER + 60
    s.labels.append(Label(head, x, 334, 17, WHITE, bold=True))
    taken = nar.cards(_cards_of(r.action))
    best = nar.cards(_cards_of(r.best))
    crib = r.phase == "discard"
    if r.options <= 1:
        line = tr("{cards}: the only choice", cards=taken)
    elif r.best == r.action:
        line = tr("{cards}: the best choice", cards=taken)
    elif crib:
        line = tr("{cards} to the crib; better: {best}", cards=taken, best=best)
    else:
        line = tr("Played {cards}; better: {best}", cards=taken, best=best)
    color = FLAG_COLORS.get(r.flag, WHITE)
    s.labels.append(Label(line, x, 306, 17, color, bold=True))
    if r.options > 1 and r.chance == r.chance:  # NaN: rules with no table, rated by points
        flag = {"blunder": tr("blunder"), "bad": tr("bad"), "doubtful": tr("doubtful")}
        detail = tr(
            "Winning chance {taken} (best {best}): {lost} lost",
            taken=cat.percent(r.chance),
            best=cat.percent(r.best_chance),
            lost=cat.percent(r.loss),
        )
        if r.flag:
            detail += f" — {flag[r.flag]}"
        s.labels.append(Label(detail, x, 280, 14, SOFT))
    if r.options > 1:
        pts = tr("Expected points given away this deal: {p}", p=cat.number(r.points_loss))
        s.labels.append(Label(pts, x, 258, 14, SOFT))
        legend = (
            tr("Gold: to the crib · Blue: better") if crib else tr("Gold: played · Blue: better")
        )
        s.labels.append(Label(legend, x, 238, 12, SOFT))


def _buttons(s: Scene, b: ReviewBrowser, tr) -> None:
    bx, bw, bh = TABLE_RIGHT + 16, 124, 52
    s.buttons += [
        act_button(Act.PAGE, tr("Previous"), Rect(bx, 192, bw, bh), b.can_step(-1), arg=-1,
                   name="review:prev"),
        act_button(Act.PAGE, tr("Next"), Rect(bx + bw + 10, 192, bw, bh), b.can_step(1),
                   primary=True, arg=1, name="review:next"),
        act_button(Act.MISTAKES, tr("Mistakes only"), Rect(bx, 132, bw * 2 + 10, bh),
                   toggled=b.mistakes_only, name="review:mistakes"),
        act_button(Act.SEATS, tr("Both players"), Rect(bx, 72, bw * 2 + 10, bh),
                   toggled=len(b.seats) == 2, name="review:seats"),
        act_button(Act.BACK, tr("Back"), Rect(bx, 12, bw * 2 + 10, bh), name="review:back"),
    ]  # fmt: skip


def waiting_scene(nar: Narrator, text: str) -> Scene:
    """While the review (or the statistics) is computed: a line and Back."""
    s = Scene()
    s.labels.append(Label(text, CENTER + 140, 420, 22, WHITE, bold=True))
    bx, bw, bh = TABLE_RIGHT + 16, 124, 52
    back = Rect(bx, 12, bw * 2 + 10, bh)
    s.buttons.append(act_button(Act.BACK, nar.tr("Back"), back, name="review:back"))
    return s
