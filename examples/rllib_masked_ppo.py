"""RLlib PPO with action masking on ``cribbage/Cribbage-v0`` (extra ``rllib``).

``RLlibMaskObservation`` renames the observation keys to RLlib's masking convention
(``{"observations", "action_mask"}``) and RLlib's own ``ActionMaskingTorchRLModule`` example
module keeps the policy on legal cards. ``--iterations 1`` is the CI smoke run::

    pip install ".[rllib]"
    python examples/rllib_masked_ppo.py --iterations 1
"""

from __future__ import annotations

import argparse


def env_creator(env_config: dict):
    from cribbage_env import CribbageEnv, RLlibMaskObservation

    return RLlibMaskObservation(CribbageEnv(env_config.get("opponent", "random"), seat="alternate"))


def build(batch: int = 256):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env("cribbage_masked", env_creator)
    config = (
        PPOConfig()
        .environment("cribbage_masked", env_config={"opponent": "random"})
        .env_runners(num_env_runners=0)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=64, num_epochs=1)
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": [64, 64]},
            )
        )
    )
    return config.build_algo()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args(argv)
    import ray

    # a new one-CPU Ray of its own, even when a `ray start` cluster runs on this machine
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = build(args.batch)
        for i in range(args.iterations):
            result = algo.train()
            ret = result.get("env_runners", {}).get("episode_return_mean")
            print(f"iteration {i + 1}: episode return mean {ret}")
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
