"""Tournament throughput: games/s on 1 worker (in-process) and N pool workers, same results.

    python benchmarks/speed/tournament_speed.py                                  # expectimax vs expectimax
    python benchmarks/speed/tournament_speed.py --agents random random --games 4000

Each configuration plays the same plan (same root seed) from scratch, including the pool's
start-up (worker processes importing numpy and building agents), and must produce identical
games; the figures are wall-clock games/s. The machine is shared, so configurations alternate
for ``--repeat`` rounds and the best round of each is the figure (the least disturbed one; the
median is printed too), with the load average before and after. Because a loaded machine hides
the scaling, the CPU time per game is measured too (this process plus, for the pool, its
workers' utime+stime from /proc): ``cpu_bound_speedup = workers x serial CPU/game / pool
CPU/game`` is what the same work gives when every worker has a core to itself.
Prints the figures; ``--out FILE`` writes them as JSON (the tracked ones are
``benchmarks/results/tournament_speed.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.registry import AGENTS, LEVELS  # noqa: E402
from agents.tournament.backends import PoolBackend  # noqa: E402
from agents.tournament.runner import run_plan  # noqa: E402
from agents.tournament.tournament import DEFAULT_BLOCK, make_plan  # noqa: E402


def _proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a live process from /proc (Linux); 0.0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class MeteredPool(PoolBackend):
    """The pool backend, reading its workers' CPU time just before they are shut down."""

    worker_cpu = 0.0

    def close(self) -> None:
        procs = getattr(self._executor, "_processes", {}) or {}
        self.worker_cpu = sum(_proc_cpu_seconds(pid) for pid in list(procs))
        super().close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agents", nargs=2, default=["expectimax", "expectimax"])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--backend", default="pool", choices=["pool", "ray"])
    p.add_argument("--repeat", type=int, default=3, help="alternating rounds; best round counts")
    p.add_argument(
        "--block",
        type=int,
        default=DEFAULT_BLOCK,
        help=f"pairs per task (default {DEFAULT_BLOCK}, as the CLI)",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="write the figures as JSON here (else print only)"
    )
    args = p.parse_args(argv)
    agents = list(args.agents)
    note = ""
    known = {**AGENTS, **LEVELS}
    if any(a.partition(":")[0] not in known for a in agents):
        note = f"{agents} not registered in this build; measured random vs random instead"
        print(note)
        agents = ["random", "random"]
    block = args.block
    plan = make_plan(agents, args.games, args.seed, block=block)
    load_before = os.getloadavg()
    reference = None
    runs: dict[int, list[float]] = {w: [] for w in args.workers}
    cpu_ms: dict[int, list[float]] = {w: [] for w in args.workers}
    backends: dict[int, str] = {}
    for rnd in range(args.repeat):
        order = args.workers if rnd % 2 == 0 else args.workers[::-1]
        for w in order:
            metered = None
            if w > 1 and args.backend == "pool":
                backend = metered = MeteredPool(w)
            else:
                backend = args.backend if w > 1 or args.backend == "ray" else "serial"
            cpu0 = time.process_time()
            out = run_plan(plan, backend=backend, workers=w)
            cpu = time.process_time() - cpu0 + (metered.worker_cpu if metered else 0.0)
            cpu_ms[w].append(1000 * cpu / len(out.results))
            if reference is None:
                reference = out.results
            if out.results != reference:
                print(f"results differ with {w} workers!")
                return 1
            backends[w] = out.backend
            runs[w].append(out.games_per_second)
            print(
                f"round {rnd + 1}: {out.backend:>6} x{w}: {len(out.results)} games in {out.elapsed:7.2f} s"
                f" = {out.games_per_second:8.2f} games/s, {cpu_ms[w][-1]:.2f} CPU ms/game"
                f" (load {os.getloadavg()[0]:.2f})"
            )
    rows = []
    for w in args.workers:
        rows.append(
            {
                "workers": w,
                "backend": backends[w],
                "games": args.games,
                "best_games_per_s": round(max(runs[w]), 2),
                "median_games_per_s": round(statistics.median(runs[w]), 2),
                "rounds": [round(x, 2) for x in runs[w]],
                "identical_results": True,
                "cpu_ms_per_game": round(statistics.median(cpu_ms[w]), 3),
            }
        )
    base = rows[0]["best_games_per_s"]
    for r in rows:
        r["speedup_best"] = round(r["best_games_per_s"] / base, 3)
        r["speedup_median"] = round(r["median_games_per_s"] / rows[0]["median_games_per_s"], 3)
        # What the same CPU work would give with every worker on a core of its own.
        r["cpu_bound_speedup"] = round(
            r["workers"] * rows[0]["cpu_ms_per_game"] / r["cpu_ms_per_game"], 3
        )
        print(
            f"{r['backend']:>6} x{r['workers']}: best {r['best_games_per_s']:8.2f} games/s "
            f"(speedup {r['speedup_best']:.2f}), median {r['median_games_per_s']:8.2f} "
            f"(speedup {r['speedup_median']:.2f}); {r['cpu_ms_per_game']:.2f} CPU ms/game, "
            f"CPU-bound speedup {r['cpu_bound_speedup']:.2f}"
        )
    if args.out is None:
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "agents": agents,
                "requested_agents": list(args.agents),
                "note": note,
                "games": args.games,
                "seed": args.seed,
                "block": block,
                "python": platform.python_version(),
                "machine": platform.platform(),
                "cpus": os.cpu_count(),
                "repeat": args.repeat,
                "load_average_before": [round(x, 2) for x in load_before],
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
                "rows": rows,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
