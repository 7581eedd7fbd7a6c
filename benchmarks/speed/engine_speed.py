"""Engine speed: random-vs-random full games per second and show scorings per second.

Both engines are driven the same way from Python, on one core, in the same process: every
decision is ``random.choice`` over the legal actions (Python's ``random``, like the usual
OpenSpiel driver loop; the only place in the project that uses it, to match that anchor). For
OpenSpiel's C++ ``cribbage`` the chance outcomes (deal, cut) are chosen the same way; our engine
draws them itself from the seed. Rounds alternate between the engines so that machine load hits
both alike; the median round is reported, and the ratio is the median of the per-round ratios
(each round's two figures were measured under the same load).

    python benchmarks/speed/engine_speed.py --out benchmarks/results/engine_speed.json
    python benchmarks/speed/engine_speed.py              # only print
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cribbage_env as ce  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from provenance import provenance  # noqa: E402


def ours_games(n: int, rng: random.Random, seed0: int) -> float:
    """Games/s of our engine: ``new_game`` + ``legal_actions``/``apply`` until over."""
    choice = rng.choice
    t = time.perf_counter()
    for i in range(n):
        g = ce.new_game(seed0 + i)
        while not g.is_over:
            g.apply(choice(g.legal_actions()))
    return n / (time.perf_counter() - t)


def openspiel_games(game, n: int, rng: random.Random) -> float:
    """Games/s of OpenSpiel's C++ cribbage, chance outcomes also chosen uniformly at random."""
    choice = rng.choice
    t = time.perf_counter()
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(choice(s.chance_outcomes())[0])
            else:
                s.apply_action(choice(s.legal_actions()))
    return n / (time.perf_counter() - t)


def show_scorings(n: int, rng: random.Random) -> float:
    """score_hand calls per second on random (hand, starter) deals drawn beforehand."""
    deals = []
    for _ in range(n):
        cards = rng.sample(range(52), 5)
        deals.append((cards[:4], cards[4]))
    score = ce.score_hand
    t = time.perf_counter()
    for hand, starter in deals:
        score(hand, starter)
    return n / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per round per engine")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (median reported)")
    ap.add_argument("--scorings", type=int, default=200_000, help="score_hand calls per round")
    ap.add_argument("--seed", type=int, default=0, help="seed of Python's random for choices")
    ap.add_argument("--out", type=Path, help="write the figures there (a results file)")
    args = ap.parse_args(argv)
    if min(args.games, args.rounds, args.scorings) < 1:
        ap.error("--games, --rounds and --scorings must be positive")
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    except (AttributeError, OSError):
        pass
    try:
        import pyspiel

        os_game = pyspiel.load_game("cribbage")
    except ImportError:
        os_game = None
        print("open-spiel not importable (pip install '.[bench]'); measuring our engine only")

    rng = random.Random(args.seed)
    ours, theirs, scor = [], [], []
    for r in range(args.rounds):
        ours.append(ours_games(args.games, rng, r * args.games))
        if os_game is not None:
            theirs.append(openspiel_games(os_game, args.games, rng))
        scor.append(show_scorings(args.scorings, rng))
        print(
            f"round {r + 1}: ours {ours[-1]:,.0f} games/s"
            + (f", OpenSpiel {theirs[-1]:,.0f} games/s" if theirs else "")
            + f", score_hand {scor[-1]:,.0f}/s",
            flush=True,
        )
    o = statistics.median(ours)
    s = statistics.median(scor)
    out: dict = {**provenance(), "rounds": args.rounds, "games_per_round": args.games,
                 "cribbage_env_games_per_s": round(o), "score_hand_per_s": round(s)}  # fmt: skip
    lines = [f"- random-vs-random full games/s, cribbage_env: **{o:,.0f}**"]
    if theirs:
        t = statistics.median(theirs)
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        out |= {"openspiel_games_per_s": round(t), "ours_over_openspiel": round(ratio, 2)}
        lines.append(
            f"- random-vs-random full games/s, OpenSpiel C++ `cribbage` from Python: "
            f"**{t:,.0f}** (ours/OpenSpiel, median of per-round ratios: **{ratio:.2f}x**)"
        )
    lines.append(f"- show scorings/s (`score_hand` single calls, checked): **{s:,.0f}**")
    print("\n".join(lines))
    if args.out is not None:
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(json.dumps(out, indent=2) + "\n")
        tmp.replace(args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
