"""Undo and redo at the table: a cursor over the list of decisions, as a pure value.

A game is a pure function of its seed and its decisions, so the table keeps every decision made
(the redo tail too), who made each, and a cursor; undo and redo only move the cursor, and the
table rebuilds the game from the decisions before it (RULES R11.5). Which decisions an undo may
take back depends on who sits at the table (:class:`UndoRule`); nothing here knows the rules of
cribbage.

>>> h = History().decide(10, actor=0).decide(20, actor=1).decide(30, actor=0)
>>> h.decisions, h.undo_target(UndoRule.LAST_HUMAN, to_act=1, human=lambda s: s == 0)
((10, 20, 30), 2)
>>> h.moved_to(2).redo_target(UndoRule.LAST_HUMAN, human=lambda s: s == 0)
3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum


class UndoRule(Enum):
    """Which decisions an undo takes back."""

    #: Two agents play (watching, replays): one decision at a time.
    EACH = "each"
    #: A person against the computer: back to before the person's last decision, with the
    #: computer's replies (R11.5).
    LAST_HUMAN = "last human"
    #: Pass and play: only the decisions of the person to act now, made since the turn came to
    #: them. Once a decision passes the turn the other person may hold the screen; undoing it
    #: would let them see its maker's hand and redo it without a trace, or replace it.
    OWN_TURN = "own turn"


@dataclass(frozen=True)
class History:
    """Every decision made (the redo tail included), the seat that made each, and the cursor."""

    actions: tuple[int, ...] = ()
    actors: tuple[int | None, ...] = ()
    cursor: int = 0

    def __post_init__(self) -> None:
        if len(self.actions) != len(self.actors) or not 0 <= self.cursor <= len(self.actions):
            raise ValueError(f"history of {len(self.actions)} decisions, cursor {self.cursor}")

    @classmethod
    def of(cls, actions: Sequence[int], actors: Sequence[int | None], cursor: int) -> History:
        return cls(tuple(actions), tuple(actors), cursor)

    @property
    def decisions(self) -> tuple[int, ...]:
        """The decisions before the cursor (the game as it stands)."""
        return self.actions[: self.cursor]

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.actions)

    def decide(self, action: int, actor: int | None) -> History:
        """A new decision at the cursor: the redo tail is dropped."""
        c = self.cursor
        return History(self.actions[:c] + (action,), self.actors[:c] + (actor,), c + 1)

    def moved_to(self, cursor: int) -> History:
        return History(self.actions, self.actors, cursor)

    def cleared(self) -> History:
        return History()

    def undo_target(
        self, rule: UndoRule, *, to_act: int | None, human: Callable[[int | None], bool]
    ) -> int | None:
        """The cursor an undo goes back to, or None when nothing may be taken back."""
        c = self.cursor
        if c == 0:
            return None
        if rule is UndoRule.EACH:
            return c - 1
        if rule is UndoRule.OWN_TURN:
            return c - 1 if to_act is not None and self.actors[c - 1] == to_act else None
        return next((i for i in range(c - 1, -1, -1) if human(self.actors[i])), None)

    def redo_target(self, rule: UndoRule, *, human: Callable[[int | None], bool]) -> int | None:
        """The cursor a redo goes to: the next decision and, against the computer, the
        computer's replies that followed it; None when there is nothing to redo."""
        if not self.can_redo:
            return None
        c = self.cursor + 1
        if rule is UndoRule.LAST_HUMAN:
            while c < len(self.actions) and not human(self.actors[c]):
                c += 1
        return c
