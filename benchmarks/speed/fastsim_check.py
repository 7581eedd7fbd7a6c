"""The simulator's differential check at scale, resumable: millions of random positions per
policy, in chunks, each chunk from its own seed, every finished chunk recorded in ``--out``.

    nohup python benchmarks/speed/fastsim_check.py --positions 1000000 --out /tmp/fastsim_check.json &

Run again with the same ``--out`` after an interruption: finished chunks are skipped. Each
position is played out by the compiled simulator and by the engine and must agree on the cards
laid, the scoring events in order, the scores and the end at the target
(:func:`fastsim_speed.check`, which also runs inside ``benchmarks/speed/fastsim_speed.py --check``).
A difference stops the run and is written with the position's seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fastsim_speed import check  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=1_000_000, help="per policy")
    p.add_argument("--chunk", type=int, default=50_000)
    p.add_argument("--policies", nargs="+", default=["heuristic", "greedy", "expectimax"])
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--out", type=Path, required=True, help="progress and result (JSON)")
    args = p.parse_args(argv)
    state = json.loads(args.out.read_text()) if args.out.exists() else {"chunks": {}}
    for policy in args.policies:
        for k in range(-(-args.positions // args.chunk)):
            name = f"{policy}:{k}"
            if name in state["chunks"]:
                continue
            n = min(args.chunk, args.positions - k * args.chunk)
            t = time.process_time()
            r = check(policy, n, args.seed * 1000 + k)
            r["cpu_s"] = round(time.process_time() - t, 1)
            state["chunks"][name] = r
            totals = {}
            for key, c in state["chunks"].items():
                pol = key.split(":")[0]
                agg = totals.setdefault(pol, {"positions": 0, "differences": 0, "ended": 0})
                agg["positions"] += c["positions"]
                agg["differences"] += c["differences"]
                agg["ended"] += c.get("ended_at_target", 0)
            state["totals"] = totals
            args.out.write_text(json.dumps(state, indent=1))
            if r["differences"]:
                print(f"difference: {r['first_difference']}", flush=True)
                return 1
    print(json.dumps(state["totals"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
