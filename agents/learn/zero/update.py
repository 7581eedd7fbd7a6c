"""The two updates on a :class:`~.collect.Rollout`: masked PPO (clipped surrogate, GAE) and Deep
Monte-Carlo (the card's Q regressed on the Monte-Carlo return of the rest of the deal)."""

from __future__ import annotations

import numpy as np

from cribbage_env.envs.batched import unpack_observation

from .collect import Rollout
from .config import ZeroConfig
from .games import DEAL_START


def gae(roll: Rollout, next_value: np.ndarray, cfg: ZeroConfig) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns (generalised advantage estimation; a finished game's value is 0,
    the last step bootstraps from ``next_value``)."""
    t_max = len(roll.reward)
    adv = np.zeros_like(roll.reward)
    last = np.zeros_like(next_value)
    for t in reversed(range(t_max)):
        nv = next_value if t == t_max - 1 else roll.value[t + 1]
        live = 1.0 - roll.done[t]
        delta = roll.reward[t] * cfg.reward_scale + cfg.gamma * nv * live - roll.value[t]
        last = delta + cfg.gamma * cfg.gae_lambda * live * last
        adv[t] = last
    return adv, adv + roll.value


def deal_start(packed: np.ndarray) -> np.ndarray:
    """Which compact observations are a deal's first decision (the first discard pick)."""
    byte, bit = divmod(DEAL_START, 8)
    return (packed[..., byte] >> (7 - bit)) & 1 == 1


def deal_returns(roll: Rollout) -> tuple[np.ndarray, np.ndarray]:
    """Each step's return to the end of its deal (the rewards summed until the learner's next
    deal starts or the game ends) and whether that end lies inside the rollout (the others
    have no return yet and are not trained on)."""
    t_max = len(roll.reward)
    starts = deal_start(roll.obs)
    ret = np.zeros_like(roll.reward)
    known = np.zeros(roll.reward.shape, bool)
    g = np.zeros(roll.reward.shape[1], np.float32)
    k = np.zeros(roll.reward.shape[1], bool)
    for t in reversed(range(t_max)):
        nxt = deal_start(roll.next_obs) if t == t_max - 1 else starts[t + 1]
        end = roll.done[t] | nxt
        g = np.where(end, roll.reward[t], roll.reward[t] + g)
        k = end | k
        ret[t], known[t] = g, k
    return ret, known


def _batches(n: int, size: int, rng: np.random.Generator):
    order = rng.permutation(n)
    for lo in range(0, n, size):
        yield order[lo : lo + size]


def _tensors(roll: Rollout, idx: np.ndarray, target: int):
    import torch

    obs = roll.obs.reshape(-1, roll.obs.shape[-1])[idx]
    x = torch.from_numpy(unpack_observation(obs, target))
    mask = torch.from_numpy(roll.mask.reshape(-1, roll.mask.shape[-1])[idx])
    action = torch.from_numpy(roll.action.reshape(-1)[idx])
    return x, mask, action


def _step(net, opt, loss, max_norm: float) -> None:
    import torch

    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    opt.step()


def ppo_update(net, opt, roll: Rollout, next_value: np.ndarray, cfg: ZeroConfig,
               rng: np.random.Generator, target: int) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of clipped-surrogate minibatch steps; the last pass's mean losses."""
    import torch

    adv, ret = gae(roll, next_value, cfg)
    flat = {"adv": adv.reshape(-1), "ret": ret.reshape(-1), "logp": roll.logp.reshape(-1)}
    stats: dict[str, list[float]] = {"policy_loss": [], "value_loss": [], "entropy": [],
                                     "approx_kl": [], "clip_frac": []}  # fmt: skip
    for _ in range(cfg.epochs):
        for k in stats.values():
            k.clear()
        for idx in _batches(len(flat["adv"]), cfg.minibatch, rng):
            x, mask, action = _tensors(roll, idx, target)
            a = torch.from_numpy(flat["adv"][idx])
            a = (a - a.mean()) / (a.std() + 1e-8)
            logits, v = net(x)
            logp_all = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
            logp = logp_all.gather(1, action[:, None])[:, 0]
            ratio = torch.exp(logp - torch.from_numpy(flat["logp"][idx]))
            pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            vl = 0.5 * ((v - torch.from_numpy(flat["ret"][idx])) ** 2).mean()
            ent = -(logp_all.exp() * logp_all).sum(1).mean()
            _step(net, opt, pg + cfg.vf_coef * vl - cfg.ent_coef * ent, cfg.max_grad_norm)
            with torch.no_grad():
                stats["approx_kl"].append(float(((ratio - 1) - ratio.log()).mean()))
                stats["clip_frac"].append(float(((ratio - 1).abs() > cfg.clip).float().mean()))
            stats["policy_loss"].append(float(pg.detach()))
            stats["value_loss"].append(float(vl.detach()))
            stats["entropy"].append(float(ent.detach()))
    return {k: float(np.mean(v)) for k, v in stats.items()}


def dmc_update(net, opt, roll: Rollout, cfg: ZeroConfig, rng: np.random.Generator,
               target: int) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes regressing Q(observation, card) on the deal's return (scaled)."""
    import torch

    ret, known = deal_returns(roll)
    rows = np.flatnonzero(known.reshape(-1))
    g = ret.reshape(-1) * cfg.reward_scale
    losses: list[float] = []
    for _ in range(cfg.epochs):
        losses.clear()
        for pick in _batches(len(rows), cfg.minibatch, rng):
            idx = rows[pick]
            x, _, action = _tensors(roll, idx, target)
            q, _ = net(x)
            qa = q.gather(1, action[:, None])[:, 0]
            loss = ((qa - torch.from_numpy(g[idx])) ** 2).mean()
            _step(net, opt, loss, cfg.max_grad_norm)
            losses.append(float(loss.detach()))
    return {"q_loss": float(np.mean(losses)), "trained_share": len(rows) / known.size,
            "mean_return": float(ret[known].mean())}  # fmt: skip
