"""Discard strategies compared on the same seeded deals: average net show points per deal.

For each of N seeded deals (12 cards dealt as the engine deals them, R3.2, plus the starter) a
strategy plays the dealer's six cards and, separately, the pone's six; the other seat always
discards with the analyzer (the reference opponent). Net show points for the strategy's seat:
dealer = own hand + own crib, pone = own hand - the dealer's crib (R9, scored with score_hand
on the real starter). Strategies: random discard, keep the best hand EV (crib ignored), and the
analyzer (hand EV +/- the shipped crib table).

Run: python benchmarks/discard_strategies.py [--deals 20000 --seed 7]
Prints a table, saves benchmarks/results/discard_strategies.png (per-deal distributions) and
benchmarks/results/discard_strategies.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cribbage_env.discard import (  # noqa: E402
    DISCARD_INDEX,
    KEEP_INDEX,
    CribTable,
    default_crib_table,
    discard_values,
)
from cribbage_env.scoring import score_hand  # noqa: E402


def choose(
    strategy: str, hand6: np.ndarray, dealer: bool, rng: np.random.Generator, table: CribTable
) -> int:
    """Index (0..14, engine order) of the split a strategy picks."""
    if strategy == "random":
        return int(rng.integers(15))
    ev, _, _, crib = discard_values(
        hand6, dealer, table if strategy == "analyzer" else CribTable.zeros()
    )
    return int(np.argmax(ev + crib))


STRATEGIES = ("random", "best hand EV", "analyzer")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="compare discard strategies on the same deals")
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be >= 1")
    table = default_crib_table()
    deal_rng = np.random.default_rng(args.seed)
    strat_rng = np.random.default_rng([args.seed, 1])
    nets = {s: {"dealer": [], "pone": []} for s in STRATEGIES}
    t0 = time.perf_counter()
    for _ in tqdm(range(args.deals), unit="deal", mininterval=1.0):
        deck = deal_rng.permutation(52)
        pone6 = deck[0:12:2].astype(np.intp)
        dealer6 = deck[1:12:2].astype(np.intp)
        starter = int(deck[12])
        ref_pone = choose("analyzer", pone6, False, strat_rng, table)
        ref_dealer = choose("analyzer", dealer6, True, strat_rng, table)
        for s in STRATEGIES:
            # The strategy as dealer, against the reference pone.
            i = choose(s, dealer6, True, strat_rng, table)
            keep = [int(c) for c in dealer6[KEEP_INDEX[i]]]
            crib = [int(c) for c in dealer6[DISCARD_INDEX[i]]] + [
                int(c) for c in pone6[DISCARD_INDEX[ref_pone]]
            ]
            nets[s]["dealer"].append(score_hand(keep, starter) + score_hand(crib, starter, True))
            # The strategy as pone, against the reference dealer.
            i = choose(s, pone6, False, strat_rng, table)
            keep = [int(c) for c in pone6[KEEP_INDEX[i]]]
            crib = [int(c) for c in pone6[DISCARD_INDEX[i]]] + [
                int(c) for c in dealer6[DISCARD_INDEX[ref_dealer]]
            ]
            nets[s]["pone"].append(score_hand(keep, starter) - score_hand(crib, starter, True))
    seconds = time.perf_counter() - t0
    rows = {}
    print(f"{args.deals} deals, seed {args.seed}; opponent discards with the analyzer")
    print(f"{'strategy':<14} {'dealer net':>11} {'pone net':>9} {'mean':>7}   (+/- 95% CI)")
    for s in STRATEGIES:
        d, p = nets[s]["dealer"], nets[s]["pone"]
        both = [(x + y) / 2 for x, y in zip(d, p, strict=True)]
        ci = 1.96 * statistics.stdev(both) / len(both) ** 0.5 if len(both) > 1 else 0.0
        rows[s] = {
            "dealer": round(statistics.fmean(d), 3),
            "pone": round(statistics.fmean(p), 3),
            "mean": round(statistics.fmean(both), 3),
            "ci95": round(ci, 3),
        }
        r = rows[s]
        print(f"{s:<14} {r['dealer']:>11.3f} {r['pone']:>9.3f} {r['mean']:>7.3f}   +/-{ci:.3f}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "discard_strategies.json").write_text(
        json.dumps(
            {
                "deals": args.deals,
                "seed": args.seed,
                "seconds": round(seconds, 1),
                "crib_table": table.params.get("policy"),
                "results": rows,
            },
            indent=1,
        )
        + "\n"
    )
    if not args.no_plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
        bins = np.arange(-30, 50) - 0.5
        for ax, role in zip(axes, ("dealer", "pone"), strict=True):
            for s in STRATEGIES:
                ax.hist(
                    nets[s][role],
                    bins=bins,
                    histtype="step",
                    density=True,
                    label=f"{s} (mean {rows[s][role]:.2f})",
                )
            ax.set_title(f"as {role}: net show points per deal")
            ax.set_xlabel("own hand + own crib" if role == "dealer" else "own hand - dealer's crib")
            ax.legend(fontsize=8)
        axes[0].set_ylabel("fraction of deals")
        fig.suptitle(f"Discard strategies on {args.deals} seeded deals (seed {args.seed})")
        fig.tight_layout()
        fig.savefig(args.out / "discard_strategies.png", dpi=100)
        print(f"saved {args.out / 'discard_strategies.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
