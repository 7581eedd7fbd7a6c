"""Decision latency of a search agent (default ``master``) against ``expert``, per phase.

Plays ``--games`` games in one process, timing ``act`` at every discard and play with more than
one legal action (forced moves cost nothing and would flatter the median), wall clock and
thread CPU time, and prints the median and the 99th percentile in ms. Writes JSON only to
``--out`` if given::

    python benchmarks/speed/master_latency.py --games 100
    python benchmarks/speed/master_latency.py --games 100 --out benchmarks/results/master_latency.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.store.atomic import atomic_write_json  # noqa: E402


def time_decisions(
    agent, other, games: int, seed: int, *, forced: bool = False
) -> dict[str, list[tuple[float, float]]]:
    """(wall, thread CPU) seconds of each of ``agent``'s discards and plays over ``games`` games
    against ``other``, seats alternating; moves with one legal action only if ``forced``."""
    import cribbage_env as ce
    from cribbage_env.rules.core import Phase

    rng = np.random.default_rng(seed)
    times: dict[str, list[tuple[float, float]]] = {"discard": [], "play": []}
    for i in range(games):
        g = ce.new_game(seed * 100_000 + i)
        seat = i % 2
        while not g.is_over:
            p = g.current_player
            v = g.view(p)
            if p != seat:
                g.apply(other.act(v, rng))
                continue
            w0, c0 = time.perf_counter(), time.thread_time()
            a = agent.act(v, rng)
            w1, c1 = time.perf_counter(), time.thread_time()
            if v.phase in (Phase.DISCARD, Phase.PLAY) and (forced or len(v.legal_actions) > 1):
                times["discard" if v.phase is Phase.DISCARD else "play"].append((w1 - w0, c1 - c0))
            g.apply(a)
    return times


def latency_figures(times: dict[str, list[tuple[float, float]]], digits: int) -> dict[str, dict]:
    """Per phase and for all decisions: their number and the wall and CPU milliseconds' median,
    99th percentile and maximum, rounded to ``digits``."""
    both = [t for ts in times.values() for t in ts]
    out = {}
    for phase, ts in [*times.items(), ("all", both)]:
        w = np.array([t[0] for t in ts]) * 1e3
        c = np.array([t[1] for t in ts]) * 1e3
        out[phase] = {
            "decisions": len(ts),
            "median_ms": round(float(np.median(w)), digits),
            "p99_ms": round(float(np.percentile(w, 99)), digits),
            "max_ms": round(float(np.max(w)), digits),
            "cpu_median_ms": round(float(np.median(c)), digits),
            "cpu_p99_ms": round(float(np.percentile(c, 99)), digits),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to time")
    parser.add_argument("--spec", default="master", help="the agent timed")
    parser.add_argument("--opponent", default="expert", help="the agent it plays")
    parser.add_argument("--seed", type=int, default=5, help="game and generator seed")
    parser.add_argument("--out", default="", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    from agents import make_agent
    from cribbage_env.kernels.fastsim import warm_up

    warm_up()
    agent, other = make_agent(args.spec), make_agent(args.opponent)
    t0 = time.perf_counter()
    times = time_decisions(agent, other, args.games, args.seed)
    out: dict = {"spec": agent.spec, "opponent": args.opponent, "games": args.games}
    out["wall_s"] = round(time.perf_counter() - t0, 1)
    for phase, r in latency_figures(times, digits=3).items():
        out[phase] = r
        print(
            f"{phase:>8}: {r['decisions']} decisions, median {r['median_ms']:.2f} ms, p99 "
            f"{r['p99_ms']:.2f} ms, max {r['max_ms']:.1f} ms wall (CPU median "
            f"{r['cpu_median_ms']:.2f}, p99 {r['cpu_p99_ms']:.2f} ms)"
        )
    if args.out:
        atomic_write_json(Path(args.out), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
