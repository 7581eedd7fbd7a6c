"""Rating quality and speed of ``cribbage review`` (agents/review.py).

Plays ``--games`` games of each pairing (seats alternate, seeds from ``--seed``), reviews every
game, and reports each agent's mean winning chance lost per decision with a choice (its error
rate), points lost, and the review time per game. Targets: random's error rate >= 5x
expectimax's; expert's <= expectimax's; a game reviewed in <= 2 s at the default settings.

    python benchmarks/strength/review_quality.py --games 40 --out benchmarks/results/review_quality.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from agents.coaching.judge import DEFAULT_CANDIDATES, DEFAULT_SAMPLES
from agents.review import review_game
from agents.tournament.play import play_game
from agents.tournament.tournament import game_seeds

PAIRINGS = (("random", "expectimax"), ("expert", "expectimax"))


def run_pairing(a: str, b: str, seeds: list[int], samples: int, candidates: int) -> dict:
    losses: dict[str, list[float]] = {a: [], b: []}
    points: dict[str, list[float]] = {a: [], b: []}
    times, cpu = [], []
    for k, seed in enumerate(seeds):
        specs = (a, b) if k % 2 == 0 else (b, a)
        g = play_game(specs[0], specs[1], seed, agent_seed=seed)
        t0, c0 = time.perf_counter(), time.process_time()
        rev = review_game(g, samples=samples, candidates=candidates, seed=seed)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        for r in rev.ratings:
            if r.options > 1:
                losses[specs[r.seat]].append(r.loss)
                points[specs[r.seat]].append(r.points_loss)
    out = {
        "games": len(seeds),
        "review_seconds_median": round(float(np.median(times)), 3),
        "review_seconds_max": round(float(np.max(times)), 3),
        "review_cpu_seconds_median": round(float(np.median(cpu)), 3),
        "review_cpu_seconds_max": round(float(np.max(cpu)), 3),
    }
    for name in (a, b):
        x = np.array(losses[name])
        out[name] = {
            "decisions": int(x.size),
            "error_rate": round(float(x.mean()), 5),
            "error_rate_se": round(float(x.std(ddof=1) / np.sqrt(x.size)), 5),
            "points_lost_per_decision": round(float(np.mean(points[name])), 4),
        }
    out["ratio"] = round(out[a]["error_rate"] / max(out[b]["error_rate"], 1e-12), 3)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    ap.add_argument("--pairings", default=",".join(f"{a}-{b}" for a, b in PAIRINGS))
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    from cribbage_env.kernels.fastsim import warm_up

    warm_up()  # load (or compile) the simulator once, outside the timings
    seeds = game_seeds(args.seed, args.games)
    res = {"samples": args.samples, "candidates": args.candidates, "seed": args.seed}
    for pair in args.pairings.split(","):
        a, b = pair.split("-")
        res[pair] = run_pairing(a, b, seeds, args.samples, args.candidates)
        print(json.dumps({pair: res[pair]}), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
