"""Agent strength and speed: duplicate head-to-head matches and decision latency per phase.

Each seed is played twice with the seats swapped (duplicate play: both agents get the same
deals), seeds from ``agents.tournament.tournament.game_seeds`` and agent generators from
``cribbage_env.seeding.agent_rng(agent_seed, seed, seat)`` (the same streams as ``cribbage bench
--agent-seed``). Reports agent A's win
rate with a 95% Wilson interval, the mean final-score margin (A - B), skunk rates, and each
agent's decision latency per phase (median, p99, in ms, timing ``act`` only).

Run:
    python benchmarks/strength/agent_strength.py expectimax random --games 2000
    python benchmarks/strength/agent_strength.py expectimax greedy --games 10000 --checkpoint 1000
Writes benchmarks/results/strength_<a>_vs_<b>.json (rewritten at every checkpoint, so a long run in
the background always leaves its latest figures).
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cribbage_env as ce  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.stats import wilson_interval  # noqa: E402
from agents.tournament.tournament import game_seeds  # noqa: E402
from cribbage_env.seeding import agent_rng  # noqa: E402


def play(
    agents, seed: int, agent_seed: int, timings: list[dict[str, list[tuple[float, float]]]]
) -> ce.GameState:
    """One game, agents[p] in seat p; appends act() (wall, thread CPU) seconds per phase/seat."""
    rngs = (agent_rng(agent_seed, seed, 0), agent_rng(agent_seed, seed, 1))
    g = ce.new_game(seed)
    clock, cpu = time.perf_counter, time.thread_time
    while not g.is_over:
        p = g.current_player
        view = g.view(p)
        c0, t0 = cpu(), clock()
        action = agents[p].act(view, rngs[p])
        t1, c1 = clock(), cpu()
        timings[p].setdefault(view.phase.value, []).append((t1 - t0, c1 - c0))
        g.apply(action, p)
    return g


def _lat(samples: list[tuple[float, float]]) -> dict:
    """Wall-clock and thread-CPU latency: on a shared machine the wall p99 includes time the
    process was preempted, the CPU p99 does not."""
    if not samples:
        return {}
    arr = np.array(samples) * 1000
    wall, cpu = arr[:, 0], arr[:, 1]
    return {
        "n": len(samples),
        "median_ms": round(float(np.median(wall)), 4),
        "p99_ms": round(float(np.percentile(wall, 99)), 4),
        "cpu_median_ms": round(float(np.median(cpu)), 4),
        "cpu_p99_ms": round(float(np.percentile(cpu, 99)), 4),
    }


def summarize(
    a: str,
    b: str,
    rows: list[tuple[int, int, int, int]],
    lat: dict[str, dict[str, list[tuple[float, float]]]],
    seconds: float,
    root: int,
) -> dict:
    """rows: (winner is A: 1/0, score A, score B, skunk level for the winner)."""
    n = len(rows)
    wins = sum(r[0] for r in rows)
    lo, hi = wilson_interval(wins, n)
    margins = [r[1] - r[2] for r in rows]
    return {
        "a": a,
        "b": b,
        "games": n,
        "duplicate": True,
        "seed": root,
        "a_wins": wins,
        "a_win_rate": round(wins / n, 4) if n else None,
        "wilson95": [round(lo, 4), round(hi, 4)],
        "mean_margin": round(statistics.fmean(margins), 3) if n else None,
        "a_skunks_b": round(sum(1 for r in rows if r[0] and r[3] >= 2) / n, 4) if n else None,
        "b_skunks_a": round(sum(1 for r in rows if not r[0] and r[3] >= 2) / n, 4) if n else None,
        "latency": {name: {ph: _lat(v) for ph, v in sorted(d.items())} for name, d in lat.items()},
        "seconds": round(seconds, 1),
    }


def report(s: dict) -> str:
    lines = [
        f"{s['a']} vs {s['b']}: {s['games']} duplicate games (seed {s['seed']}), "
        f"{s['a']} wins {s['a_win_rate']:.2%} (95% Wilson {s['wilson95'][0]:.2%}-"
        f"{s['wilson95'][1]:.2%}), mean margin {s['mean_margin']:+.2f}, "
        f"skunks {s['a_skunks_b']:.2%} / {s['b_skunks_a']:.2%}, {s['seconds']} s",
    ]
    for name, phases in s["latency"].items():
        for ph, d in phases.items():
            if d:
                lines.append(
                    f"  latency {name:<12} {ph:<8} median {d['median_ms']:.3f} ms  "
                    f"p99 {d['p99_ms']:.3f} ms  (CPU: median {d['cpu_median_ms']:.3f}"
                    f" p99 {d['cpu_p99_ms']:.3f} ms; n={d['n']})"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="duplicate head-to-head strength and latency")
    ap.add_argument("a", help="agent spec A (reported)")
    ap.add_argument("b", help="agent spec B (opponent)")
    ap.add_argument("--games", type=int, default=2000, help="games (even: seeds x 2 seats)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--agent-seed", type=int, default=2026, help="seed of the agents' generators")
    ap.add_argument("--checkpoint", type=int, default=500, help="rewrite the JSON every N games")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.games < 2 or args.games % 2:
        ap.error("--games must be an even number >= 2 (each seed is played with seats swapped)")
    try:
        agent_a, agent_b = make_agent(args.a), make_agent(args.b)
    except ValueError as exc:
        ap.error(str(exc))
    out = args.out or ROOT / "benchmarks" / "results" / (
        f"strength_{args.a.replace(':', '_')}_vs_{args.b.replace(':', '_')}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    seeds = game_seeds(args.seed, args.games // 2)
    rows: list[tuple[int, int, int, int]] = []
    lat_a: dict[str, list[tuple[float, float]]] = {}
    lat_b: dict[str, list[tuple[float, float]]] = {}
    t0 = time.perf_counter()
    summary: dict = {}
    bar = tqdm(total=args.games, unit="game", mininterval=2.0)
    for seed in seeds:
        for swapped in (False, True):
            seats = (agent_b, agent_a) if swapped else (agent_a, agent_b)
            timing: list[dict[str, list[tuple[float, float]]]] = [{}, {}]
            g = play(seats, seed, args.agent_seed, timing)
            a_seat = 1 if swapped else 0
            for ph, v in timing[a_seat].items():
                lat_a.setdefault(ph, []).extend(v)
            for ph, v in timing[1 - a_seat].items():
                lat_b.setdefault(ph, []).extend(v)
            sc = g.scores
            rows.append(
                (int(g.winner == a_seat), sc[a_seat], sc[1 - a_seat], ce.skunk_level(sc, g.rules))
            )
            bar.update(1)
        if len(rows) % args.checkpoint == 0 or len(rows) == args.games:
            lat = {f"A {args.a}": lat_a, f"B {args.b}": lat_b}
            summary = summarize(args.a, args.b, rows, lat, time.perf_counter() - t0, args.seed)
            summary["agent_seed"] = args.agent_seed
            summary["complete"] = len(rows) == args.games
            out.write_text(json.dumps(summary, indent=1) + "\n")
            bar.set_postfix(win=f"{summary['a_win_rate']:.3f}")
    bar.close()
    print(report(summary))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
