"""Show scoring for whole arrays of (hand, starter) at once, and the exact score distribution.

Everything here is read from the tables of :mod:`cribbage_env.rules.scoring`: fifteens, pairs and runs
from ``RANK_POINTS`` (keyed by ``KEY``, the rank-multiset key), flush and nobs points from
``FLUSH_POINTS`` / ``NOBS_POINTS``. The tables are only re-laid out as sorted numpy arrays so a
lookup is a ``searchsorted`` instead of a dict access; tests check every path against
``score_hand`` and an independent brute-force scorer.

>>> import numpy as np
>>> from cribbage_env.rules.cards import parse_cards
>>> hands = np.array([parse_cards("5H 5D 5C JS"), parse_cards("2H 4H 7H 9H")])
>>> starters = np.array(parse_cards("5S TC"))
>>> score_batch(hands, starters).tolist(), score_batch(hands, starters, crib=True).tolist()
([29, 6], [29, 2])
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..rules.cards import JACK, RANK, SUIT
from ..rules.core import CribbageError
from ..rules.scoring import FLUSH_POINTS, KEY, NOBS_POINTS, RANK_POINTS

#: Total number of (4-card hand, starter) combinations: C(52, 4) * 48.
N_SHOW_COMBINATIONS = 12_994_800


class BatchInputError(CribbageError, ValueError):
    """Arrays passed to the batch scorer have the wrong shape, card ids or duplicate cards."""


# Sorted rank keys (4- and 5-card multisets; base-5 digits make them unique across sizes) and
# their fifteens + pairs + runs points, straight from RANK_POINTS.
_KEYS = np.array(sorted(RANK_POINTS), dtype=np.int64)
_KEY_POINTS = np.array([RANK_POINTS[int(k)] for k in _KEYS], dtype=np.int16)
#: Card id -> rank key / suit / rank, as arrays.
KEY_ARR = np.array(KEY, dtype=np.int64)
SUIT_ARR = np.array(SUIT, dtype=np.int8)
RANK_ARR = np.array(RANK, dtype=np.int8)
FLUSH_ARR = np.array(FLUSH_POINTS, dtype=np.int16)  # [crib, state]


# Dense two-level layout of the same table for fast gathers: a key's base-5 digits for ranks
# A..7 (``key % 5**7``) and 8..K (``key // 5**7``) each map to a small index, and a flat array
# holds the points. Per-card split keys (KEY_LO, KEY_HI) let hot loops skip the division.
# (A sorted-key ``searchsorted`` is ~20x slower on large arrays.)
_LO = 5**7
_lo_vals, _lo_idx = np.unique(_KEYS % _LO, return_inverse=True)
_hi_vals, _hi_idx = np.unique(_KEYS // _LO, return_inverse=True)
_WIDTH = len(_hi_vals)
LO_MAP = np.zeros(_LO, dtype=np.intp)
LO_MAP[_lo_vals] = np.arange(len(_lo_vals)) * _WIDTH
HI_MAP = np.zeros(5**6, dtype=np.intp)
HI_MAP[_hi_vals] = np.arange(_WIDTH)
KEY_POINTS_FLAT = np.full(len(_lo_vals) * _WIDTH, -1, dtype=np.int16)
KEY_POINTS_FLAT[_lo_idx * _WIDTH + _hi_idx] = _KEY_POINTS
del _lo_vals, _lo_idx, _hi_vals, _hi_idx
#: Card id -> its KEY split into the low (A..7) and high (8..K) parts: KEY == KEY_LO + 5**7 * KEY_HI.
KEY_LO = np.where(RANK_ARR < 7, KEY_ARR, 0)
KEY_HI = np.where(RANK_ARR >= 7, KEY_ARR // _LO, 0)


def rank_points_split(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Fifteens + pairs + runs from summed ``KEY_LO`` and ``KEY_HI`` of 4 or 5 cards."""
    return KEY_POINTS_FLAT[LO_MAP[lo] + HI_MAP[hi]]


def rank_points_of_keys(keys: np.ndarray) -> np.ndarray:
    """Fifteens + pairs + runs for an array of rank keys (sums of ``KEY`` over 4 or 5 cards)."""
    hi, lo = np.divmod(np.asarray(keys, dtype=np.int64), _LO)
    return rank_points_split(lo, hi)


def _check(hands: np.ndarray, starters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.asarray(hands)
    s = np.asarray(starters)
    if h.ndim != 2 or h.shape[1] != 4:
        raise BatchInputError(f"hands must be an array of shape (N, 4), got shape {h.shape}")
    if s.shape != (h.shape[0],):
        raise BatchInputError(f"starters must have shape ({h.shape[0]},), got {s.shape}")
    if not (np.issubdtype(h.dtype, np.integer) and np.issubdtype(s.dtype, np.integer)):
        raise BatchInputError(f"card ids must be integers, got dtypes {h.dtype} and {s.dtype}")
    if h.size and (h.min() < 0 or h.max() > 51 or s.min() < 0 or s.max() > 51):
        raise BatchInputError("card ids must be 0..51")
    five = np.sort(np.concatenate([h, s[:, None]], axis=1), axis=1)
    dup = np.nonzero((five[:, 1:] == five[:, :-1]).any(axis=1))[0]
    if dup.size:
        raise BatchInputError(f"row {int(dup[0])} repeats a card: {five[dup[0]].tolist()}")
    return h.astype(np.intp, copy=False), s.astype(np.intp, copy=False)


def score_batch(
    hands: np.ndarray, starters: np.ndarray, crib: bool = False, check: bool = True
) -> np.ndarray:
    """Show points of each row ``hands[i]`` (4 card ids) with ``starters[i]`` (R9).

    Same numbers as :func:`cribbage_env.rules.scoring.score_hand` row by row. ``check=False`` skips
    validation (shape, ids 0..51, no repeated card) for callers that built the arrays themselves.
    """
    if check:
        hands, starters = _check(hands, starters)
    lo = KEY_LO[hands].sum(axis=1) + KEY_LO[starters]
    hi = KEY_HI[hands].sum(axis=1) + KEY_HI[starters]
    pts = rank_points_split(lo, hi)
    suits = SUIT_ARR[hands]
    s_suit = SUIT_ARR[starters]
    flush4 = (suits == suits[:, :1]).all(axis=1)
    state = flush4.astype(np.int8) * (1 + (s_suit == suits[:, 0]))
    pts += FLUSH_ARR[int(bool(crib))][state]
    nob = s_suit.astype(np.intp) * 13 + JACK
    pts += NOBS_POINTS * (hands == nob[:, None]).any(axis=1)
    return pts


# ------------------------------------------------------------------------------------------
# Exhaustive statistics.

_ALL_HANDS: np.ndarray | None = None


def all_hands() -> np.ndarray:
    """All C(52, 4) = 270,725 four-card hands as an int array (cached)."""
    global _ALL_HANDS
    if _ALL_HANDS is None:
        flat = np.fromiter(
            (c for combo in combinations(range(52), 4) for c in combo),
            dtype=np.int8,
            count=270_725 * 4,
        )
        _ALL_HANDS = flat.reshape(-1, 4)
        _ALL_HANDS.setflags(write=False)
    return _ALL_HANDS


def show_distribution(crib: bool = False) -> dict[int, int]:
    """Score -> number of (4-card hand, starter) combinations, over all 12,994,800 of them.

    Keys run over every score 0..29 (impossible scores such as 19 map to 0). Suits are
    symmetric, so only starters of one suit are enumerated and the counts multiplied by four.

    >>> d = show_distribution()
    >>> sum(d.values()), d[0], d[29], d[19]
    (12994800, 1009008, 4, 0)
    """
    hands = all_hands().astype(np.intp)
    lo4 = KEY_LO[hands].sum(axis=1)
    hi4 = KEY_HI[hands].sum(axis=1)
    suits = SUIT_ARR[hands]
    flush_suit = np.where((suits == suits[:, :1]).all(axis=1), suits[:, 0], -1)
    table = FLUSH_ARR[int(bool(crib))]
    counts = np.zeros(30, dtype=np.int64)
    for s in range(13):  # starters of suit 0 (clubs); the other suits are the same by symmetry
        keep = ~(hands == s).any(axis=1)
        pts = rank_points_split(lo4[keep] + KEY_LO[s], hi4[keep] + KEY_HI[s])
        fs = flush_suit[keep]
        state = np.where(fs < 0, 0, np.where(fs == SUIT[s], 2, 1))
        pts = pts + table[state]
        pts += NOBS_POINTS * (hands[keep] == SUIT[s] * 13 + JACK).any(axis=1)
        counts += np.bincount(pts, minlength=30)[:30]
    counts *= 4
    return {score: int(n) for score, n in enumerate(counts)}


def distribution_mean(dist: dict[int, int]) -> float:
    """Mean score of a distribution returned by :func:`show_distribution`.

    >>> round(distribution_mean(show_distribution()), 6)
    4.769152
    """
    total = sum(dist.values())
    return sum(score * n for score, n in dist.items()) / total
