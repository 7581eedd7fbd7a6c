"""MaskablePPO on the batched env through the SB3 adapter vs on the single env (extra ``rl``).

``--part speed``: the same MaskablePPO (``MlpPolicy``, the same network and PPO settings, the
same 2,048 steps per rollout) learns ``--timesteps`` steps on ``sb3_vec_env(--num-envs,
flatten=True)`` and on one ``FlatObservation(CribbageEnv)`` in SB3's ``DummyVecEnv``, after a
one-rollout warm-up of each (numba compiles, torch allocates), in one process; steps/s of each
and the ratio. ``--part train``: a training run on the adapter, checkpointed every
``--checkpoint-every`` steps into ``--run-dir``, then the final model's duplicate win rate vs
``random`` over ``--eval-games`` games (the tournament, through the ``maskable_ppo`` agent);
``--part eval --model FILE`` evaluates a saved model alone::

    nice -n 10 python benchmarks/speed/sb3_batched.py --part speed --timesteps 40960
    nice -n 10 python benchmarks/speed/sb3_batched.py --part train --timesteps 400000 \\
        --run-dir runs/sb3_batched --eval-games 2000

Prints JSON; ``--out FILE`` writes it (RESULTS.md's figures came from
``--out benchmarks/results/sb3_batched_{speed,train}.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

PPO = dict(n_epochs=4, batch_size=512, learning_rate=3e-4, gamma=0.99, ent_coef=0.01)
ROLLOUT = 2048  # steps per rollout, whatever the number of envs


def model_for(env, n_envs: int, seed: int):
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=ROLLOUT // n_envs,
        seed=seed,
        device="cpu",
        policy_kwargs={"net_arch": [256, 256]},
        verbose=0,
        **PPO,
    )


def single_env():
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from cribbage_env.envs.single import CribbageEnv
    from cribbage_env.envs.wrappers import FlatObservation

    return VecMonitor(
        DummyVecEnv([lambda: FlatObservation(CribbageEnv("random", seat="alternate"))])
    )


def batched_env(n: int):
    from stable_baselines3.common.vec_env import VecMonitor

    from cribbage_env.envs.vector import sb3_vec_env

    return VecMonitor(sb3_vec_env(n, flatten=True, opponent="random", seat="alternate"))


def steps_per_s(model, timesteps: int) -> float:
    model.learn(ROLLOUT)  # warm-up: compile, allocate
    t0 = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    return timesteps / (time.perf_counter() - t0)


def speed(args) -> dict:
    import torch

    torch.set_num_threads(1)
    single = steps_per_s(model_for(single_env(), 1, args.seed), args.timesteps)
    vec = steps_per_s(
        model_for(batched_env(args.num_envs), args.num_envs, args.seed), args.timesteps
    )
    return {
        "part": "speed",
        "timesteps": args.timesteps,
        "num_envs": args.num_envs,
        "single_env_steps_per_s": round(single),
        "batched_steps_per_s": round(vec),
        "ratio": round(vec / single, 2),
        "ppo": PPO | {"rollout": ROLLOUT, "net_arch": [256, 256]},
        "load_average": os.getloadavg()[0],
    }


def train(args) -> dict:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CheckpointCallback

    torch.set_num_threads(1)
    run = Path(args.run_dir)
    ckpts = sorted(run.glob("ckpt_*_steps.zip"), key=lambda p: int(p.stem.split("_")[1]))
    env = batched_env(args.num_envs)
    if ckpts:  # resume from the last checkpoint
        model = MaskablePPO.load(ckpts[-1], env=env, device="cpu")
    else:
        model = model_for(env, args.num_envs, args.seed)
    every = max(args.checkpoint_every // args.num_envs, 1)
    t0 = time.perf_counter()
    left = max(args.timesteps - model.num_timesteps, 0)
    model.learn(
        left,
        reset_num_timesteps=False,
        callback=CheckpointCallback(every, str(run), name_prefix="ckpt"),
    )
    seconds = time.perf_counter() - t0
    final = run / "model.zip"
    model.save(final)
    return {
        "part": "train",
        "timesteps": model.num_timesteps,
        "num_envs": args.num_envs,
        "train_seconds_this_session": round(seconds, 1),
        **evaluate(str(final), args),
    }


def evaluate(model: str, args) -> dict:
    """Duplicate win rate of the saved model against ``random`` (the ``maskable_ppo`` agent)."""
    from agents.bench import run_tournament

    out = run_tournament(
        [f"maskable_ppo:path={model}", "random"],
        games=args.eval_games,
        seed=args.eval_seed,
        agent_seed=0,
        workers=args.workers,
    )
    pair = out.summary["pairings"][0]
    return {
        "eval_games": args.eval_games,
        "eval_seed": args.eval_seed,
        "win_rate_vs_random": pair["win_rate"],
        "win_rate_ci": pair["win_rate_ci"],
        "mean_margin": pair.get("mean_margin"),
        "model": model,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=("speed", "train", "eval"), required=True)
    p.add_argument("--model", default=None, help="--part eval: the saved model to evaluate")
    p.add_argument("--timesteps", type=int, default=40_960)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--run-dir", default="runs/sb3_batched")
    p.add_argument("--checkpoint-every", type=int, default=100_000)
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--eval-seed", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default=None, help="write the JSON here")
    args = p.parse_args()
    if args.part == "eval":
        result = {"part": "eval", **evaluate(args.model, args)}
    else:
        result = speed(args) if args.part == "speed" else train(args)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        tmp = Path(args.out + ".tmp")
        tmp.write_text(text + "\n")
        os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
