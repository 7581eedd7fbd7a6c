"""What the window shows, as data: the table laid out on a 1280x800 virtual screen (no Arcade).

:func:`ui.scenes.table_scene.table_scene` turns a :class:`~ui.table.controller.TableController` into
rectangles, cards, labels, buttons and hit targets (the types are here); the Arcade view draws them and sends clicks back through
:func:`hit`. Keeping layout and hit-testing here lets tests check, without a window, that every
target is at least 48 px (RULES R11.7) and that nothing of a hidden hand is ever laid out face up
(R11.4). The start screen, laid out of the same types, is :mod:`ui.scenes.screens.start_scene`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..table.board import STANDARD_BOARD, BoardShape
from ..table.commands import Act, Command, run
from ..table.controller import TableController

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


#: Where a card face's index (rank letter over suit) lies, as fractions of the card from its
#: left and from its top (the card art is 140x190; "10" is the widest index).
INDEX_X, INDEX_TOP = (0.05, 0.29), (0.05, 0.31)


def index_corner(r: Rect) -> Rect:
    """The top-left index of a face-up card drawn in ``r``: it must stay uncovered."""
    x0, x1 = INDEX_X
    t0, t1 = INDEX_TOP
    return Rect(r.x + x0 * r.w, r.y + r.h * (1 - t1), (x1 - x0) * r.w, (t1 - t0) * r.h)


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@dataclass(frozen=True)
class CardItem:
    card: int | None  # None: face down
    rect: Rect
    selected: bool = False
    dimmed: bool = False
    hinted: bool = False
    focus: bool = False
    highlight: bool = False
    key: str = ""  # stable identity across scenes (motion): "c<id>" face up, a place face down


@dataclass(frozen=True)
class Button:
    id: str
    label: str
    rect: Rect
    enabled: bool = True
    primary: bool = False
    toggled: bool = False
    command: Command | None = None  # what a click on it does at the table
    focused: bool = False  # the keyboard's focus is on it (Enter presses it)


def act_button(
    act: Act, label: str, rect: Rect, enabled: bool = True, primary: bool = False,
    toggled: bool = False, *, arg: int = 0, name: str | None = None,
) -> Button:  # fmt: skip
    """A button of the table: it does ``Command(act, arg)``; its id (for finding it) is
    ``name``, else the act's name."""
    return Button(name or act.value, label, rect, enabled, primary, toggled, Command(act, arg))


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
    tag: str = ""  # "log", "score", ...: what motion holds back until the table has shown it


def wrapped_rows(text: str, per_line: int) -> int:
    """Lines ``text`` takes wrapped word by word at ``per_line`` characters.

    >>> wrapped_rows("a b c", 3), wrapped_rows("abc de", 3)
    (2, 2)
    """
    n, used = 1, 0
    for w in text.split():
        if used and used + 1 + len(w) > per_line:
            n, used = n + 1, len(w)
        else:
            used += len(w) + (1 if used else 0)
    return n


@dataclass(frozen=True)
class Target:
    """A clickable area that is not a button: a card, the crib, the cut spread."""

    id: str
    rect: Rect
    command: Command | None = None
    spread: int = 0  # a cut spread of this many cards: the command's arg is where it is cut
    along: bool = False  # a chart: the command's ``at`` is where along it (0..1) it is clicked

    def command_at(self, x: float) -> Command | None:
        """The command of a click at ``x``: a cut's depth is where the spread is tapped."""
        if self.command is None:
            return None
        if self.spread:
            return Command(self.command.act, round((x - self.rect.x) / self.rect.w * self.spread))
        if self.along:
            return replace(self.command, at=(x - self.rect.x) / self.rect.w)
        return self.command


@dataclass(frozen=True)
class Board:
    """The cribbage board: 121 holes per track (61 in the short game), two pegs per player
    (front, back)."""

    rect: Rect
    pegs: tuple[tuple[int, int], tuple[int, int]]
    names: tuple[str, str]
    scores: tuple[int, int]
    shape: BoardShape = STANDARD_BOARD


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
    faces: tuple[str, str, str] = ("J", "Q", "K")  # face letters of the table's language

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


def hit_item(scene: Scene, x: float, y: float) -> Button | Target | None:
    """What is at (x, y): the top layer first, buttons before targets."""
    layer = scene.layer
    if layer is not None:
        for b in reversed(layer.buttons):
            if b.enabled and b.rect.contains(x, y):
                return b
    modal = layer is not None and layer.modal
    for b in reversed(scene.buttons):  # under a modal layer only the side buttons still answer
        if b.enabled and b.rect.contains(x, y) and not (modal and b.rect.x < TABLE_RIGHT):
            return b
    if modal:
        return None
    for t in reversed(scene.targets):
        if t.rect.contains(x, y):
            return t
    return None


def hit(scene: Scene, x: float, y: float) -> str | None:
    """The id of what is at (x, y): the button or target a test looks for."""
    item = hit_item(scene, x, y)
    return None if item is None else item.id


def hit_command(scene: Scene, x: float, y: float) -> Command | None:
    """The command of a click at (x, y) on the table, or None."""
    item = hit_item(scene, x, y)
    if isinstance(item, Target):
        return item.command_at(x)
    return None if item is None else item.command


# --------------------------------------------------------------------------------- input
def apply_click(ctl: TableController, scene: Scene, x: float, y: float) -> Command | None:
    """Do the controller's part of a click at (x, y) on the table; returns its command (or
    None). Commands the controller cannot act on alone (the menu, a new game) are the window's.
    """
    cmd = hit_command(scene, x, y)
    if cmd is not None:
        run(ctl, cmd)
    return cmd
