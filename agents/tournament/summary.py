"""Tournament reports from running tallies: memory flat in the number of games.

A :class:`Tally` takes finished games block by block (as a run plays them, or as they are read
back from the results store) and keeps only counts and exact sums: wins, match points, skunks,
the points per deal by role, and the sum and sum of squares of the margin units (pair means
under duplicate play, whose two games are dependent; single margins otherwise). The report is
the same whether the games arrive at once or a block at a time, in any order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from ..stats import Z95, RatingError, elo_ratings, wilson_interval
from .game_result import SEAT_FIELDS, GameResult
from .luck_stats import LuckTally
from .tournament import Pairing, TournamentPlan

if TYPE_CHECKING:
    import cribbage_env as ce


def _r(x: float | None, nd: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), nd)


def role_table(tot: dict[str, int], digits: int = 4) -> dict:
    """Points per deal for one player by role (rounded to ``digits``), from the summed
    :class:`SeatStats` fields of its games (a tournament's agent, a person's history)."""
    dd, dp = tot["deals_dealer"], tot["deals_pone"]

    def per(x: int, d: int) -> float | None:
        return _r(x / d, digits) if d else None

    return {
        "dealer": {
            "deals": dd,
            "pegging": per(tot["peg_dealer"], dd),
            "hand": per(tot["hand_dealer"], dd),
            "crib": per(tot["crib"], dd),
            "heels": per(tot["heels"], dd),
        },
        "pone": {
            "deals": dp,
            "pegging": per(tot["peg_pone"], dp),
            "hand": per(tot["hand_pone"], dp),
            "crib": 0.0 if dp else None,
        },
    }


def _mean_ci(n: int, s: Fraction, q: Fraction) -> tuple[float, float, float]:
    """Mean and normal 95% interval (sample SD) from the count, sum and sum of squares."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(s / n)
    if n == 1:
        return (mean, math.nan, math.nan)
    var = float((q - s * s / n) / (n - 1))
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    return (mean, mean - half, mean + half)


class PairingTally:
    """Running counts of one pairing (agent A = ``pairing.a``)."""

    def __init__(self, pairing: Pairing, rules: ce.Rules, duplicate: bool | None = None) -> None:
        self.pairing, self.rules = pairing, rules
        self.duplicate = duplicate  # None: decided by the games (both seatings seen)
        self.n = self.wa = self.fd_wins = self.deals = 0
        self.mp, self.skunks, self.doubles = [0, 0], [0, 0], [0, 0]
        self.forfeits = [0, 0]  # games lost by forfeit (an isolated seat crashed, hung...)
        self.roles = {"a": dict.fromkeys(SEAT_FIELDS, 0), "b": dict.fromkeys(SEAT_FIELDS, 0)}
        self.seen_swapped = self.seen_straight = False
        # single games: count, sum, sum of squares; finished duplicate pairs: the same of pair means
        self.n_margins, self.s_margins, self.q_margins = 0, Fraction(0), Fraction(0)
        self.n_pairs, self.s_pairs, self.q_pairs = 0, Fraction(0), Fraction(0)
        self._open: dict[int, int] = {}  # pair index -> margin of its first game seen
        self.luck = LuckTally()

    def add(self, r: GameResult) -> None:
        self.n += 1
        a_won = r.a_won
        self.wa += a_won
        w = 0 if a_won else 1
        level = r.game_points(self.rules)
        self.mp[w] += level
        self.skunks[w] += level >= 2
        self.doubles[w] += level == 3
        self.forfeits[1 - w] += bool(r.forfeit)
        self.fd_wins += r.winner == r.first_dealer
        self.deals += r.deals
        for side, seat in (("a", r.seat_a), ("b", 1 - r.seat_a)):
            s, tot = r.seats[seat], self.roles[side]
            for f in SEAT_FIELDS:
                tot[f] += getattr(s, f)
        self.luck.add(r)
        self.seen_swapped |= r.swapped
        self.seen_straight |= not r.swapped
        m = r.margin_a
        self.n_margins += 1
        self.s_margins += m
        self.q_margins += m * m
        first = self._open.pop(r.index, None)
        if first is None:
            self._open[r.index] = m
        else:
            mean = Fraction(first + m, 2)
            self.n_pairs += 1
            self.s_pairs += mean
            self.q_pairs += mean * mean

    def _units(self) -> tuple[bool, int, Fraction, Fraction]:
        dup = (
            self.duplicate
            if self.duplicate is not None
            else self.seen_swapped and self.seen_straight
        )
        if not dup:
            return False, self.n_margins, self.s_margins, self.q_margins
        n, s, q = self.n_pairs, self.s_pairs, self.q_pairs
        for m in self._open.values():  # a pair cut short: its one game is its mean
            n, s, q = n + 1, s + m, q + m * m
        return True, n, s, q

    def summary(self) -> dict:
        n, wa, mp = self.n, self.wa, self.mp
        lo, hi = wilson_interval(wa, n)
        dup, units, s, q = self._units()
        mean, mlo, mhi = _mean_ci(units, s, q)
        flo, fhi = wilson_interval(self.fd_wins, n)
        return {
            "agents": [self.pairing.a, self.pairing.b],
            "games": n,
            "pairs": units if dup else 0,
            "wins": [wa, n - wa],
            "win_rate": _r(wa / n) if n else None,
            "win_rate_ci": [_r(lo), _r(hi)],
            "mean_margin": _r(mean),
            "mean_margin_ci": [_r(mlo), _r(mhi)],
            "match_points": list(mp),
            "match_points_per_game": [_r(mp[0] / n), _r(mp[1] / n)] if n else [None, None],
            "skunks": list(self.skunks),
            "double_skunks": list(self.doubles),
            "first_dealer_win_rate": _r(self.fd_wins / n) if n else None,
            "first_dealer_win_rate_ci": [_r(flo), _r(fhi)],
            "mean_deals": _r(self.deals / n) if n else None,
            "luck_adjusted": self.luck.summary(),
            "points_per_deal": {
                "a": role_table(self.roles["a"]),
                "b": role_table(self.roles["b"]),
            },
            **({"forfeits": list(self.forfeits)} if any(self.forfeits) else {}),
        }


class Tally:
    """Running counts of a whole tournament; :meth:`summary` is its report."""

    def __init__(self, plan: TournamentPlan) -> None:
        self.plan = plan
        self.pairings = [PairingTally(p, plan.rules) for p in plan.pairings]
        self.games = 0

    def add(self, games: Iterable[GameResult]) -> Tally:
        for r in games:
            self.pairings[r.pairing].add(r)
            self.games += 1
        return self

    def summary(self, prior: float = 1.0) -> dict:
        """The whole report: pairings, per-agent points per deal, and ratings (round robins)."""
        plan = self.plan
        totals = {
            a: dict.fromkeys(SEAT_FIELDS, 0) for a in plan.agents
        }  # an agent listed twice is one
        wins: dict[tuple[str, str], float] = {}
        for t in self.pairings:
            p = t.pairing
            for side, name in (("a", p.a), ("b", p.b)):
                for f in SEAT_FIELDS:
                    totals[name][f] += t.roles[side][f]
            if p.a != p.b:
                for key, k in (((p.a, p.b), t.wa), ((p.b, p.a), t.n - t.wa)):
                    if k:
                        wins[key] = wins.get(key, 0) + k
        ratings = rating_error = None
        if len(set(plan.agents)) >= 2 and wins:
            try:
                elo = elo_ratings(wins, prior=prior)
                ratings = [
                    {"agent": a, "elo": _r(v, 1)}
                    for a, v in sorted(elo.items(), key=lambda kv: -kv[1])
                ]
            except RatingError as exc:
                rating_error = str(exc)
        return {
            "params": plan.params(),
            "games_played": self.games,
            "games_planned": plan.total_games,
            "pairings": [t.summary() for t in self.pairings],
            "agents": {a: role_table(tot) for a, tot in totals.items()},
            "ratings": ratings,
            "ratings_method": f"maximum-likelihood Bradley-Terry (MM), {prior:g} virtual game(s) split "
            f"evenly per pairing, Elo scale 400*log10, mean 0",
            "rating_error": rating_error,
        }


def summarize_pairing(pairing: Pairing, rows: Iterable[GameResult], rules: ce.Rules) -> dict:
    """The report of one pairing (agent A = ``pairing.a``) played under ``rules``; JSON-ready."""
    t = PairingTally(pairing, rules)
    for r in rows:
        t.add(r)
    return t.summary()


def summarize(plan: TournamentPlan, results: Iterable[GameResult], *, prior: float = 1.0) -> dict:
    """The whole report of ``results`` (see :class:`Tally`)."""
    return Tally(plan).add(results).summary(prior)
