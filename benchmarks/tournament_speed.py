"""Tournament throughput: games/s on 1 worker (in-process) and N pool workers, same results.

    python benchmarks/tournament_speed.py                                  # expectimax vs expectimax
    python benchmarks/tournament_speed.py --agents random random --games 4000

Each configuration plays the same plan (same root seed) from scratch, including the pool's
start-up (worker processes importing numpy and building agents), and must produce identical
games; the figures are wall-clock games/s. Writes ``benchmarks/results/tournament_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.registry import AGENTS, LEVELS  # noqa: E402
from agents.runner import run_plan  # noqa: E402
from agents.tournament import make_plan  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agents", nargs=2, default=["expectimax", "expectimax"])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--backend", default="pool", choices=["pool", "ray"])
    p.add_argument("--block", type=int, default=None, help="pairs per task (default: tasks ~ 8 per worker)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "tournament_speed.json")
    args = p.parse_args(argv)
    agents = list(args.agents)
    note = ""
    known = {**AGENTS, **LEVELS}
    if any(a.partition(":")[0] not in known for a in agents):
        note = f"{agents} not registered in this build; measured random vs random instead"
        print(note)
        agents = ["random", "random"]
    pairs = args.games // 2
    block = args.block or max(1, pairs // (8 * max(args.workers)))
    plan = make_plan(agents, args.games, args.seed, block=block)
    rows, reference = [], None
    for w in args.workers:
        backend = args.backend if w > 1 or args.backend == "ray" else "serial"
        out = run_plan(plan, backend=backend, workers=w)
        if reference is None:
            reference = out.results
        same = out.results == reference
        rows.append({"workers": w, "backend": out.backend, "games": len(out.results),
                     "seconds": round(out.elapsed, 3), "games_per_s": round(out.games_per_second, 2),
                     "identical_results": same})
        print(f"{out.backend:>6} x{w}: {len(out.results)} games in {out.elapsed:7.2f} s = "
              f"{out.games_per_second:8.2f} games/s  identical: {same}")
    base = rows[0]["games_per_s"]
    for r in rows:
        r["speedup"] = round(r["games_per_s"] / base, 3) if base else None
    print("speedup vs first:", ", ".join(f"x{r['workers']}: {r['speedup']:.2f}" for r in rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "agents": agents, "requested_agents": list(args.agents), "note": note, "games": args.games,
        "seed": args.seed, "block": block, "python": platform.python_version(),
        "machine": platform.platform(), "rows": rows,
    }, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0 if all(r["identical_results"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
