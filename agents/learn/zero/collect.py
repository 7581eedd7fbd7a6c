"""Rollouts in preallocated arrays: every game of the batch steps at once, the policy runs once
per step on the whole batch in numpy (no torch call while collecting)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribbage_env.encoding import NUM_ACTIONS
from cribbage_env.kernels.vecobs import COMPACT_SIZE

from .games import Games
from .net import NumpyNet


@dataclass
class Rollout:
    """``n_steps`` x ``num_envs`` of everything an update needs (rewritten by each collect)."""

    obs: np.ndarray  # uint8 (T, N, COMPACT_SIZE): compact observations
    mask: np.ndarray  # bool (T, N, 52)
    action: np.ndarray  # int64 (T, N)
    logp: np.ndarray  # float32 (T, N): log-probability of the action (ppo)
    value: np.ndarray  # float32 (T, N): the value head's estimate (ppo)
    reward: np.ndarray  # float32 (T, N)
    done: np.ndarray  # bool (T, N): the game ended with this step
    next_obs: np.ndarray  # uint8 (N, COMPACT_SIZE): the observation after the last step

    @classmethod
    def empty(cls, t: int, n: int) -> Rollout:
        return cls(np.zeros((t, n, COMPACT_SIZE), np.uint8), np.zeros((t, n, NUM_ACTIONS), bool),
                   np.zeros((t, n), np.int64), np.zeros((t, n), np.float32),
                   np.zeros((t, n), np.float32), np.zeros((t, n), np.float32),
                   np.zeros((t, n), bool), np.zeros((n, COMPACT_SIZE), np.uint8))  # fmt: skip


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log-probabilities of the legal actions (-inf elsewhere), row by row."""
    z = np.where(mask, logits, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def act(net: NumpyNet, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator, *,
        sample: bool, eps: float = 0.0):  # fmt: skip
    """Actions for a batch: sampled from the masked softmax (``sample``, PPO) or the best legal
    output, a random legal card with probability ``eps`` (DMC). Returns (actions, their
    log-probabilities (sampled) or zeros, values or zeros)."""
    out, value = net.forward(x)
    n = len(x)
    rows = np.arange(n)
    if sample:
        logp_all = masked_log_softmax(out, mask)
        cdf = np.cumsum(np.exp(logp_all), axis=1)
        u = rng.random(n, dtype=np.float32)[:, None] * cdf[:, -1:]
        a = np.minimum((cdf < u).sum(axis=1), NUM_ACTIONS - 1)
        a = np.where(mask[rows, a], a, np.argmax(np.where(mask, out, -np.inf), axis=1))
        logp = logp_all[rows, a].astype(np.float32)
    else:
        a = np.argmax(np.where(mask, out, -np.inf), axis=1)
        if eps > 0:
            explore = rng.random(n) < eps
            rand = np.argmax(np.where(mask, rng.random(out.shape, dtype=np.float32), -1), axis=1)
            a = np.where(explore, rand, a)
        logp = np.zeros(n, np.float32)
    v = np.zeros(n, np.float32) if value is None else value.astype(np.float32)
    return a.astype(np.int64), logp, v


@dataclass
class Tally:
    """Games finished and won while collecting, by opponent."""

    games: dict[str, int]
    wins: dict[str, int]

    def add(self, games: Games) -> None:
        for name, done in games.per_opponent(games.done).items():
            self.games[name] = self.games.get(name, 0) + int(done.sum())
        for name, won in games.per_opponent(games.won).items():
            self.wins[name] = self.wins.get(name, 0) + int(won.sum())


def collect(games: Games, net: NumpyNet, roll: Rollout, rng: np.random.Generator, *,
            sample: bool, eps: float = 0.0) -> Tally:  # fmt: skip
    """Fill ``roll`` with the next ``T`` steps of every game (the games carry on from where
    they are)."""
    tally = Tally({}, {})
    for t in range(len(roll.obs)):
        roll.obs[t] = games.obs
        roll.mask[t] = games.mask
        a, logp, v = act(net, games.floats(), games.mask, rng, sample=sample, eps=eps)
        roll.action[t], roll.logp[t], roll.value[t] = a, logp, v
        games.step(a)
        roll.reward[t] = games.reward
        roll.done[t] = games.done
        tally.add(games)
    roll.next_obs[:] = games.obs
    return tally
