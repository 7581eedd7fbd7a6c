"""Self-play tournaments: duplicate deals, seeded plans, per-game rows and their summary.

A game is a pure function of ``(seed, decisions)``: the engine draws every shuffle and cut from
the seed, by *seat*. Playing the same seed twice with the two agents swapping seats is therefore
duplicate play: in the second game each agent receives exactly the cards its opponent held in the
first, and the seat that deals first (fixed by the seed's cut for deal, R2) is held by the other
agent, so each agent is first dealer in exactly one game of every pair.

Seeds are ``SeedSequence(root).spawn(n)`` children, one per duplicate pair, shared by every
pairing of a round robin (common deals make pairings comparable). An agent's generator is
``agents.seeding.agent_rng(agent_seed, game_seed, seat)``: a one-way hash of the run's independent
*agent seed* (drawn from OS entropy unless pinned, recorded in the plan's parameters), the game
seed and the *seat*, so an agent cannot read the deal's seed from its generator, a game never
depends on which process, backend or order it ran in, and an agent playing itself under duplicate
play splits every pair exactly.

Points are classified from the engine's events, per deal, by the role (dealer or pone) of the
seat that scored: *pegging* is ``EventKind.PLAY`` points plus ``EventKind.SCORE`` points (go, last
card and his heels; his heels, R5.2, is pegged by the dealer when the starter is turned, so we
count it as pegging and also report it separately as ``heels``); *hand* and *crib* are
``EventKind.SHOW`` points with ``what == "hand"`` / ``"crib"``. The last deal is usually cut short
by the win; it still counts as a deal.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

import cribbage_env as ce
from cribbage_env.scoring import ScoreKind

from .registry import make_agent
from .seeding import agent_rng, check_agent_seed, new_agent_seed
from .stats import RatingError, elo_ratings, mean_ci, wilson_interval

#: duplicate pairs per task by default (each pair is two games).
DEFAULT_BLOCK = 25


class TournamentError(ValueError):
    """A tournament asked for with bad parameters (agents, game count, seeds, backend...)."""


class AgentFailure(RuntimeError):
    """An agent returned an illegal action or raised: the tournament cannot score that game."""


# ------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SeatStats:
    """Points one seat made in one game, split by its role in each deal."""

    deals_dealer: int = 0
    deals_pone: int = 0
    peg_dealer: int = 0
    peg_pone: int = 0
    hand_dealer: int = 0
    hand_pone: int = 0
    crib: int = 0
    heels: int = 0  # included in peg_dealer


SEAT_FIELDS = tuple(SeatStats.__dataclass_fields__)


@dataclass(frozen=True)
class GameResult:
    """One finished game of a pairing; seats are engine seats, ``swapped`` says who sat where."""

    pairing: int
    index: int  # duplicate-pair index: the game seed is seeds[index]
    swapped: bool  # False: the pairing's agent A sits in seat 0; True: in seat 1
    seed: int
    winner: int
    scores: tuple[int, int]
    first_dealer: int
    deals: int
    seats: tuple[SeatStats, SeatStats]
    moves: tuple[int, ...] = field(default=(), compare=True)

    @property
    def seat_a(self) -> int:
        return 1 if self.swapped else 0

    @property
    def a_won(self) -> bool:
        return self.winner == self.seat_a

    @property
    def margin_a(self) -> int:
        a = self.seat_a
        return self.scores[a] - self.scores[1 - a]

    @property
    def skunk(self) -> int:
        return ce.skunk_level(self.scores)

    @property
    def key(self) -> tuple[int, int, bool]:
        return (self.pairing, self.index, self.swapped)


# ------------------------------------------------------------------------------- plan


@dataclass(frozen=True)
class Pairing:
    index: int
    a: str
    b: str


@dataclass(frozen=True)
class Task:
    """A block of duplicate pairs of one pairing: the unit a worker plays."""

    pairing: int
    a: str
    b: str
    items: tuple[tuple[int, int], ...]  # (index, seed)
    duplicate: bool
    agent_seed: int = 0


@dataclass(frozen=True)
class TournamentPlan:
    """Everything that determines a tournament's games (not how or where they run)."""

    agents: tuple[str, ...]
    pairings: tuple[Pairing, ...]
    games: int  # per pairing
    root_seed: int
    duplicate: bool
    seeds: tuple[int, ...]
    block: int
    agent_seed: int = 0  # the agents' generators (agents.seeding); make_plan draws one

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    def tasks(self) -> list[Task]:
        """Blocks of seeds per pairing, in a fixed order (scheduling never changes results)."""
        out = []
        for p in self.pairings:
            for start in range(0, len(self.seeds), self.block):
                chunk = tuple(
                    (i, self.seeds[i])
                    for i in range(start, min(start + self.block, len(self.seeds)))
                )
                out.append(Task(p.index, p.a, p.b, chunk, self.duplicate, self.agent_seed))
        return out

    def params(self) -> dict:
        return {
            "agents": list(self.agents),
            "pairings": [[p.a, p.b] for p in self.pairings],
            "games": self.games,
            "seed": self.root_seed,
            "duplicate": self.duplicate,
            "block": self.block,
            "agent_seed": self.agent_seed,
        }


def game_seeds(root: int, n: int) -> list[int]:
    """``n`` engine seeds from ``SeedSequence(root).spawn(n)`` (63-bit, so SQLite can hold them).

    >>> game_seeds(1, 3) == game_seeds(1, 5)[:3]
    True
    """
    children = np.random.SeedSequence(root).spawn(n)
    return [int(c.generate_state(1, np.uint64)[0]) >> 1 for c in children]


def make_plan(
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    duplicate: bool = True,
    block: int = DEFAULT_BLOCK,
    check_agents: bool = True,
    agent_seed: int | None = None,
) -> TournamentPlan:
    """A round robin among ``agents`` (a head-to-head when there are two), ``games`` per pairing.

    ``agent_seed`` seeds the agents' generators (see :mod:`agents.seeding`); ``None`` draws a
    fresh one from OS entropy (it is in :meth:`TournamentPlan.params`, so a run can be repeated).

    >>> plan = make_plan(["random", "random"], 4, seed=1)
    >>> len(plan.pairings), len(plan.seeds), plan.total_games
    (1, 2, 4)
    """
    agents = tuple(agents)
    if len(agents) < 2:
        raise TournamentError(f"a tournament needs at least two agent specs, got {len(agents)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"games must be a positive integer, got {games!r}")
    if duplicate and games % 2:
        raise TournamentError(
            f"games must be even with duplicate deals (each seed is played twice, seats swapped), "
            f"got {games}; use an even number or turn duplicate deals off"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise TournamentError(f"seed must be an integer from 0 to 2**63 - 1, got {seed!r}")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise TournamentError(f"block must be a positive integer, got {block!r}")
    try:
        agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    if check_agents:
        for spec in dict.fromkeys(agents):
            make_agent(spec)  # AgentSpecError (a ValueError) with the known names
    pairs = list(itertools.combinations(range(len(agents)), 2))
    pairings = tuple(Pairing(k, agents[i], agents[j]) for k, (i, j) in enumerate(pairs))
    n_seeds = games // 2 if duplicate else games
    return TournamentPlan(
        agents,
        pairings,
        games,
        seed,
        duplicate,
        tuple(game_seeds(seed, n_seeds)),
        block,
        agent_seed,
    )


# ------------------------------------------------------------------------------- playing

_AGENT_CACHE: dict[tuple[str, int], object] = {}


def _agent(spec: str, seat: int):
    """One agent instance per (spec, seat) per process: cheap to reuse, never shared by seats."""
    key = (spec, seat)
    agent = _AGENT_CACHE.get(key)
    if agent is None:
        agent = _AGENT_CACHE[key] = make_agent(spec)
    return agent


def seat_stats(events: Iterable[ce.Event]) -> tuple[SeatStats, SeatStats]:
    """Per-seat pegging / hand / crib points by role, from a game's events (see module doc)."""
    acc = [dict.fromkeys(SEAT_FIELDS, 0), dict.fromkeys(SEAT_FIELDS, 0)]
    dealer = 0
    for e in events:
        kind = e.kind
        if kind is ce.EventKind.DEAL:
            dealer = e.player
            acc[dealer]["deals_dealer"] += 1
            acc[1 - dealer]["deals_pone"] += 1
            continue
        if not e.points:
            continue
        p = e.player
        role = "dealer" if p == dealer else "pone"
        if kind is ce.EventKind.PLAY or kind is ce.EventKind.SCORE:
            acc[p]["peg_" + role] += e.points
            if kind is ce.EventKind.SCORE and any(r.kind is ScoreKind.HIS_HEELS for r in e.reasons):
                acc[p]["heels"] += e.points
        elif kind is ce.EventKind.SHOW:
            if e.what == "crib":
                acc[p]["crib"] += e.points
            else:
                acc[p]["hand_" + role] += e.points
    return (SeatStats(**acc[0]), SeatStats(**acc[1]))


def _seat_stats_fast(g: ce.GameState) -> tuple[SeatStats, SeatStats]:
    """:func:`seat_stats` of ``g.events`` read straight from the engine's raw event log.

    ``g.events`` also builds every scoring breakdown (the reasons), which costs more than playing
    the game; the tallies need only kind, player, points and the SCORE kind. A test checks this
    equals :func:`seat_stats` on the typed events.
    """
    K = ce.EventKind
    acc = [dict.fromkeys(SEAT_FIELDS, 0), dict.fromkeys(SEAT_FIELDS, 0)]
    dealer = 0
    for entry in g.log:
        kind, p, pts = entry[0], entry[1], entry[3]
        if kind is K.DEAL:
            dealer = p
            acc[p]["deals_dealer"] += 1
            acc[1 - p]["deals_pone"] += 1
        elif not pts:
            continue
        elif kind is K.PLAY or kind is K.SCORE:
            acc[p]["peg_dealer" if p == dealer else "peg_pone"] += pts
            if kind is K.SCORE and len(entry) > 4 and entry[4] is ScoreKind.HIS_HEELS:
                acc[p]["heels"] += pts
        elif kind is K.SHOW:
            if entry[4] == "crib":
                acc[p]["crib"] += pts
            else:
                acc[p]["hand_dealer" if p == dealer else "hand_pone"] += pts
    return (SeatStats(**acc[0]), SeatStats(**acc[1]))


def play_game(spec0: str, spec1: str, seed: int, agent_seed: int | None = None) -> ce.GameState:
    """Play one game, ``spec0`` in seat 0; raises :class:`AgentFailure` on an illegal action.

    ``agent_seed`` seeds the agents' generators (``None``: a fresh one from OS entropy).
    """
    players = (_agent(spec0, 0), _agent(spec1, 1))
    if agent_seed is None:
        agent_seed = new_agent_seed()
    rngs = (agent_rng(agent_seed, seed, 0), agent_rng(agent_seed, seed, 1))
    g = ce.new_game(seed)
    while not g.is_over:
        p = g.current_player
        try:
            action = players[p].act(g.view(p), rngs[p])
        except Exception as exc:  # the agent's bug, reported with where it happened
            raise AgentFailure(
                f"agent {(spec0, spec1)[p]!r} (seat {p}) failed in game seed {seed}: {exc!r}"
            ) from exc
        try:
            g.apply(action, p)
        except ce.IllegalActionError as exc:
            raise AgentFailure(
                f"agent {(spec0, spec1)[p]!r} (seat {p}) in game seed {seed}: {exc}"
            ) from None
    return g


def result_of(g: ce.GameState, pairing: int, index: int, swapped: bool) -> GameResult:
    first = next(entry[1] for entry in g.log if entry[0] is ce.EventKind.DEAL)
    return GameResult(
        pairing=pairing,
        index=index,
        swapped=swapped,
        seed=g.seed,
        winner=int(g.winner),
        scores=g.scores,
        first_dealer=first,
        deals=g.deal_no + 1,
        seats=_seat_stats_fast(g),
        moves=tuple(g.decisions),
    )


def play_task(task: Task) -> list[GameResult]:
    """Play every game of a block (the function each backend runs)."""
    out = []
    for index, seed in task.items:
        out.append(
            result_of(play_game(task.a, task.b, seed, task.agent_seed), task.pairing, index, False)
        )
        if task.duplicate:
            out.append(
                result_of(
                    play_game(task.b, task.a, seed, task.agent_seed), task.pairing, index, True
                )
            )
    return out


# ------------------------------------------------------------------------------- summary


def _r(x: float, nd: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), nd)


def _role_table(rows: Iterable[tuple[GameResult, int]]) -> dict:
    """Points per deal for one agent by role, over ``(game, seat it sat in)`` pairs."""
    tot = dict.fromkeys(SEAT_FIELDS, 0)
    for r, seat in rows:
        s = r.seats[seat]
        for f in SEAT_FIELDS:
            tot[f] += getattr(s, f)
    dd, dp = tot["deals_dealer"], tot["deals_pone"]

    def per(x: int, d: int) -> float | None:
        return _r(x / d) if d else None

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


def summarize_pairing(pairing: Pairing, rows: Sequence[GameResult]) -> dict:
    """The report of one pairing (agent A = ``pairing.a``); JSON-ready."""
    rows = sorted(rows, key=lambda r: r.key)
    n = len(rows)
    wa = sum(r.a_won for r in rows)
    lo, hi = wilson_interval(wa, n)
    margins = [r.margin_a for r in rows]
    by_pair: dict[int, list[int]] = {}
    for r in rows:
        by_pair.setdefault(r.index, []).append(r.margin_a)
    duplicate = any(r.swapped for r in rows) and any(not r.swapped for r in rows)
    # Under duplicate play the two games of a pair are dependent: the CI uses pair means.
    units = [sum(v) / len(v) for v in by_pair.values()] if duplicate else margins
    mean, mlo, mhi = mean_ci(units) if units else (math.nan, math.nan, math.nan)
    mp = [0, 0]
    skunks = [0, 0]
    doubles = [0, 0]
    for r in rows:
        w = 0 if r.a_won else 1
        level = r.skunk
        mp[w] += level
        skunks[w] += level >= 2
        doubles[w] += level == 3
    fd_wins = sum(r.winner == r.first_dealer for r in rows)
    flo, fhi = wilson_interval(fd_wins, n)
    return {
        "agents": [pairing.a, pairing.b],
        "games": n,
        "pairs": len(by_pair) if duplicate else 0,
        "wins": [wa, n - wa],
        "win_rate": _r(wa / n) if n else None,
        "win_rate_ci": [_r(lo), _r(hi)],
        "mean_margin": _r(mean),
        "mean_margin_ci": [_r(mlo), _r(mhi)],
        "match_points": mp,
        "match_points_per_game": [_r(mp[0] / n), _r(mp[1] / n)] if n else [None, None],
        "skunks": skunks,
        "double_skunks": doubles,
        "first_dealer_win_rate": _r(fd_wins / n) if n else None,
        "first_dealer_win_rate_ci": [_r(flo), _r(fhi)],
        "mean_deals": _r(sum(r.deals for r in rows) / n) if n else None,
        "points_per_deal": {
            "a": _role_table((r, r.seat_a) for r in rows),
            "b": _role_table((r, 1 - r.seat_a) for r in rows),
        },
    }


def summarize(plan: TournamentPlan, results: Sequence[GameResult], *, prior: float = 1.0) -> dict:
    """The whole report: pairings, per-agent points per deal, and ratings (round robins)."""
    by_pairing: dict[int, list[GameResult]] = {p.index: [] for p in plan.pairings}
    for r in results:
        by_pairing[r.pairing].append(r)
    pairings = [summarize_pairing(p, by_pairing[p.index]) for p in plan.pairings]
    # Per agent over all its games (an agent listed twice is one agent).
    agent_rows: dict[str, list[tuple[GameResult, int]]] = {a: [] for a in plan.agents}
    wins: dict[tuple[str, str], float] = {}
    for p in plan.pairings:
        for r in by_pairing[p.index]:
            agent_rows[p.a].append((r, r.seat_a))
            agent_rows[p.b].append((r, 1 - r.seat_a))
            if p.a != p.b:
                key = (p.a, p.b) if r.a_won else (p.b, p.a)
                wins[key] = wins.get(key, 0) + 1
    per_agent = {a: _role_table(pairs) for a, pairs in agent_rows.items()}
    ratings = None
    rating_error = None
    if len(set(plan.agents)) >= 2 and wins:
        try:
            elo = elo_ratings(wins, prior=prior)
            ratings = [
                {"agent": a, "elo": _r(v, 1)} for a, v in sorted(elo.items(), key=lambda kv: -kv[1])
            ]
        except RatingError as exc:
            rating_error = str(exc)
    return {
        "params": plan.params(),
        "games_played": len(results),
        "games_planned": plan.total_games,
        "pairings": pairings,
        "agents": per_agent,
        "ratings": ratings,
        "ratings_method": f"maximum-likelihood Bradley-Terry (MM), {prior:g} virtual game(s) split "
        f"evenly per pairing, Elo scale 400*log10, mean 0",
        "rating_error": rating_error,
    }


def result_to_dict(r: GameResult) -> dict:
    d = asdict(r)
    d["scores"] = list(r.scores)
    d["moves"] = list(r.moves)
    return d


def result_from_dict(d: dict) -> GameResult:
    seats = tuple(SeatStats(**s) for s in d["seats"])
    return GameResult(
        pairing=int(d["pairing"]),
        index=int(d["index"]),
        swapped=bool(d["swapped"]),
        seed=int(d["seed"]),
        winner=int(d["winner"]),
        scores=(int(d["scores"][0]), int(d["scores"][1])),
        first_dealer=int(d["first_dealer"]),
        deals=int(d["deals"]),
        seats=seats,  # type: ignore[arg-type]
        moves=tuple(int(m) for m in d.get("moves", ())),
    )
