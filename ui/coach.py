"""Coach mode: before a move that gives away more winning chance than the person allows, the
table asks "Are you sure?" and shows why (the judge's best option and both chances).

The verdict is the review's (:func:`agents.review.rate` with the hint's generator for the
position), so the coach, the hint and the review never contradict each other. The warning is a
preview like the hint (R11.2): nothing is played until the person confirms again ("Play it
anyway") or changes the selection. Mixed into :class:`~ui.controller.TableController` before
:class:`~ui.selection.SelectionMixin`, whose :meth:`confirm` it wraps.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hints import action_text, hint_rng, pct

#: The limits the start screen cycles through (winning chance, 0..1); 0: coach mode off.
COACH_LIMITS = (0.0, 0.02, 0.05)


@dataclass(frozen=True)
class CoachWarning:
    """The move held back, what it gives away, and the lines that say why."""

    action: int
    loss: float
    best: int
    lines: tuple[str, ...]


class CoachMixin:
    """Holds a move back for a second confirmation when it loses more than ``coach_limit``."""

    coach_limit: float = 0.0
    warning: CoachWarning | None = None

    def set_coach(self, limit: float) -> None:
        """Coach mode on (``limit`` > 0: warn above this loss of winning chance) or off (0)."""
        self.coach_limit = float(limit)
        self.warning = None
        self.version += 1  # type: ignore[attr-defined]

    def coach_check(self, action: int) -> CoachWarning | None:
        """The warning for ``action`` at the person's position, or None if it is good enough."""
        from agents.review import rate

        view = self.game.view(self.to_act)  # type: ignore[attr-defined]
        best, loss, _, chance, best_chance, n = rate(view, action, hint_rng(view))
        if n <= 1 or loss <= self.coach_limit:
            return None
        nar = self.narrator  # type: ignore[attr-defined]
        tr = nar.tr
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
        pending = self.pending_action  # type: ignore[attr-defined]
        return w if w is not None and pending == w.action else None

    def confirm(self) -> bool:
        """Send the selection; in coach mode a costly move is held back once (a warning)."""
        action = self.pending_action  # type: ignore[attr-defined]
        if action is not None and self.coach_limit > 0 and self.shown_warning is None:
            warning = self.coach_check(action)
            if warning is not None:
                self.warning = warning
                self.version += 1  # type: ignore[attr-defined]
                return False
        self.warning = None
        return super().confirm()  # type: ignore[misc]

    def take_back(self) -> None:
        """Drop the move held back: the cards are unselected, nothing was played."""
        self.warning = None
        self.selection = ()  # type: ignore[attr-defined]
        self.version += 1  # type: ignore[attr-defined]
