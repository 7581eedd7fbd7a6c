"""Coach mode: before a move that gives away more winning chance than the person allows, the
table asks "Are you sure?" and shows why (the judge's best option and both chances).

The verdict is the review's (:func:`agents.coaching.judge.rate` with the hint's generator for the
position), so the coach, the hint and the review never contradict each other. The warning is a
preview like the hint (R11.2): nothing is played until the person confirms again ("Play it
anyway") or changes the selection. Held by :class:`~ui.table.controller.TableController` as
``ctl.coach``; the controller's ``confirm`` asks :meth:`Coach.holds_back` first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cribbage_env.rules.core import Phase

from ...words.narration import Narrator
from ..selection import Selection, TurnHost
from . import hints
from .hints import HintView, action_text, hint_rng

#: The limits the start screen cycles through (winning chance, 0..1); 0: coach mode off.
COACH_LIMITS = (0.0, 0.02, 0.05)


@dataclass(frozen=True)
class CoachWarning:
    """The move held back, what it gives away, and the lines that say why."""

    action: int
    loss: float
    best: int
    lines: tuple[str, ...]


class CoachHost(TurnHost, Protocol):
    """What the coach reads of its table besides the turn: whether the person may choose now,
    the selection and the narrator."""

    narrator: Narrator
    selection: Selection

    @property
    def human_to_act(self) -> bool: ...
    @property
    def needs_reveal(self) -> bool: ...


class Coach:
    """The hint (the judge's best move, its table of options) and coach mode, which holds a
    move back for a second confirmation when it loses more than ``limit``."""

    def __init__(self, ctl: CoachHost) -> None:
        self._ctl = ctl
        self.limit = 0.0  # coach mode: warn above this loss of winning chance (0: off)
        self.clear()

    def clear(self) -> None:
        """Forget the hint and the warning (the game changed)."""
        self.warning: CoachWarning | None = None
        self.hint: HintView | None = None
        self.show_options = False  # the hint's table of options is shown

    def request_hint(self) -> HintView | None:
        """Show the judge's best move and its numbers (the review's verdict there, see
        :mod:`ui.table.teaching.hints`); nothing changes until confirmed (R11.2)."""
        ctl = self._ctl
        if not ctl.human_to_act or ctl.needs_reveal or ctl.to_act is None:
            return None
        if ctl.phase not in (Phase.DISCARD, Phase.PLAY):
            return None
        view = ctl.game.view(ctl.to_act)
        self.hint = hints.hint_view(view, hints.hint_rng(view), ctl.narrator)
        self.show_options = False
        ctl.version += 1
        return self.hint

    def clear_hint(self) -> None:
        if self.hint is not None:
            self.hint = None
            self._ctl.version += 1

    def toggle_options(self) -> None:
        """Show or hide the hint's table of every option (asked for with the hint shown)."""
        if self.hint is not None:
            self.show_options = not self.show_options
            self._ctl.version += 1

    def set_limit(self, limit: float) -> None:
        """Coach mode on (``limit`` > 0: warn above this loss of winning chance) or off (0)."""
        self.limit = float(limit)
        self.warning = None
        self._ctl.version += 1

    def check(self, action: int) -> CoachWarning | None:
        """The warning for ``action`` at the person's position, or None if it is good enough."""
        from agents.coaching.judge import rate

        ctl = self._ctl
        assert ctl.to_act is not None  # a person's turn
        view = ctl.game.view(ctl.to_act)
        best, loss, _, chance, best_chance, n = rate(view, action, hint_rng(view))
        if n <= 1 or loss <= self.limit:
            return None
        nar = ctl.narrator
        tr, pct = nar.tr, nar.cat.percent
        lines = (
            tr("Are you sure? This gives away {pct} of your winning chance.", pct=pct(loss)),
            tr("{cards}: winning chance {pct}", cards=action_text(action, nar), pct=pct(chance)),
            tr("Best: {cards}, winning chance {pct}", cards=action_text(best, nar),
               pct=pct(best_chance)),
        )  # fmt: skip
        return CoachWarning(action, loss, best, lines)

    @property
    def shown_warning(self) -> CoachWarning | None:
        """The warning to draw: only while the selection still stands for the move held back."""
        w = self.warning
        return w if w is not None and self._ctl.selection.pending_action == w.action else None

    def holds_back(self, action: int | None) -> bool:
        """In coach mode, hold a costly move back once (a warning); True if it was held."""
        if action is not None and self.limit > 0 and self.shown_warning is None:
            warning = self.check(action)
            if warning is not None:
                self.warning = warning
                self._ctl.version += 1
                return True
        self.warning = None
        return False

    def take_back(self) -> None:
        """Drop the move held back: the cards are unselected, nothing was played."""
        self.warning = None
        self._ctl.selection.cards = ()
        self._ctl.version += 1
