"""How long the table's hint takes: the judge (:func:`agents.coaching.judge.judge`, the hint's generator)
at every discard and play with a choice of games between ``expert`` and ``expectimax``, after the
kernels are loaded (the table's warm-up). Reports the wall and CPU time per hint (median, p99,
max) by phase, with the machine's load beside them (the machine may be shared).

    nice -n 10 python benchmarks/speed/hint_latency.py --games 10 \\
        --out benchmarks/results/hint_latency.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from provenance import provenance  # noqa: E402

import cribbage_env as ce  # noqa: E402
from agents.coaching.judge import DEFAULT_SAMPLES, judge, position_rng  # noqa: E402
from agents.tournament.play import play_game  # noqa: E402
from agents.tournament.tournament import game_seeds  # noqa: E402
from cribbage_env.rules.cards import RANK  # noqa: E402


def _row(xs: list[float]) -> dict:
    a = np.asarray(xs)
    return {"n": int(a.size), "median_s": round(float(np.median(a)), 4),
            "p99_s": round(float(np.quantile(a, 0.99)), 4), "max_s": round(float(a.max()), 4)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=52)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.games < 1 or args.samples < 1:
        ap.error("--games and --samples must be positive")
    from cribbage_env.kernels.fastsim import warm_up

    warm_up()
    wall: dict[str, list[float]] = {"discard": [], "play": []}
    cpu: dict[str, list[float]] = {"discard": [], "play": []}
    for seed in game_seeds(args.seed, args.games):
        game = play_game("expert", "expectimax", seed, agent_seed=seed)
        g = ce.new_game(seed)
        for a in game.decisions:
            v = g.view(g.to_act)
            phase = "discard" if g.phase is ce.Phase.DISCARD else "play"
            if phase == "discard" or len({RANK[c] for c in v.legal_actions}) > 1:
                t, c = time.perf_counter(), time.process_time()
                judge(v, position_rng(v), args.samples)
                wall[phase].append(time.perf_counter() - t)
                cpu[phase].append(time.process_time() - c)
            g.apply(a)
    out = {
        **provenance(),
        "samples": args.samples,
        "games": args.games,
        "wall": {k: _row(v) for k, v in wall.items()},
        "cpu": {k: _row(v) for k, v in cpu.items()},
    }
    print(json.dumps(out, indent=1))
    if args.out is not None:
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(json.dumps(out, indent=2) + "\n")
        tmp.replace(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
