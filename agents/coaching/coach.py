"""The coach as a player: it plays the hint at every decision (the table's judge, its best
option, with the hint's generator for the position), so ``cribbage bench coach expert`` measures
how strong a player who follows every hint is, and the review of its games rates each of its
decisions at exactly 0."""

from __future__ import annotations

import numpy as np

from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..params import Param


class CoachAgent:
    """Plays the table's hint at every decision: the judge's best option.

    The judge is :func:`agents.coaching.judge.judge` with
    :func:`agents.coaching.judge.position_rng`; a forced move or a cut is played as it comes. Its
    ``rng`` is unused: the hint's generator is drawn from the position, as at the table. ``samples``: the judge's guesses per decision (the
    table's by default; another number plays a different coach than the table's)."""

    PARAMS: tuple[Param, ...] = (
        Param(
            "samples", int, 0, "the judge's guesses per decision (0: the table's)", low=0, high=5000
        ),  # fmt: skip
    )

    def __init__(self, samples: int | str = 0) -> None:
        self.samples = int(samples)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        from .judge import DEFAULT_SAMPLES, judge, position_rng

        legal = view.legal_actions
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat} in phase {view.phase.value}")
        if view.phase is Phase.DISCARD or (
            view.phase is Phase.PLAY and len({RANK[c] for c in legal}) > 1
        ):
            samples = self.samples or DEFAULT_SAMPLES
            return judge(view, position_rng(view), samples)[0].action
        return legal[0]
