"""Game review: every discard and pegging decision of both seats rated by the winning chance it
gave away, the way GNU Backgammon rates a match.

Each decision is rated by the table's one judge (:func:`agents.coaching.judge.rate`, the judge's
best option against the move taken, on fresh guesses of the hidden cards), each position with
the hint's generator (:func:`agents.coaching.judge.position_rng`), so a hint followed is never
flagged by the review. A :class:`Review` holds the ratings, seat 0's winning chance before each,
and how each seat's chance went from 50% to the result: the luck of the chance events, what each
player's decisions lost, and the rest.

Points lost is the same comparison in expected points margin to the end of the deal.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numpy as np

import cribbage_env as ce
from cribbage_env.analysis.luck import GameLuck, game_luck
from cribbage_env.analysis.outcome import OutcomeSplit, outcome_split
from cribbage_env.equity import chance_now, has_table, no_table, table_or_points
from cribbage_env.rules.actions import action_str
from cribbage_env.rules.core import Phase
from cribbage_env.rules.engine import GameState

from .coaching.judge import (
    CHECK_SAMPLES,
    DEFAULT_CANDIDATES,
    DEFAULT_SAMPLES,
    ROLLOUT,
    TAU,
    position_rng,
    rate,
)

#: Winning chance lost (0..1) from which a decision is flagged.
THRESHOLDS = (("blunder", 0.06), ("bad", 0.03), ("doubtful", 0.01))


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
