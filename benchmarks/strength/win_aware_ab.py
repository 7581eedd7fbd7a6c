"""A/B of win-aware play on endgame positions: the same agent with ``objective=equity`` (A)
against itself with ``objective=points`` (B), from positions where the board matters.

Positions: for each seed, ``expectimax`` self-play runs to the first deal that starts with a
score of at least ``--from`` points; from there the game is played out twice, A in seat 0 and
B in seat 1, then seats swapped (the deals are the seed's: the same cards in both games). A's
win rate over the two seatings is the figure (50% = no difference), with a 95% interval over
the positions, and beside it the luck-adjusted win rate (minus A's luck in the deals played
out, :mod:`cribbage_env.analysis.luck`: the same mean, a narrower interval). Example::

    python benchmarks/strength/win_aware_ab.py --agent expert --positions 1000 --from 90 \
        --out benchmarks/results/win_aware_ab_expert.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import cribbage_env as ce
from agents.registry import make_agent
from agents.tournament.tournament import game_seeds
from cribbage_env.seeding import agent_rng


def endgame_position(seed: int, start: int, lead) -> ce.GameState | None:
    """The state at the first deal start with a score >= ``start`` (expectimax self-play)."""
    g = ce.new_game(seed)
    rng = agent_rng(0, seed, 0)
    while not g.is_over:
        fresh = g.phase is ce.Phase.DISCARD and len(g.hands[g.pone]) == 6
        if fresh and max(g.scores) >= start:
            return g
        p = g.current_player
        g.apply(lead.act(g.view(p), rng), p)
    return None


def finish(g: ce.GameState, agents, seed: int) -> tuple[int, float]:
    """Play ``g`` out; the winner and seat 0's luck in the deals from the position on."""
    from cribbage_env.analysis.luck import game_luck

    first = g.deal_no
    rngs = (agent_rng(1, seed, 0), agent_rng(1, seed, 1))
    while not g.is_over:
        p = g.current_player
        g.apply(agents[p].act(g.view(p), rngs[p]), p)
    luck = sum(d.cards + d.starter for d in game_luck(g).deals if d.deal >= first)
    return int(g.winner), luck


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="expert", help="agent spec without the objective")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--from", dest="start", type=int, default=90)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    sep = "," if ":" in args.agent else ":"
    a = make_agent(f"{args.agent}{sep}objective=equity")
    b = make_agent(f"{args.agent}{sep}objective=points")
    lead = make_agent("expectimax")
    t0 = time.perf_counter()
    scores: list[float] = []
    adjusted: list[
        float
    ] = []  # minus A's luck in the deals played out (cribbage_env.analysis.luck)
    split = 0  # positions where A won exactly one of the two seatings: the cards decided
    for k, seed in enumerate(game_seeds(args.seed, args.positions), 1):
        pos = endgame_position(seed, args.start, lead)
        if pos is not None:
            win1, l1 = finish(pos.clone(), (a, b), seed)
            win2, l2 = finish(pos.clone(), (b, a), seed)
            w1, w2 = win1 == 0, win2 == 1
            scores.append((w1 + w2) / 2)
            adjusted.append((w1 - l1 + w2 + l2) / 2)
            split += w1 != w2
        if k % 50 == 0 or k == args.positions:  # partial results survive a killed run
            report(args, scores, split, time.perf_counter() - t0, adjusted)


def report(
    args: argparse.Namespace, scores: list[float], split: int, seconds: float, adjusted=()
) -> None:
    x, y = np.array(scores), np.array(adjusted)
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    yhalf = 1.96 * y.std(ddof=1) / np.sqrt(len(y)) if len(y) > 1 else float("nan")
    res = {
        "agent": args.agent,
        "from": args.start,
        "positions": len(x),
        "seed": args.seed,
        "a_win_rate": round(float(x.mean()), 4),
        "ci95": [round(float(x.mean() - half), 4), round(float(x.mean() + half), 4)],
        "a_win_rate_luck_adjusted": round(float(y.mean()), 4) if len(y) else None,
        "ci95_luck_adjusted": [round(float(y.mean() - yhalf), 4), round(float(y.mean() + yhalf), 4)]
        if len(y)
        else None,
        "positions_decided_by_the_cards": int(split),
        "seconds": round(seconds, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
