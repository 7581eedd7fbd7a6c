"""Train sb3-contrib MaskablePPO against the random agent and report win rates before and after.

Needs the extra ``rl`` (sb3-contrib + torch). On a CPU-only machine install the CPU torch first,
then the extra, so pip does not fetch CUDA wheels::

    python -m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    python -m pip install ".[rl]"
    python benchmarks/strength/train_maskable_ppo.py                       # 300k steps, ~10 min on one core
    python benchmarks/strength/train_maskable_ppo.py --timesteps 20000     # a quick look

The learner plays whole games to 121 (``cribbage/Cribbage-v0``, ``reward="points"``: each step's
reward is the change in the score margin, so returns sum to the final margin) from seat
"alternate", with masks from ``env.action_masks()``. Win rates are measured over held-out game
seeds (``--eval-seed`` onwards; training draws its games from ``--seed``) with deterministic
(argmax over legal cards) play, before training (the untrained network) and after. Prints a summary
and, with ``--out FILE``, writes the JSON result there (RESULTS.md's figure came from
``--out benchmarks/results/train_maskable_ppo.json``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agents.learn.ppo import PPO_SETTINGS  # noqa: E402
from agents.store.atomic import atomic_write_json  # noqa: E402
from cribbage_env.envs.single import CribbageEnv  # noqa: E402
from cribbage_env.envs.wrappers import FlatObservation  # noqa: E402


def make_env(opponent: str = "random", seat: int | str = "alternate") -> FlatObservation:
    return FlatObservation(CribbageEnv(opponent, seat=seat, reward="points"))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def evaluate(model, games: int, first_seed: int, opponent: str = "random") -> dict:
    """Win rate and mean margin of ``model`` over games seeded first_seed, first_seed+1, ..."""
    env = make_env(opponent, seat=0)
    wins = 0
    margins = []
    for i in range(games):
        obs, info = env.reset(seed=first_seed + i, options={"seat": i % 2})
        done = False
        while not done:
            action, _ = model.predict(
                obs, action_masks=info["action_mask"].astype(bool), deterministic=True
            )
            obs, _, done, _, info = env.step(int(action))
        wins += bool(info["won"])
        margins.append(info["margin"])
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "mean_margin": float(np.mean(margins)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="MaskablePPO vs the random cribbage agent")
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--eval-seed", type=int, default=1_000_000, help="first held-out game seed")
    parser.add_argument("--n-steps", type=int, default=2048)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest here)")
    parser.add_argument("--save", default="", help="save the trained model to this path")
    parser.add_argument(
        "--out",
        default="",
        help="write the JSON result here (default: print only; the tracked file "
        "benchmarks/results/train_maskable_ppo.json is written only if named)",
    )
    args = parser.parse_args(argv)
    if args.timesteps < 1 or args.eval_games < 1:
        parser.error("--timesteps and --eval-games must be positive")
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        print(
            "needs the 'rl' extra: python -m pip install torch==2.13.0 && python -m pip install '.[rl]'",
            file=sys.stderr,
        )
        return 2
    torch.set_num_threads(args.threads)  # many threads on a small box are ~30x slower

    env = make_env()
    env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [256, 256]}, **PPO_SETTINGS)  # fmt: skip
    t0 = time.perf_counter()
    before = evaluate(model, args.eval_games, args.eval_seed)
    t1 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    t2 = time.perf_counter()
    after = evaluate(model, args.eval_games, args.eval_seed)
    if args.save:
        model.save(args.save)
    result = {
        "opponent": "random",
        "timesteps": int(model.num_timesteps),
        "seed": args.seed,
        "eval_seed": args.eval_seed,
        "before": before,
        "after": after,
        "train_seconds": t2 - t1,
        "train_steps_per_s": model.num_timesteps / (t2 - t1),
        "eval_seconds": t1 - t0,
        "torch": torch.__version__,
    }
    for name, r in (("before", before), ("after", after)):
        lo, hi = r["ci95"]
        print(
            f"{name:>6}: win rate {r['win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f}) over "
            f"{r['games']} held-out games, mean margin {r['mean_margin']:+.1f}"
        )
    print(
        f"trained {model.num_timesteps} steps in {t2 - t1:.0f} s "
        f"({result['train_steps_per_s']:.0f} steps/s)"
    )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_json(Path(args.out), result)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
