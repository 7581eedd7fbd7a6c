"""What a from-zero run is: its settings (:class:`ZeroConfig`, saved in ``config.json`` and
checked on ``--resume``) and what the learner saw (:data:`PROVENANCE`, saved beside them and in
every weights file)."""

from __future__ import annotations

from dataclasses import dataclass

from ..ladder import LADDER

ALGOS = ("ppo", "dmc")

#: What every from-zero run learns from, recorded with its configuration and weights.
PROVENANCE = {
    "initial_weights": "random (torch's default initialisation, seeded by the run's seed)",
    "warm_start": None,
    "inputs": "the env's observation only (cribbage/Cribbage-v0's 534 values, read from the "
    "batched env's compact form) and its legal-action mask",
    "not_used": "no analyzer values, crib table, teacher, equity table or hand-made features",
    "opponents": "the batched env's built-in opponents, run inside its kernel",
    "reward": "the env's reward (the score margin's change by default)",
}


@dataclass(frozen=True)
class ZeroConfig:
    algo: str = "ppo"  # "ppo" (masked PPO) or "dmc" (Deep Monte-Carlo on per-deal returns)
    seed: int = 0
    timesteps: int = 20_000_000  # learner steps (env steps of the batch, summed over games)
    num_envs: int = 2048  # games stepped together
    n_steps: int = 32  # steps of every game per update
    round_updates: int = 8  # updates per round: a checkpoint, and every game restarts, after each
    opponents: tuple[tuple[str, float], ...] = (
        ("random", 1.0),
        ("greedy", 1.0),
        ("expectimax", 2.0),
    )
    hidden: tuple[int, ...] = (128, 128)
    lr: float = 5e-4
    epochs: int = 2  # passes over each rollout
    minibatch: int = 2048
    gamma: float = 0.99  # ppo
    gae_lambda: float = 0.95  # ppo
    clip: float = 0.2  # ppo
    ent_coef: float = 0.01  # ppo
    vf_coef: float = 0.5  # ppo
    max_grad_norm: float = 0.5
    reward_scale: float = 0.1  # rewards (points) and DMC returns are multiplied by this
    eps: float = 0.05  # dmc: share of random legal actions while collecting
    reward: str = "points"
    eval_every: int = 524_288  # a checkpoint's policy is saved and evaluated past each K steps
    eval_games: int = 0  # duplicate games per ladder opponent through the tournament runner
    quick_games: int = 1024  # games per opponent of the in-process batched evaluation
    ladder: tuple[str, ...] = LADDER[:3]
    workers: int = 1
    rules: str = "standard"
