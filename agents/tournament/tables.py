"""Simulation jobs of the table builders, pure functions that any backend can run.

The equity table (``benchmarks/tables/equity_sim.py`` then ``benchmarks/tables/equity_table.py``) is built
from the score traces of many simulated deals. A chunk of traces is a pure function of the agent,
the root seed and the chunk number, so chunks run on a local pool or a Ray cluster through
:meth:`backend.map <agents.tournament.backends.PoolBackend.map>` and are the same bytes on every backend;
the driver writes them, so a lost worker or node only means its chunk runs again.

A *trace* is the list of scoring events of one whole deal in the order the engine scored them
(his heels, pegging, go / last card, pone's hand, dealer's hand, crib), each as (role, points)
with role 0 = dealer, 1 = pone. Deals are played to the end: the scores are put back to 0-0 at
every deal so no deal is cut short by a win (a cut-short deal would bias the sample).

>>> a = chunk_arrays(TraceJob("random", root=1, chunk=0, deals=3))
>>> len(a["offsets"]) - 1, a["role"].dtype.name
(3, 'int8')
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

import cribbage_env as ce
from cribbage_env.seeding import agent_rng

from ..registry import make_agent

#: deals played per game seed (the engine's chance gives every deal number its own shuffle).
DEALS_PER_SEED = 50
#: the agents' generators (cribbage_env.seeding); expectimax uses its generator only for cuts.
AGENT_SEED = 13


@dataclass(frozen=True)
class TraceJob:
    """One chunk of deal traces: ``deals`` deals of ``agent`` self-play."""

    agent: str
    root: int
    chunk: int
    deals: int


def chunk_seed(root: int, chunk: int) -> int:
    """The first engine seed of chunk ``chunk`` (63-bit, derived from the root seed)."""
    ss = np.random.SeedSequence(root, spawn_key=(chunk,))
    return int(ss.generate_state(1, np.uint64)[0]) >> 1


def deal_traces(spec: str, seed: int, n_deals: int) -> list[list[tuple[int, int]]]:
    """Score traces of ``n_deals`` consecutive deals of ``spec`` self-play from game ``seed``."""
    players = (make_agent(spec), make_agent(spec))
    rngs = (agent_rng(AGENT_SEED, seed, 0), agent_rng(AGENT_SEED, seed, 1))
    g = ce.new_game(seed)
    out: list[list[tuple[int, int]]] = []
    deal_no = g.deal_no
    g.scores_ = [0, 0]
    start = g.event_count
    while True:
        p = g.to_act  # the player to act (the game is not over)
        g.apply(players[p].act(g.view(p), rngs[p]), p)
        if g.is_over:
            raise RuntimeError(f"a deal from 0-0 reached 121 (seed {seed}); cannot happen")
        if g.deal_no != deal_no:  # the show ran and the next deal was dealt
            dealer = 1 - g.dealer
            events = g.events_since(start)
            end = max(i for i, e in enumerate(events) if e.kind is ce.EventKind.DEAL)
            out.append(
                [(0 if e.player == dealer else 1, e.points) for e in events[:end] if e.points]
            )
            if len(out) == n_deals:
                return out
            deal_no = g.deal_no
            g.scores_ = [0, 0]
            start += end


def chunk_arrays(job: TraceJob) -> dict[str, np.ndarray]:
    """The chunk's traces as arrays (``offsets``, ``role``, ``points``) and its parameters."""
    base = chunk_seed(job.root, job.chunk)
    traces: list[list[tuple[int, int]]] = []
    k = 0
    while len(traces) < job.deals:
        traces += deal_traces(job.agent, base + k, min(DEALS_PER_SEED, job.deals - len(traces)))
        k += 1
    offsets = np.zeros(len(traces) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(t) for t in traces])
    params = {"agent": job.agent, "root_seed": job.root, "chunk": job.chunk, "deals": job.deals,
              "deals_per_seed": DEALS_PER_SEED, "first_seed": base}  # fmt: skip
    return {
        "offsets": offsets,
        "role": np.array([r for t in traces for r, _ in t], dtype=np.int8),
        "points": np.array([p for t in traces for _, p in t], dtype=np.int8),
        "params": np.array(json.dumps(params)),
    }


def chunk_job(job: TraceJob) -> tuple[TraceJob, dict[str, np.ndarray]]:
    """What a worker runs: the job and its arrays (the driver writes them)."""
    return job, chunk_arrays(job)
