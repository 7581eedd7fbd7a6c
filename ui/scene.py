"""What the window shows, as data: the table laid out on a 1280x800 virtual screen (no Arcade).

:func:`table_scene` turns a :class:`~ui.controller.TableController` into rectangles, cards,
labels, buttons and hit targets; the Arcade view draws them and sends clicks back through
:func:`hit`. Keeping layout and hit-testing here lets tests check, without a window, that every
target is at least 48 px (RULES R11.7) and that nothing of a hidden hand is ever laid out face up
(R11.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cribbage_env.engine import Phase

from .controller import CUT_SPREAD, TableController
from .i18n import LANGUAGE_NAMES, LANGUAGES, N_, Catalog

WIDTH, HEIGHT = 1280, 800
MIN_TARGET = 48
CARD_W, CARD_H = 110, 150  # own hand
SMALL_W, SMALL_H = 80, 109  # opponent hand, crib, deck, pile
TABLE_RIGHT = 990  # the board and the buttons live right of this

Color = tuple[int, int, int] | tuple[int, int, int, int]
FELT: Color = (22, 92, 58)
PANEL: Color = (12, 52, 34, 255)
WOOD: Color = (146, 98, 52)
WHITE: Color = (250, 250, 245)
GOLD: Color = (255, 205, 60)
SOFT: Color = (205, 225, 210)
PLAYER_COLORS: tuple[Color, Color] = ((230, 60, 50), (60, 140, 240))


@dataclass(frozen=True)
class Rect:
    """Left, bottom, width, height in virtual pixels."""

    x: float
    y: float
    w: float
    h: float

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class CardItem:
    card: int | None  # None: face down
    rect: Rect
    selected: bool = False
    dimmed: bool = False
    hinted: bool = False
    focus: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class Button:
    id: str
    label: str
    rect: Rect
    enabled: bool = True
    primary: bool = False
    toggled: bool = False


@dataclass(frozen=True)
class Label:
    text: str
    x: float
    y: float
    size: int = 16
    color: Color = WHITE
    anchor_x: str = "center"
    bold: bool = False
    width: int | None = None  # wrap to this width (multiline)


@dataclass(frozen=True)
class Target:
    """A clickable area that is not a button: a card, the crib, the cut spread."""

    id: str
    rect: Rect


@dataclass(frozen=True)
class Board:
    """The cribbage board: 121 holes per track, two pegs per player (front, back)."""

    rect: Rect
    pegs: tuple[tuple[int, int], tuple[int, int]]
    names: tuple[str, str]
    scores: tuple[int, int]


@dataclass
class Scene:
    panels: list[tuple[Rect, Color]] = field(default_factory=list)
    cards: list[CardItem] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    board: Board | None = None
    layer: Scene | None = None  # drawn on top (show, game over, hotseat screen)
    modal: bool = False  # as a layer: nothing below it answers clicks

    def button(self, id_: str) -> Button | None:
        for sc in (self.layer, self):
            if sc is not None:
                b = next((b for b in sc.buttons if b.id == id_), None)
                if b is not None:
                    return b
        return None

    def all_cards(self) -> list[CardItem]:
        return self.cards + (self.layer.cards if self.layer else [])

    def all_labels(self) -> list[Label]:
        return self.labels + (self.layer.labels if self.layer else [])


def hit(scene: Scene, x: float, y: float) -> str | None:
    """The id of what is at (x, y): the top layer first, buttons before targets."""
    layer = scene.layer
    if layer is not None:
        for b in reversed(layer.buttons):
            if b.enabled and b.rect.contains(x, y):
                return b.id
    modal = layer is not None and layer.modal
    for b in reversed(scene.buttons):  # under a modal layer only the side buttons still answer
        if b.enabled and b.rect.contains(x, y) and not (modal and b.rect.x < TABLE_RIGHT):
            return b.id
    if modal:
        return None
    for t in reversed(scene.targets):
        if t.rect.contains(x, y):
            return t.id
    return None


# --------------------------------------------------------------------------------- board geometry
def hole_position(board: Rect, player: int, hole: int) -> tuple[float, float]:
    """Centre of hole ``hole`` (0 = start, 1..121) of a player's track on the board.

    Each track goes up one column (holes 1-60) and down the next (61-120); 121 is the game hole
    at the foot of the down column, the start hole at the foot of the up column.
    """
    x_up = board.x + board.w * (0.16 + 0.46 * player)
    x_down = x_up + board.w * 0.22
    bottom = board.y + 30
    span = board.h - 60
    step = span / (60 + 11 * 0.6)

    def y_of(i: int) -> float:  # i = 0..59 from the bottom; a gap between groups of five
        return bottom + step * (i + 0.6 * (i // 5))

    if hole <= 0:
        return x_up, board.y + 10
    if hole <= 60:
        return x_up, y_of(hole - 1)
    if hole <= 120:
        return x_down, y_of(120 - hole)
    return x_down, board.y + 10


# --------------------------------------------------------------------------------- the table
def _hand_row(
    cards: list[int | None], y: float, w: float, h: float, center: float, gap: float = 12
) -> list[Rect]:
    n = len(cards)
    total = n * w + (n - 1) * gap
    left = center - total / 2
    return [Rect(left + i * (w + gap), y, w, h) for i in range(n)]


def table_scene(ctl: TableController) -> Scene:
    """Lay out the whole table for the current state of ``ctl``."""
    s = Scene()
    tr = ctl.tr
    g = ctl.game
    bottom = ctl.bottom_seat
    top = 1 - bottom
    view = ctl.view(bottom)
    center = TABLE_RIGHT / 2
    show = ctl.show_step
    s.panels.append((Rect(TABLE_RIGHT, 0, 3, HEIGHT), (12, 60, 38)))  # the board's side

    # ---- names, dealer chips, Go bubbles
    for seat, y in ((top, HEIGHT - 22), (bottom, 250)):
        name = ctl.name(seat)
        tag = f"{name} — {tr('dealer')}" if g.dealer == seat and g.deal_no >= 0 else name
        s.labels.append(Label(tag, 30, y, 15, PLAYER_COLORS[seat], "left", bold=True))
        if view.go_said[seat] and g.phase is Phase.PLAY:
            gy = HEIGHT - 115 if seat == top else 275
            s.labels.append(
                Label(tr("Go!"), 820 if seat == top else 30, gy, 22, GOLD, "left", bold=True)
            )

    # ---- opponent hand (always face down unless watching)
    # Everything below about cards comes from the drawn seat's PlayerView; the other hand is
    # only a number of backs unless it may be shown (watching two agents).
    top_cards = ctl.hand_cards(top) if ctl.hand_visible(top) else [None] * view.opponent_cards_left
    for card, r in zip(
        top_cards,
        _hand_row(list(top_cards), HEIGHT - 180, SMALL_W, SMALL_H, center, 8),
        strict=True,
    ):
        s.cards.append(CardItem(card, r))

    # ---- own hand
    hand = sorted(view.hand, key=lambda c: (c % 13, c // 13))  # as ctl.hand_cards orders them
    visible = ctl.hand_visible(bottom) and not ctl.needs_reveal
    rects = _hand_row(list(hand), 40, CARD_W, CARD_H, center - 60, 14)
    hint_cards = set(ctl.hint.cards) if ctl.hint else set()
    for i, (card, r) in enumerate(zip(hand, rects, strict=True)):
        if not visible:
            s.cards.append(CardItem(None, r))
            continue
        sel = card in ctl.selection
        act = ctl.human_to_act and ctl.to_act == bottom
        dimmed = act and g.phase is Phase.PLAY and not ctl.selectable(card)
        rr = Rect(r.x, r.y + (30 if sel else 0), r.w, r.h)
        s.cards.append(
            CardItem(
                card,
                rr,
                selected=sel,
                dimmed=dimmed,
                hinted=card in hint_cards,
                focus=act and i == ctl.focus,
            )
        )
        if act:
            s.targets.append(Target(f"card:{card}", Rect(r.x, r.y, r.w, r.h + 30)))

    # ---- crib, deck and starter on the left
    crib_y = 480 if g.dealer == top else 300
    crib = [None] * (len(view.discards) + (2 if view.opponent_discarded else 0))
    crib_rect = Rect(30, crib_y, 120, SMALL_H)
    for i, _ in enumerate(crib):
        s.cards.append(CardItem(None, Rect(30 + i * 6, crib_y, SMALL_W, SMALL_H)))
    if g.deal_no >= 0 and g.phase is not Phase.CUT_FOR_DEAL:
        s.labels.append(
            Label(
                tr("Crib: {name}", name=ctl.name(g.dealer)),
                30,
                crib_y + SMALL_H + 14,
                13,
                SOFT,
                "left",
            )
        )
        if g.phase is Phase.DISCARD and ctl.can_confirm:
            s.targets.append(Target("crib", crib_rect))
            s.panels.append(
                (
                    Rect(crib_rect.x - 6, crib_rect.y - 6, crib_rect.w + 12, crib_rect.h + 12),
                    (255, 205, 60, 110),
                )
            )
    deck_x = 170
    cutting = g.phase in CUT_SPREAD and not ctl.show_running
    if not cutting:  # while cutting, the deck is the spread itself
        s.cards.append(CardItem(None, Rect(deck_x, 385, SMALL_W, SMALL_H)))
        s.labels.append(Label(tr("Starter"), deck_x + SMALL_W + 60, 372, 13, SOFT))
    if view.starter is not None and g.phase is Phase.PLAY:
        s.cards.append(CardItem(view.starter, Rect(deck_x + SMALL_W + 20, 385, SMALL_W, SMALL_H)))

    # ---- the play: cards of the current sequence and the running count
    if g.phase is Phase.PLAY:
        older = [c for _, c in view.played if c not in view.sequence]
        for i, c in enumerate(older[-8:]):
            s.cards.append(
                CardItem(c, Rect(370 + i * 22, 440, SMALL_W * 0.7, SMALL_H * 0.7), dimmed=True)
            )
        if ctl.can_confirm:  # tap the pile to lay the selected card, like the crib for discards
            pile = Rect(360, 330, 370, SMALL_H + 20)
            s.panels.append(
                (Rect(pile.x - 4, pile.y - 4, pile.w + 8, pile.h + 8), (255, 205, 60, 50))
            )
            s.targets.append(Target("pile", pile))
        for i, c in enumerate(view.sequence):
            s.cards.append(CardItem(c, Rect(370 + i * 46, 340, SMALL_W, SMALL_H)))
        s.labels.append(
            Label(tr("Count: {count}", count=view.count), 830, 395, 26, GOLD, bold=True)
        )

    # ---- cut spreads (R2, R3.1, R5.1): one big target; where you tap is only a gesture
    if g.phase in CUT_SPREAD and not ctl.show_running:
        n = CUT_SPREAD[g.phase]
        left, right = 120, 880
        step = (right - left - SMALL_W) / (n - 1)
        for i in range(n):
            s.cards.append(CardItem(None, Rect(left + i * step, 320, SMALL_W, SMALL_H)))
        if ctl.human_to_act:
            s.targets.append(Target(f"spread:{n}", Rect(left, 320, right - left, SMALL_H)))
    if g.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT) and g.deal_no <= 0 and not ctl.show_running:
        for seat, card in enumerate(ctl.cut.cards):
            if card is not None:
                x = 720 + seat * 130
                s.cards.append(CardItem(card, Rect(x, 440, SMALL_W, SMALL_H)))
                s.labels.append(
                    Label(ctl.name(seat), x + SMALL_W / 2, 440 + SMALL_H + 14, 13, SOFT)
                )

    # ---- prompt and recent messages
    s.labels.append(Label(ctl.prompt(), center + 60, 250, 19, WHITE, bold=True))
    for i, text in enumerate(reversed(ctl.messages[-3:])):
        s.labels.append(Label(text, 370, 590 - i * 24, 14, SOFT if i else WHITE, "left"))

    # ---- hint
    if ctl.hint:
        for i, line in enumerate(ctl.hint.lines):
            s.labels.append(Label(line, 370, 320 - i * 20, 14, (150, 230, 255), "left"))

    # ---- board and scores
    names = (ctl.name(0), ctl.name(1))
    scores = ctl.display_scores
    s.board = Board(Rect(TABLE_RIGHT + 20, 200, 250, 520), ctl.pegs(), names, scores)
    for seat in (0, 1):
        y = HEIGHT - 28 - seat * 32
        s.labels.append(
            Label(
                ctl.short_name(seat),
                TABLE_RIGHT + 44,
                y,
                16,
                PLAYER_COLORS[seat],
                "left",
                bold=True,
            )
        )
        s.labels.append(
            Label(str(scores[seat]), WIDTH - 20, y, 20, PLAYER_COLORS[seat], "right", bold=True)
        )

    # ---- buttons
    bx, bw, bh = TABLE_RIGHT + 16, 124, 52
    s.buttons += [
        Button("undo", tr("Undo"), Rect(bx, 132, bw, bh), ctl.can_undo),
        Button("redo", tr("Redo"), Rect(bx + bw + 10, 132, bw, bh), ctl.can_redo),
        Button(
            "hint",
            tr("Hint"),
            Rect(bx, 72, bw, bh),
            ctl.human_to_act and g.phase in (Phase.DISCARD, Phase.PLAY) and not ctl.needs_reveal,
        ),
        Button("restart", tr("Restart"), Rect(bx + bw + 10, 72, bw, bh), ctl.can_restart),
        Button("menu", tr("Menu"), Rect(bx, 12, bw * 2 + 10, bh)),
    ]
    if g.phase in (Phase.DISCARD, Phase.PLAY) and ctl.human_to_act and not ctl.needs_reveal:
        s.buttons.append(
            Button(
                "confirm",
                tr("Play card") if g.phase is Phase.PLAY else tr("To the crib"),
                Rect(820, 70, 150, 64),
                ctl.can_confirm,
                primary=True,
            )
        )

    # ---- modal overlays: hotseat reveal, the show, game over
    if show is not None:
        _show_overlay(s, ctl, show)
    elif g.is_over:
        _game_over_overlay(s, ctl)
    elif ctl.needs_reveal:
        p = ctl.to_act
        o = s.layer = Scene()  # not modal: undo etc. stay available; hands stay face down
        r = Rect(200, 300, 600, 220)
        o.panels.append((r, PANEL))
        o.labels.append(
            Label(
                tr("Pass the screen to {name}", name=ctl.name(p)),
                r.cx,
                r.y + 170,
                22,
                WHITE,
                bold=True,
            )
        )
        o.buttons.append(
            Button(
                "reveal",
                tr("See my hand — {name}", name=ctl.name(p)),
                Rect(r.cx - 200, r.y + 50, 400, 80),
                primary=True,
            )
        )
    return s


def _show_overlay(base: Scene, ctl: TableController, step) -> None:
    tr = ctl.tr
    s = base.layer = Scene(modal=True)
    r = Rect(40, 130, 920, 560)
    s.panels.append((r, PANEL))
    s.labels.append(
        Label(step.title, r.cx, r.y + r.h - 40, 24, PLAYER_COLORS[step.player], bold=True)
    )
    hl = set(step.highlight)
    cards = list(step.cards) + [step.starter]
    rects = _hand_row(cards, r.y + r.h - 250, CARD_W, CARD_H, r.cx, 16)
    for i, (c, rc) in enumerate(zip(cards, rects, strict=True)):
        x = rc.x + (24 if i == 4 else 0)
        s.cards.append(
            CardItem(c, Rect(x, rc.y + (18 if c in hl else 0), rc.w, rc.h), highlight=c in hl)
        )
    s.labels.append(Label(tr("Starter"), rects[4].cx + 24, rects[4].y - 14, 13, SOFT))
    for i, note in enumerate(ctl.show_intro):  # how the play ended, under the count
        s.labels.append(Label(note, r.x + 24, r.y + 70 - i * 22, 13, SOFT, "left"))
    prev = step.said[:-1][-3:] if step.line else step.said[-3:]
    for i, line in enumerate(prev):
        s.labels.append(Label(line, r.cx, r.y + 150 + (len(prev) - 1 - i) * 22, 15, SOFT))
    if step.line:
        s.labels.append(Label(step.line, r.cx, r.y + 105, 24, GOLD, bold=True))
    s.buttons.append(
        Button("next", tr("Next"), Rect(r.x + r.w - 300, r.y + 20, 130, 56), primary=True)
    )
    s.buttons.append(Button("skip", tr("Skip"), Rect(r.x + r.w - 160, r.y + 20, 130, 56)))


def _game_over_overlay(base: Scene, ctl: TableController) -> None:
    tr = ctl.tr
    s = base.layer = Scene(modal=True)
    r = Rect(150, 240, 700, 330)
    s.panels.append((r, PANEL))
    for i, line in enumerate(ctl.game_over_lines()):
        s.labels.append(
            Label(
                line,
                r.cx,
                r.y + r.h - 60 - i * 42,
                30 if i == 0 else 20,
                GOLD if i == 0 else WHITE,
                bold=i == 0,
            )
        )
    s.buttons.append(
        Button("newgame", tr("New game"), Rect(r.cx - 250, r.y + 30, 230, 64), primary=True)
    )
    s.buttons.append(Button("restart", tr("Restart"), Rect(r.cx + 20, r.y + 30, 230, 64)))


# --------------------------------------------------------------------------------- start screen
LEVEL_LABELS = {
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "expert": N_("Expert"),
}


@dataclass
class StartOptions:
    """Choices on the start screen (the same as the command-line options)."""

    level: str = "medium"
    hotseat: bool = False
    lang: str = "en"
    has_save: bool = False
    message: str = ""


def start_scene(opts: StartOptions) -> Scene:
    cat = Catalog(opts.lang)
    tr = cat.tr
    s = Scene()
    s.labels.append(Label(tr("Cribbage"), WIDTH / 2, 690, 46, GOLD, bold=True))
    s.labels.append(Label(tr("Six cards, two players, first to 121"), WIDTH / 2, 638, 17, SOFT))
    rows = [
        (
            tr("Opponent"),
            500,
            [
                (f"level:{k}", tr(v), not opts.hotseat and opts.level == k)
                for k, v in LEVEL_LABELS.items()
            ],
        ),
        (
            tr("Players"),
            370,
            [
                ("mode:computer", tr("Against the computer"), not opts.hotseat),
                ("mode:hotseat", tr("Pass and play"), opts.hotseat),
            ],
        ),
        (
            tr("Language"),
            240,
            [(f"lang:{k}", LANGUAGE_NAMES[k], opts.lang == k) for k in LANGUAGES],
        ),
    ]
    for title, y, choices in rows:
        s.labels.append(Label(title, WIDTH / 2, y + 82, 18, WHITE, bold=True))
        w = 280 if len(choices) == 2 else 200
        total = len(choices) * w + (len(choices) - 1) * 16
        for i, (bid, label, on) in enumerate(choices):
            enabled = not (bid.startswith("level:") and opts.hotseat)
            s.buttons.append(
                Button(
                    bid,
                    label,
                    Rect(WIDTH / 2 - total / 2 + i * (w + 16), y, w, 56),
                    enabled,
                    toggled=on,
                )
            )
    s.buttons.append(
        Button("play", tr("New game"), Rect(WIDTH / 2 - 330, 90, 310, 76), primary=True)
    )
    s.buttons.append(
        Button(
            "continue", tr("Continue saved game"), Rect(WIDTH / 2 + 20, 90, 310, 76), opts.has_save
        )
    )
    if opts.message:
        s.labels.append(Label(opts.message, WIDTH / 2, 190, 13, GOLD, width=760))
    return s


# --------------------------------------------------------------------------------- input
def apply_click(ctl: TableController, scene: Scene, x: float, y: float) -> str | None:
    """Do what a click at (x, y) on the table means; returns the id hit (or None).

    Ids the controller cannot act on alone ("menu", "newgame") are returned for the window.
    """
    what = hit(scene, x, y)
    if what is None:
        return None
    if what.startswith("card:"):
        ctl.toggle(int(what[5:]))
    elif what.startswith("spread:"):
        n = int(what[7:])
        t = next(t for t in scene.targets if t.id == what)
        depth = round((x - t.rect.x) / t.rect.w * n)
        ctl.cut_at(depth)
    elif what in ("confirm", "crib", "pile"):
        ctl.confirm()
    elif what == "hint":
        if ctl.hint is None:
            ctl.request_hint()
        else:
            ctl.clear_hint()
    elif what == "undo":
        ctl.undo()
    elif what == "redo":
        ctl.redo()
    elif what == "restart":
        ctl.restart()
    elif what == "reveal":
        ctl.reveal()
    elif what == "next":
        ctl.advance_show()
    elif what == "skip":
        ctl.skip_show()
    return what
