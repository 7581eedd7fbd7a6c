"""Throughput ratios measured in one run: the expert's tournament games/s against the cheap
pairing's, and the batched env's learner steps/s against ``make_vec`` sync with 8 envs.

    python benchmarks/speed/batch_speed.py                     # both (~3 min on a quiet machine)
    python benchmarks/speed/batch_speed.py --part tournament --games 200
    python benchmarks/speed/batch_speed.py --part env --out /tmp/batch_speed.json

Tournament: ``expert`` vs ``expectimax`` and ``expectimax`` vs ``greedy`` through the tournament
runner (duplicate deals, one serial worker, the same root seed), alternating for ``--rounds``
rounds; CPU time of this process, the best round of each counts. Target: the expert pairing
within 6x of the cheap one.

Env: a random masked learner (one vectorized pick per step from the masks) against the
``random`` opponent, same-step autoreset; learner steps/s summed over the envs, CPU time:
``make_vec(8)`` (SyncVectorEnv of CribbageEnv) against ``gym.make_vec(...,
vectorization_mode="vector_entry_point")`` with ``--batch`` envs. Target: >= 10x.
Numba kernels are loaded (and compiled on a first run) before timing. Nothing is written unless
``--out`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import gymnasium as gym  # noqa: E402

import cribbage_env  # noqa: E402, F401
from agents.tournament.runner import run_plan  # noqa: E402
from agents.tournament.tournament import make_plan  # noqa: E402
from cribbage_env.envs.vector import make_vec  # noqa: E402


def tournament(games: int, cheap_games: int, rounds: int, seed: int) -> dict:
    from cribbage_env.kernels.fastsim import warm_up

    warm_up()
    pairings = {
        "expert vs expectimax": (["expert", "expectimax"], games),
        "expectimax vs greedy": (["expectimax", "greedy"], cheap_games),
    }
    rates: dict[str, list[float]] = {k: [] for k in pairings}
    for rnd in range(rounds):
        for name in list(pairings) if rnd % 2 == 0 else list(pairings)[::-1]:
            agents, n = pairings[name]
            plan = make_plan(agents, n, seed, block=25)
            t = time.process_time()
            out = run_plan(plan, backend="serial", workers=1)
            rate = len(out.results) / (time.process_time() - t)
            rates[name].append(rate)
            print(
                f"round {rnd + 1}: {name}: {rate:,.1f} games/s (CPU) "
                f"(load {os.getloadavg()[0]:.1f})",
                flush=True,
            )
    best = {k: max(v) for k, v in rates.items()}
    ratio = best["expectimax vs greedy"] / best["expert vs expectimax"]
    print(f"expectimax vs greedy / expert vs expectimax: {ratio:.2f}x (target <= 6x)")
    return {"games_per_s_cpu": best, "rounds": rates, "ratio": ratio}


def _random_picks(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal card per row (vectorized)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def _steps_per_s(vec, steps: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    obs, info = vec.reset(seed=seed)
    for _ in range(20):
        obs, *_, info = vec.step(_random_picks(info["action_mask"], rng))
    t = time.process_time()
    for _ in range(steps):
        obs, _, _, _, info = vec.step(_random_picks(info["action_mask"], rng))
    return vec.num_envs * steps / (time.process_time() - t)


def env(batch: int, steps: int, rounds: int, seed: int) -> dict:
    sync = make_vec(8, opponent="random")
    batched = gym.make_vec(
        "cribbage/Cribbage-v0",
        num_envs=batch,
        vectorization_mode="vector_entry_point",
        opponent="random",
    )
    sync_steps = max(steps * batch // 8 // 20, 200)
    rates: dict[str, list[float]] = {"sync_8": [], f"batched_{batch}": []}
    for rnd in range(rounds):
        rates["sync_8"].append(_steps_per_s(sync, sync_steps, seed + rnd))
        rates[f"batched_{batch}"].append(_steps_per_s(batched, steps, seed + rnd))
        print(
            f"round {rnd + 1}: sync x8 {rates['sync_8'][-1]:,.0f} steps/s, batched x{batch} "
            f"{rates[f'batched_{batch}'][-1]:,.0f} steps/s (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    best = {k: max(v) for k, v in rates.items()}
    ratio = best[f"batched_{batch}"] / best["sync_8"]
    print(f"batched / sync: {ratio:.1f}x (target >= 10x)")
    return {"learner_steps_per_s_cpu": best, "rounds": rates, "ratio": ratio}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=["both", "tournament", "env"], default="both")
    p.add_argument("--games", type=int, default=100, help="expert vs expectimax games per round")
    p.add_argument(
        "--cheap-games", type=int, default=400, help="expectimax vs greedy games per round"
    )
    p.add_argument("--batch", type=int, default=1024, help="envs in the batched env")
    p.add_argument("--steps", type=int, default=400, help="batched env steps per round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    result: dict = {"python": platform.python_version(), "load_before": os.getloadavg()}
    if args.part in ("both", "tournament"):
        result["tournament"] = tournament(args.games, args.cheap_games, args.rounds, args.seed)
    if args.part in ("both", "env"):
        result["env"] = env(args.batch, args.steps, args.rounds, args.seed)
    result["load_after"] = os.getloadavg()
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
