"""Compute the crib table the discard analyzer ships with (cribbage_env/data/crib_table.json).

For every pair of discarded ranks (13 x 13, split by whether the two cards share a suit) this
estimates the expected score of the crib they go into, once for the dealer's own discards and
once for the pone's, by seeded simulation:

- the other player is dealt six random cards from the 50 not discarded and discards two by a
  stated policy: iteration 0 keeps the best exact hand EV (crib ignored); iteration k uses the
  analyzer (hand EV +/- the crib table of iteration k-1), so the table is iterated towards a
  fixed point as Hessel did (the dealer table assumes the pone discards with the pone table and
  vice versa);
- each sample then scores EVERY pair of cards from the 46 remaining cards as the first player's
  discards against EVERY starter left (44), exactly, and adds each pair's mean into its
  (rank, rank, suited) cell. The other four cards the first player kept are not removed from the
  deck (a small, stated approximation).

Run: python benchmarks/tables/crib_table.py [--samples 10000 --iterations 5 --seed 2024]
(default: 2.5 minutes on an idle core, about 5 under load). Writes cribbage_env/data/crib_table.json with its
parameters, including how much each iteration moved the table ("history").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cribbage_env.analysis.discard import DISCARD_INDEX, CribTable, discard_values  # noqa: E402
from cribbage_env.rules.cards import JACK  # noqa: E402
from cribbage_env.rules.scoring import FLUSH_POINTS, NOBS_POINTS  # noqa: E402
from cribbage_env.unseen.batch import KEY_HI, KEY_LO, RANK_ARR, SUIT_ARR, rank_points_split  # noqa: E402

_PAIRS46 = np.array(list(combinations(range(46), 2)), dtype=np.intp)  # (1035, 2)
_START44 = np.array([[i for i in range(46) if i not in p] for p in _PAIRS46], dtype=np.intp)
_CRIB_FLUSH5 = FLUSH_POINTS[1][2]
_JACK_BIT = np.array(
    [(1 << (c // 13)) if RANK_ARR[c] == JACK else 0 for c in range(52)], dtype=np.int8
)


def policy_discard(hand6: np.ndarray, dealer: bool, table: CribTable) -> tuple[int, int]:
    """The other player's two crib cards: best analyzer net (ties: engine order)."""
    ev, _, _, crib = discard_values(hand6, dealer, table)
    i = int(np.argmax(ev + crib))
    a, b = hand6[DISCARD_INDEX[i]]
    return int(a), int(b)


def sample_cells(
    rng: np.random.Generator, first_is_dealer: bool, table: CribTable
) -> tuple[np.ndarray, np.ndarray]:
    """One simulated opponent: sum and count of mean crib points per (r1, r2, suited) cell."""
    deck = rng.permutation(52)
    other = deck[:6].astype(np.intp)
    o1, o2 = policy_discard(other, not first_is_dealer, table)
    rest = np.sort(deck[6:]).astype(np.intp)  # 46 cards
    d = rest[_PAIRS46]  # (1035, 2) the first player's discards
    s = rest[_START44]  # (1035, 44) starters
    lo = (KEY_LO[o1] + KEY_LO[o2] + KEY_LO[d].sum(axis=1))[:, None] + KEY_LO[s]
    hi = (KEY_HI[o1] + KEY_HI[o2] + KEY_HI[d].sum(axis=1))[:, None] + KEY_HI[s]
    pts = rank_points_split(lo, hi).astype(np.float64)
    ssuit = SUIT_ARR[s]
    if SUIT_ARR[o1] == SUIT_ARR[o2]:
        su = SUIT_ARR[o1]
        four = (SUIT_ARR[d[:, 0]] == su) & (SUIT_ARR[d[:, 1]] == su)
        pts += _CRIB_FLUSH5 * (four[:, None] & (ssuit == su))
    # Nobs: bit k of jack_suits is set when the crib holds the Jack of suit k.
    jack_suits = _JACK_BIT[o1] | _JACK_BIT[o2] | _JACK_BIT[d[:, 0]] | _JACK_BIT[d[:, 1]]
    pts += NOBS_POINTS * ((jack_suits[:, None] >> ssuit) & 1)
    mean = pts.mean(axis=1)
    r = np.sort(RANK_ARR[d], axis=1).astype(np.intp)
    suited = (SUIT_ARR[d[:, 0]] == SUIT_ARR[d[:, 1]]).astype(np.intp)
    cell = (r[:, 0] * 13 + r[:, 1]) * 2 + suited
    return np.bincount(cell, weights=mean, minlength=338), np.bincount(cell, minlength=338)


def estimate(
    rng: np.random.Generator, first_is_dealer: bool, table: CribTable, samples: int, desc: str
) -> np.ndarray:
    total = np.zeros(338)
    count = np.zeros(338)
    for _ in tqdm(range(samples), desc=desc, unit="deal", mininterval=1.0):
        s, c = sample_cells(rng, first_is_dealer, table)
        total += s
        count += c
    mean = total / np.maximum(count, 1)
    t = mean.reshape(13, 13, 2)
    for r in range(13):  # equal ranks cannot be suited: repeat the unsuited value
        t[r, r, 1] = t[r, r, 0]
    lower = np.tril_indices(13, -1)
    t[lower[0], lower[1]] = t[lower[1], lower[0]]  # symmetric in the two ranks
    return t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=10000, help="simulated opponents per table")
    ap.add_argument("--iterations", type=int, default=5, help="policy iterations (>= 1)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument(
        "--out", type=Path, required=True, help="e.g. cribbage_env/data/crib_table.json (tracked)"
    )
    args = ap.parse_args(argv)
    if args.samples < 1 or args.iterations < 1:
        ap.error("--samples and --iterations must be >= 1")
    ss = np.random.SeedSequence(args.seed)
    table = CribTable.zeros()
    history = []
    t0 = time.perf_counter()
    for it in range(args.iterations):
        g_dealer, g_pone = (np.random.default_rng(s) for s in ss.spawn(2))
        policy = "best hand EV, crib ignored" if it == 0 else f"analyzer with iteration {it - 1}"
        dealer = estimate(g_dealer, True, table, args.samples, f"iter {it} dealer crib")
        pone = estimate(g_pone, False, table, args.samples, f"iter {it} pone discards")
        new = CribTable(dealer, pone, {})
        if it:
            moved = float(
                max(np.abs(new.dealer - table.dealer).max(), np.abs(new.pone - table.pone).max())
            )
        else:
            moved = None
        history.append(
            {
                "iteration": it,
                "policy": policy,
                "max_change": moved,
                "mean_dealer": float(dealer[np.triu_indices(13)].mean()),
                "mean_pone": float(pone[np.triu_indices(13)].mean()),
            }
        )
        print(f"iteration {it}: policy {policy}; max change {moved}", flush=True)
        table = new
    params = {
        "script": "benchmarks/tables/crib_table.py",
        "seed": args.seed,
        "samples": args.samples,
        "iterations": args.iterations,
        "seconds": round(time.perf_counter() - t0, 1),
        "policy": "other player's discard: analyzer net, iterated from best-hand-EV "
        f"({args.iterations} iterations)",
        "layout": "[rank1][rank2][suited]; ranks A..K = 0..12; value = expected crib points",
        "approximation": "the first player's four kept cards are not removed from the deck",
        "history": history,
    }
    out = CribTable(table.dealer, table.pone, params)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out.to_json(), indent=None) + "\n")
    print(f"wrote {args.out} in {params['seconds']} s")
    diag = [(RANK_ARR[r], float(out.dealer[r, r, 0]), float(out.pone[r, r, 0])) for r in range(13)]
    print(
        "pairs (dealer / pone):",
        ", ".join(f"{'A23456789TJQK'[r]}{'A23456789TJQK'[r]} {a:.2f}/{b:.2f}" for r, a, b in diag),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
