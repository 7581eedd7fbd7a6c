"""The discard analyzer: all 15 ways to split a six-card hand, with exact hand statistics and the
expected crib term, best first.

For each split the kept four are scored against every one of the 46 starters this seat cannot
see (exact mean, min and max, through :mod:`cribbage_env.unseen.batch`, i.e. the same tables as
``score_hand``). The crib term is read from the crib table shipped in ``cribbage_env/data``
(computed by ``benchmarks/tables/crib_table.py``): added when the crib is the seat's own (dealer),
subtracted when it is the opponent's (pone). ``net = hand_ev + crib_ev``.

>>> from cribbage_env.rules.cards import parse_cards, cards_str
>>> best = analyze_discards(parse_cards("5H 5D JS QC 2C 3D"), dealer=True)[0]
>>> cards_str(best.keep), cards_str(best.discard)
('5H 5D JS QC', '2C 3D')
>>> round(best.hand_ev, 3), best.hand_min, best.hand_max
(12.696, 10, 21)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np

from ..rules.actions import discard_action
from ..rules.cards import JACK, cards_str, parse_cards
from ..rules.core import CribbageError
from ..rules.scoring import NOBS_POINTS
from ..unseen.batch import FLUSH_ARR, KEY_HI, KEY_LO, RANK_ARR, SUIT_ARR, rank_points_split


class DiscardInputError(CribbageError, ValueError):
    """A hand given to the analyzer is not six distinct cards."""


class CribTableError(CribbageError, ValueError):
    """A crib table file is missing, malformed or has the wrong shape."""


#: Index pairs of the discards, in the engine's order (combinations of 6 positions taken 2).
DISCARD_INDEX = np.array(list(combinations(range(6), 2)), dtype=np.intp)
#: The four kept positions for each discard above.
KEEP_INDEX = np.array(
    [[i for i in range(6) if i not in pair] for pair in DISCARD_INDEX], dtype=np.intp
)
_ALL = np.arange(52, dtype=np.intp)


@dataclass(frozen=True)
class CribTable:
    """Expected crib points by the ranks of one player's two discards (and whether they share a
    suit): ``dealer[r1, r2, suited]`` when the dealer puts them in their own crib,
    ``pone[r1, r2, suited]`` when the pone puts them in the dealer's crib. Points are the crib's
    score (always for the dealer); the analyzer signs them. Symmetric in ``r1, r2``; a pair of
    equal ranks cannot be suited, that cell repeats the unsuited value."""

    dealer: np.ndarray  # (13, 13, 2) float
    pone: np.ndarray  # (13, 13, 2) float
    params: dict

    @classmethod
    def zeros(cls) -> CribTable:
        """A table that ignores the crib (the "keep the best hand" policy)."""
        z = np.zeros((13, 13, 2))
        return cls(z, z, {"policy": "crib ignored"})

    @classmethod
    def from_json(cls, data: dict | str | Path) -> CribTable:
        """Read a table written by ``benchmarks/tables/crib_table.py``."""
        try:
            obj = json.loads(Path(data).read_text()) if isinstance(data, (str, Path)) else data
            dealer = np.array(obj["dealer"], dtype=float)
            pone = np.array(obj["pone"], dtype=float)
            params = dict(obj.get("params", {}))
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise CribTableError(f"cannot read crib table: {exc}") from None
        for name, arr in (("dealer", dealer), ("pone", pone)):
            if arr.shape != (13, 13, 2) or not np.isfinite(arr).all():
                raise CribTableError(
                    f"crib table {name!r} must be 13x13x2 finite numbers, got shape {arr.shape}"
                )
        return cls(dealer, pone, params)

    def to_json(self) -> dict:
        return {
            "params": self.params,
            "dealer": np.round(self.dealer, 5).tolist(),
            "pone": np.round(self.pone, 5).tolist(),
        }

    def value(self, a: int, b: int, dealer: bool) -> float:
        """Expected crib points of discarding cards ``a`` and ``b`` (unsigned)."""
        t = self.dealer if dealer else self.pone
        return float(t[RANK_ARR[a], RANK_ARR[b], int(SUIT_ARR[a] == SUIT_ARR[b])])


@lru_cache(maxsize=1)
def default_crib_table() -> CribTable:
    """The shipped table ``cribbage_env/data/crib_table.json``."""
    path = resources.files("cribbage_env").joinpath("data/crib_table.json")
    try:
        text = path.read_text()
    except OSError as exc:
        raise CribTableError(
            f"the shipped crib table is missing ({exc}); run benchmarks/tables/crib_table.py to build it"
        ) from None
    return CribTable.from_json(json.loads(text))


@dataclass(frozen=True)
class DiscardOption:
    """One split of a six-card hand: what is kept, what goes to the crib, and what it is worth."""

    keep: tuple[int, int, int, int]
    discard: tuple[int, int]
    hand_ev: float  # exact mean show score of the kept four over the 46 unseen starters
    hand_min: int
    hand_max: int
    crib_ev: float  # expected crib points from the table, + own crib (dealer), - opponent's (pone)
    net: float  # hand_ev + crib_ev

    @property
    def action(self) -> int:
        """The engine action that makes this discard."""
        return discard_action(*self.discard)

    def to_json(self) -> dict:
        return {
            "keep": cards_str(self.keep).split(),
            "discard": cards_str(self.discard).split(),
            "hand_ev": round(self.hand_ev, 4),
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "crib_ev": round(self.crib_ev, 4),
            "net": round(self.net, 4),
        }


def _as_hand(hand6: Sequence[int] | str) -> np.ndarray:
    if isinstance(hand6, str):
        try:
            hand6 = parse_cards(hand6)
        except ValueError as exc:
            raise DiscardInputError(str(exc)) from None
    try:
        cards = list(hand6)
    except TypeError:
        raise DiscardInputError(f"a hand is six card ids or card strings, got {hand6!r}") from None
    if len(cards) != 6:
        raise DiscardInputError(f"the discard analyzer needs exactly 6 cards, got {len(cards)}")
    if any(
        isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < 52
        for c in cards
    ):
        raise DiscardInputError(f"card ids must be ints 0..51, got {cards!r}")
    if len(set(int(c) for c in cards)) != 6:
        raise DiscardInputError(f"the hand repeats a card: {cards_str(int(c) for c in cards)}")
    return np.array(cards, dtype=np.intp)


def discard_values(
    hand6: np.ndarray, dealer: bool, table: CribTable
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Unchecked core: arrays (15,) of hand EV, hand min, hand max and signed crib EV, in the
    order of :data:`DISCARD_INDEX` (the engine's discard order)."""
    mask = np.ones(52, dtype=bool)
    mask[hand6] = False
    starters = _ALL[mask]  # the 46 unseen
    keep = hand6[KEEP_INDEX]  # (15, 4)
    lo = KEY_LO[keep].sum(axis=1)[:, None] + KEY_LO[starters][None, :]
    hi = KEY_HI[keep].sum(axis=1)[:, None] + KEY_HI[starters][None, :]
    pts = rank_points_split(lo, hi)  # (15, 46) fifteens, pairs, runs
    ksuit = SUIT_ARR[keep]
    ssuit = SUIT_ARR[starters]
    flush4 = (ksuit == ksuit[:, :1]).all(axis=1)
    if flush4.any():
        state = flush4[:, None] * (1 + (ssuit[None, :] == ksuit[:, :1]))
        pts = pts + FLUSH_ARR[0][state]
    jacks = keep[RANK_ARR[keep] == JACK]
    if jacks.size:
        nob = ssuit.astype(np.intp) * 13 + JACK
        pts = pts + NOBS_POINTS * (keep[:, :, None] == nob[None, None, :]).any(axis=1)
    disc = hand6[DISCARD_INDEX]
    r = RANK_ARR[disc]
    suited = (SUIT_ARR[disc[:, 0]] == SUIT_ARR[disc[:, 1]]).astype(np.intp)
    if dealer:
        crib = table.dealer[r[:, 0], r[:, 1], suited]
    else:
        crib = -table.pone[r[:, 0], r[:, 1], suited]
    return pts.mean(axis=1), pts.min(axis=1), pts.max(axis=1), crib


def analyze_discards(
    hand6: Sequence[int] | str, dealer: bool, table: CribTable | None = None
) -> list[DiscardOption]:
    """All 15 discards of ``hand6``, best net first (ties: higher hand EV, then engine order).

    ``dealer`` says whose crib it is: ``True`` the seat's own, ``False`` the opponent's.
    ``table`` defaults to the shipped crib table; ``CribTable.zeros()`` ignores the crib.
    Raises :class:`DiscardInputError` for anything but six distinct cards.
    """
    if not isinstance(dealer, (bool, np.bool_)):
        raise DiscardInputError(f"dealer must be True or False, got {dealer!r}")
    h = _as_hand(hand6)
    t = default_crib_table() if table is None else table
    ev, lo, hi, crib = discard_values(h, bool(dealer), t)
    net = ev + crib
    order = sorted(range(15), key=lambda i: (-round(float(net[i]), 9), -round(float(ev[i]), 9), i))
    out = []
    for i in order:
        k0, k1, k2, k3 = (int(c) for c in h[KEEP_INDEX[i]])
        d0, d1 = (int(c) for c in h[DISCARD_INDEX[i]])
        k, d = (k0, k1, k2, k3), (d0, d1)
        out.append(
            DiscardOption(k, d, float(ev[i]), int(lo[i]), int(hi[i]), float(crib[i]), float(net[i]))
        )
    return out
