"""Never throw work away (issue 29, item 3): Restart asks first while a game is under way, and
an Undo right after a restart brings the game back as it was.

Mixed into :class:`~ui.controller.TableController`, which calls :meth:`_keep_for_undo` from
its restart and :meth:`_forget_restart` from every new decision. The question is a preview
(R11.2): nothing changes until the person answers yes.
"""

from __future__ import annotations

from .history import History


class RestartMixin:
    """The Restart question and the game kept for an undo of the restart."""

    asking: str | None = None  # the question on the table ("restart"), None: none
    _before_restart: History | None = None

    @property
    def under_way(self) -> bool:
        """A game with decisions made and not finished: a restart would lose them."""
        return self.history.cursor > 0 and not self.game.is_over  # type: ignore[attr-defined]

    def ask_restart(self) -> bool:
        """Restart at once when nothing would be lost, else ask first; False if refused."""
        if not self.can_restart:  # type: ignore[attr-defined]
            return False
        if not self.under_way:
            return bool(self.restart())  # type: ignore[attr-defined]
        self.asking = "restart"
        self.version += 1  # type: ignore[attr-defined]
        return True

    def answer(self, yes: bool) -> None:
        """The person's answer to the question on the table."""
        question, self.asking = self.asking, None
        self.version += 1  # type: ignore[attr-defined]
        if yes and question == "restart":
            self.restart()  # type: ignore[attr-defined]

    def _keep_for_undo(self, history: History) -> None:
        self._before_restart = history if history.cursor > 0 else None

    def _forget_restart(self) -> None:
        self._before_restart = None

    @property
    def can_undo_restart(self) -> bool:
        """Right after a restart (no decision since): Undo brings the game back."""
        return self._before_restart is not None and self.history.cursor == 0  # type: ignore[attr-defined]

    def _undo_restart(self) -> None:
        kept, self._before_restart = self._before_restart, None
        assert kept is not None
        self.history = kept
        self._rebuild(kept.cursor)  # type: ignore[attr-defined]
