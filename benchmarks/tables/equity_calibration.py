"""Calibration of the equity table on held-out self-play games to 121.

Plays ``--games`` whole games of ``--agent`` self-play (seeds from ``--seed``, disjoint from the
table's deal seeds), records every deal start (dealer's score, pone's score) with whether that
dealer went on to win the game, and compares:

- the table's prediction against the observed win rate in each decile of predicted chance
  (target: within 1.5 percentage points in every decile), and
- its Brier score against a logistic fit on the two scores (fitted on ``--fit-games`` other
  games: intercept, dealer score, pone score).

    python benchmarks/tables/equity_calibration.py --games 10000 --fit-games 4000 \
        --out benchmarks/results/equity_calibration.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import cribbage_env as ce
from agents.tournament.play import play_game
from agents.tournament.tournament import game_seeds
from cribbage_env.equity import dealer_table, table_params


def deal_starts(g: ce.GameState) -> list[tuple[int, int, int]]:
    """(dealer's score, pone's score, 1 if that dealer won) at every deal start of a game."""
    out = []
    for e in g.events:
        if e.kind is ce.EventKind.DEAL:  # e.scores: the scores when it was dealt
            d = e.player
            out.append((e.scores[d], e.scores[1 - d], int(g.winner == d)))
    return out


def positions(agent: str, seeds: list[int]) -> np.ndarray:
    rows = []
    for s in seeds:
        rows += deal_starts(play_game(agent, agent, s, agent_seed=0))
    return np.array(rows, dtype=np.int64)


def cached_positions(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    """The test and fit positions, played once and kept in ``--cache`` (the games do not
    depend on the table, so a rebuilt table is re-scored without replaying)."""
    key = f"{args.agent}_{args.seed}_{args.games}_{args.fit_games}"
    if args.cache is not None and args.cache.exists():
        with np.load(args.cache, allow_pickle=False) as z:
            if str(z["key"]) == key:
                return z["test"], z["fit"]
    seeds = game_seeds(args.seed, args.games + args.fit_games)
    test = positions(args.agent, seeds[: args.games])
    fit = positions(args.agent, seeds[args.games :])
    if args.cache is not None:
        np.savez_compressed(args.cache, test=test, fit=fit, key=np.array(key))
    return test, fit


def logistic_fit(x: np.ndarray, y: np.ndarray, iters: int = 25) -> np.ndarray:
    """Newton's method for a logistic regression with an intercept."""
    X = np.column_stack([np.ones(len(x)), x / 121.0])
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-X @ w))
        grad = X.T @ (y - p)
        hess = (X * (p * (1 - p))[:, None]).T @ X + 1e-9 * np.eye(X.shape[1])
        w += np.linalg.solve(hess, grad)
    return w


def logistic_predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    X = np.column_stack([np.ones(len(x)), x / 121.0])
    return 1 / (1 + np.exp(-X @ w))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--fit-games", type=int, default=4000)
    ap.add_argument("--agent", default="expectimax")
    ap.add_argument("--seed", type=int, default=2013)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cache", type=Path, default=None, help="npz of the played positions")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    test, fit = cached_positions(args)
    table = dealer_table()
    pred = table[test[:, 0], test[:, 1]]
    y = test[:, 2].astype(float)
    w = logistic_fit(fit[:, :2].astype(float), fit[:, 2].astype(float))
    pred_l = logistic_predict(w, test[:, :2].astype(float))
    deciles = []
    for m in np.array_split(np.argsort(pred, kind="stable"), 10):  # ten equal-count bins
        deciles.append(
            {
                "n": len(m),
                "predicted": round(float(pred[m].mean()), 4),
                "observed": round(float(y[m].mean()), 4),
                "gap_points": round(100 * float(y[m].mean() - pred[m].mean()), 2),
                # binomial, ignoring that positions of one game are correlated
                "se_points": round(
                    100 * float(np.sqrt(y[m].mean() * (1 - y[m].mean()) / len(m))), 2
                ),
            }
        )
    res = {
        "agent": args.agent,
        "games": args.games,
        "fit_games": args.fit_games,
        "seed": args.seed,
        "positions": int(len(test)),
        "deciles": deciles,
        "max_gap_points": max(abs(d["gap_points"]) for d in deciles),
        "brier_table": round(float(np.mean((pred - y) ** 2)), 5),
        "brier_logistic": round(float(np.mean((pred_l - y) ** 2)), 5),
        "logistic_weights": [round(float(v), 4) for v in w],
        "table": {k: table_params()[k] for k in ("deals", "agents")},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
