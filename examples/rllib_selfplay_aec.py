"""RLlib shared-policy self-play on the PettingZoo AEC env (extra ``rllib``).

Both seats are played by one policy ("shared"). RLlib's ``PettingZooEnv`` turns the AEC env into
a multi-agent env; ``cribbage_env.aec_rllib_env`` gives each observation RLlib's masking keys
(``{"observations", "action_mask"}``) so the action-masking RLModule keeps both seats on legal
cards. ``--iterations 1`` is the CI smoke run::

    pip install ".[rllib]"
    python examples/rllib_selfplay_aec.py --iterations 1
"""

from __future__ import annotations

import argparse


def build(batch: int = 256):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    from cribbage_env import aec_rllib_env

    register_env("cribbage_aec", lambda cfg: PettingZooEnv(aec_rllib_env()))
    shared = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [64, 64]}
    )
    config = (
        PPOConfig()
        .environment("cribbage_aec")
        .env_runners(num_env_runners=0)
        .learners(num_learners=0)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": shared}))
        .training(train_batch_size_per_learner=batch, minibatch_size=64, num_epochs=1)
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
            steps = result.get("env_runners", {}).get("num_env_steps_sampled_lifetime")
            print(f"iteration {i + 1}: env steps sampled {steps}")
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
