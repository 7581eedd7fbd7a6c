"""Fresh-process import time of ``cribbage_env`` against ``gymnasium`` (target: at most 1.3x).

    python benchmarks/startup/import_time.py [--runs 21]

Each run starts a new interpreter that imports the module and exits; the two commands alternate
so both see the same machine load, and the minimum over the runs (the least disturbed one) is
the figure, with the median beside it. Prints the figures; writes nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args(argv)
    cases = {
        "python": "pass",
        "gymnasium": "import gymnasium",
        "cribbage_env": "import cribbage_env",
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.runs):
        for name, code in cases.items():
            times[name].append(_run(code))
    for name, ts in times.items():
        print(
            f"{name:13s} min {min(ts) * 1000:7.1f} ms   median {statistics.median(ts) * 1000:7.1f} ms"
        )
    ratio = min(times["cribbage_env"]) / min(times["gymnasium"])
    med = statistics.median(times["cribbage_env"]) / statistics.median(times["gymnasium"])
    print(
        f"cribbage_env / gymnasium: {ratio:.2f}x (min), {med:.2f}x (median); load {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
