"""Determinized Monte Carlo search for pegging decisions (the expert tier's play).

For each sampled guess at the opponent's hidden cards (consistent with its go's), every candidate
card is played out to the end of the deal (rollouts use a fast heuristic for both sides), and
scored by the point margin gained, or by a win/loss when the game ends (:func:`deal_utility`,
the one place an end state is valued). The same guesses are used for every candidate (common
random numbers), so differences are not noise from the sampling.

Play-outs run in the compiled simulator (:mod:`cribbage_env.kernels.fastsim`, policies by name) or, for
reference and for custom policies, through the engine (:func:`play_out`); tests check both give
the same estimates for the same guesses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.core import Rules, implements
from cribbage_env.rules.engine import GameState
from cribbage_env.rules.pegging import play_points_fast
from cribbage_env.rules.scoring import KEY, RANK_POINTS
from cribbage_env.rules.views import PlayerView
from cribbage_env.unseen.determinize import determinize, uniform_guesses

from .pegging import points_now

#: Utility of a game won or lost inside a rollout, in points of margin.
WIN_UTILITY = 1000.0
#: Early stop of the search: checked every STOP_EVERY guesses from STOP_MIN on.
STOP_MIN = 16
STOP_EVERY = 8
#: Rollout tie-break: leaving the count at 5 or 21 invites a ten-card for 15 or 31.
DANGER_COUNTS = {5: 0.6, 21: 0.6}

#: The searches (expectimax, expert, master) play to the target; the skunk lines change the game
#: points of a win, which they do not weigh (their objective is points or the chance of winning).
SEARCHES = implements("the searches", "target", "skunk", "double_skunk")


def rollout_card(g: GameState) -> int:
    """The heuristic both sides use inside rollouts: most points now, avoid 5 and 21, then
    shed the higher card (keeping low cards for the go)."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best, best_v = legal[0], -1e9
    seq = g.seq
    for c in legal:
        count = g.count + VALUE[c]
        seq.append(c)
        v: float = play_points_fast(seq, count)
        seq.pop()
        v -= DANGER_COUNTS.get(count, 0.0)
        v += VALUE[c] * 0.01
        if v > best_v:
            best, best_v = c, v
    return best


def play_out(g: GameState, seat: int, card: int, policy=None, value=None) -> float:
    """Lay ``card`` and play the deal to its end; the seat's margin gained (or the win/loss
    utility). ``g`` is consumed. ``policy(g)`` picks the rollout cards (default
    :func:`rollout_card`). ``value(g, seat)``, if given, scores the end state instead (an
    objective such as the winning chance, :func:`cribbage_env.equity.end_value`)."""
    policy = rollout_card if policy is None else policy
    start = g.scores_[seat] - g.scores_[1 - seat]
    deal = g.deal_no
    g.apply(card)
    while g.winner is None and g.deal_no == deal:
        g.apply(policy(g))
    if value is not None:
        return float(value(g, seat))
    margin = g.scores_[seat] - g.scores_[1 - seat] - start
    if g.winner is not None:
        # A game won is won: the margin only breaks ties (sooner wins are not worth less).
        return 0.001 * margin + (WIN_UTILITY if g.winner == seat else -WIN_UTILITY)
    return float(margin)


def deal_utility(
    scores: np.ndarray, winner: np.ndarray, seat: int, start: tuple[int, int]
) -> np.ndarray:
    """:func:`play_out`'s value of end states, for arrays: the seat's margin gained since
    ``start`` (the scores before: a pair, or one pair per play-out), or the win/loss utility (the margin breaking ties)."""
    base = np.asarray(start)
    margin = (scores[..., seat] - scores[..., 1 - seat]) - (base[..., seat] - base[..., 1 - seat])
    won = np.where(winner == seat, WIN_UTILITY, -WIN_UTILITY)
    return np.where(winner >= 0, 0.001 * margin + won, margin.astype(np.float64))


def equity_utility(dealer: int, rules: Rules):
    """:func:`deal_utility`'s counterpart for the ``equity`` objective: the seat's winning chance
    at the end states of a deal dealt by ``dealer`` (1/0 for a game won or lost in it), from
    the table of the game of ``rules``; :func:`deal_utility` (points) when it has none."""
    from cribbage_env.equity import end_values, table_or_points

    if not table_or_points(rules):
        return deal_utility

    def utility(scores, winner, seat, start):
        return end_values(scores, winner, seat, next_dealer=1 - dealer, target=rules)

    return utility


def _compiled_values(
    view: PlayerView, guesses, distinct: list[int], policy: str, utility=None
) -> np.ndarray:
    """Utilities ``(guesses, cards)`` of the candidate cards, played out by the compiled
    simulator (:mod:`cribbage_env.kernels.fastsim`) with the named policy: the same numbers as
    :func:`play_out` on :func:`determinize` d states."""
    from cribbage_env.kernels.fastsim import search_outcomes, states_from_view

    if isinstance(guesses, tuple):  # arrays (hands (G, k), discards (G, 2))
        hands, discs = guesses
    else:
        k = view.opponent_cards_left
        hands = np.array([h for h, _ in guesses], dtype=np.int64).reshape(len(guesses), k)
        discs = np.array([d for _, d in guesses], dtype=np.int64)
    base = states_from_view(view, hands, discs)
    scores, winner = search_outcomes(base, distinct, policy)
    return (utility or deal_utility)(scores, winner, view.seat, view.scores)


def kept_weight(kept4: list[int], beta: float) -> float:
    """How likely a player kept these four cards: players keep fifteens, pairs and runs, so a
    guess is weighted by exp(beta * points the four cards make on their own)."""
    return float(
        np.exp(beta * RANK_POINTS[KEY[kept4[0]] + KEY[kept4[1]] + KEY[kept4[2]] + KEY[kept4[3]]])
    )


def sample_guesses(
    view: PlayerView,
    rng: np.random.Generator,
    n: int,
    beta: float = 0.0,
    oversample: int = 4,
    max_tries: int = 20,
) -> list[tuple[list[int], list[int]]]:
    """``n`` guesses (opponent's unplayed cards, opponent's two discards) drawn from the unseen
    cards, rejecting hands its go's rule out; with ``beta > 0`` drawn ``oversample`` times as many
    and resampled by :func:`kept_weight` (the opponent kept its cards for a reason)."""
    if beta <= 0:
        return uniform_guesses(view, rng, n, max_tries)
    pool = uniform_guesses(view, rng, n * oversample, max_tries)
    opp = 1 - view.seat
    played = [c for p, c in view.played if p == opp]
    w = np.array([kept_weight(played + hand, beta) for hand, _ in pool])
    idx = rng.choice(len(pool), size=n, replace=True, p=w / w.sum())
    return [pool[i] for i in idx]


@dataclass(frozen=True)
class SearchEstimate:
    card: int
    value: float  # mean utility over the guesses
    samples: int


def _clear_best(values: np.ndarray, z: float) -> bool:
    """Whether the best candidate leads every other by ``z`` standard errors of the paired
    difference (the same guesses for all: common random numbers)."""
    n = values.shape[0]
    best = int(np.argmax(values.mean(axis=0)))
    d = values[:, best : best + 1] - np.delete(values, best, axis=1)
    mean = d.mean(axis=0)
    se = d.std(axis=0) / np.sqrt(n)
    return bool(np.all(mean > z * se))


def search_play(
    view: PlayerView,
    rng: np.random.Generator,
    sims: int,
    beta: float = 0.0,
    policy=None,
    guesses=None,
    stop_z: float = 0.0,
    objective: str = "points",
) -> list[SearchEstimate]:
    """Estimates for every legal card, best first. With ``stop_z > 0`` the search stops early
    (after at least :data:`STOP_MIN` guesses) once the best card leads every other by ``stop_z``
    standard errors of the paired difference. ``objective`` ``points`` values a play-out by the
    margin gained (a game won or lost: the win utility), ``equity`` by the winning chance at its
    end (:mod:`cribbage_env.equity`)."""
    equity = objective == "equity"
    legal = list(view.legal_actions)
    if len(legal) == 1:
        return [SearchEstimate(legal[0], 0.0, 0)]
    me = view.scores[view.seat]
    for c in legal:  # a card that reaches 121 now wins whatever is hidden (R10.1)
        if me + points_now(view, c) >= view.rules.target:
            return [SearchEstimate(c, WIN_UTILITY, 0)] + [
                SearchEstimate(o, 0.0, 0) for o in legal if o != c
            ]
    # Cards of one rank are interchangeable from here on: play points depend on ranks (R7) and
    # the show counts the kept four whatever order they are laid in (R6). Search one of each.
    by_rank: dict[int, int] = {}
    for c in legal:
        by_rank.setdefault(RANK[c], c)
    distinct = list(by_rank.values())
    if len(distinct) == 1:
        return [SearchEstimate(c, 0.0, 0) for c in legal]
    if guesses is None:
        guesses = sample_guesses(view, rng, sims, beta)
    if isinstance(policy, str):
        utility = equity_utility(view.dealer, view.rules) if equity else None
        values = _compiled_values(view, guesses, distinct, policy, utility)
        n = values.shape[0]
        if stop_z > 0:
            for m in range(STOP_MIN, n + 1, STOP_EVERY):
                if m % STOP_EVERY == 0 and _clear_best(values[:m], stop_z):
                    n = m
                    break
    else:
        from cribbage_env.equity import end_value

        value = end_value if equity else None
        values = np.zeros((len(guesses), len(distinct)))
        n = 0
        for hand, disc in guesses:
            base = determinize(view, hand, disc)
            for j, c in enumerate(distinct):
                values[n, j] = play_out(base.clone(), view.seat, c, policy, value)
            n += 1
            if (
                stop_z > 0
                and n >= STOP_MIN
                and n % STOP_EVERY == 0
                and _clear_best(values[:n], stop_z)
            ):
                break
    means = values[:n].mean(axis=0)
    mean_of = {RANK[c]: float(m) for c, m in zip(distinct, means, strict=True)}
    ests = [SearchEstimate(c, mean_of[RANK[c]], n) for c in legal]
    ests.sort(key=lambda e: (-e.value, VALUE[e.card]))
    return ests
