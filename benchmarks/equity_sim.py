"""Simulate deals of self-play and store their score traces (input of benchmarks/equity_table.py).

A *trace* is the list of scoring events of one whole deal in the order the engine scored them
(his heels, pegging, go / last card, pone's hand, dealer's hand, crib), each as (role, points)
with role 0 = dealer, 1 = pone. The order is what decides who reaches 121 first inside a deal.

Deals are played to the end: the scores are put back to 0-0 at every deal so no deal is cut
short by a win (a cut-short deal would bias the sample toward low-scoring deals). The agents
therefore play every deal as they would in mid-game; the table built from the traces assumes
play that does not change with the board (the win-aware agents are what changes it).

Output: one ``.npz`` per chunk under ``--out`` (``chunk_00012.npz``: arrays ``offsets``,
``role``, ``points``, and the chunk's parameters), so a killed run resumes where it stopped.

    python benchmarks/equity_sim.py --out benchmarks/results/equity_traces --chunks 200 \
        --deals 2000 --agent expectimax --seed 13
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import cribbage_env as ce
from agents.registry import make_agent
from cribbage_env.seeding import agent_rng

#: deals played per game seed (the engine's chance gives every deal number its own shuffle).
DEALS_PER_SEED = 50
#: the agents' generators (cribbage_env.seeding); expectimax uses its generator only for cuts.
AGENT_SEED = 13


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
        p = g.current_player
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


def run_chunk(spec: str, root: int, chunk: int, n_deals: int, path: Path) -> float:
    t0 = time.perf_counter()
    base = chunk_seed(root, chunk)
    traces: list[list[tuple[int, int]]] = []
    k = 0
    while len(traces) < n_deals:
        traces += deal_traces(spec, base + k, min(DEALS_PER_SEED, n_deals - len(traces)))
        k += 1
    offsets = np.zeros(len(traces) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(t) for t in traces])
    role = np.array([r for t in traces for r, _ in t], dtype=np.int8)
    points = np.array([p for t in traces for _, p in t], dtype=np.int8)
    params = {
        "agent": spec,
        "root_seed": root,
        "chunk": chunk,
        "deals": n_deals,
        "deals_per_seed": DEALS_PER_SEED,
        "first_seed": base,
    }
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp, offsets=offsets, role=role, points=points, params=np.array(json.dumps(params))
    )
    tmp.rename(path)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder of chunk files")
    ap.add_argument("--chunks", type=int, default=100)
    ap.add_argument("--first-chunk", type=int, default=0)
    ap.add_argument("--deals", type=int, default=2000, help="deals per chunk")
    ap.add_argument("--agent", default="expectimax")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for c in range(args.first_chunk, args.first_chunk + args.chunks):
        path = args.out / f"chunk_{c:05d}.npz"
        if path.exists():
            continue
        dt = run_chunk(args.agent, args.seed, c, args.deals, path)
        print(
            f"chunk {c}: {args.deals} deals in {dt:.1f} s ({args.deals / dt:.0f} deals/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
