"""Write the show-scoring rank table the package ships (cribbage_env/data/rank_points.json).

Fifteens + pairs + runs of every multiset of 4 or 5 ranks, keyed by the sum of 5**rank, computed
from the combinatorial definition (RULES R9.2-R9.4) by ``cribbage_env.rules.scoring.build_rank_table``.
Shipping it keeps ``import cribbage_env`` fast (building it takes ~0.15 s); a test rebuilds it
and checks the shipped file is identical.

Run: python benchmarks/tables/rank_points_table.py [--out cribbage_env/data/rank_points.json]
(about a second).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cribbage_env.rules.scoring import build_rank_table, rank_table_json  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out", type=Path, required=True, help="e.g. cribbage_env/data/rank_points.json (tracked)"
    )
    args = ap.parse_args(argv)
    text = rank_table_json(build_rank_table())
    args.out.write_text(text)
    print(f"wrote {args.out} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
