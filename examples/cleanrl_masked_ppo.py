"""Masked PPO in one file, CleanRL-style, over the batched env (extra ``rl`` for torch).

All ``--num-envs`` games step in one compiled call (``cribbage_env.envs.vector.batched``, flattened to
a ``Box`` so the network is sized from ``single_observation_space.shape`` as in CleanRL's
``ppo.py``); illegal cards get zero probability through the mask in ``info["action_mask"]``.
The actor is saved as a numpy ``.npz`` that plays in ``cribbage bench`` as
``policy_net:path=FILE`` (the two-pick discard is handled there, by the package)::

    python examples/cleanrl_masked_ppo.py --total-timesteps 2000000 --opponent greedy --seed 1 \\
        --save runs/cleanrl/actor.npz
    cribbage bench policy_net:path=runs/cleanrl/actor.npz random --games 2000

The learner plays whole games to 121 from alternating seats against ``--opponent`` (any
built-in the batched env runs in its kernel: ``random``, ``greedy`` or ``expectimax``), rewarded
by the change in the score margin (scaled by ``--reward-scale``), so an episode's return is the
final margin. Its defaults (1,024 games stepped together, 32 steps each per update, minibatches
of 2,048, two layers of 128) follow the package's own learner (``cribbage train --method
ppo-zero``, :mod:`agents.learn.zero`), which also collects with numpy instead of torch; the
Baselines page measures both side by side.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

from agents import save_policy
from cribbage_env import BATCHED_OPPONENTS, batched


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--total-timesteps", type=int, default=2_000_000)
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--num-steps", type=int, default=32, help="steps per env per rollout")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", default="actor.npz", help="where the actor .npz goes")
    p.add_argument("--opponent", default="random", choices=tuple(BATCHED_OPPONENTS))
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=16)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--reward-scale", type=float, default=0.1)
    p.add_argument("--hidden", type=int, default=128)
    return p.parse_args(argv)


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())  # ReLU: the activation policy_net plays with
    return nn.Sequential(*layers)


class Agent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = mlp([obs_dim, hidden, hidden, 1])
        self.actor = mlp([obs_dim, hidden, hidden, n_actions])

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits = self.actor(x).masked_fill(~mask, -1e8)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The actor as (in, out) weight and bias arrays, for ``save_policy``."""
        lin = [m for m in self.actor if isinstance(m, nn.Linear)]
        return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in lin]


def train(args: argparse.Namespace) -> dict:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    envs = batched(
        args.num_envs, flatten=True, opponent=args.opponent, seat="alternate", agent_seed=args.seed
    )  # the opponent's draws too: a run repeats from --seed
    assert isinstance(envs.single_action_space, __import__("gymnasium").spaces.Discrete)
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    n_act = int(envs.single_action_space.n)
    agent = Agent(obs_dim, n_act, args.hidden)
    opt = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n, t = args.num_envs, args.num_steps
    batch = n * t
    iterations = max(1, args.total_timesteps // batch)
    obs_b = torch.zeros((t, n, obs_dim))
    mask_b = torch.zeros((t, n, n_act), dtype=torch.bool)
    act_b, logp_b, rew_b, done_b, val_b = (torch.zeros((t, n)) for _ in range(5))
    o, info = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.tensor(o), torch.tensor(info["action_mask"].astype(bool))
    next_done = torch.zeros(n)
    won: list[bool] = []
    start, step = time.time(), 0
    for it in range(1, iterations + 1):
        frac = 1.0 - (it - 1) / iterations
        opt.param_groups[0]["lr"] = frac * args.learning_rate
        for s in range(t):
            step += n
            obs_b[s], mask_b[s], done_b[s] = next_obs, next_mask, next_done
            with torch.no_grad():
                a, logp, _, v = agent.act(next_obs, next_mask)
            act_b[s], logp_b[s], val_b[s] = a, logp, v
            o, r, term, trunc, info = envs.step(a.numpy())
            rew_b[s] = torch.tensor(r * args.reward_scale, dtype=torch.float32)
            next_obs = torch.tensor(o)
            next_mask = torch.tensor(info["action_mask"].astype(bool))
            next_done = torch.tensor(term | trunc, dtype=torch.float32)
            if "final_info" in info:
                won += info["final_info"]["won"][info["_final_info"]].tolist()
        adv = gae(agent, next_obs, next_done, rew_b, done_b, val_b, args)
        update(agent, opt, args, obs_b, mask_b, act_b, logp_b, adv, adv + val_b)
        recent = won[-500:]
        print(
            f"iteration {it}/{iterations} step {step} steps/s {step / (time.time() - start):.0f} "
            f"win rate (last {len(recent)} games) {np.mean(recent) if recent else float('nan'):.3f}",
            flush=True,
        )
    envs.close()
    meta = {"trainer": "examples/cleanrl_masked_ppo.py", "steps": step, "seed": args.seed}
    save_policy(args.save, agent.layers(), meta)
    print(f"saved {args.save}: cribbage bench policy_net:path={args.save} random")
    return {"steps": step, "games": len(won), "win_rate_last_500": float(np.mean(won[-500:]))}


def gae(agent, next_obs, next_done, rew, done, val, args) -> torch.Tensor:
    """Generalized advantage estimates (a finished game's next row is a new game: not bootstrapped)."""
    with torch.no_grad():
        next_value = agent.value(next_obs)
    adv = torch.zeros_like(rew)
    last = torch.zeros_like(next_value)
    t = rew.shape[0]
    for s in reversed(range(t)):
        # done[s + 1] marks that step s ended its game (the next row starts a new one)
        nonterminal = 1.0 - (next_done if s == t - 1 else done[s + 1])
        nv = next_value if s == t - 1 else val[s + 1]
        delta = rew[s] + args.gamma * nv * nonterminal - val[s]
        last = delta + args.gamma * args.gae_lambda * nonterminal * last
        adv[s] = last
    return adv


def update(agent, opt, args, obs, mask, act, logp, adv, ret) -> None:
    """The PPO clipped-objective update over shuffled minibatches."""
    b_obs, b_mask = obs.reshape(-1, obs.shape[-1]), mask.reshape(-1, mask.shape[-1])
    b_act, b_logp, b_adv, b_ret = (
        act.reshape(-1),
        logp.reshape(-1),
        adv.reshape(-1),
        ret.reshape(-1),
    )
    size = b_obs.shape[0]
    mb = max(1, size // args.num_minibatches)
    for _ in range(args.update_epochs):
        order = torch.randperm(size)
        for lo in range(0, size, mb):
            i = order[lo : lo + mb]
            _, new_logp, ent, v = agent.act(b_obs[i], b_mask[i], b_act[i].long())
            ratio = (new_logp - b_logp[i]).exp()
            a = b_adv[i]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
            loss = (
                pg.mean()
                - args.ent_coef * ent.mean()
                + args.vf_coef * 0.5 * ((v - b_ret[i]) ** 2).mean()
            )
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            opt.step()


if __name__ == "__main__":
    train(parse_args())
