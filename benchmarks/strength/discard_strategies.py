"""Discard strategies compared on the same seeded deals: net show points per deal.

A thin wrapper of ``cribbage discards`` (:mod:`agents.discard_bench`, where the method is
described): every strategy holds the dealer's six and the pone's six of the same deals while the
other seat discards with the analyzer, with paired 95% intervals against the first strategy.

Run: python benchmarks/strength/discard_strategies.py [--deals 20000 --seed 7] [--out DIR]
       [STRATEGY ...]   (default: random best-hand analyzer)
Prints the table and writes discard_strategies.json and .png to ``--out`` (default
benchmarks/results/new, so a default run never rewrites the tracked figures).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.discard_bench import compare, format_report  # noqa: E402

DEFAULT = ("random", "best-hand", "analyzer")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="compare discard strategies on the same deals")
    ap.add_argument("strategies", nargs="*", default=list(DEFAULT))
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "new")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be >= 1")
    t0 = time.perf_counter()
    report = compare(args.strategies, args.deals, args.seed)
    seconds = time.perf_counter() - t0
    nets = report.pop("_nets")
    report["seconds"] = round(seconds, 2)
    print(format_report(report))
    print(f"\n{seconds:.1f} s")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "discard_strategies.json").write_text(json.dumps(report, indent=1) + "\n")
    if not args.no_plot:
        from ui.cli.cmd_discards import write_plot

        print(f"saved {write_plot(report, nets, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
