"""Show-scoring speed: exhaustive enumeration, single calls, batch rate, the analyzer; side by side
with the ``cribbage-scorer`` package from PyPI when it is installed (optional: the ``bench``
extra; ``pip install cribbage-scorer``).

Run: python benchmarks/speed/scoring_speed.py [--hands 20000 --batch 1000000 --analyze 2000]
Prints the figures; ``--out FILE`` writes them (tracked: benchmarks/results/scoring_speed.json).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cribbage_env.analysis.discard import analyze_discards  # noqa: E402
from cribbage_env.rules.scoring import score_hand  # noqa: E402
from cribbage_env.unseen.batch import distribution_mean, score_batch, show_distribution  # noqa: E402


def _rows(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argsort(keys, axis=1)[:, :5]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000, help="single-call sample size")
    ap.add_argument("--batch", type=int, default=1_000_000, help="batch sample size")
    ap.add_argument("--analyze", type=int, default=2000, help="six-card hands for the analyzer")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    res: dict = {"python": platform.python_version(), "numpy": np.__version__}

    show_distribution()  # warm the cached hand list (first call builds it: ~0.05 s)
    for crib in (False, True):
        t = time.perf_counter()
        d = show_distribution(crib=crib)
        dt = time.perf_counter() - t
        name = "crib" if crib else "hand"
        res[f"enumeration_{name}_s"] = round(dt, 3)
        print(
            f"full enumeration, {name} rules: 12,994,800 combinations in {dt:.3f} s "
            f"(mean {distribution_mean(d):.6f})"
        )

    five = _rows(args.hands, args.seed).tolist()
    pairs = [(r[:4], r[4]) for r in five]
    t = time.perf_counter()
    for h, s in pairs:
        score_hand(h, s)
    dt = time.perf_counter() - t
    res["score_hand_per_s"] = round(args.hands / dt)
    print(f"score_hand single calls: {args.hands / dt:,.0f} hands/s")

    big = _rows(args.batch, args.seed + 1)
    hands, starters = big[:, :4].copy(), big[:, 4].copy()
    t = time.perf_counter()
    score_batch(hands, starters, check=False)
    dt = time.perf_counter() - t
    res["batch_per_s"] = round(args.batch / dt)
    t = time.perf_counter()
    score_batch(hands, starters)
    res["batch_checked_per_s"] = round(args.batch / (time.perf_counter() - t))
    print(
        f"score_batch: {args.batch / dt:,.0f} hands/s ({res['batch_checked_per_s']:,} with "
        "input checks)"
    )

    try:
        from cribbage_scorer import cribbage_scorer as cs
    except ImportError:
        cs = None
        print("cribbage-scorer not installed: pip install cribbage-scorer for the comparison")
    if cs is not None:
        suits = "CDHS"
        conv = [[(c % 13 + 1, suits[c // 13]) for c in r] for r in five]
        agree = all(
            cs.show_calc_score(r[4], r[:4])[0] == score_hand(o[:4], o[4])
            for r, o in zip(conv[:2000], five[:2000], strict=True)
        )
        cpairs = [(r[4], r[:4]) for r in conv]
        t = time.perf_counter()
        for s, h in cpairs:
            cs.show_calc_score(s, h)
        dt = time.perf_counter() - t
        rate = args.hands / dt
        res["cribbage_scorer_per_s"] = round(rate)
        res["cribbage_scorer_agrees_on_2000"] = agree
        res["single_speedup"] = round(res["score_hand_per_s"] / rate, 1)
        res["batch_speedup"] = round(res["batch_per_s"] / rate, 1)
        print(
            f"cribbage-scorer {getattr(cs, '__version__', '')}: {rate:,.0f} hands/s "
            f"(agrees on 2000 hands: {agree}); score_hand is {res['single_speedup']}x, "
            f"score_batch {res['batch_speedup']}x"
        )

    rng = np.random.default_rng(args.seed + 2)
    sixes = [rng.choice(52, 6, replace=False).tolist() for _ in range(args.analyze)]
    times = []
    for i, h in enumerate(sixes):
        t = time.perf_counter()
        analyze_discards(h, dealer=bool(i % 2))
        times.append(time.perf_counter() - t)
    ms = sorted(x * 1000 for x in times)
    res["analyzer_median_ms"] = round(statistics.median(ms), 4)
    res["analyzer_p99_ms"] = round(ms[int(0.99 * (len(ms) - 1))], 4)
    print(
        f"analyze_discards: median {res['analyzer_median_ms']:.3f} ms, p99 "
        f"{res['analyzer_p99_ms']:.3f} ms per six-card hand ({args.analyze} hands)"
    )
    if args.out is None:
        print(json.dumps(res, indent=1))
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
