"""Statistics for tournaments: Wilson intervals, mean ± CI, Bradley-Terry/Elo ratings.

Kept separate from the runner so the math can be checked against hand-computed values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .errors import AgentError

#: two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n`` (``(0.0, 1.0)`` when ``n == 0``).

    Better than the normal interval near 0 and 1, where strong bots live.

    >>> tuple(round(x, 4) for x in wilson_interval(8, 10))
    (0.4902, 0.9433)
    """
    if n < 0 or wins < 0 or wins > n:
        raise ValueError(f"need 0 <= wins <= n, got wins={wins}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the normal-approximation 95% interval of the mean (sample SD, n-1).

    >>> [round(x, 4) for x in mean_ci([1.0, 3.0])]  # sd sqrt(2), se 1: 2 -/+ 1.96
    [2.0, 0.04, 3.96]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


class RatingError(AgentError, ValueError):
    """Ratings asked of results that cannot define them (e.g. players never linked by games)."""


def _connected(n: list[list[float]]) -> bool:
    """Whether every player is linked to every other through games (``n[i][j] > 0``)."""
    m = len(n)
    seen = {0} if m else set()
    stack = [0] if m else []
    while stack:
        i = stack.pop()
        for j in range(m):
            if n[i][j] > 0 and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == m


def bradley_terry(
    wins: Mapping[tuple[str, str], float],
    *,
    prior: float = 1.0,
    tol: float = 1e-12,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Maximum-likelihood Bradley-Terry strengths (geometric mean 1) from ``wins[(i, j)]``.

    ``wins[(i, j)]`` is how often ``i`` beat ``j``. Each pair that met gets ``prior`` virtual
    games split evenly (``prior / 2`` wins each), so a 100% score gives a finite rating; use
    ``prior=0`` for the plain MLE. Solved with Hunter's (2004) MM iteration
    ``p_i <- W_i / sum_j n_ij / (p_i + p_j)``, which converges to the unique maximum.

    >>> s = bradley_terry({("a", "b"): 3, ("b", "a"): 1}, prior=0)
    >>> round(s["a"] / s["b"], 9)
    3.0
    """
    players = sorted({p for pair in wins for p in pair})
    idx = {p: k for k, p in enumerate(players)}
    m = len(players)
    w = [[0.0] * m for _ in range(m)]
    for (a, b), x in wins.items():
        if a == b:
            continue
        if x < 0:
            raise RatingError(f"negative win count {x} for {a} over {b}")
        w[idx[a]][idx[b]] += float(x)
    n = [[w[i][j] + w[j][i] for j in range(m)] for i in range(m)]
    for i in range(m):
        for j in range(m):
            if n[i][j] > 0 and prior > 0:
                w[i][j] += prior / 2
                n[i][j] += prior
    if not _connected(n):
        raise RatingError("ratings need every agent linked to every other by games played")
    total = [sum(row) for row in w]
    for i, p in enumerate(players):
        if m > 1 and total[i] == 0:
            raise RatingError(f"{p} never won: its rating is unbounded (use a prior > 0)")
        if m > 1 and total[i] == sum(n[i]):
            raise RatingError(f"{p} never lost: its rating is unbounded (use a prior > 0)")
    s = [1.0] * m
    for _ in range(max_iter):
        new = []
        for i in range(m):
            d = sum(n[i][j] / (s[i] + s[j]) for j in range(m) if j != i and n[i][j] > 0)
            new.append(total[i] / d if d > 0 else s[i])
        g = math.exp(math.fsum(math.log(x) for x in new) / m) if m else 1.0
        new = [x / g for x in new]
        delta = max((abs(math.log(a / b)) for a, b in zip(new, s, strict=True)), default=0.0)
        s = new
        if delta < tol:
            break
    return dict(zip(players, s, strict=True))


def elo_ratings(
    wins: Mapping[tuple[str, str], float], *, prior: float = 1.0, anchor: str | None = None
) -> dict[str, float]:
    """Elo-scale ratings ``400 * log10(strength)`` from :func:`bradley_terry`.

    Centred on mean 0, or on ``anchor`` (rated 0) when given. A 400-point gap means 10:1 odds.

    >>> r = elo_ratings({("a", "b"): 3, ("b", "a"): 1}, prior=0)
    >>> round(r["a"] - r["b"], 2)
    190.85
    """
    strengths = bradley_terry(wins, prior=prior)
    elo = {p: 400.0 * math.log10(x) for p, x in strengths.items()}
    if anchor is not None:
        if anchor not in elo:
            raise RatingError(f"anchor {anchor!r} is not among the rated agents {sorted(elo)}")
        shift = elo[anchor]
    else:
        shift = math.fsum(elo.values()) / len(elo) if elo else 0.0
    return {p: r - shift for p, r in elo.items()}
