"""A compiled deal simulator: play the rest of a deal (the play and the show) for many positions.

Positions are flat state arrays (:mod:`cribbage_env.kernels.simkernel`) made from a
:class:`~cribbage_env.rules.engine.GameState` in the play (:func:`state_from_game`) or from one seat's
view and guesses at the hidden cards (:func:`states_from_view`, what a search does). Cards are
chosen by a policy per seat: ``"heuristic"`` (the expert's rollout policy), ``"greedy"`` or
``"expectimax"`` (see :mod:`cribbage_env.kernels.simpolicy`). A play-out stops at the end of the deal's
show or when a player reaches the target, exactly where the engine stops.

The result (:class:`PlayOut`) carries both players' scores at the end (and at the end of the
play, before the show) and who reached the target, so a caller can value an end state by points
or by its chance of winning the game.

This module imports numba; ``import cribbage_env`` does not import it.

>>> from cribbage_env.rules.engine import GameState
>>> from cribbage_env.rules.cards import parse_cards
>>> g = GameState.from_position([parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
...                             parse_cards("KH KD QS QC"), parse_cards("5S")[0])
>>> out = play_out(state_from_game(g)[None, :], "greedy")
>>> out.winner.tolist(), out.scores.shape
([-1], (1, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..rules.core import CribbageError, Phase
from ..rules.engine import GameState
from . import simkernel as K
from .interpreted import runner
from .simpolicy import EXPECTIMAX, GREEDY, HEURISTIC, choose

#: Policy names -> kernel ids.
POLICIES = {"heuristic": HEURISTIC, "greedy": GREEDY, "expectimax": EXPECTIMAX}
#: Most scoring events one deal's play and show can record.
MAX_EVENTS = 32
TABS = K.tables()


class SimulatorInputError(CribbageError, ValueError):
    """A position or policy the simulator cannot take."""


@dataclass(frozen=True)
class PlayOut:
    """Outcome of ``N`` play-outs: scores at the end, at the end of the play, who won.

    ``winner[i]`` is the seat that reached the target (-1: the deal ended first).
    ``events[i, :nevents[i]]`` are (kind, player, points) rows in scoring order when recorded.
    """

    scores: np.ndarray  # (N, 2)
    play_scores: np.ndarray  # (N, 2); equal to scores' values at the moment the play ended
    winner: np.ndarray  # (N,)
    events: np.ndarray | None = None  # (N, MAX_EVENTS, 3)
    nevents: np.ndarray | None = None  # (N,)
    states: np.ndarray | None = None  # (N, SIZE) final states (cards laid: PLAYED..)

    def cards_played(self, i: int) -> list[int]:
        """The cards laid this deal in play-out ``i``, in order (from its final state)."""
        assert self.states is not None, "this play-out kept no final states"
        st = self.states[i]
        return st[K.PLAYED : K.PLAYED + st[K.NPLAYED]].tolist()


def _policy_ids(policy: str | Sequence[str]) -> np.ndarray:
    names = (policy, policy) if isinstance(policy, str) else tuple(policy)
    if len(names) != 2 or any(n not in POLICIES for n in names):
        raise SimulatorInputError(
            f"policy must be one of {sorted(POLICIES)} or a pair of them (seat 0, seat 1), "
            f"got {policy!r}"
        )
    return np.array([POLICIES[n] for n in names], dtype=np.int64)


def state_from_game(g: GameState, target: int | None = None) -> np.ndarray:
    """The simulator state of a game in the play phase (or over), hidden cards included."""
    if g.phase is not Phase.PLAY and g.winner is None:
        raise SimulatorInputError(f"the simulator starts in the play, not in {g.phase.value}")
    st = np.full(K.SIZE, -1, dtype=np.int64)
    for p in (0, 1):
        h = g.hands[p]
        st[K.HANDS + 4 * p : K.HANDS + 4 * p + len(h)] = h
        st[K.KEPT + 4 * p : K.KEPT + 4 * p + 4] = g.kept[p]
        st[K.DISCARDS + 2 * p : K.DISCARDS + 2 * p + 2] = g.discards[p]
        st[K.GO + p] = int(g.go_said[p])
        st[K.SCORES + p] = g.scores_[p]
    st[K.SEQ : K.SEQ + len(g.seq)] = g.seq
    st[K.NSEQ] = len(g.seq)
    st[K.COUNT] = g.count
    st[K.LAST] = g.last_player
    st[K.TO_ACT] = g.to_act
    st[K.DEALER] = g.dealer
    st[K.CRIB : K.CRIB + 4] = g.crib
    st[K.STARTER] = -1 if g.starter is None else g.starter
    st[K.WINNER] = -1 if g.winner is None else g.winner
    K.put_rules(st, g.rules, target)
    st[K.NPLAYED] = len(g.played)
    for i, (p, c) in enumerate(g.played):
        st[K.PLAYED + i] = c
        st[K.PLAYED_BY + i] = p
    st[K.DONE] = int(g.winner is not None)
    st[K.NEVENTS] = 0
    return st


def states_from_view(
    view, opp_hands: np.ndarray, opp_discards: np.ndarray, target: int | None = None
) -> np.ndarray:
    """``G`` states equal to the real one wherever ``view`` can see, the opponent's unplayed
    cards ``opp_hands[g]`` and crib cards ``opp_discards[g]`` as guessed (what
    :func:`cribbage_env.unseen.determinize.determinize` builds, as arrays)."""
    seat, opp = view.seat, 1 - view.seat
    hands = np.asarray(opp_hands, dtype=np.int64).reshape(len(opp_hands), -1)
    discs = np.asarray(opp_discards, dtype=np.int64).reshape(len(opp_discards), 2)
    k = hands.shape[1]
    if k != view.opponent_cards_left:
        raise SimulatorInputError(
            f"guesses hold {k} cards; the opponent holds {view.opponent_cards_left}"
        )
    st = np.full(K.SIZE, -1, dtype=np.int64)
    st[K.HANDS + 4 * seat : K.HANDS + 4 * seat + len(view.hand)] = view.hand
    st[K.KEPT + 4 * seat : K.KEPT + 4 * seat + 4] = view.kept
    st[K.DISCARDS + 2 * seat : K.DISCARDS + 2 * seat + 2] = view.discards
    st[K.SEQ : K.SEQ + len(view.sequence)] = view.sequence
    st[K.NSEQ] = len(view.sequence)
    st[K.COUNT] = view.count
    st[K.LAST] = view.played[-1][0] if view.played else -1
    st[K.GO : K.GO + 2] = view.go_said
    st[K.TO_ACT] = view.to_act if view.to_act is not None else seat
    st[K.SCORES : K.SCORES + 2] = view.scores
    st[K.DEALER] = view.dealer
    st[K.STARTER] = view.starter
    st[K.WINNER] = -1 if view.winner is None else view.winner
    K.put_rules(st, view.rules, target)
    st[K.NPLAYED] = len(view.played)
    opp_played = []
    for i, (p, c) in enumerate(view.played):
        st[K.PLAYED + i] = c
        st[K.PLAYED_BY + i] = p
        if p == opp:
            opp_played.append(c)
    st[K.DONE] = int(view.winner is not None)
    st[K.NEVENTS] = 0
    out = np.repeat(st[None, :], len(hands), axis=0)
    out[:, K.HANDS + 4 * opp : K.HANDS + 4 * opp + k] = hands
    np_ = len(opp_played)
    out[:, K.KEPT + 4 * opp : K.KEPT + 4 * opp + np_] = opp_played
    out[:, K.KEPT + 4 * opp + np_ : K.KEPT + 4 * opp + 4] = hands
    out[:, K.DISCARDS + 2 * opp : K.DISCARDS + 2 * opp + 2] = discs
    # The crib holds both seats' discards (seat 0's first, as determinize builds it).
    out[:, K.CRIB : K.CRIB + 2] = out[:, K.DISCARDS : K.DISCARDS + 2]
    out[:, K.CRIB + 2 : K.CRIB + 4] = out[:, K.DISCARDS + 2 : K.DISCARDS + 4]
    return out


@njit(cache=True)
def run_deal(st, pols, ev, tabs, legal, buf):
    while st[K.DONE] == 0:
        card = choose(st, pols[st[K.TO_ACT]], legal, buf)
        K.lay(st, card, ev, tabs)


@njit(cache=True)
def play_out_all(states, pols, ev, tabs, scratch):
    legal = K.borrow(scratch[0:4])
    buf = K.borrow(scratch[4:20])
    pol = K.borrow(pols)
    t = K.borrow_tables(tabs)
    for i in range(states.shape[0]):
        run_deal(K.borrow(states[i]), pol, K.borrow(ev[i]), t, legal, buf)


@njit(cache=True)
def search_all(base, cards, pols, tabs, out, scratch, st0, ev0):
    """out[g, j] = (score 0, score 1, winner) after laying cards[j] in base[g] and playing on."""
    legal = K.borrow(scratch[0:4])
    buf = K.borrow(scratch[4:20])
    pol = K.borrow(pols)
    t = K.borrow_tables(tabs)
    ev = K.borrow(ev0)
    st = K.borrow(st0)
    for g in range(base.shape[0]):
        for j in range(cards.shape[0]):
            st[:] = base[g]
            K.lay(st, cards[j], ev, t)
            run_deal(st, pol, ev, t, legal, buf)
            out[g, j, 0] = st[K.SCORES]
            out[g, j, 1] = st[K.SCORES + 1]
            out[g, j, 2] = st[K.WINNER]


def play_out(
    states: np.ndarray, policy: str | Sequence[str] = "heuristic", record: bool = False
) -> PlayOut:
    """Play each state (rows of ``states``, left unchanged) to the end of its deal."""
    pols = _policy_ids(policy)
    st = np.array(states, dtype=np.int64, copy=True).reshape(-1, K.SIZE)
    st[:, K.NEVENTS] = 0
    ev = np.zeros((st.shape[0], MAX_EVENTS if record else 0, 3), dtype=np.int64)
    runner(play_out_all)(st, pols, ev, TABS, np.zeros(32, dtype=np.int64))
    return PlayOut(
        st[:, K.SCORES : K.SCORES + 2],
        st[:, K.PLAY_SCORES : K.PLAY_SCORES + 2],
        st[:, K.WINNER],
        ev if record else None,
        st[:, K.NEVENTS] if record else None,
        st,
    )


def search_outcomes(
    base: np.ndarray, cards: Sequence[int], policy: str | Sequence[str] = "heuristic"
) -> tuple[np.ndarray, np.ndarray]:
    """For every state ``base[g]`` (the searching seat to act) and candidate ``cards[j]``: lay
    the card, play the deal out; returns scores ``(G, C, 2)`` and winners ``(G, C)``."""
    pols = _policy_ids(policy)
    b = np.ascontiguousarray(base, dtype=np.int64).reshape(-1, K.SIZE)
    c = np.asarray(cards, dtype=np.int64)
    out = np.empty((b.shape[0], c.shape[0], 3), dtype=np.int64)
    runner(search_all)(
        b,
        c,
        pols,
        TABS,
        out,
        np.zeros(32, dtype=np.int64),
        np.zeros(K.SIZE, dtype=np.int64),
        np.zeros((0, 3), dtype=np.int64),
    )
    return out[:, :, :2], out[:, :, 2]


@njit(cache=True)
def heels_all(states, ev):
    for i in range(states.shape[0]):
        K.heels(states[i], ev)


def cut_heels(states: np.ndarray) -> None:
    """His heels (R5.2, the kernels' rule) on each state just after the starter is turned, in
    place: a jack pegs for the dealer, who may win there (the deal is then over)."""
    runner(heels_all)(states, np.zeros((0, 3), dtype=np.int64))


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once."""
    from ..rules.cards import parse_cards

    g = GameState.from_position(
        [parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
        parse_cards("KH KD QS QC"),
        parse_cards("5S")[0],
    )
    st = state_from_game(g)[None, :]
    for name in POLICIES:
        play_out(st, name, record=True)
        play_out(st, name)
    search_outcomes(st, [int(g.hands[1][0])])
