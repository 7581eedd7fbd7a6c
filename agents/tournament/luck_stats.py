"""Luck-adjusted tournament results: the result minus the luck of the chance events.

Each game's luck (:mod:`cribbage_env.analysis.luck`, kept in :attr:`GameResult.luck`) has mean zero
whatever the agents do, so ``won - luck`` estimates the same win rate as ``won`` with less
variance. Units are duplicate pairs (the mean of the pair's two games, which are dependent) or
single games, exactly as the plain margin in :mod:`agents.tournament.summary`; the variance ratio compares
the plain and the adjusted win rate over the same units, so it says how many times fewer games
the adjusted estimate needs for the same interval.

The adjusted estimate is unbiased, not bounded: one run's figure may leave [0, 100%] (a 100% win
rate minus a negative luck reads over 100%), and only its mean over many runs is the win rate.
Below :data:`MIN_UNITS` units the normal interval is not to be trusted, so reports say there are
too few games (the figures stay in the JSON for research), and no variance ratio is given where
either variance is zero.

Sums are kept as exact fractions of the floats, so the report does not depend on the order the
games arrive in (a resumed run equals an uninterrupted one).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..stats import Z95
from .game_result import GameResult

#: Units (duplicate pairs) from which the adjusted estimate and its interval are reported and a
#: stopping rule may look: the normal interval of a mean is a fair guide from about 30 units.
MIN_UNITS = 30

#: (plain win, adjusted win, adjusted margin, plain margin) of one unit.
_Unit = tuple[Fraction, Fraction, Fraction, Fraction]


def _r(x: float, nd: int = 4) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else round(x, nd)


class LuckTally:
    """Running sums of the plain and luck-adjusted results of one pairing (agent A's view)."""

    def __init__(self) -> None:
        self.games = self.missing = 0
        self.n = 0
        self.s = [Fraction(0)] * 4
        self.q = [Fraction(0)] * 4
        self._open: dict[int, _Unit | None] = {}

    def _values(self, r: GameResult) -> _Unit | None:
        luck = r.luck_a
        if luck is None:
            return None
        won = Fraction(int(r.a_won))
        m = Fraction(r.margin_a)
        return won, won - Fraction(luck[0]), m - Fraction(luck[1]), m

    def add(self, r: GameResult) -> None:
        v = self._values(r)
        self.games += v is not None
        self.missing += v is None
        if r.index not in self._open:
            self._open[r.index] = v
            return
        first = self._open.pop(r.index)
        if first is None or v is None:  # a pair is counted only when both games were measured
            return
        self._count(tuple((a + b) / 2 for a, b in zip(first, v, strict=True)))  # type: ignore[arg-type]

    def _count(self, u: _Unit) -> None:
        self.n += 1
        self.s = [a + x for a, x in zip(self.s, u, strict=True)]
        self.q = [a + x * x for a, x in zip(self.q, u, strict=True)]

    def _totals(self) -> tuple[int, list[Fraction], list[Fraction]]:
        n, s, q = self.n, list(self.s), list(self.q)
        for u in self._open.values():  # a pair cut short (or single games): its game is a unit
            if u is not None:
                n += 1
                s = [a + x for a, x in zip(s, u, strict=True)]
                q = [a + x * x for a, x in zip(q, u, strict=True)]
        return n, s, q

    def summary(self) -> dict | None:
        """``{"win", "win_ci", "margin", "margin_ci", "variance_ratio", ...}`` or None when no
        game was measured; ``too_few`` below :data:`MIN_UNITS` units; the ratios None unless
        both variances are positive."""
        n, s, q = self._totals()
        if n == 0:
            return None
        mean = [float(x / n) for x in s]
        var = [
            float((qq - ss * ss / n) / (n - 1)) if n > 1 else math.nan
            for ss, qq in zip(s, q, strict=True)
        ]
        half = [Z95 * math.sqrt(max(v, 0.0) / n) for v in var]

        def ci(k: int) -> list[float | None]:
            return [_r(mean[k] - half[k]), _r(mean[k] + half[k])]

        ratio = var[0] / var[1] if var[0] > 0 and var[1] > 0 else math.nan
        mratio = var[3] / var[2] if var[3] > 0 and var[2] > 0 else math.nan
        return {
            "win": _r(mean[1]),
            "win_ci": ci(1),
            "margin": _r(mean[2], 3),
            "margin_ci": ci(2),
            "variance_ratio": _r(ratio, 3),
            "margin_variance_ratio": _r(mratio, 3),
            "plain_win": _r(mean[0]),
            "plain_win_ci": ci(0),
            "units": n,
            "min_units": MIN_UNITS,
            "too_few": n < MIN_UNITS,
            "games": self.games,
            "games_without_luck": self.missing,
        }


#: Two-sided normal quantile for one look of the separation rule: about 1% per look, so the
#: handful of looks at doubling sizes keep the chance of a false separation near 5%.
Z_LOOK = 2.5758293035489


class StopRule:
    """``on_block`` hook of a head-to-head that stops the run once the luck-adjusted estimate
    is decided: ``separated`` (its interval excludes 50%, checked at ``min_games`` and every
    doubling after, each look at :data:`Z_LOOK`: repeated looks at a 95% interval would
    separate equal agents far more often than 5%), or ``ci_width`` (its 95% interval is
    narrower than that, checked at every block); never before :data:`MIN_UNITS` units.
    ``reason`` says why it stopped."""

    def __init__(
        self, *, separated: bool = False, ci_width: float | None = None, min_games: int = 200
    ) -> None:
        self.separated, self.ci_width = separated, ci_width
        self.tally = LuckTally()
        self.next_look = min_games
        self.reason: str | None = None

    def __call__(self, block) -> bool | None:
        for r in block:
            self.tally.add(r)
        s = self.tally.summary()
        if s is None or s["too_few"] or None in s["win_ci"]:
            return None
        lo, hi = s["win_ci"]
        if self.ci_width is not None and hi - lo < self.ci_width:
            self.reason = f"the luck-adjusted 95% interval is {100 * (hi - lo):.2f} points wide"
            return False
        if self.separated and s["games"] >= self.next_look:
            while self.next_look <= s["games"]:
                self.next_look *= 2
            half = (hi - lo) / 2 * Z_LOOK / Z95
            if abs(s["win"] - 0.5) > half:
                self.reason = (
                    f"separated: luck-adjusted {100 * s['win']:.1f}% "
                    f"[{100 * (s['win'] - half):.1f}, {100 * (s['win'] + half):.1f}] at "
                    f"{Z_LOOK:.2f} sd excludes 50%"
                )
                return False
        return None
