"""Choosing cards at the table: selection, focus, confirm and cuts (previews until confirmed).

A selection is a preview: it never touches the game (R11.2); only :meth:`confirm` and
:meth:`cut_at` make a decision. A cut is a gesture on a face-down spread: the card comes from the
seed, never from where the player taps (R11.1). Held by :class:`~ui.table.controller.TableController`
as ``ctl.selection``.
"""

from __future__ import annotations

from typing import Protocol

import cribbage_env as ce
from cribbage_env.rules.actions import CUT_BASE
from cribbage_env.rules.core import Phase
from cribbage_env.rules.engine import GameState

#: Number of face-down cards spread for a cut (the whole deck, or the 40 left for the starter).
CUT_SPREAD = {Phase.CUT_FOR_DEAL: 52, Phase.DEAL_CUT: 52, Phase.STARTER_CUT: 40}


class TurnHost(Protocol):
    """What a part of the table reads of the turn: the game and whose decision it is, and how
    it speaks (``tr``, ``say``) and decides; ``version`` is bumped to redraw."""

    version: int
    game: GameState

    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...

    def tr(self, msgid: str, /, **kwargs: object) -> str: ...
    def say(self, text: str) -> None: ...
    def decide(self, action: int) -> None: ...


class SelectionHost(TurnHost, Protocol):
    """What a selection reads of its table besides the turn: whether the person may choose now
    (their hand seen), and the hand shown."""

    @property
    def human_to_act(self) -> bool: ...
    @property
    def needs_reveal(self) -> bool: ...
    @property
    def bottom_seat(self) -> int: ...

    def hand_cards(self, seat: int) -> tuple[int, ...]: ...
    def card(self, card: int) -> str: ...


class Selection:
    """The person's hand at the table: what is selected, focused, and what it stands for."""

    def __init__(self, ctl: SelectionHost) -> None:
        self._ctl = ctl
        self.cards: tuple[int, ...] = ()  # the cards selected, in the order they were
        self.focus = 0  # the keyboard's card (an index into the hand)

    def clear(self) -> None:
        self.cards = ()
        self.focus = 0

    @property
    def _ready(self) -> bool:
        """A person may choose now (their turn, their hand seen)."""
        return self._ctl.human_to_act and not self._ctl.needs_reveal

    def selectable(self, card: int) -> bool:
        """Can the person to act select this card now? Unplayable cards are dimmed (R6.2)."""
        ctl = self._ctl
        if not self._ready or ctl.to_act is None:
            return False
        if ctl.phase is Phase.DISCARD:
            return card in ctl.game.hands[ctl.to_act]
        if ctl.phase is Phase.PLAY:
            return ctl.game.is_legal(card)  # the engine's rule (R6.2)
        return False

    def toggle(self, card: int) -> bool:
        """Select or unselect a card of the hand to act (a preview: the game is untouched, R11.2)."""
        ctl = self._ctl
        if not self._ready or ctl.to_act is None or card not in ctl.game.hands[ctl.to_act]:
            return False
        if ctl.phase is Phase.PLAY and not self.selectable(card):
            ctl.say(ctl.tr("{card} would take the count past 31", card=ctl.card(card)))
            return False
        if card in self.cards:
            self.cards = tuple(c for c in self.cards if c != card)
        elif ctl.phase is Phase.DISCARD:
            self.cards = (self.cards + (card,))[-2:]
        elif ctl.phase is Phase.PLAY:
            self.cards = (card,)
        else:
            return False
        ctl.version += 1
        return True

    def select_position(self, index: int) -> bool:
        """Keyboard aid: toggle the ``index``-th card (0-based) of the hand to act."""
        hand = self._ctl.hand_cards(self._ctl.bottom_seat)
        if 0 <= index < len(hand):
            self.focus = index
            return self.toggle(hand[index])
        return False

    def move_focus(self, step: int) -> None:
        hand = self._ctl.hand_cards(self._ctl.bottom_seat)
        if hand:
            self.focus = (self.focus + step) % len(hand)
            self._ctl.version += 1

    @property
    def pending_action(self) -> int | None:
        """The action the current selection stands for, if it is complete and legal."""
        if not self._ready:
            return None
        sel, phase = self.cards, self._ctl.phase
        if phase is Phase.DISCARD and len(sel) == 2:
            return ce.discard_action(sel[0], sel[1])
        if phase is Phase.PLAY and len(sel) == 1 and self.selectable(sel[0]):
            return sel[0]
        return None

    @property
    def can_confirm(self) -> bool:
        return self.pending_action is not None

    def cut_at(self, depth: int) -> bool:
        """Cut the spread at ``depth`` cards (a gesture: the card comes from the seed, R11.1)."""
        ctl = self._ctl
        if not ctl.human_to_act or ctl.phase not in CUT_SPREAD:
            return False
        action = CUT_BASE + int(depth)
        if not ctl.game.is_legal(action):
            legal = ctl.game.legal_actions()
            action = min(max(action, legal[0]), legal[-1])  # spots at the very ends snap inwards
        ctl.decide(action)
        return True


class PlayTurn(Protocol):
    """What :func:`forced_card` reads of the table: the game, and whether the person is to act
    with their hand in sight."""

    game: GameState

    @property
    def phase(self) -> Phase: ...
    @property
    def human_to_act(self) -> bool: ...
    @property
    def needs_reveal(self) -> bool: ...


def forced_card(ctl: PlayTurn) -> int | None:
    """The person's only legal move in the play (a single card they can lay, or Go when none
    fits), else None: what the Settings panel's "A forced card: play it by itself" plays."""
    if ctl.phase is not Phase.PLAY or not ctl.human_to_act or ctl.needs_reveal:
        return None
    legal = ctl.game.legal_actions()
    return int(legal[0]) if len(legal) == 1 else None
