"""Environment speed: learner steps per second (random masked learner vs the random agent).

Measures, on one core:
  - engine:  random decisions/s on the bare engine (the floor under every env figure),
  - single:  CribbageEnv learner steps/s (a step = one learner pick; the opponent's replies, the
             deal, cuts and counting happen inside it),
  - vector:  SyncVectorEnv of 8 CribbageEnvs (same-step autoreset), learner steps/s summed over envs,
  - aec:     PettingZoo AEC env, agent steps/s (both seats are random masked policies).

    python benchmarks/speed/env_speed.py                # ~30 s
    python benchmarks/speed/env_speed.py --steps 50000  # quicker

Times are CPU time of this process (time.process_time), so other load on a shared machine
distorts them less. Prints a table; ``--out FILE`` also writes it as JSON (the tracked figures:
``--out benchmarks/results/env_speed.json``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cribbage_env as ce  # noqa: E402
from agents.store.atomic import atomic_write_json  # noqa: E402
from cribbage_env.envs.single import CribbageEnv  # noqa: E402
from cribbage_env.envs.vector import make_vec  # noqa: E402


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def bench_engine(steps: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    g = ce.new_game(seed)
    n, k = 0, 0
    t = time.process_time()
    while n < steps:
        if g.is_over:
            k += 1
            g = ce.new_game(seed + k)
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
        n += 1
    return n / (time.process_time() - t)


def bench_single(steps: int, seed: int) -> tuple[float, float]:
    env = CribbageEnv("random")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    n = episodes = 0
    t = time.process_time()
    while n < steps:
        obs, _, term, trunc, _ = env.step(_pick(obs["action_mask"], rng))
        n += 1
        if term or trunc:
            episodes += 1
            obs, _ = env.reset()
    dt = time.process_time() - t
    return n / dt, n / max(episodes, 1)


def bench_vector(steps: int, seed: int, num_envs: int = 8) -> float:
    vec = make_vec(num_envs, opponent="random")
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset(seed=seed)
    n = 0
    t = time.process_time()
    while n < steps:
        masks = obs["action_mask"]
        actions = np.array([_pick(m, rng) for m in masks])
        obs, *_ = vec.step(actions)
        n += num_envs
    dt = time.process_time() - t
    vec.close()
    return n / dt


def bench_aec(steps: int, seed: int) -> float | None:
    try:
        from cribbage_env.envs.aec import raw_env
    except ImportError:
        return None
    env = raw_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    n = 0
    t = time.process_time()
    while n < steps:
        if not env.agents:
            env.reset()
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _pick(obs["action_mask"], rng))
        n += 1
    return n / (time.process_time() - t)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.steps < 1000:
        parser.error("--steps must be at least 1000")
    steps = args.steps
    engine = bench_engine(steps, args.seed)
    single, per_episode = bench_single(steps, args.seed)
    vector = bench_vector(steps, args.seed)
    aec = bench_aec(steps, args.seed)
    rows = [
        ("engine, random decisions/s", engine),
        ("CribbageEnv, learner steps/s", single),
        ("SyncVectorEnv x8, learner steps/s", vector),
        ("AEC env, agent steps/s", aec),
    ]
    print(f"{'measure':<36} {'per second':>12}")
    for name, value in rows:
        print(f"{name:<36} {('n/a' if value is None else f'{value:,.0f}'):>12}")
    print(f"learner steps per game (to 121): {per_episode:.1f}")
    result = {
        "steps": steps,
        "seed": args.seed,
        "engine_decisions_per_s": engine,
        "single_env_steps_per_s": single,
        "sync_vector8_steps_per_s": vector,
        "aec_agent_steps_per_s": aec,
        "learner_steps_per_game": per_episode,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    if args.out is None:
        return 0
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(args.out), result)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
