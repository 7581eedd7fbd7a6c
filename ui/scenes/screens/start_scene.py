"""The start screen as data: its options (:class:`StartOptions`, the same as the command line's),
its buttons, its questions (quit, the unfinished games to resume) and the keyboard's focus on it.

The window's first frame (:func:`loading_scene`) is the start screen's title over cards dealt
face down, drawn while the rest loads; the Settings panel over it is
:mod:`ui.scenes.screens.settings_scene`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agents.registry import LEVELS
from cribbage_env.rules.core import STANDARD, VARIANTS, Rules

from ...table.commands import Act, Command
from ...words.i18n import LANGUAGE_NAMES, LANGUAGES, Catalog
from ..preferences import Preferences
from ..scene import (
    CARD_H,
    CARD_W,
    FELT,
    GOLD,
    HEIGHT,
    PANEL,
    SOFT,
    WHITE,
    WIDTH,
    Button,
    CardItem,
    Label,
    Rect,
    Scene,
    act_button,
)


@dataclass
class StartOptions:
    """Choices on the start screen (the same as the command-line options)."""

    level: str = "medium"
    hotseat: bool = False
    lang: str = "en"
    has_save: bool = False
    message: str = ""
    four_colour: bool = False  # diamonds blue, clubs green
    sound: bool = False  # sound effects (never when headless)
    rules: Rules = STANDARD  # the start screen steps through ``VARIANTS``
    coach: float = 0.0  # coach mode: warn above this loss of winning chance (0: off)
    unfinished: tuple[str, ...] = ()  # the games to resume, described (the current one first)
    listing: bool = False  # the list of unfinished games is open
    confirm_new: bool = False  # New game was pressed once with a game under way
    confirm_quit: bool = False  # Quit (or Esc) was pressed: the question is on the screen
    focus: str = "play"  # the id of the button the keyboard is on
    prefs: Preferences = Preferences()  # the pace and the look (the Settings panel)
    settings_open: bool = False  # the Settings panel is open


def next_variant(rules: Rules) -> Rules:
    """The start screen's next rules: the next of ``VARIANTS`` (rules of no variant: the first).

    >>> next_variant(STANDARD).target, next_variant(next_variant(STANDARD)) is STANDARD
    (61, True)
    """
    variants = list(VARIANTS.values())
    return (
        variants[(variants.index(rules) + 1) % len(variants)] if rules in variants else variants[0]
    )


def title_scene(opts: StartOptions) -> Scene:
    """The game's title and subtitle on the felt: the window's first frame (drawn while the
    rest loads) and the top of the start screen, at the same place."""
    tr = Catalog(opts.lang).tr
    s = Scene()
    s.labels.append(Label(tr("Cribbage"), WIDTH / 2, 690, 46, GOLD, bold=True))
    subtitle = tr("Six cards, two players, first to {target}", target=opts.rules.target)
    s.labels.append(Label(subtitle, WIDTH / 2, 638, 17, SOFT))
    return s


def loading_scene(opts: StartOptions) -> Scene:
    """The window's first frame, while the game loads: the title over six cards dealt face down."""
    s = title_scene(opts)
    left = WIDTH / 2 - (5 * 70 + CARD_W) / 2
    for i in range(6):
        s.cards.append(CardItem(None, Rect(left + i * 70, HEIGHT / 2 - CARD_H / 2, CARD_W, CARD_H)))
    return s


def start_scene(opts: StartOptions) -> Scene:
    cat = Catalog(opts.lang)
    tr = cat.tr
    s = title_scene(opts)
    target = opts.rules.target
    level, players, lang = Act.LEVEL, Act.PLAYERS, Act.LANGUAGE
    rows = [
        (tr("Opponent"), 500, [(Command(level, name=k), tr(v.label),
                                not opts.hotseat and opts.level == k) for k, v in LEVELS.items()]),
        (tr("Players"), 370, [(Command(players, name="computer"), tr("Against the computer"),
                               not opts.hotseat),
                              (Command(players, name="hotseat"), tr("Pass and play"), opts.hotseat)]),
        (tr("Language"), 240, [(Command(lang, name=k), LANGUAGE_NAMES[k], opts.lang == k)
                               for k in LANGUAGES]),
    ]  # fmt: skip
    for title, y, choices in rows:
        s.labels.append(Label(title, WIDTH / 2, y + 82, 18, WHITE, bold=True))
        w = 280 if len(choices) == 2 else min(200, (WIDTH - 80) // len(choices) - 16)
        total = len(choices) * w + (len(choices) - 1) * 16
        for i, (cmd, label, on) in enumerate(choices):
            enabled = not (cmd.act is Act.LEVEL and opts.hotseat)
            rect = Rect(WIDTH / 2 - total / 2 + i * (w + 16), y, w, 56)
            s.buttons.append(Button(f"{cmd.act.value}:{cmd.name}", label, rect, enabled,
                                    toggled=on, command=cmd))  # fmt: skip
    n = len(opts.unfinished)
    row = [
        (Act.PLAY, tr("New game"), True),
        (Act.CONTINUE, tr("Continue saved game"), opts.has_save),
    ]
    if n > 1:  # the games kept when a new one started
        row.append((Act.UNFINISHED, tr("Unfinished games ({n})", n=n), True))
    row.append((Act.TUTORIAL, tr("Learn to play"), True))  # the guided first deal
    w, gap = (300, 30) if len(row) < 4 else (250, 25)
    left = WIDTH / 2 - (len(row) * (w + gap) - gap) / 2
    for i, (act, label, enabled) in enumerate(row):
        s.buttons.append(act_button(act, label, Rect(left + i * (w + gap), 90, w, 76), enabled,
                                    primary=act is Act.PLAY))  # fmt: skip
    options = [
        (Act.RULES, tr("Rules"), False),
        (Act.STATS, tr("Statistics"), False),
        (Act.VARIANT, tr("Game to {target}", target=target), not opts.rules.is_standard),
        (Act.FOUR_COLOUR, tr("Four-colour deck"), opts.four_colour),
        (Act.SOUND, tr("Sound"), opts.sound),
        (Act.COACH, tr("Coach: {pct}", pct=cat.percent(opts.coach, 0)) if opts.coach
         else tr("Coach: off"), opts.coach > 0),
    ]  # fmt: skip
    w = 196
    left = WIDTH / 2 - (len(options) * (w + 8) - 8) / 2
    for i, (act, label, on) in enumerate(options):
        s.buttons.append(act_button(act, label, Rect(left + i * (w + 8), 14, w, 52), toggled=on))
    s.buttons.append(act_button(Act.QUIT, tr("Quit"), Rect(WIDTH - 160, HEIGHT - 76, 140, 56)))
    s.buttons.append(act_button(Act.SETTINGS, tr("Settings"), Rect(20, HEIGHT - 76, 180, 56)))
    if opts.message:
        s.labels.append(Label(opts.message, WIDTH / 2, 190, 13, GOLD, width=760))
    if opts.listing:
        _unfinished_layer(s, opts, tr)
    elif opts.confirm_quit:
        _quit_layer(s, tr)
    return with_focus(s, opts.focus)


def _quit_layer(base: Scene, tr) -> None:
    """Quit asks first (a click away from closing the window by mistake)."""
    s = base.layer = Scene(modal=True)
    s.panels.append((Rect(0, 0, WIDTH, HEIGHT), FELT))
    r = Rect(WIDTH / 2 - 300, 280, 600, 240)
    s.panels.append((r, PANEL))
    s.labels.append(Label(tr("Quit the game?"), r.cx, r.y + r.h - 60, 24, GOLD, bold=True))
    s.buttons.append(act_button(Act.ANSWER, tr("Quit"), Rect(r.cx - 250, r.y + 30, 240, 64),
                                arg=1, name="quit:yes"))  # fmt: skip
    s.buttons.append(act_button(Act.ANSWER, tr("Keep playing"), Rect(r.cx + 10, r.y + 30, 240, 64),
                                primary=True, arg=0, name="quit:no"))  # fmt: skip


def focusable(s: Scene) -> list[Button]:
    """The buttons the keyboard can reach: the top layer's (a modal layer's only), enabled,
    in reading order (top row first, left to right)."""
    level = s.layer if s.layer is not None and s.layer.modal else s
    return sorted((b for b in level.buttons if b.enabled), key=lambda b: (-b.rect.cy, b.rect.x))


def with_focus(s: Scene, focus: str) -> Scene:
    """The scene with the focused button marked (the first one if ``focus`` is not there)."""
    reach = focusable(s)
    ids = [b.id for b in reach]
    target = focus if focus in ids else (ids[0] if ids else "")
    level = s.layer if s.layer is not None and s.layer.modal else s
    level.buttons = [replace(b, focused=b.id == target) for b in level.buttons]
    return s


def move_focus(s: Scene, focus: str, step: str) -> str:
    """The button the focus goes to from ``focus`` on ``step``: "next"/"prev" in reading
    order (Tab), "left"/"right" along the row, "up"/"down" to the nearest of the row above or
    below (arrow keys).

    >>> s = start_scene(StartOptions())
    >>> move_focus(s, "play", "right"), move_focus(s, "play", "up")
    ('tutorial', 'lang:en')
    """
    reach = focusable(s)
    if not reach:
        return focus
    ids = [b.id for b in reach]
    if focus not in ids:
        return ids[0]
    i = ids.index(focus)
    here = reach[i].rect
    if step in ("next", "prev"):
        return ids[(i + (1 if step == "next" else -1)) % len(ids)]
    if step in ("left", "right"):
        row = [b for b in reach if abs(b.rect.cy - here.cy) < 1]
        j = row.index(reach[i]) + (1 if step == "right" else -1)
        return row[j].id if 0 <= j < len(row) else focus
    above = [b for b in reach if (b.rect.cy > here.cy + 1) == (step == "up")
             and abs(b.rect.cy - here.cy) >= 1]  # fmt: skip
    if not above:
        return focus
    near = min(abs(b.rect.cy - here.cy) for b in above)
    row = [b for b in above if abs(abs(b.rect.cy - here.cy) - near) < 1]
    return min(row, key=lambda b: abs(b.rect.cx - here.cx)).id


def _unfinished_layer(base: Scene, opts: StartOptions, tr) -> None:
    """The games to resume (a new game never replaces one under way)."""
    s = base.layer = Scene(modal=True)
    s.panels.append((Rect(0, 0, WIDTH, HEIGHT), FELT))  # the start screen is out of sight
    r = Rect(WIDTH / 2 - 420, 120, 840, 580)
    s.panels.append((r, PANEL))
    s.labels.append(Label(tr("Unfinished games"), r.cx, r.y + r.h - 40, 24, GOLD, bold=True))
    for i, text in enumerate(opts.unfinished):
        s.buttons.append(act_button(Act.RESUME, text, Rect(r.x + 40, r.y + r.h - 140 - i * 66,
                                    r.w - 80, 56), arg=i, name=f"resume:{i}"))  # fmt: skip
    s.buttons.append(act_button(Act.BACK, tr("Back"), Rect(r.cx - 110, r.y + 20, 220, 60),
                                primary=True, name="list:back"))  # fmt: skip
