"""Simulate deals of self-play and store their score traces (input of benchmarks/tables/equity_table.py).

A *trace* is the list of scoring events of one whole deal in the order the engine scored them
(his heels, pegging, go / last card, pone's hand, dealer's hand, crib), each as (role, points)
with role 0 = dealer, 1 = pone. The order is what decides who reaches 121 first inside a deal.

Deals are played to the end: the scores are put back to 0-0 at every deal so no deal is cut
short by a win (a cut-short deal would bias the sample toward low-scoring deals). The agents
therefore play every deal as they would in mid-game; the table built from the traces assumes
play that does not change with the board (the win-aware agents are what changes it).

Output: one ``.npz`` per chunk under ``--out`` (``chunk_00012.npz``: arrays ``offsets``,
``role``, ``points``, and the chunk's parameters), so a killed run resumes where it stopped.
The chunks are :mod:`agents.tournament.tables` jobs: ``--backend pool --workers N`` or ``--backend ray
[--address HOST:PORT]`` runs them in parallel, the same bytes as ``serial``.

    python benchmarks/tables/equity_sim.py --out benchmarks/results/equity_traces --chunks 200 \
        --deals 2000 --agent expectimax --seed 13 --backend pool --workers 2
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from agents.store.atomic import atomic_write
from agents.tournament.backends import BACKENDS, make_backend
from agents.tournament.tables import TraceJob, chunk_job


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder of chunk files")
    ap.add_argument("--chunks", type=int, default=100)
    ap.add_argument("--first-chunk", type=int, default=0)
    ap.add_argument("--deals", type=int, default=2000, help="deals per chunk")
    ap.add_argument("--agent", default="expectimax")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--backend", choices=BACKENDS, default="serial")
    ap.add_argument("--workers", type=int, default=None, help="pool processes or local Ray CPUs")
    ap.add_argument("--address", default=None, help="Ray cluster to join (with --backend ray)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    todo = [
        TraceJob(args.agent, args.seed, c, args.deals)
        for c in range(args.first_chunk, args.first_chunk + args.chunks)
        if not (args.out / f"chunk_{c:05d}.npz").exists()
    ]
    be = make_backend(args.backend, args.workers, args.address)
    t0 = time.perf_counter()
    try:
        for out in be.map(chunk_job, todo):
            if out is None:
                continue
            job, arrays = out
            path = args.out / f"chunk_{job.chunk:05d}.npz"
            atomic_write(path, lambda f, a=arrays: np.savez_compressed(f, **a))
            dt = time.perf_counter() - t0
            print(f"chunk {job.chunk}: {job.deals} deals ({dt:.1f} s since the start)", flush=True)
    finally:
        be.close()


if __name__ == "__main__":
    main()
