"""Throughput of DMC data generation on Ray with 1 CPU and with 2 CPUs (one run), and the cost
Ray adds per task.

Each round generates the same shards (``agents.learn.generate``, the ``cribbage train --method
dmc`` data) three ways: in this process (the reference time per shard), on a local Ray with one
CPU, and on a local Ray with two; the shards are checked to be identical. The overhead per task
is the Ray time with one CPU minus the in-process time, per shard. Each backend is started and
its workers run one small task first, so Ray's start-up and the workers' imports are not timed.

    nice -n 10 python benchmarks/speed/ray_scaling.py --shards 16 --games 4 --out /tmp/ray_scaling.json

Prints a table; writes JSON only with ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from agents.learn.generate import GenConfig, generate, read_shard
from agents.tournament.backends import make_backend


def _run(cfg: GenConfig, backend: str, workers: int) -> tuple[float, dict]:
    """Seconds to generate ``cfg`` on a started backend whose workers have run one task each
    (Ray's start and each worker's imports are not counted), and the shards."""
    be = make_backend(backend, None if backend == "serial" else workers)
    try:
        warm = GenConfig(seed=0, gen=0, shards=2 * workers, games=1)
        with tempfile.TemporaryDirectory() as tmp:
            generate(warm, Path(tmp), workers=workers, backend=be)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            paths = generate(cfg, Path(tmp), workers=workers, backend=be)
            dt = time.perf_counter() - t0
            data = {p.name: {k: v.tobytes() for k, v in read_shard(p).items()} for p in paths}
    finally:
        be.close()
    return dt, data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shards", type=int, default=16)
    ap.add_argument("--games", type=int, default=4, help="games per shard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    cfg = GenConfig(seed=args.seed, gen=0, shards=args.shards, games=args.games)
    t_serial, ref = _run(cfg, "serial", 1)
    rows = {"serial": t_serial}
    for cpus in (1, 2):
        dt, data = _run(cfg, "ray", cpus)  # a new local Ray with this many CPUs
        assert data == ref, f"ray x{cpus} made other shards than the serial run"
        rows[f"ray_{cpus}"] = dt
    overhead = (rows["ray_1"] - t_serial) / args.shards
    out = {
        "shards": args.shards,
        "games_per_shard": args.games,
        "seconds": {k: round(v, 2) for k, v in rows.items()},
        "speedup_2_over_1": round(rows["ray_1"] / rows["ray_2"], 3),
        "overhead_per_task_s": round(overhead, 3),
        "load": os.getloadavg(),
    }
    print(f"serial {t_serial:.1f} s, Ray x1 {rows['ray_1']:.1f} s, Ray x2 {rows['ray_2']:.1f} s: "
          f"x2/x1 speed-up {out['speedup_2_over_1']:.2f}, overhead per task {overhead:.3f} s "
          f"(start-up excluded), load {out['load'][0]:.1f}")  # fmt: skip
    if args.out:
        args.out.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
