"""The shipped ``zero`` agent against the ladder: duplicate games through the tournament runner
(the agents in Python, as ``cribbage bench zero OPPONENT`` plays them) and, beside them, the same
opponents in the batched env's kernel (the evaluation of the curves) on as many games.

    python benchmarks/learning/bench_zero.py --games 2000 --out benchmarks/results/zero_bench.json

The file is rewritten after each opponent, so a long run shows what it has finished.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from agents.learn.ladder import evaluate
from agents.learn.zero.evaluate import quick_eval
from agents.learn.zero.net import NumpyNet
from agents.players.policy_net import ZERO_WEIGHTS as DEFAULT_WEIGHTS
from agents.store.atomic import atomic_write_text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--opponents", nargs="+", default=["greedy", "expectimax"])
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--db", type=Path, default=None, help="results database (default: the user's)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    with __import__("numpy").load(DEFAULT_WEIGHTS, allow_pickle=False) as z:
        made = str(z["meta.shipped_by"]) if "meta.shipped_by" in z.files else ""
    data: dict = {"command": "python benchmarks/learning/bench_zero.py " + shlex.join(sys.argv[1:]),
                  "weights": made, "rows": []}  # fmt: skip
    batched = quick_eval(NumpyNet.of_policy(DEFAULT_WEIGHTS), args.opponents, args.games,
                         "standard")  # fmt: skip
    for opp in args.opponents:
        data["rows"].append({"opponent": opp, **batched[opp],
                             "how": "batched env, kernel opponent, duplicate deals"})  # fmt: skip
    atomic_write_text(args.out, json.dumps(data, indent=1) + "\n")
    for opp in args.opponents:
        t0 = time.time()
        row = evaluate("zero", [opp], args.games, seed=args.seed, workers=args.workers,
                       db=args.db, label="bench zero")[0]  # fmt: skip
        data["rows"].append({"opponent": opp, "games": row["games"], "win_rate": row["win_rate"],
                             "ci": row["ci"], "seconds": round(time.time() - t0),
                             "how": "tournament runner, duplicate games"})  # fmt: skip
        atomic_write_text(args.out, json.dumps(data, indent=1) + "\n")
        print(data["rows"][-1], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
