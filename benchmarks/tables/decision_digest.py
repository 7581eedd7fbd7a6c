"""A digest of every decision and score of expert vs expectimax games, to show that a speed-up
left the expert's decisions unchanged: run it on the code before and after and compare.

    python benchmarks/tables/decision_digest.py --games 40

Seeds 1000.. with agent seed 7 (fixed agent generators); CPU ms per game is printed beside the
digest.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agents.tournament.play import play_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--agents", nargs=2, default=["expert", "expectimax"])
    args = p.parse_args(argv)
    play_game(*args.agents, 0, agent_seed=1)  # warm: compiled kernels, tables
    digest = hashlib.sha256()
    t = time.process_time()
    for s in range(args.games):
        g = play_game(*args.agents, 1000 + s, agent_seed=7)
        digest.update(repr((g.decisions, g.scores)).encode())
    ms = (time.process_time() - t) / args.games * 1000
    print(f"{digest.hexdigest()[:16]} {ms:.1f} CPU ms/game over {args.games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
