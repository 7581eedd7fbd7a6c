"""Random-simulation speed of our OpenSpiel game (``python_cribbage``) beside OpenSpiel's own C++
``cribbage``, in the same process and the same driver loop, rounds alternating so machine load
hits both alike. The median round and the median per-round ratio are printed (and written to
``--out`` as JSON if given; this script never edits a tracked file).

    python benchmarks/speed/openspiel_speed.py --games 40 --rounds 5 [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

import cribbage_env.openspiel  # noqa: E402, F401  (registers python_cribbage)


def games_per_second(game: pyspiel.Game, n: int, rng: np.random.Generator) -> tuple[float, float]:
    """(games/s, actions per game) of uniformly random play, chance included."""
    actions = 0
    t = time.perf_counter()
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.integers(len(legal)))])
            actions += 1
    return n / (time.perf_counter() - t), actions / n


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per engine per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    ours, theirs = pyspiel.load_game("python_cribbage"), pyspiel.load_game("cribbage")
    rng = np.random.default_rng(args.seed)
    rows = []
    for r in range(args.rounds):
        a, a_len = games_per_second(ours, args.games, rng)
        b, b_len = games_per_second(theirs, args.games, rng)
        rows.append((a, b, a_len, b_len))
        print(f"round {r}: python_cribbage {a:.1f} games/s ({a_len:.0f} actions/game), "
              f"cribbage (C++) {b:.1f} games/s ({b_len:.0f} actions/game)")  # fmt: skip
    result = {
        "python_cribbage_games_per_s": statistics.median(x[0] for x in rows),
        "openspiel_cribbage_games_per_s": statistics.median(x[1] for x in rows),
        "ratio_ours_to_cpp": statistics.median(x[0] / x[1] for x in rows),
        "actions_per_game": [
            statistics.median(x[2] for x in rows),
            statistics.median(x[3] for x in rows),
        ],  # fmt: skip
        "games": args.games,
        "rounds": args.rounds,
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
