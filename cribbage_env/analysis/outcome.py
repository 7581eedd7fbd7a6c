"""A game's result split into parts that add up: the chance events' luck (:mod:`.luck`), each
player's decisions (the winning chance they lost, from the review's judge) and the rest.

Apart from the luck so the review (:mod:`agents.review`) reads one small value, with its own
rounding, whatever measured the parts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The most any part of an :class:`OutcomeSplit` may be, in fractions of a win (100 points).
PART_LIMIT = 1.0


@dataclass(frozen=True)
class OutcomeSplit:
    """How one seat's winning chance went from the start to the result, in parts that add up:
    ``end - start == luck + own + other + rest`` exactly (fractions of a win). ``luck`` is the
    chance events' (mean zero whoever plays); ``own`` and ``other`` are minus the winning
    chance each player's decisions lost for this seat (each right on average, so a part may
    carry a little of the estimate's noise); ``rest`` is what none of them places: the judge's
    remaining error, and the hidden cards falling as they fell. The three estimates are scaled
    down together (``scale`` < 1) in the rare game where one would pass :data:`PART_LIMIT` or
    leave ``rest`` past it, so no part can."""

    start: float
    end: float
    luck: float
    own: float
    other: float
    rest: float = 0.0
    scale: float = 1.0

    def points(self, digits: int = 1) -> tuple[float, float, float, float, float]:
        """(change, luck, own, other, rest) in percentage points rounded to ``digits`` so that
        the rounded parts still add up to the rounded change (largest remainder).

        >>> OutcomeSplit(0.5, 1.0, 0.4837, -0.0168, 0.0331, 0.0).points()
        (50.0, 48.4, -1.7, 3.3, 0.0)
        >>> OutcomeSplit(0.5, 0.0, -0.45, -0.08, 0.03, 0.0).points()
        (-50.0, -45.0, -8.0, 3.0, 0.0)
        """
        scale = 10**digits
        total = round(100 * (self.end - self.start) * scale)
        raw = [100 * x * scale for x in (self.luck, self.own, self.other, self.rest)]
        parts = [math.floor(x) for x in raw]
        order = sorted(range(4), key=lambda i: parts[i] - raw[i])  # largest remainder first
        for k in range(max(0, total - sum(parts))):  # 0..4 when the parts add up
            parts[order[k % 4]] += 1
        return (total / scale, *(p / scale + 0.0 for p in parts))


def outcome_split(
    start: float, end: float, luck: float, own_lost: float, other_lost: float
) -> OutcomeSplit:
    """Split ``end - start`` (one seat's winning chance) into the chance events' ``luck``, its
    decisions (``-own_lost``), the other player's (``+other_lost``) and the rest (see
    :class:`OutcomeSplit`).

    >>> s = outcome_split(0.5, 1.0, 0.3, 0.0, 0.1)
    >>> round(s.luck, 3), s.own, s.other, round(s.rest, 3), s.scale
    (0.3, 0.0, 0.1, 0.1, 1.0)
    >>> s = outcome_split(0.5, 0.0, -1.6, 0.2, 0.0)  # too large for a game: scaled down
    >>> max(abs(x) for x in (s.luck, s.own, s.other, s.rest)) <= PART_LIMIT, s.scale < 1
    (True, True)
    """
    change = end - start
    parts = (luck + 0.0, -own_lost + 0.0, other_lost + 0.0)
    total = sum(parts)
    scale = min(1.0, PART_LIMIT / max(max(abs(x) for x in parts), 1e-12))
    if abs(change - scale * total) > PART_LIMIT:  # |change| <= 1: some scale in [0, 1] fits
        scale = min(scale, (change + math.copysign(PART_LIMIT, total)) / total)
    a, b, c = (scale * x + 0.0 for x in parts)
    return OutcomeSplit(start, end, a, b, c, change - a - b - c, scale)
