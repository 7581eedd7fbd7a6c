"""Build the expert's pegging table: the expected pegging margin of a kept four, by role.

Method (reproducible from the seed): for N seeded first deals, both players discard with the
analyzer (exact hand EV ± crib table); the *studied* seat (alternating dealer / pone) instead picks
uniformly among the analyzer's best K splits, so its kept hands vary. Both then peg with the
rollout heuristic of ``agents.search.peg_search`` (the policy the expert's search assumes). The studied
seat's pegging margin (its pegging points minus the opponent's, his heels excluded) is regressed
by least squares on the kept four: one weight per rank plus a weight per pair, per role.

    python benchmarks/tables/peg_table.py --deals 40000 --seed 1 --out agents/data/peg_table.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cribbage_env as ce  # noqa: E402
from agents.search.peg_search import rollout_card  # noqa: E402
from cribbage_env.analysis.discard import analyze_discards  # noqa: E402
from cribbage_env.rules.cards import RANK  # noqa: E402
from cribbage_env.rules.core import EventKind, Phase  # noqa: E402
from cribbage_env.rules.scoring import ScoreKind  # noqa: E402


def features(keep) -> list[float]:
    """Rank counts (13) and the number of pairs among the kept four."""
    f = [0.0] * 14
    ranks = [RANK[c] for c in keep]
    for r in ranks:
        f[r] += 1
    f[13] = sum(1 for i in range(4) for j in range(i + 1, 4) if ranks[i] == ranks[j])
    return f


def simulate(seed: int, top_k: int, rng: np.random.Generator) -> tuple[bool, list[float], float]:
    """One deal: (studied seat is dealer, features of its keep, its pegging margin)."""
    g = ce.new_game(seed)
    studied = seed % 2
    keeps = {}
    while g.phase is Phase.DISCARD:
        p = g.current_player
        opts = analyze_discards(g.hands[p], dealer=g.dealer == p)
        choice = opts[int(rng.integers(min(top_k, len(opts))))] if p == studied else opts[0]
        keeps[p] = choice.keep
        g.apply(choice.action)
    deal, dealer = g.deal_no, g.dealer
    while not g.is_over and g.deal_no == deal:
        g.apply(rollout_card(g))
    peg = [0, 0]
    for e in g.events:
        if e.kind is EventKind.PLAY or (
            e.kind is EventKind.SCORE and e.reasons[0].kind is not ScoreKind.HIS_HEELS
        ):
            peg[e.player] += e.points
    return dealer == studied, features(keeps[studied]), float(peg[studied] - peg[1 - studied])


def fit(rows: list[tuple[list[float], float]]) -> tuple[np.ndarray, float, float]:
    """Least squares with an intercept; rank weights are centred so they sum to zero
    (the intercept carries the role's average)."""
    x = np.array([[1.0, *f] for f, _ in rows])
    y = np.array([v for _, v in rows])
    # Rank counts always sum to 4, so the intercept and rank weights are collinear: use lstsq
    # (minimum-norm) and report R^2.
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    pred = x @ coef
    r2 = 1 - float(((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    return coef, r2, float(y.mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument(
        "--out", type=Path, required=True, help="e.g. agents/data/peg_table.json (tracked)"
    )
    args = parser.parse_args(argv)
    if args.deals < 100:
        parser.error("--deals must be at least 100")
    from tqdm import tqdm

    rng = np.random.default_rng(args.seed)
    seeds = np.random.SeedSequence(args.seed).generate_state(args.deals, dtype=np.uint32)
    rows: dict[str, list] = {"dealer": [], "pone": []}
    start = time.perf_counter()
    for s in tqdm(seeds.tolist(), desc="peg table", unit="deal", mininterval=1.0):
        is_dealer, f, margin = simulate(int(s), args.top_k, rng)
        rows["dealer" if is_dealer else "pone"].append((f, margin))
    table: dict = {
        "params": {
            "deals": args.deals,
            "seed": args.seed,
            "top_k": args.top_k,
            "discards": "analyzer (studied seat: uniform among top-k)",
            "pegging": "agents.search.peg_search.rollout_card for both seats",
            "seconds": round(time.perf_counter() - start, 1),
        },
        "pair": {},
        "intercept": {},
    }
    for role, data in rows.items():
        coef, r2, mean = fit(data)
        ranks = coef[1:14]
        shift = float(ranks.mean())
        table[role] = [round(float(w - shift), 4) for w in ranks]
        table["intercept"][role] = round(float(coef[0] + 4 * shift), 4)
        table["pair"][role] = round(float(coef[14]), 4)
        table["params"][f"{role}_samples"] = len(data)
        table["params"][f"{role}_r2"] = round(r2, 4)
        table["params"][f"{role}_mean_margin"] = round(mean, 4)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(table, indent=1) + "\n")
    print(json.dumps(table, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
