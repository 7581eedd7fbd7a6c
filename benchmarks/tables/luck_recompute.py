"""Measure again the luck of a results store's games with this version's ``V`` (a post-pass
from seeds and moves: :func:`cribbage_env.analysis.luck.luck_of`), into a JSON-lines cache that a killed
run resumes; ``luck_bench.py --luck-cache FILE`` reads it. Example::

    nice -n 10 python benchmarks/tables/luck_recompute.py --db /tmp/luck.sqlite --run 1 \\
        --cache /tmp/luck_run1.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.store.results_store import ResultsStore  # noqa: E402
from cribbage_env.analysis.luck import luck_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--run", type=int, required=True)
    ap.add_argument("--cache", type=Path, required=True, help="JSON lines, appended")
    args = ap.parse_args(argv)
    done = set()
    if args.cache.exists():
        for line in args.cache.read_text().splitlines():
            r = json.loads(line)
            done.add((r["index"], r["swapped"]))
    with ResultsStore(args.db) as db:
        games = [g for g in db.games(args.run) if (g.index, g.swapped) not in done]
    t0, n = time.perf_counter(), 0
    with args.cache.open("a") as fh:
        for g in games:
            luck = luck_of(g.seed, g.moves)
            fh.write(json.dumps({"index": g.index, "swapped": g.swapped, "win": luck.win,
                                 "points": luck.points}) + "\n")  # fmt: skip
            n += 1
    dt = time.perf_counter() - t0
    print(
        json.dumps(
            {"games": n, "seconds": round(dt, 1), "games_per_s": round(n / dt, 1) if dt else None}
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
