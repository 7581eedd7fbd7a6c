"""Choosing cards at the table: selection, focus, confirm and cuts (previews until confirmed).

A selection is a preview: it never touches the game (R11.2); only :meth:`confirm` and
:meth:`cut_at` make a decision. A cut is a gesture on a face-down spread: the card comes from the
seed, never from where the player taps (R11.1). Mixed into :class:`~ui.controller.TableController`.
"""

from __future__ import annotations

import cribbage_env as ce
from cribbage_env.actions import CUT_BASE
from cribbage_env.cards import RANK, SUIT
from cribbage_env.core import Phase

#: Number of face-down cards spread for a cut (the whole deck, or the 40 left for the starter).
CUT_SPREAD = {Phase.CUT_FOR_DEAL: 52, Phase.DEAL_CUT: 52, Phase.STARTER_CUT: 40}


class SelectionMixin:
    """The person's hand at the table: what is selected, focused, and what it stands for."""

    selection: tuple[int, ...]
    focus: int

    def selectable(self, card: int) -> bool:
        """Can the person to act select this card now? Unplayable cards are dimmed (R6.2)."""
        if not self.human_to_act or self.needs_reveal:
            return False
        p = self.to_act
        if self.phase is Phase.DISCARD:
            return card in self.game.hands[p]
        if self.phase is Phase.PLAY:
            return self.game.is_legal(card)  # the engine's rule (R6.2)
        return False

    def toggle(self, card: int) -> bool:
        """Select or unselect a card of the hand to act (a preview: the game is untouched, R11.2)."""
        if not self.human_to_act or self.needs_reveal:
            return False
        p = self.to_act
        if card not in self.game.hands[p]:
            return False
        if self.phase is Phase.PLAY and not self.selectable(card):
            self._say(self.tr("{card} would take the count past 31", card=self.card(card)))
            return False
        if card in self.selection:
            self.selection = tuple(c for c in self.selection if c != card)
        elif self.phase is Phase.DISCARD:
            self.selection = (self.selection + (card,))[-2:]
        elif self.phase is Phase.PLAY:
            self.selection = (card,)
        else:
            return False
        self.version += 1
        return True

    def select_position(self, index: int) -> bool:
        """Keyboard aid: toggle the ``index``-th card (0-based) of the hand to act."""
        hand = self.hand_cards(self.bottom_seat)
        if 0 <= index < len(hand):
            self.focus = index
            return self.toggle(hand[index])
        return False

    def move_focus(self, step: int) -> None:
        hand = self.hand_cards(self.bottom_seat)
        if hand:
            self.focus = (self.focus + step) % len(hand)
            self.version += 1

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, in a stable order (sorted by rank then suit)."""
        return tuple(sorted(self.game.hands[seat], key=lambda c: (RANK[c], SUIT[c])))

    @property
    def pending_action(self) -> int | None:
        """The action the current selection stands for, if it is complete and legal."""
        if not self.human_to_act or self.needs_reveal:
            return None
        sel = self.selection
        if self.phase is Phase.DISCARD and len(sel) == 2:
            return ce.discard_action(sel[0], sel[1])
        if self.phase is Phase.PLAY and len(sel) == 1 and self.selectable(sel[0]):
            return sel[0]
        return None

    @property
    def can_confirm(self) -> bool:
        return self.pending_action is not None

    def confirm(self) -> bool:
        """Send the selected cards (Confirm button, Enter, or a tap on the crib)."""
        action = self.pending_action
        if action is None:
            if self.human_to_act and self.phase is Phase.DISCARD:
                self._say(self.tr("Select two cards for the crib"))
            return False
        self._decide(action)
        return True

    def cut_at(self, depth: int) -> bool:
        """Cut the spread at ``depth`` cards (a gesture: the card comes from the seed, R11.1)."""
        if not self.human_to_act or self.phase not in CUT_SPREAD:
            return False
        action = CUT_BASE + int(depth)
        if not self.game.is_legal(action):
            legal = self.game.legal_actions()
            action = min(max(action, legal[0]), legal[-1])  # spots at the very ends snap inwards
        self._decide(action)
        return True
