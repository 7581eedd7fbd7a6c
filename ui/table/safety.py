"""Never throw work away: Restart asks first while a game is under way, and
an Undo right after a restart brings the game back as it was.

Held by :class:`~ui.table.controller.TableController` as ``ctl.guard``; the controller calls
:meth:`RestartGuard.keep` from its restart and :meth:`RestartGuard.forget` from every new
decision. The question is a preview (R11.2): nothing changes until the person answers yes.
"""

from __future__ import annotations

from typing import Protocol

from cribbage_env.rules.engine import GameState

from .history import History


class GuardHost(Protocol):
    """What the guard reads of its table: the game and its history, and the restart itself."""

    version: int
    game: GameState
    history: History

    @property
    def can_restart(self) -> bool: ...

    def restart(self) -> bool: ...


class RestartGuard:
    """The Restart question and the game kept for an undo of the restart."""

    def __init__(self, ctl: GuardHost) -> None:
        self._ctl = ctl
        self.asking: str | None = None  # the question on the table ("restart"), None: none
        self._before_restart: History | None = None

    @property
    def under_way(self) -> bool:
        """A game with decisions made and not finished: a restart would lose them."""
        return self._ctl.history.cursor > 0 and not self._ctl.game.is_over

    def ask_restart(self) -> bool:
        """Restart at once when nothing would be lost, else ask first; False if refused."""
        ctl = self._ctl
        if not ctl.can_restart:
            return False
        if not self.under_way:
            return ctl.restart()
        self.asking = "restart"
        ctl.version += 1
        return True

    def answer(self, yes: bool) -> None:
        """The person's answer to the question on the table."""
        question, self.asking = self.asking, None
        self._ctl.version += 1
        if yes and question == "restart":
            self._ctl.restart()

    def keep(self, history: History) -> None:
        """Keep the game a restart throws away, for an Undo right after it."""
        self._before_restart = history if history.cursor > 0 else None

    def forget(self) -> None:
        self._before_restart = None

    @property
    def can_undo(self) -> bool:
        """Right after a restart (no decision since): Undo brings the game back."""
        return self._before_restart is not None and self._ctl.history.cursor == 0

    def take(self) -> History:
        """The game kept before the restart (an Undo brings it back)."""
        kept, self._before_restart = self._before_restart, None
        assert kept is not None
        return kept
