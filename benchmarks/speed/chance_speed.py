"""How long the table's winning-chance estimate and the Review screen's game review take.

    python benchmarks/speed/chance_speed.py --games 20 --review-games 10

The estimate (:func:`agents.coaching.chance.seat_chance`, the indicator's guesses) is timed at every
discard and play position of both seats in expectimax self-play; the review
(:func:`agents.review.review_game`, default settings, what the Review screen runs) on games of
random against expectimax. Wall time of this process; the kernels are warmed first.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

import cribbage_env as ce  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.coaching.chance import seat_chance  # noqa: E402
from agents.review import review_game  # noqa: E402
from agents.tournament.play import play_game  # noqa: E402


def estimate_times(games: int) -> dict[str, list[float]]:
    rng = np.random.default_rng(0)
    seat_chance(ce.new_game(1).view(1), rng)  # compile or load the kernels
    times: dict[str, list[float]] = {"discard": [], "play": []}
    bot = make_agent("expectimax")
    for s in range(games):
        g, arng = ce.new_game(100 + s), np.random.default_rng(s)
        while not g.is_over:
            for seat in (0, 1):
                v = g.view(seat)
                if v.phase.value in times:
                    t = time.perf_counter()
                    seat_chance(v, rng)
                    times[v.phase.value].append(time.perf_counter() - t)
            g.apply(bot.act(g.view(g.to_act), arng))
    return times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--review-games", type=int, default=10)
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = p.parse_args(argv)
    out: dict = {}
    for kind, v in estimate_times(args.games).items():
        out[f"estimate_{kind}_ms"] = {
            "n": len(v),
            "median": round(1000 * float(np.median(v)), 2),
            "p95": round(1000 * float(np.percentile(v, 95)), 2),
        }
    rt = []
    for s in range(args.review_games):
        g = play_game("random", "expectimax", 200 + s, agent_seed=1)
        t = time.perf_counter()
        review_game(g)
        rt.append(time.perf_counter() - t)
    out["review_s"] = {
        "n": len(rt),
        "median": round(float(np.median(rt)), 3),
        "max": round(max(rt), 3),
    }
    print(json.dumps(out, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
