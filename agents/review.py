"""Game review: every discard and pegging decision of both seats rated by the winning chance it
gave away, the way GNU Backgammon rates a match.

A decision is rated from the deciding seat's own view (what it could know then). For each
candidate the rest of the deal is played out on guesses of the hidden cards (the opponent's
cards from the analyzer opponent model of :mod:`agents.search.opponent_model`, the starter at a
discard), the same guesses for every candidate (common random numbers), with a fast heuristic
for both seats (:func:`agents.search.peg_search.rollout_card`, compiled: :mod:`cribbage_env.kernels.fastsim`);
the deal's end is read from the equity
table (:mod:`cribbage_env.equity`), and a game won or lost inside the deal counts 1 or 0, exact.
The judge picks its best option on one set of guesses (the hint's: it is the option the hint
shows), and the review values that option and the one taken on a second, independent set
(:data:`CHECK_SAMPLES` guesses, common to both): the loss is the difference there. The best of
noisy estimates is too good on the set it was picked on; on an independent set it is not, so a
decision's loss is right on average (it may come out below 0 where the move taken was as good;
0 exactly when it is the judge's choice). Pegging rates every card (one per rank: cards of a
rank are interchangeable); a discard rates the ``candidates`` best splits by the analyzer's
points plus the split taken.

Points lost is the same comparison in expected points margin to the end of the deal.

:func:`judge` is the one judge of the table: the review rates a decision with it and the hint
suggests its best option, each position with its own generator (:func:`position_rng`, drawn
from what the deciding seat sees), so a hint followed is never flagged by the review.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass

import numpy as np

import cribbage_env as ce
from cribbage_env.analysis.discard import analyze_discards
from cribbage_env.analysis.luck import GameLuck, game_luck
from cribbage_env.analysis.outcome import OutcomeSplit, outcome_split
from cribbage_env.equity import (
    chance_now,
    end_values,
    has_table,
    no_table,
    table_or_points,
)
from cribbage_env.rules.actions import action_str
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase
from cribbage_env.rules.engine import GameState
from cribbage_env.rules.views import PlayerView

from .players.expert import deal_play_outs, pegging_margins
from .search.opponent_model import sample_modelled_arrays, sample_opponent_deals
from .search.peg_search import sample_guesses

#: Winning chance lost (0..1) from which a decision is flagged.
THRESHOLDS = (("blunder", 0.06), ("bad", 0.03), ("doubtful", 0.01))
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


@dataclass(frozen=True)
class Rating:
    """One decision: what was done, what was best, and what it cost."""

    index: int  # position in the game's decision list
    seat: int
    deal: int
    phase: str  # "discard" | "play"
    action: str
    best: str
    loss: float  # winning chance lost, 0..1
    points_loss: float  # expected points margin lost to the end of the deal
    chance: float  # the seat's winning chance after the decision taken (NaN when forced)
    best_chance: float
    options: int  # candidates compared (1: forced)
    scores: tuple[int, int]
    flag: str  # "", "doubtful", "bad", "blunder"

    def to_json(self) -> dict:
        d = asdict(self)
        d["scores"] = list(self.scores)
        for k in ("loss", "points_loss", "chance", "best_chance"):
            d[k] = None if d[k] != d[k] else round(d[k], 5)  # NaN (forced: not rated) -> null
        return d


@dataclass(frozen=True)
class Review:
    ratings: tuple[Rating, ...]
    curve: tuple[float, ...]  # seat 0's winning chance before each rated decision, then the end
    winner: int | None
    scores: tuple[int, int]
    notice: str = ""  # rules with no winning-chance table: rated by points (equity.no_table)
    luck: GameLuck | None = None  # the chance events' luck (cribbage_env.analysis.luck), seat 0's
    key: str = ""  # review_key of the game and the judge's settings: equal keys, equal figures

    def _lost(self, seat: int, upto: int | None = None) -> float:
        """The winning chance ``seat``'s decisions lost (unrounded), the first ``upto`` only."""
        return float(sum(r.loss for r in self.ratings[:upto] if r.seat == seat and r.options > 1))

    def split(self, seat: int) -> OutcomeSplit | None:
        """How ``seat``'s winning chance went from 50% (before the cut for first deal, by
        symmetry) to the result (1 or 0; the last estimate if unfinished): the luck of the
        chance events (:attr:`luck`, what tournaments subtract), what each player's decisions
        lost by this review, and the rest, what the judge could not place
        (:func:`~cribbage_env.analysis.outcome.outcome_split`: each part within one game). None
        for rules with no winning-chance table."""
        if self.luck is None:
            return None
        end = self.curve[-1] if seat == 0 else 1.0 - self.curve[-1]
        luck = self.luck.win if seat == 0 else -self.luck.win
        return outcome_split(0.5, end, luck, self._lost(seat), self._lost(1 - seat))

    def luck_path(self) -> list[float]:
        """Seat 0's luck so far at each point of :attr:`curve` (the chance events before it:
        the cut, each deal's cards from its first decision, its starter from its play), scaled
        as the :meth:`split` scales it: it ends at ``split(0).luck``. Empty without a
        winning-chance table."""
        sp = self.split(0)
        if self.luck is None or sp is None:
            return []
        by_deal = {d.deal: d for d in self.luck.deals}
        before: dict[int, float] = {}
        total = self.luck.cut
        for k in sorted(by_deal):
            before[k] = total
            total += by_deal[k].cards + by_deal[k].starter
        path = []
        for r in self.ratings:
            deal = by_deal.get(r.deal)
            x = before.get(r.deal, total)
            if deal is not None:
                x += deal.cards + (deal.starter if r.phase == "play" else 0.0)
            path.append(sp.scale * x)
        return [*path, sp.luck]

    def luck_summary(self, seat: int) -> dict | None:
        """``seat``'s :meth:`split` (fractions of a win) and the chance events' measured luck
        (``events_luck``: mean zero whoever plays, what tournaments subtract), per deal too."""
        sp = self.split(seat)
        if sp is None or self.luck is None:
            return None
        sign = 1.0 if seat == 0 else -1.0
        luck = sign * self.luck.win
        return {
            "start": sp.start,
            "end": round(sp.end, 5),
            "luck": round(sp.luck, 5),
            "own_decisions": round(sp.own, 5),
            "other_decisions": round(sp.other, 5),
            "unexplained": round(sp.rest, 5),
            "scale": round(sp.scale, 5),
            "skill_lost": -sp.own + 0.0,
            "result": None if self.winner is None else float(self.winner == seat),
            "events_luck": round(luck, 5),
            "events_luck_points": round(sign * self.luck.points, 3),
            "events_luck_per_deal": round(luck / max(len(self.luck.deals), 1), 5),
        }

    def deal_rows(self) -> list[dict]:
        """Per deal: seat 0's luck of the cards and of the starter, and each seat's winning
        chance lost by its decisions in that deal."""
        if self.luck is None:
            return []
        lost: dict[int, list[float]] = {}
        for r in self.ratings:
            if r.options > 1:
                lost.setdefault(r.deal, [0.0, 0.0])[r.seat] += r.loss
        return [
            d.to_json() | {"skill_lost": [round(x, 5) for x in lost.get(d.deal, [0.0, 0.0])]}
            for d in self.luck.deals
        ]

    def seat_summary(self, seat: int) -> dict:
        """Error rate (mean winning chance lost per decision that had a choice), flags, totals."""
        rs = [r for r in self.ratings if r.seat == seat and r.options > 1]
        losses = [r.loss for r in rs]
        out = {
            "decisions": len(rs),
            "error_rate": round(float(np.mean(losses)) if rs else 0.0, 5),
            "total_loss": round(float(np.sum(losses)), 5),
            "points_lost": round(float(sum(r.points_loss for r in rs)), 3),
        }
        for name, _ in THRESHOLDS:
            out[name] = sum(1 for r in rs if r.flag == name)
        return out

    def to_json(self) -> dict:
        return {
            "rows": [r.to_json() for r in self.ratings],
            "seats": [self.seat_summary(0), self.seat_summary(1)],
            "curve": [None if c != c else round(c, 5) for c in self.curve],  # NaN: no table
            "winner": self.winner,
            "scores": list(self.scores),
            **({"notice": self.notice} if self.notice else {}),
            "luck": None
            if self.luck is None
            else {
                "cut": round(self.luck.cut, 5),
                "deals": self.deal_rows(),
                "seats": [self.luck_summary(0), self.luck_summary(1)],
            },
        }


def flag_of(loss: float) -> str:
    """The flag for a winning-chance loss (see :data:`THRESHOLDS`)."""
    for name, limit in THRESHOLDS:
        if loss >= limit:
            return name
    return ""


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


def review_key(
    game: GameState,
    *,
    samples: int = DEFAULT_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    seed: int = 0,
) -> str:
    """What a review is a pure function of (the game's seed, rules, cuts and decisions, and
    the judge's settings), as a digest: the key its figures are cached under, so a game
    reviewed at the table is never reviewed again, nor differently, by Statistics.

    >>> import cribbage_env as ce
    >>> g = ce.new_game(3)
    >>> review_key(g) == review_key(g.clone()) != review_key(g, samples=8)
    True
    """
    what = [game.seed, game.interactive_cuts, game.rules.to_json(), list(game.decisions)]
    text = json.dumps([*what, samples, candidates, seed, ROLLOUT, TAU, CHECK_SAMPLES])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def review_game(
    game: GameState,
    *,
    samples: int = DEFAULT_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    seed: int = 0,
) -> Review:
    """Rate every discard and pegging decision of a finished (or unfinished) game (each
    position with its own generator, :func:`position_rng`: the hint's verdict there). While
    the table's warm-up compiles, it waits for it: interpreted, a review takes longer."""
    if game.set_up:
        raise ValueError("a position set up by hand has no decision history to review")
    from cribbage_env.kernels.interpreted import wait_for_warm_up

    wait_for_warm_up()
    notice = "" if table_or_points(game.rules) else no_table(game.rules)
    g = ce.new_game(game.seed, interactive_cuts=game.interactive_cuts, rules=game.rules)
    ratings: list[Rating] = []
    curve: list[float] = []
    for i, a in enumerate(game.decisions):
        if g.phase in (Phase.DISCARD, Phase.PLAY):
            seat = g.to_act  # a decision phase: never None
            view = g.view(seat)
            curve.append(chance_now(g, 0))
            rng = position_rng(view, seed)
            best, loss, ploss, ch, best_ch, n = rate(view, a, rng, samples, candidates)
            phase = "discard" if g.phase is Phase.DISCARD else "play"
            ratings.append(Rating(i, seat, view.deal, phase, action_str(a), action_str(best), loss,
                                  ploss, ch, best_ch, n, g.scores, flag_of(loss)))  # fmt: skip
        g.apply(a)
    curve.append(chance_now(g, 0))
    luck = game_luck(g) if has_table(g.rules) else None  # luck is measured in winning chance
    key = review_key(game, samples=samples, candidates=candidates, seed=seed)
    return Review(tuple(ratings), tuple(curve), g.winner, g.scores, notice, luck, key)
