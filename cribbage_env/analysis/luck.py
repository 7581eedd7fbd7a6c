"""Luck of a finished game: what each chance event (the cut for first deal, every deal's twelve
cards, every starter) was worth to seat 0, in winning chance and in points.

The luck of a chance event is ``V(after) - E[V(after)]``: the value of the position it made minus
the mean value over the event's possible outcomes, from the same position before it. ``V`` is an
after-the-fact evaluator that sees every card (:mod:`cribbage_env.kernels.luckkernel`: heuristic
discards and play-outs read on the equity table). The mean is exact for the cut (each seat deals
first with chance 1/2) and for the starter (the 40 cards not dealt); for the deal it is the mean
over independent re-deals from a full deck, drawn from a generator of their own (derived from
the game's seed with a key no shuffle uses), so it is an unbiased estimate of the mean.

Each luck term therefore has mean zero given everything before its event, whatever ``V`` is and
whoever plays, and ``result - luck`` (the *luck-adjusted result*) has the same expectation as
the result: an unbiased estimate with less variance (control variates; AIVAT, Burch et al. 2018).
See ``docs/guide/luck.md``.

>>> import cribbage_env as ce
>>> g = ce.new_game(7)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> luck = game_luck(g)
>>> luck == game_luck(g), len(luck.deals) == g.deal_no + 1  # deals count from 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..equity import dealer_table, win_probability
from ..rules.core import STANDARD, EventKind, Rules
from ..rules.engine import GameState, replay
from ..rules.events import Event
from .discard import KEEP_INDEX, default_crib_table

#: Re-deals per deal for the mean over deals, and starters per re-deal.
DEFAULT_SAMPLES = 16
STARTERS_PER_SAMPLE = 2
#: Spawn key of the re-deal generator (the game's shuffles use 1 and 2: cribbage_env.rules.chance).
_LUCK_STREAM = 27


@dataclass(frozen=True)
class DealLuck:
    """Seat 0's luck in one deal (seat 1's is the negative): the cards, then the starter."""

    deal: int
    dealer: int
    scores: tuple[int, int]  # at the deal's start
    cards: float  # winning chance
    cards_points: float  # the deal's points margin
    starter: float
    starter_points: float
    starter_card: int

    def to_json(self) -> dict:
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "cards": round(self.cards, 5),
            "cards_points": round(self.cards_points, 3),
            "starter": round(self.starter, 5),
            "starter_points": round(self.starter_points, 3),
            "starter_card": self.starter_card,
        }


@dataclass(frozen=True)
class GameLuck:
    """Seat 0's luck over a game: the cut for first deal and every deal."""

    cut: float
    deals: tuple[DealLuck, ...]

    @property
    def win(self) -> float:
        """Total luck in winning chance (seat 0; seat 1's is the negative)."""
        return self.cut + sum(d.cards + d.starter for d in self.deals)

    @property
    def points(self) -> float:
        """Total luck in points margin (seat 0)."""
        return sum(d.cards_points + d.starter_points for d in self.deals)

    def of_seat(self, seat: int) -> tuple[float, float]:
        """(winning chance, points) luck of ``seat``."""
        s = 1.0 if seat == 0 else -1.0
        return s * self.win, s * self.points

    def to_json(self) -> dict:
        return {
            "win": round(self.win, 5),
            "points": round(self.points, 3),
            "cut": round(self.cut, 5),
            "deals": [d.to_json() for d in self.deals],
        }


@lru_cache(maxsize=4)
def _tables(target: int) -> tuple:
    from ..kernels.fastsim import TABS

    crib = default_crib_table()
    crib_t = np.stack([crib.dealer, crib.pone]).astype(np.float64)
    keep = np.ascontiguousarray(KEEP_INDEX, dtype=np.int64)
    return np.ascontiguousarray(dealer_table(target)), crib_t, keep, TABS


#: The pegging policies of ``V``'s play-outs (pairs, seat 0's and seat 1's; ``V`` is their mean).
PLAYOUT_POLICIES: tuple[tuple[str, str], ...] = (
    ("heuristic", "heuristic"),
    ("expectimax", "expectimax"),
    ("greedy", "greedy"),
)


def _pols() -> np.ndarray:
    from ..kernels.fastsim import POLICIES

    return np.array([[POLICIES[a], POLICIES[b]] for a, b in PLAYOUT_POLICIES], dtype=np.int64)


def _play_start(kept, crib, dealer: int, scores, target: int) -> np.ndarray:
    """The simulator state as the play starts (no starter yet), from the real discards."""
    from ..kernels import simkernel as K

    st = np.full(K.SIZE, -1, dtype=np.int64)
    for p in (0, 1):
        st[K.HANDS + 4 * p : K.HANDS + 4 * p + 4] = kept[p]
        st[K.KEPT + 4 * p : K.KEPT + 4 * p + 4] = kept[p]
    st[K.CRIB : K.CRIB + 4] = crib
    pone = 1 - dealer  # the crib holds the pone's two cards, then the dealer's
    st[K.DISCARDS + 2 * pone : K.DISCARDS + 2 * pone + 2] = sorted(crib[:2])
    st[K.DISCARDS + 2 * dealer : K.DISCARDS + 2 * dealer + 2] = sorted(crib[2:])
    st[K.NSEQ] = st[K.COUNT] = st[K.GO] = st[K.GO + 1] = 0
    st[K.TO_ACT] = 1 - dealer
    st[K.SCORES : K.SCORES + 2] = scores
    st[K.DEALER] = dealer
    st[K.TARGET] = target
    st[K.NPLAYED] = st[K.DONE] = st[K.NEVENTS] = 0
    return st


def redeals(seed: int, n_deals: int, dealers: Sequence[int], samples: int, starters: int):
    """Independent deals from a full deck, ``samples`` per deal of the game (rows
    ``d * samples ...``), from the game seed's own luck stream (no shuffle of the game uses it;
    deal ``d``'s rows do not depend on how many deals follow): hands ``(n, 2, 6)`` seat-major
    and starters ``(n, starters)``."""
    ss = np.random.SeedSequence(seed, spawn_key=(_LUCK_STREAM,))
    rng = np.random.Generator(np.random.PCG64(ss))
    decks = np.argsort(rng.random((n_deals * samples, 52)), axis=1)
    dealer = np.repeat(np.asarray(dealers, dtype=np.int64), samples)
    hands = np.empty((len(decks), 2, 6), dtype=np.int64)
    rows = np.arange(len(decks))
    hands[rows, 1 - dealer] = decks[:, 0:12:2]
    hands[rows, dealer] = decks[:, 1:12:2]
    return hands, np.ascontiguousarray(decks[:, 12 : 12 + starters], dtype=np.int64)


def _unseen(dealt: np.ndarray) -> np.ndarray:
    """The 40 cards not in each row of ``dealt`` (n, 12), ascending."""
    mask = np.ones((len(dealt), 52), dtype=bool)
    mask[np.arange(len(dealt))[:, None], dealt] = False
    return np.nonzero(mask)[1].reshape(len(dealt), 40).astype(np.int64)


def cut_luck(first_dealer: int, target: int) -> float:
    """Seat 0's luck of the cut for first deal (each seat deals first with chance 1/2)."""
    v = [win_probability(0, 0, dealer=d == 0, target=target) for d in (0, 1)]
    return v[first_dealer] - (v[0] + v[1]) / 2


@dataclass
class _Deal:
    deal: int
    dealer: int
    scores: tuple[int, int]
    hands: list[list[int]]
    discards: list[tuple[int, ...]]
    starter: int = -1


def _deals_of(events: Sequence[Event]) -> list[_Deal]:
    """Each deal's cards, scores at its start, discards and starter, from a game's events."""
    deals: list[_Deal] = []
    for e in events:
        if e.kind is EventKind.DEAL:
            d = e.player
            assert d is not None
            hands = [[], []]  # type: list[list[int]]
            hands[1 - d], hands[d] = list(e.cards[:6]), list(e.cards[6:12])
            deals.append(_Deal(e.deal, d, e.scores, hands, [(), ()]))
        elif e.kind is EventKind.DISCARD and deals:
            assert e.player is not None
            deals[-1].discards[e.player] = e.cards
        elif e.kind is EventKind.STARTER and deals:
            deals[-1].starter = e.cards[0]
    return deals


def _cards_luck(seed, hands, dealer, s0, s1, target: int, samples: int) -> np.ndarray:
    """Seat 0's (chance, points) luck of the deals ``hands[d]`` (deal ``d`` of game ``seed``)."""
    from ..kernels.luckkernel import deal_values

    eq, crib_t, keep, tabs = _tables(target)
    n = len(hands)
    real = np.zeros((n, 2))
    args = (target, eq, crib_t, keep, tabs, _pols())
    deal_values(hands, _unseen(hands.reshape(n, 12)), dealer, s0, s1, *args, real)
    rh, rs = redeals(seed, n, dealer, samples, STARTERS_PER_SAMPLE)
    base = np.zeros((n * samples, 2))
    rd, r0, r1 = (np.repeat(x, samples) for x in (dealer, s0, s1))
    deal_values(rh, rs, rd, r0, r1, *args, base)
    return real - base.reshape(n, samples, 2).mean(axis=1)


def _starter_lucks(states: np.ndarray, unseen: np.ndarray, starters, target: int) -> np.ndarray:
    """(chance, points) luck of ``starters[i]`` in play-start state ``states[i]``: its value
    minus the exact mean over the 40 cards ``unseen[i]``."""
    from ..kernels.luckkernel import starter_values

    eq, _, _, tabs = _tables(target)
    vals = np.zeros((len(states), 40, 2))
    starter_values(states, unseen, eq, tabs, _pols(), vals)
    rows = np.arange(len(states))
    cols = [int(np.searchsorted(unseen[i], starters[i])) for i in rows]
    return vals[rows, cols] - vals.mean(axis=1)


def deal_luck_values(
    seed: int,
    deal: int,
    hands: Sequence[Sequence[int]],
    dealer: int,
    scores: tuple[int, int],
    target: int,
    samples: int = DEFAULT_SAMPLES,
) -> tuple[float, float]:
    """Seat 0's (chance, points) luck of being dealt ``hands`` (seat-major, 6 + 6) as deal
    ``deal`` of game ``seed``, the scores ``scores``, ``dealer`` dealing."""
    k = deal + 1
    h = np.zeros((k, 2, 6), dtype=np.int64)
    h[:] = np.asarray(hands, dtype=np.int64)
    d, a, b = (np.full(k, x, dtype=np.int64) for x in (dealer, scores[0], scores[1]))
    out = _cards_luck(seed, h, d, a, b, target, samples)[deal]
    return float(out[0]), float(out[1])


def starter_luck(kept, crib, dealer: int, scores, starter: int, target: int) -> tuple[float, float]:
    """Seat 0's (chance, points) luck of ``starter`` after the discards (``kept`` per seat,
    ``crib``): its value minus the exact mean over the 40 cards not dealt."""
    st = _play_start(kept, crib, dealer, scores, target)
    dealt = np.array([[*kept[0], *kept[1], *crib]], dtype=np.int64)
    out = _starter_lucks(st[None, :], _unseen(dealt), [starter], target)[0]
    return float(out[0]), float(out[1])


def luck_from_events(
    seed: int, events: Sequence[Event], target: int, samples: int = DEFAULT_SAMPLES
) -> GameLuck:
    """The luck of a game from its seed and events (see the module doc)."""
    deals = _deals_of(events)
    if not deals:
        return GameLuck(0.0, ())
    n = len(deals)
    hands = np.array([d.hands for d in deals], dtype=np.int64)
    dl, s0, s1 = (
        np.array(x, dtype=np.int64)
        for x in zip(*((d.dealer, *d.scores) for d in deals), strict=True)
    )
    cards = _cards_luck(seed, hands, dl, s0, s1, target, samples)
    turned = [i for i, d in enumerate(deals) if d.starter >= 0]
    starter = np.zeros((n, 2))
    if turned:
        states = []
        for i in turned:
            d = deals[i]
            kept = [[c for c in d.hands[p] if c not in d.discards[p]] for p in (0, 1)]
            crib = [*d.discards[1 - d.dealer], *d.discards[d.dealer]]
            states.append(_play_start(kept, crib, d.dealer, d.scores, target))
        unseen = _unseen(hands[turned].reshape(len(turned), 12))
        firsts = [deals[i].starter for i in turned]
        starter[turned] = _starter_lucks(np.array(states), unseen, firsts, target)
    out = tuple(
        DealLuck(d.deal, d.dealer, (int(d.scores[0]), int(d.scores[1])), float(cards[i, 0]),
                 float(cards[i, 1]), float(starter[i, 0]), float(starter[i, 1]), d.starter)
        for i, d in enumerate(deals)
    )  # fmt: skip
    return GameLuck(cut_luck(deals[0].dealer, target), out)


def game_luck(game: GameState, samples: int = DEFAULT_SAMPLES) -> GameLuck:
    """The luck of every chance event of ``game`` (a played game, finished or not)."""
    if game.set_up:
        raise ValueError("a position set up by hand has no chance history to measure")
    return luck_from_events(game.seed, game.events, int(game.rules.target), samples)


def luck_of(
    seed: int,
    decisions: Sequence[int],
    rules: Rules | str = STANDARD,
    interactive_cuts: bool = False,
    samples: int = DEFAULT_SAMPLES,
) -> GameLuck:
    """:func:`game_luck` of the game ``(seed, decisions)``: a post-pass over stored games."""
    return game_luck(
        replay(seed, decisions, interactive_cuts=interactive_cuts, rules=rules), samples
    )
