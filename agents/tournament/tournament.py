"""Self-play tournaments: duplicate deals and seeded plans (playing them: play.py; reports:
summary.py).

A game is a pure function of ``(seed, decisions)``: the engine draws every shuffle and cut from
the seed, by *seat*. Playing the same seed twice with the two agents swapping seats is therefore
duplicate play: in the second game each agent receives exactly the cards its opponent held in the
first, and the seat that deals first (fixed by the seed's cut for deal, R2) is held by the other
agent, so each agent is first dealer in exactly one game of every pair.

Seeds are ``SeedSequence(root).spawn(n)`` children, one per duplicate pair, shared by every
pairing of a round robin (common deals make pairings comparable). An agent's generator is
``cribbage_env.seeding.agent_rng(agent_seed, game_seed, seat)``: a one-way hash of the run's independent
*agent seed* (drawn from OS entropy unless pinned, recorded in the plan's parameters), the game
seed and the *seat*, so an agent cannot read the deal's seed from its generator, a game never
depends on which process, backend or order it ran in, and an agent playing itself under duplicate
play splits every pair exactly.

A plan's games are played by :mod:`agents.tournament.play`; each game's row and its per-seat
points by role are in :mod:`agents.tournament.game_result`.
"""

from __future__ import annotations

import itertools
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

import cribbage_env as ce
from cribbage_env.seeding import check_agent_seed, deals_from_secret, new_agent_seed

from ..arena.seat import DEFAULT_LIMITS, SeatLimits
from ..base import AgentSpecError
from ..errors import AgentError
from ..registry import SEALED_PREFIX
from ..seats.isolate import check_isolation
from ..seats.sources import AgentSource, check_source, label_agents
from .limits import LIMITS

#: Bytes of the secret a plan with isolated seats derives its deals from.
DEAL_KEY_BYTES = 16
#: duplicate pairs per task by default (each pair is two games).
DEFAULT_BLOCK = 25


class TournamentError(AgentError, ValueError):
    """A tournament asked for with bad parameters (agents, game count, seeds, backend...)."""


class AgentFailure(AgentError, RuntimeError):
    """An agent returned an illegal action or raised: the tournament cannot score that game."""


# ------------------------------------------------------------------------------- plan

#: most games one run may plan (all pairings together): split bigger studies into several runs.
MAX_GAMES = LIMITS["games"]


@dataclass(frozen=True)
class Pairing:
    index: int
    a: str
    b: str


@dataclass(frozen=True)
class Seating:
    """Where the agents sit: in the game's process (``isolate`` None), or each in a sealed seat
    with ``isolate`` seconds a decision, at most ``limits``, and none of the ``hidden`` files
    readable (the results database: not a parameter of the games)."""

    isolate: float | None = None
    limits: SeatLimits = DEFAULT_LIMITS
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Task:
    """A block of duplicate pairs of one pairing: the unit a worker plays.

    ``a`` and ``b`` are the agents' labels (their specs for spec strings); ``source_a`` and
    ``source_b`` hold the agent objects or factories when they are not specs.
    """

    pairing: int
    a: str
    b: str
    items: tuple[tuple[int, int], ...]  # (index, seed)
    duplicate: bool
    agent_seed: int = 0
    source_a: AgentSource | None = None
    source_b: AgentSource | None = None
    rules: ce.Rules = ce.STANDARD
    seating: Seating = Seating()

    @property
    def start(self) -> int:
        return self.items[0][0] if self.items else 0


class Seeds(Sequence):
    """The game seeds of a plan, computed when read (``SeedSequence(root).spawn(n)`` children):
    a plan of millions of games holds two integers, not millions."""

    def __init__(self, root: int, n: int) -> None:
        self.root, self.n = root, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        if not -self.n <= i < self.n:
            raise IndexError(i)
        child = np.random.SeedSequence(self.root, spawn_key=(i % self.n,))
        return int(child.generate_state(1, np.uint64)[0]) >> 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Seeds):
            return (self.root, self.n) == (other.root, other.n)
        return isinstance(other, Sequence) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash((self.root, self.n))

    def __repr__(self) -> str:
        return f"Seeds(root={self.root}, n={self.n})"


@dataclass(frozen=True, kw_only=True)
class TournamentPlan:
    """Everything that determines a tournament's games (not how or where they run); built by
    :func:`make_plan`, field by name."""

    agents: tuple[str, ...]  # labels: the spec, or a name for an agent object
    pairings: tuple[Pairing, ...]
    games: int  # per pairing
    root_seed: int
    duplicate: bool
    seeds: Sequence[int]
    block: int
    agent_seed: int = 0  # the agents' generators (cribbage_env.seeding); make_plan draws one
    sources: tuple[AgentSource, ...] = ()  # per agent label, when some agent is not a spec
    rules: ce.Rules = ce.STANDARD
    deal_key: str = ""  # the secret (hex) the deals derive from with the seed; "" : seed only
    seating: Seating = Seating()  # in-process, or sealed seats and their limits

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    @property
    def has_objects(self) -> bool:
        """Some agent is an object or factory (not a spec string): it cannot be rebuilt by name."""
        return any(not isinstance(src, str) for src in self.sources)

    def source(self, label: str) -> AgentSource | None:
        if not self.sources:
            return None
        src = self.sources[self.agents.index(label)]
        return None if isinstance(src, str) else src

    def iter_tasks(self, skip: Callable[[int, int], bool] | None = None) -> Iterator[Task]:
        """Blocks of seeds per pairing in a fixed order (scheduling never changes results);
        ``skip(pairing, start)`` leaves out blocks already played (resuming a run)."""
        n = len(self.seeds)
        for p in self.pairings:
            sa, sb = self.source(p.a), self.source(p.b)
            for start in range(0, n, self.block):
                if skip is not None and skip(p.index, start):
                    continue
                chunk = tuple((i, self.seeds[i]) for i in range(start, min(start + self.block, n)))
                yield Task(pairing=p.index, a=p.a, b=p.b, items=chunk, duplicate=self.duplicate,
                           agent_seed=self.agent_seed, source_a=sa, source_b=sb, rules=self.rules,
                           seating=self.seating)  # fmt: skip

    def tasks(self) -> list[Task]:
        return list(self.iter_tasks())

    def block_games(self, start: int) -> int:
        """Games in the block that starts at pair index ``start``."""
        return (min(start + self.block, len(self.seeds)) - start) * (2 if self.duplicate else 1)

    def params(self) -> dict:
        extra: dict = {}
        if self.seating.isolate is not None:
            extra = {"isolate": self.seating.isolate, "seat_limits": self.seating.limits.to_json()}
        if self.deal_key:
            extra["deal_key"] = self.deal_key
        return {
            **extra,
            "agents": list(self.agents),
            "pairings": [[p.a, p.b] for p in self.pairings],
            "games": self.games,
            "seed": self.root_seed,
            "duplicate": self.duplicate,
            "block": self.block,
            "agent_seed": self.agent_seed,
            "objects": [a for a in self.agents if self.source(a) is not None],
            # only other rules are written, so a standard run's parameters are as they were
            **({} if self.rules.is_standard else {"rules": self.rules.to_json()}),
        }


def game_seeds(root: int, n: int) -> list[int]:
    """``n`` engine seeds from ``SeedSequence(root).spawn(n)`` (63-bit, so SQLite can hold them).

    >>> game_seeds(1, 3) == game_seeds(1, 5)[:3]
    True
    """
    return list(Seeds(root, n))


def make_plan(
    agents: Sequence[AgentSource],
    games: int,
    seed: int = 0,
    *,
    duplicate: bool = True,
    block: int = DEFAULT_BLOCK,
    check_agents: bool = True,
    agent_seed: int | None = None,
    rules: ce.Rules | str = ce.STANDARD,
    isolate: float | None = None,
    deal_key: str | None = None,
    seat_limits: SeatLimits = DEFAULT_LIMITS,
    hidden: tuple[str, ...] = (),
) -> TournamentPlan:
    """A round robin among ``agents`` (a head-to-head when there are two), ``games`` per pairing.

    Agents are spec strings, agent instances or factories (see :data:`AgentSource`).
    ``agent_seed`` seeds the agents' generators (see :mod:`cribbage_env.seeding`); ``None`` draws a
    fresh one from OS entropy (it is in :meth:`TournamentPlan.params`, so a run can be repeated).
    ``rules``: the game every deal plays (a :class:`~cribbage_env.Rules`, variant name or fields).
    ``isolate`` (seconds per decision) runs every agent in its own process (:mod:`agents.seats.isolate`):
    agents must then be spec strings, and they are checked there, never imported here; their
    deals then derive from ``seed`` and a ``deal_key`` drawn from the OS (no seat can replay
    them; the key is in :meth:`TournamentPlan.params`, so the results database can repeat the
    run). So do the deals of a plan with any agent outside this process (``sealed:``, ``cmd:``,
    a protocol bot). A ``deal_key`` given repeats such a run's deals. ``hidden``: files no
    sealed seat may read, the start-up check's included (the results database).

    >>> plan = make_plan(["random", "random"], 4, seed=1)
    >>> len(plan.pairings), len(plan.seeds), plan.total_games
    (1, 2, 4)
    """
    agents = tuple(agents)
    check_sizes(len(agents), games, duplicate, seed, block)
    try:
        agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    try:
        rules = ce.Rules.named(rules)
    except ce.RulesError as exc:
        raise TournamentError(str(exc)) from None
    labels, sources = label_agents(agents)
    if isolate is not None:
        try:
            isolate = check_isolation(agents, isolate, check_agents, hidden)
        except ValueError as exc:  # a bad timeout (a bad agent stays an AgentSpecError)
            raise exc if isinstance(exc, AgentSpecError) else TournamentError(str(exc)) from None
    elif check_agents:
        for label, src in dict(zip(labels, sources or labels, strict=True)).items():
            check_source(label, src)
    pairs = list(itertools.combinations(range(len(labels)), 2))
    pairings = tuple(Pairing(k, labels[i], labels[j]) for k, (i, j) in enumerate(pairs))
    n_seeds = games // 2 if duplicate else games
    key = check_deal_key(deal_key, isolate is not None or any(map(plays_outside, agents)))
    return TournamentPlan(
        agents=labels, pairings=pairings, games=games, root_seed=seed, duplicate=duplicate,
        seeds=Seeds(deal_entropy(seed, key), n_seeds), block=block, agent_seed=agent_seed,
        sources=sources, rules=rules, deal_key=key,
        seating=Seating(isolate, seat_limits, tuple(hidden)),
    )  # fmt: skip


def check_sizes(n_agents: int, games: object, duplicate: bool, seed: object, block: object) -> None:
    """The counts of a plan checked before anything is built: two agents or more, a positive
    (even, with duplicate deals) number of games within :data:`MAX_GAMES` for the whole run, a
    63-bit seed and a positive block; TournamentError says which is wrong."""
    if n_agents < 2:
        raise TournamentError(f"a tournament needs at least two agent specs, got {n_agents}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"games must be a positive integer, got {games!r}")
    if duplicate and games % 2:
        raise TournamentError(
            f"games must be even with duplicate deals (each seed is played twice, seats swapped), "
            f"got {games}; use an even number or turn duplicate deals off"
        )
    n_pairings = n_agents * (n_agents - 1) // 2
    if games * n_pairings > MAX_GAMES:
        raise TournamentError(
            f"{games} games per pairing x {n_pairings} pairing(s) is {games * n_pairings:,} games; "
            f"one run plays at most {MAX_GAMES:,}: split the study into several runs (other --seed)"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise TournamentError(f"seed must be an integer from 0 to 2**63 - 1, got {seed!r}")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise TournamentError(f"block must be a positive integer, got {block!r}")


def plays_outside(src: object) -> bool:
    """Does ``src`` play outside this process (a ``sealed:`` or ``cmd:`` spec, a protocol
    bot), so that its games must be dealt from a secret?

    >>> plays_outside("sealed:greedy"), plays_outside(" cmd:./bot"), plays_outside("greedy")
    (True, True, False)
    """
    if isinstance(src, str):
        return src.strip().startswith((SEALED_PREFIX, "cmd:"))
    return deals_from_secret(src)


def check_deal_key(key: object, isolated: bool) -> str:
    """The deal key of a plan: ``key`` checked, or a fresh one from the OS for isolated seats
    (``secrets``: no seat can replay it), or "" (the deals are a function of the seed alone)."""
    if key is None:
        return secrets.token_hex(DEAL_KEY_BYTES) if isolated else ""
    if not (isinstance(key, str) and re.fullmatch(f"[0-9a-fA-F]{{{2 * DEAL_KEY_BYTES}}}", key)):
        raise TournamentError(f"a deal key is {2 * DEAL_KEY_BYTES} hex digits, got {key!r}")
    return key.lower()


def deal_entropy(seed: int, key: str) -> int:
    """The root of a plan's deal seeds: the seed alone, or the seed and the secret key.

    >>> deal_entropy(7, "")
    7
    >>> deal_entropy(7, "00" * 15 + "01") == 2**64 + 7
    True
    """
    return seed if not key else (int(key, 16) << 64) | seed
