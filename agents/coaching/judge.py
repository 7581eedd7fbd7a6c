"""The one judge of the table: a decision's options rated by the winning chance each gives, the
way GNU Backgammon rates a move. The hint shows its best option, the review (:mod:`agents.review`)
rates the move taken against it, the coach agent plays it and the winning-chance indicator
reads it, each position with its own generator (:func:`position_rng`, drawn from what the
deciding seat sees), so a hint followed is never flagged by the review.

A decision is rated from the deciding seat's own view (what it could know then). For each
candidate the rest of the deal is played out on guesses of the hidden cards (the opponent's
cards from the analyzer opponent model of :mod:`agents.search.opponent_model`, the starter at a
discard), the same guesses for every candidate (common random numbers), with a fast heuristic
for both seats (:func:`agents.search.peg_search.rollout_card`, compiled: :mod:`cribbage_env.kernels.fastsim`);
the deal's end is read from the equity
table (:mod:`cribbage_env.equity`), and a game won or lost inside the deal counts 1 or 0, exact.
The judge picks its best option on one set of guesses (the hint's: it is the option the hint
shows), and :func:`rate` values that option and the one taken on a second, independent set
(:data:`CHECK_SAMPLES` guesses, common to both): the loss is the difference there. The best of
noisy estimates is too good on the set it was picked on; on an independent set it is not, so a
decision's loss is right on average (it may come out below 0 where the move taken was as good;
0 exactly when it is the judge's choice). Pegging rates every card (one per rank: cards of a
rank are interchangeable); a discard rates the ``candidates`` best splits by the analyzer's
points plus the split taken.

Points lost is the same comparison in expected points margin to the end of the deal.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from cribbage_env.analysis.discard import analyze_discards
from cribbage_env.equity import end_values, has_table
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..search.opponent_model import sample_modelled_arrays, sample_opponent_deals
from ..search.peg_search import sample_guesses
from ..search.play_outs import deal_play_outs, pegging_margins

#: Guesses per decision and discard splits rated by default (all 15). 512 guesses: the hint
#: plays as strong as ``expert`` (32 lost to it) and still comes in well under a second; a game
#: is reviewed in a few seconds (benchmarks: coach strength, hint latency).
DEFAULT_SAMPLES = 512
DEFAULT_CANDIDATES = 15
#: Fresh guesses on which the judge's choice and the move taken are compared (:func:`rate`).
CHECK_SAMPLES = 512
TAU = 0.5
#: Both seats' policy in the play-outs (the expert's rollout heuristic, compiled).
ROLLOUT = "heuristic"


def _values(view: PlayerView, scores, winner) -> tuple[np.ndarray, np.ndarray]:
    """Winning chance and points margin gained of play-outs of the deal of ``view`` (the
    game's own rules; NaN where the game goes on and the rules have no table)."""
    seat, start = view.seat, np.asarray(view.scores)
    if has_table(view.rules):
        chance = end_values(scores, winner, seat, 1 - view.dealer, view.rules)
    else:
        chance = np.where(winner >= 0, (winner == seat).astype(np.float64), np.nan)
    margin = (scores[..., seat] - scores[..., 1 - seat]) - (start[..., seat] - start[..., 1 - seat])
    return chance, margin.astype(np.float64)


def guesses(
    view: PlayerView, rng: np.random.Generator, samples: int
) -> tuple[np.ndarray, np.ndarray]:
    """The opponent's hidden cards guessed by the opponent model (uniformly when it has nothing
    to model): unplayed cards ``(G, k)`` and crib cards ``(G, 2)``."""
    modelled = sample_modelled_arrays(view, rng, samples, TAU)
    if modelled is not None:
        return modelled
    pairs = sample_guesses(view, rng, samples)
    k = view.opponent_cards_left
    return (
        np.array([h for h, _ in pairs], dtype=np.int64).reshape(len(pairs), k),
        np.array([d for _, d in pairs], dtype=np.int64),
    )


def _guessed_states(view: PlayerView, rng: np.random.Generator, samples: int) -> np.ndarray:
    """Simulator states equal to the real one wherever ``view`` sees, the hidden cards guessed
    (:func:`guesses`)."""
    from cribbage_env.kernels.fastsim import states_from_view

    return states_from_view(view, *guesses(view, rng, samples))


def play_values(
    view: PlayerView, cards: list[int], rng: np.random.Generator, samples: int
) -> tuple[np.ndarray, np.ndarray]:
    """Mean (winning chance, points margin) of laying each card, over the same guesses
    (compiled play-outs, :mod:`cribbage_env.kernels.fastsim`, with the rollout heuristic)."""
    from cribbage_env.kernels.fastsim import search_outcomes

    scores, winner = search_outcomes(_guessed_states(view, rng, samples), cards, ROLLOUT)
    chance, points = _values(view, scores, winner)
    return chance.mean(axis=0), points.mean(axis=0)


def discard_values_by_chance(
    view: PlayerView, actions: list[int], rng: np.random.Generator, samples: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean (winning chance, points margin to the deal's end, pegging margin) of each discard,
    on the same modelled deals (his heels included: it can win)."""
    deals = sample_opponent_deals(view, rng, samples, TAU)
    chance = np.zeros(len(actions))
    points = np.zeros(len(actions))
    pegging = np.zeros(len(actions))
    for j, a in enumerate(actions):
        out, start = deal_play_outs(view, a, deals, ROLLOUT, heels=True)
        c, p = _values(view, out.scores, out.winner)
        chance[j], points[j] = c.mean(), p.mean()
        pegging[j] = pegging_margins(out, view.seat, start).mean()
    return chance, points, pegging


@dataclass(frozen=True)
class Option:
    """One candidate of a decision as the judge rates it. ``hand``, ``crib`` and ``pegging``
    (discards only): the kept four's mean show, the crib's expected points (+ own, - the
    other's) and the expected pegging margin of the deal."""

    action: int
    chance: float  # the deciding seat's winning chance after it
    points: float  # expected points margin to the end of the deal
    hand: float | None = None
    crib: float | None = None
    pegging: float | None = None


def position_rng(view: PlayerView, seed: int = 0) -> np.random.Generator:
    """The judge's generator for a position: drawn from what ``view``'s seat sees (and
    ``seed``), so the hint and the review guess the same hidden cards there and agree; it
    reveals nothing the seat does not know."""
    digest = hashlib.blake2b(repr(view).encode(), digest_size=8).digest()
    key = int.from_bytes(digest, "little")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, key], spawn_key=(7,))))


def judge(
    view: PlayerView,
    rng: np.random.Generator,
    samples: int = DEFAULT_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    include: int | None = None,
) -> tuple[Option, ...]:
    """The options of ``view``'s decision rated by winning chance, best first (ties: the
    analyzer's order): every card in the play (one per rank), the ``candidates`` best splits
    by the analyzer's points at a discard (all 15 by default), ``include`` added if missing."""
    if view.phase is Phase.PLAY:
        by_rank: dict[int, int] = {}
        for c in view.legal_actions:
            by_rank.setdefault(RANK[c], c)
        cands = list(by_rank.values())
        if include is not None and RANK[include] in by_rank:  # the card itself, not its twin
            cands[cands.index(by_rank[RANK[include]])] = include
        chance, points = play_values(view, cands, rng, samples)
        opts = [
            Option(a, float(c), float(p)) for a, c, p in zip(cands, chance, points, strict=True)
        ]
    elif view.phase is Phase.DISCARD:
        ranked = analyze_discards(view.hand, dealer=view.is_dealer)
        head = ranked[:candidates]
        if include is not None and include not in [o.action for o in head]:
            head += [o for o in ranked if o.action == include]
        chance, points, peg = discard_values_by_chance(view, [o.action for o in head], rng, samples)
        opts = [
            Option(o.action, float(c), float(p), o.hand_ev, o.crib_ev, float(g))
            for o, c, p, g in zip(head, chance, points, peg, strict=True)
        ]
    else:
        raise ValueError(f"nothing to judge in the {view.phase.value} phase")
    return tuple(sorted(opts, key=lambda o: -o.chance))


def rate(
    view: PlayerView,
    action: int,
    rng: np.random.Generator,
    samples: int = DEFAULT_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    check_samples: int | None = None,
) -> tuple[int, float, float, float, float, int]:
    """Rate ``action`` in ``view``: (best action, loss, points lost, chance taken, best chance,
    options compared). The best is :func:`judge`'s choice with ``rng`` (the hint's); the loss
    is that option's value minus the taken one's on ``check_samples`` fresh guesses (an
    independent child of ``rng``), so it is right on average and may be below 0; it is 0
    exactly when the judge's choice was taken. The best chance is the judge's (the hint's
    figure) and the chance taken is the best chance minus the loss, both to a tenth of a
    percentage point, so a shown loss is the shown difference."""
    if view.phase is Phase.PLAY and len({RANK[c] for c in view.legal_actions}) == 1:
        return action, 0.0, 0.0, float("nan"), float("nan"), 1
    check = rng.spawn(1)[0]  # drawn before the judge's guesses, which it leaves unchanged
    opts = judge(view, rng, samples, candidates, include=action)
    play = view.phase is Phase.PLAY
    best = opts[0]
    same = (RANK[best.action] == RANK[action]) if play else best.action == action
    loss = points_loss = 0.0
    if not same:
        pair = [best.action, action]
        n = CHECK_SAMPLES if check_samples is None else check_samples
        if play:
            chance, points = play_values(view, pair, check, n)
        else:
            chance, points, _ = discard_values_by_chance(view, pair, check, n)
        loss, points_loss = float(chance[0] - chance[1]), float(points[0] - points[1])
        if math.isnan(loss) or not has_table(view.rules):  # no table: rated by points alone
            loss = 0.0
    best_action = action if same else best.action
    best_chance, loss = round(best.chance, 3), round(loss, 3) + 0.0
    return best_action, loss, points_loss, best_chance - loss, best_chance, len(opts)
