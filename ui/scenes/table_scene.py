"""The table laid out as data: :func:`table_scene` turns a controller into a :class:`Scene`.

Everything about cards comes from the drawn seat's :class:`~cribbage_env.rules.views.PlayerView`; the
other hand is only a number of backs unless it may be shown (watching two agents). Every card
carries a stable ``key`` (its id when face up, its place when face down) so that
:mod:`ui.scenes.motion` can move it from where it was to where it is now. Where each thing lies
(the deck, the pile, the board, the log) is :mod:`ui.scenes.table_layout`'s, what is laid over
it (pass the screen, the show, the game over) :mod:`ui.scenes.table_overlays`'s.
"""

from __future__ import annotations

from cribbage_env.rules.core import Phase

from ..table.commands import Act, Command
from ..table.controller import Mode, TableController
from ..table.selection import CUT_SPREAD
from ..table.teaching.chances import Reading
from .coach_scene import hint_items, options_overlay, question_overlay, warning_overlay
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
    Label,
    Rect,
    Scene,
    Target,
    act_button,
)
from .table_layout import (
    BOARD_RECT,
    CENTER,
    CHANCE_BAR,
    COUNT_X,
    DECK,
    FIRST_CUT,
    FIRST_CUT_TAG,
    LOG_STEP,
    LOG_TOP,
    LOG_W,
    LOG_X,
    PILE,
    PROMPT_W,
    PROMPT_X,
    STARTER,
    TOP_HAND_Y,
    board_items,
    hand_row,
    pile_rects,
)
from .table_overlays import game_over_overlay, reveal_overlay, show_overlay


def table_scene(
    ctl: TableController, chance: Reading | None = None, chances_on: bool = False
) -> Scene:
    """Lay out the whole table for the current state of ``ctl``; ``chance`` is the
    winning-chance indicator's reading (:mod:`ui.table.teaching.chances`), ``chances_on`` its switch."""
    s = Scene(faces=(ctl.tr("J"), ctl.tr("Q"), ctl.tr("K")))
    s.panels.append((Rect(TABLE_RIGHT, 0, 3, HEIGHT), (12, 60, 38)))  # the buttons' side
    _names(s, ctl)
    _hands(s, ctl)
    _crib_and_deck(s, ctl)
    if ctl.game.phase is Phase.PLAY:
        _pile(s, ctl)
    _cuts(s, ctl)
    prompt = ctl.tr("You cut lower and deal first") if ctl.computer.waits_for_the_cut else ""
    s.labels.append(Label(prompt or ctl.prompt(), PROMPT_X, 250, 19, WHITE, bold=True, width=PROMPT_W,
                          tag="prompt"))  # fmt: skip
    for i, text in enumerate(reversed(ctl.messages[-3:])):
        s.labels.append(Label(text, LOG_X, LOG_TOP - i * LOG_STEP, 13, SOFT if i else WHITE, "left",
                              width=LOG_W, tag="log"))  # fmt: skip
    if ctl.coach.shown_warning is None:  # the warning names the best move itself, over these lines
        hint_items(s, ctl)
    _board(s, ctl)
    _buttons(s, ctl, chances_on)
    show = ctl.show.step
    if show is not None:
        show_overlay(s, ctl, show)
    elif ctl.game.is_over:
        game_over_overlay(s, ctl)
    elif ctl.needs_reveal:
        reveal_overlay(s, ctl)
    elif ctl.guard.asking is not None:
        question_overlay(s, ctl)
    elif ctl.coach.shown_warning is not None:
        warning_overlay(s, ctl)
    elif ctl.coach.hint is not None and ctl.coach.show_options:
        options_overlay(s, ctl)
    if s.layer is not None:  # a panel over the table (a warning, a question): the cut is past
        s.cards = [c for c in s.cards if not c.key.startswith(FIRST_CUT_TAG)]
        s.labels = [lb for lb in s.labels if lb.tag != FIRST_CUT_TAG]
    if chance is not None and (s.layer is None or not s.layer.modal):  # not under the show
        _chance_bar(s, ctl, chance)
    return s


def seat_label(ctl: TableController, seat: int) -> str:
    """The name beside the hand, with the computer's level: "Computer (Hard)"."""
    from agents import LEVELS

    spec = ctl.seats[seat].spec
    level = next((lv for lv in LEVELS.values() if lv.spec == spec), None)
    if ctl.mode is not Mode.COMPUTER or level is None:
        return ctl.name(seat)
    return ctl.tr("{name} ({level})", name=ctl.name(seat), level=ctl.tr(level.label))


def _names(s: Scene, ctl: TableController) -> None:
    """Names with the dealer's mark, and a Go bubble that stays while the Go holds."""
    g, tr = ctl.game, ctl.tr
    bottom = ctl.bottom_seat
    view = ctl.view(bottom)
    for seat, y in ((1 - bottom, HEIGHT - 22), (bottom, 250)):
        name = seat_label(ctl, seat)
        text = f"{name} — {tr('dealer')}" if g.dealer == seat and g.deal_no >= 0 else name
        s.labels.append(Label(text, 30, y, 15, PLAYER_COLORS[seat], "left", bold=True))
        if view.go_said[seat] and g.phase is Phase.PLAY:
            gy = HEIGHT - 115 if seat != bottom else 275
            gx = (
                820 if seat != bottom else 210 if g.dealer == bottom else 30
            )  # clear of the crib's label
            s.labels.append(Label(tr("Go!"), gx, gy, 22, GOLD, "left", bold=True, tag="go"))


def _hands(s: Scene, ctl: TableController) -> None:
    g = ctl.game
    bottom = ctl.bottom_seat
    top = 1 - bottom
    view = ctl.view(bottom)
    top_cards = ctl.hand_cards(top) if ctl.hand_visible(top) else [None] * view.opponent_cards_left
    for i, (card, r) in enumerate(
        zip(
            top_cards,
            hand_row(len(top_cards), TOP_HAND_Y, SMALL_W, SMALL_H, CENTER, 8),
            strict=True,
        )
    ):
        s.cards.append(CardItem(card, r, key=f"c{card}" if card is not None else f"h{top}:{i}"))
    hand = sorted(view.hand, key=lambda c: (c % 13, c // 13))  # as ctl.hand_cards orders them
    visible = ctl.hand_visible(bottom) and not ctl.needs_reveal
    rects = hand_row(len(hand), 40, CARD_W, CARD_H, CENTER - 60, 14)
    hint_cards = set(ctl.coach.hint.cards) if ctl.coach.hint else set()
    act = ctl.human_to_act and ctl.to_act == bottom
    for i, (card, r) in enumerate(zip(hand, rects, strict=True)):
        if not visible:
            s.cards.append(CardItem(None, r, key=f"h{bottom}:{i}"))
            continue
        sel = card in ctl.selection.cards
        dimmed = act and g.phase is Phase.PLAY and not ctl.selection.selectable(card)
        rr = Rect(r.x, r.y + (30 if sel else 0), r.w, r.h)
        s.cards.append(
            CardItem(card, rr, selected=sel, dimmed=dimmed, hinted=card in hint_cards,
                     focus=act and i == ctl.selection.focus, key=f"c{card}")
        )  # fmt: skip
        if act:
            s.targets.append(Target(f"card:{card}", Rect(r.x, r.y, r.w, r.h + 30),
                                    Command(Act.TOGGLE, card)))  # fmt: skip


def _crib_and_deck(s: Scene, ctl: TableController) -> None:
    g, tr = ctl.game, ctl.tr
    top = 1 - ctl.bottom_seat
    view = ctl.view(ctl.bottom_seat)
    crib_y = 480 if g.dealer == top else 300
    n_crib = len(view.discards) + (2 if view.opponent_discarded else 0)
    for i in range(n_crib):
        s.cards.append(CardItem(None, Rect(30 + i * 6, crib_y, SMALL_W, SMALL_H), key=f"crib:{i}"))
    if g.deal_no >= 0 and g.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT):  # the spread's
        label = tr("Crib: {name}", name=ctl.name(g.dealer))
        label_y = crib_y + SMALL_H + 14 if crib_y > DECK.y else crib_y - 14  # clear of the deck
        s.labels.append(Label(label, 30, label_y, 13, SOFT, "left"))
        if g.phase is Phase.DISCARD and ctl.selection.can_confirm:
            crib = Rect(30, crib_y, 120, SMALL_H)
            s.targets.append(Target("crib", crib, Command(Act.CONFIRM)))
            glow = Rect(crib.x - 6, crib.y - 6, crib.w + 12, crib.h + 12)
            s.panels.append((glow, (255, 205, 60, 110)))
    if not (g.phase in CUT_SPREAD and not ctl.show.running):  # while cutting, the spread is it
        s.cards.append(CardItem(None, DECK, key="deck"))
        s.labels.append(
            Label(tr("Starter"), STARTER.cx - 8, DECK.y - 13, 12, SOFT)
        )  # clear of the pile
    if view.starter is not None and g.phase is Phase.PLAY:
        r = STARTER
        s.cards.append(CardItem(view.starter, r, key=f"c{view.starter}"))


def _pile(s: Scene, ctl: TableController) -> None:
    """The play: earlier sequences, the current one fanned, the count and who said Go."""
    view = ctl.view(ctl.bottom_seat)
    older = [c for _, c in view.played if c not in view.sequence][-8:]
    if (
        ctl.selection.can_confirm
    ):  # tap the pile to lay the selected card, like the crib for discards
        glow = Rect(PILE.x - 4, PILE.y - 4, PILE.w + 8, PILE.h + 8)
        s.panels.append((glow, (255, 205, 60, 50)))
        s.targets.append(Target("pile", PILE, Command(Act.CONFIRM)))
    o_rects, q_rects = pile_rects(len(older), len(view.sequence))
    for c, r in zip(older, o_rects, strict=True):
        s.cards.append(CardItem(c, r, dimmed=True, key=f"c{c}"))
    for c, r in zip(view.sequence, q_rects, strict=True):
        s.cards.append(CardItem(c, r, key=f"c{c}"))
    tr = ctl.tr
    s.labels.append(
        Label(tr("Count: {count}", count=view.count), COUNT_X, 405, 26, GOLD, bold=True,
              tag="count")
    )  # fmt: skip
    said = [ctl.name(p) for p in (0, 1) if view.go_said[p]]
    if said:  # who said Go stays in sight under the count until the count starts again
        text = f"{tr('Go!')} — {', '.join(said)}"
        s.labels.append(Label(text, COUNT_X, 368, 15, GOLD, tag="go"))


def _cuts(s: Scene, ctl: TableController) -> None:
    """Cut spreads (R2, R3.1, R5.1): one big target; where you tap is only a gesture."""
    g = ctl.game
    _first_cut(s, ctl)
    if g.phase not in CUT_SPREAD or ctl.show.running:
        return
    n = CUT_SPREAD[g.phase]
    left, right = (210 if g.phase is Phase.STARTER_CUT else 120), 880  # the crib's label left
    step = (right - left - SMALL_W) / (n - 1)
    for i in range(n):
        s.cards.append(CardItem(None, Rect(left + i * step, 320, SMALL_W, SMALL_H), key=f"d{i}"))
    if ctl.human_to_act:
        s.targets.append(
            Target(
                f"spread:{n}", Rect(left, 320, right - left, SMALL_H), Command(Act.CUT), spread=n
            )
        )  # fmt: skip)


def _first_cut(s: Scene, ctl: TableController) -> None:
    """The two cards cut for the first deal (R2.1), face up beside the table under the log
    through the deal's cut; when the person won the cut, the computer's cut of the deck waits
    for Continue."""
    g = ctl.game
    if g.deal_no > 0 or ctl.show.running or g.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT):
        return
    for seat, card in enumerate(ctl.cut.cards):
        if card is not None:
            r = Rect(FIRST_CUT.x + seat * 110, FIRST_CUT.y, SMALL_W, SMALL_H)
            s.cards.append(CardItem(card, r, key=f"{FIRST_CUT_TAG}:{seat}"))
            s.labels.append(
                Label(ctl.name(seat), r.cx, r.y + r.h + 14, 13, SOFT, tag=FIRST_CUT_TAG)
            )
    if ctl.computer.waits_for_the_cut:
        r = Rect(FIRST_CUT.x, FIRST_CUT.y + FIRST_CUT.h + 36, FIRST_CUT.w, 52)
        s.buttons.append(act_button(Act.READ_CUT, ctl.tr("Continue"), r, primary=True))


def _board(s: Scene, ctl: TableController) -> None:
    short = (ctl.short_name(0), ctl.short_name(1))
    names = (ctl.name(0), ctl.name(1))
    board_items(s, ctl.display_scores, ctl.pegs(), names, short, ctl.board_shape, BOARD_RECT)


def _chance_bar(s: Scene, ctl: TableController, reading: Reading) -> None:
    """The drawn seat's winning chance: its colour from the left, the other's to the right,
    a mark at even."""
    r, seat = CHANCE_BAR, reading.seat
    w = r.w * min(max(reading.chance, 0.0), 1.0)
    s.panels.append((Rect(r.x - 2, r.y - 2, r.w + 4, r.h + 4), (12, 40, 26)))
    s.panels.append((Rect(r.x, r.y, r.w, r.h), PLAYER_COLORS[1 - seat]))
    s.panels.append((Rect(r.x, r.y, w, r.h), PLAYER_COLORS[seat]))
    s.panels.append((Rect(r.cx - 1, r.y - 4, 2, r.h + 8), WHITE))
    pct = ctl.cat.percent(reading.chance, digits=0)
    text = ctl.tr("Winning chance — {name}: {pct}", name=ctl.name(seat), pct=pct)
    s.labels.append(Label(text, r.x - 12, r.cy, 14, WHITE, "right", bold=True, tag="chance"))


def _buttons(s: Scene, ctl: TableController, chances_on: bool = False) -> None:
    g, tr = ctl.game, ctl.tr
    bx, bw, bh = TABLE_RIGHT + 16, 124, 52
    turn = ctl.human_to_act and g.phase in (Phase.DISCARD, Phase.PLAY) and not ctl.needs_reveal
    s.buttons += [
        act_button(Act.UNDO, tr("Undo"), Rect(bx, 132, bw, bh), ctl.can_undo),
        act_button(Act.REDO, tr("Redo"), Rect(bx + bw + 10, 132, bw, bh), ctl.can_redo),
        act_button(Act.HINT, tr("Hint"), Rect(bx, 72, bw, bh), turn),
        act_button(Act.RESTART, tr("Restart"), Rect(bx + bw + 10, 72, bw, bh), ctl.can_restart),
        act_button(Act.MENU, tr("Menu"), Rect(bx, 12, bw, bh)),
        act_button(Act.CHANCES, tr("Chances"), Rect(bx + bw + 10, 12, bw, bh), toggled=chances_on),
        act_button(Act.RULES, tr("Rules"), Rect(bx, 192, bw, bh)),
        act_button(Act.EXPORT, tr("Export game"), Rect(bx + bw + 10, 192, bw, bh), ctl.can_export),
    ]
    if turn:
        label = tr("Play card") if g.phase is Phase.PLAY else tr("To the crib")
        s.buttons.append(
            act_button(
                Act.CONFIRM, label, Rect(820, 70, 150, 64), ctl.selection.can_confirm, primary=True
            )
        )
