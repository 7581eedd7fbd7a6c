"""Reward modes: one table, :data:`REWARDS`, read by every environment and ``cribbage train``.

A mode is a *potential*, a number a seat holds at every moment of an episode; a step's reward
is its change, so over an episode the rewards sum to its value at the end minus at the start.

- ``points``: the seat's score margin (the rewards sum to the final margin).
- ``win``: 0 until the episode ends, then +1 for a win and -1 for a loss (±2/±3 for skunks with
  ``skunk_bonus``; the sign of the margin in a one-deal episode).
- ``equity``: the seat's winning chance estimated from its own view only
  (:func:`.view_chance.view_chance`: never the opponent's hand or the crib, docs/guide/rewards.md);
  only the one-learner env offers it (it is not zero-sum between two learners, and not batched).

Each mode gives the per-episode potential (``of``: an :class:`~.episode.Episode` and a seat)
and, when the batched env offers it, the step's reward on arrays of games (``batched``: an
:class:`Outcome`). A new mode is one entry here.

>>> sorted(REWARDS), [k for k, r in REWARDS.items() if r.batched is not None]
(['equity', 'points', 'win'], ['points', 'win'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..rules.core import Rules

if TYPE_CHECKING:
    from .episode import Episode


@dataclass(frozen=True)
class Outcome:
    """After a step, per game (arrays of N; ``seat`` is the learner's): for ``batched``."""

    margin: np.ndarray  # the seat's score minus the other's
    prev_margin: np.ndarray  # the same before the step
    scores: np.ndarray  # (N, 2), by seat
    winner: np.ndarray  # -1 while nobody has won
    seat: np.ndarray
    over: np.ndarray  # the episode ended in this step
    deal_episode: bool
    skunk_bonus: bool
    rules: Rules


def win_value(o: Outcome) -> np.ndarray:
    """The ``win`` potential: 0 while the episode goes on, then ±1 (or ±game points with the
    skunk bonus; the sign of the margin when the episode is one deal)."""
    if o.deal_episode:
        end = np.sign(o.margin).astype(np.float64)
    else:
        level = (
            np.array([o.rules.game_points(s) for s in o.scores], dtype=np.float64)
            if o.skunk_bonus
            else np.ones(len(o.margin))
        )
        end = np.where(o.winner == o.seat, level, -level)
    return np.where(o.over, end, 0.0)


def outcome(ep: Episode, seat: int, prev_margin: int = 0) -> Outcome:
    """One game's :class:`Outcome` from ``seat``'s side."""
    g = ep.game
    return Outcome(
        np.array([ep.margin(seat)]), np.array([prev_margin]), np.array([g.scores]),
        np.array([-1 if g.winner is None else g.winner]), np.array([seat]), np.array([ep.over]),
        ep.episode == "deal", ep.skunk_bonus, g.rules,
    )  # fmt: skip


def _chance(ep: Episode, seat: int) -> float:
    """The seat's winning chance from its own view (a learner is told nothing hidden)."""
    from ..analysis.view_chance import view_chance
    from ..equity import end_value

    g = ep.game
    if ep.episode == "deal" and g.deal_no > 0 and g.winner is None:
        return end_value(g, seat)  # the deal is over: the scores and the next dealer
    return view_chance(ep.view(seat))


@dataclass(frozen=True)
class Reward:
    """One reward mode (see the module doc)."""

    name: str
    summary: str  # for help texts
    of: Callable[[Episode, int], float]  # the potential of a seat in an episode
    batched: Callable[[Outcome], np.ndarray] | None = None  # a step's rewards, N games
    zero_sum: bool = True  # the same for both seats with opposite signs (the AEC env)


#: Every reward mode, by name.
REWARDS: dict[str, Reward] = {
    r.name: r
    for r in (
        Reward("points", "points margin", lambda ep, seat: float(ep.margin(seat)),
               lambda o: (o.margin - o.prev_margin).astype(np.float64)),
        Reward("win", "win +-1", lambda ep, seat: float(win_value(outcome(ep, seat))[0]),
               win_value),
        Reward("equity", "equity (change in winning chance)", _chance, zero_sum=False),
    )
}  # fmt: skip
