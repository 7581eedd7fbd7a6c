"""The compiled deal simulator: play-outs/s against the engine path, its cold start, and the
differential check over millions of random positions.

    python benchmarks/speed/fastsim_speed.py                      # speed (~1 min)
    python benchmarks/speed/fastsim_speed.py --check 1000000      # + differential check, 1M positions
                                                            #   per policy (long: run with nohup)
    python benchmarks/speed/fastsim_speed.py --out /tmp/fastsim.json

Speed: deals played from the start of the play (random deals, analyzer-free random discards) to
the end of the show or the target, by the same policy for both seats. The engine path is what
the expert's search did per play-out: clone a GameState and apply the Python policy's cards
(:func:`agents.players.fastplay.engine_play_out`); the simulator plays a batch in one compiled call.
Times are CPU time of this process (``time.process_time``; the machine is shared), rounds
alternate and the best round counts.

Check: every position is played out both ways and must give the same cards, the same scoring
events in the same order, the same scores and the same winner (the test suite runs a few hundred;
this runs as many as asked, in chunks, and stops at the first difference).

Cold start: a fresh interpreter imports the simulator and runs every kernel once, first with an
empty numba cache (compiling) and then with the cache filled. Nothing is written unless
``--out`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.players.fastplay import engine_play_out, random_play_position  # noqa: E402
from cribbage_env.kernels import fastsim as F  # noqa: E402
from cribbage_env.rules.engine import new_game  # noqa: E402


def start_of_play(rng: np.random.Generator):
    """A random deal at the start of the play (random discards), scores 0..120."""
    while True:
        g = new_game(int(rng.integers(2**62)))
        while g.phase.value != "play" and g.winner is None:
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
        if g.winner is None:
            g.scores_ = [int(x) for x in rng.integers(0, 121, 2)]
            return g


def speed(policy: str, deals: int, engine_deals: int, rounds: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    games = [start_of_play(rng) for _ in range(engine_deals)]
    states = np.stack([F.state_from_game(g) for g in games])
    batch = np.repeat(states, -(-deals // len(states)), axis=0)[:deals]
    sim, eng = [], []
    for _ in range(rounds):
        t = time.process_time()
        F.play_out(batch, policy)
        sim.append(len(batch) / (time.process_time() - t))
        t = time.process_time()
        for g in games:
            engine_play_out(g.clone(), policy)
        eng.append(len(games) / (time.process_time() - t))
    return {
        "policy": policy,
        "simulator_deals_per_s": max(sim),
        "engine_deals_per_s": max(eng),
        "ratio": max(sim) / max(eng),
        "simulator_rounds": sim,
        "engine_rounds": eng,
    }


def check(policy: str, n: int, seed: int, chunk: int = 20_000) -> dict:
    rng = np.random.default_rng(seed)
    done = ended = 0
    t0 = time.time()
    while done < n:
        games = [random_play_position(rng) for _ in range(min(chunk, n - done))]
        out = F.play_out(np.stack([F.state_from_game(g) for g in games]), policy, record=True)
        for i, g in enumerate(games):
            ref = g.clone()
            events = engine_play_out(ref, policy)
            laid = [c for _, c in g.played] + ref.decisions[len(g.decisions) :]
            got = [tuple(e) for e in out.events[i, : out.nevents[i]].tolist()]
            winner = -1 if ref.winner is None else ref.winner
            if (
                got != events
                or tuple(out.scores[i]) != ref.scores
                or out.winner[i] != winner
                or out.cards_played(i) != laid
            ):
                return {
                    "policy": policy,
                    "positions": done + i,
                    "differences": 1,
                    "first_difference": {"seed": g.seed, "sim": got, "engine": events},
                }
            ended += ref.winner is not None
        done += len(games)
        print(f"  {policy}: {done:,} positions agree ({time.time() - t0:.0f} s)", flush=True)
    return {"policy": policy, "positions": done, "differences": 0, "ended_at_target": ended}


def cold_start() -> dict:
    code = (
        "import time; t = time.perf_counter(); from cribbage_env import fastsim; "
        "fastsim.warm_up(); print(time.perf_counter() - t)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache
        times = []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            times.append(float(out.stdout.strip()))
    return {"compile_s": times[0], "cached_s": times[1]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200_000, help="simulator deals per round")
    p.add_argument("--engine-deals", type=int, default=4_000, help="engine deals per round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--check", type=int, default=0, help="positions per policy to check")
    p.add_argument("--policies", nargs="+", default=list(F.POLICIES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-cold-start", action="store_true")
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = p.parse_args(argv)
    F.warm_up()
    result: dict = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_before": os.getloadavg(),
        "speed": [],
        "check": [],
    }
    for policy in args.policies:
        eng = args.engine_deals if policy != "expectimax" else max(args.engine_deals // 8, 100)
        r = speed(policy, args.deals, eng, args.rounds, args.seed)
        result["speed"].append(r)
        print(
            f"{policy:>10}: simulator {r['simulator_deals_per_s']:,.0f} deals/s, engine "
            f"{r['engine_deals_per_s']:,.0f} deals/s: {r['ratio']:.1f}x"
        )
    if not args.no_cold_start:
        result["cold_start"] = cold_start()
        print(
            f"cold start: {result['cold_start']['compile_s']:.1f} s compiling, "
            f"{result['cold_start']['cached_s']:.1f} s from the cache"
        )
    for policy in args.policies if args.check else ():
        r = check(policy, args.check, args.seed + 1)
        result["check"].append(r)
        print(f"{policy:>10}: {r['positions']:,} positions, {r['differences']} differences")
    result["load_after"] = os.getloadavg()
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
    return 1 if any(r["differences"] for r in result["check"]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
