"""Undo, redo, restart and resume at the table: the game rebuilt from its decisions to a cursor.

The game is a pure function of ``(seed, decisions)``, so moving through the history is replaying
its decisions to a cursor (:mod:`ui.table.history` keeps them and says where an undo or a redo
goes; :mod:`ui.table.safety` keeps the game a restart threw away). :class:`Rewind` is the part
of :class:`~ui.table.controller.TableController` that does it, a base class of the controller
(``ctl.undo()``); the controller says whose decisions an undo may take back (its
``_undo_rule`` by the mode) and what a rebuilt game clears (``_after_rebuild``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cribbage_env as ce
from cribbage_env.rules.engine import GameState

from .history import History, UndoRule
from .safety import RestartGuard


class Rewind:
    """Undo, redo, restart and resume: the controller's moves through its decision history."""

    seed: int
    rules: ce.Rules
    interactive_cuts: bool
    game: GameState
    history: History
    guard: RestartGuard

    if TYPE_CHECKING:  # the controller's own

        @property
        def to_act(self) -> int | None: ...
        @property
        def can_restart(self) -> bool: ...
        @property
        def _undo_rule(self) -> UndoRule: ...

        def is_human(self, seat: int) -> bool: ...
        def tr(self, msgid: str, /, **kwargs: object) -> str: ...
        def say(self, text: str) -> None: ...
        def _after_rebuild(self) -> None: ...
        def _changed(self) -> None: ...

    def resume(self, actions: Sequence[int], cursor: int) -> None:
        """Take over a list of decisions (a save) and go to ``cursor``; raises
        :class:`~cribbage_env.IllegalActionError` if they do not replay."""
        g = ce.new_game(self.seed, interactive_cuts=self.interactive_cuts, rules=self.rules)
        actors = []
        for a in actions:
            actors.append(g.to_act)
            g.apply(a)
        self.history = History.of(actions, actors, 0)
        self._rebuild(cursor)

    def _human(self, seat: int | None) -> bool:
        return seat is not None and self.is_human(seat)

    @property
    def can_undo(self) -> bool:
        return self._undo_target() is not None or self.guard.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    def _undo_target(self) -> int | None:
        """The cursor an undo goes back to, or None (see :class:`~ui.table.history.UndoRule`: in pass
        and play only the decisions of the person to act)."""
        return self.history.undo_target(self._undo_rule, to_act=self.to_act, human=self._human)

    def _rebuild(self, cursor: int) -> None:
        self.history = self.history.moved_to(cursor)
        self.game = ce.replay(
            self.seed,
            self.history.decisions,
            interactive_cuts=self.interactive_cuts,
            rules=self.rules,
        )
        self._after_rebuild()

    def undo(self) -> bool:
        """Back to the moment before the person's last decision (computer replies too, R11.5)."""
        target = self._undo_target()
        if target is None and self.guard.can_undo:
            self.history = self.guard.take()  # the game as it was before Restart
            self._rebuild(self.history.cursor)
        elif target is None:
            return False
        else:
            self._rebuild(target)
        self.say(self.tr("Undone"))
        self._changed()
        return True

    def redo(self) -> bool:
        """Replay the undone decision and the computer's replies that followed it (R11.5)."""
        cursor = self.history.redo_target(self._undo_rule, human=self._human)
        if cursor is None:
            return False
        self._rebuild(cursor)
        self.say(self.tr("Redone"))
        self._changed()
        return True

    def restart(self) -> bool:
        """The same game from the start: same seed, same shuffles, empty history (R11.6).

        Refused (False) in pass and play while a game is under way (see :attr:`can_restart`).
        Undo right after it brings the game back (:mod:`ui.table.safety`); the table asks first
        (:meth:`ui.table.safety.RestartGuard.ask_restart`)."""
        if not self.can_restart:
            return False
        self.guard.keep(self.history)  # Undo brings it back
        self.history = self.history.cleared()
        self._rebuild(0)
        self._changed()
        return True
