"""The learner's games: one :class:`~cribbage_env.envs.batched.CribbageVectorEnv` per opponent (the
opponents run inside the compiled kernel), their rows side by side in one set of arrays."""

from __future__ import annotations

import numpy as np

from cribbage_env.encoding import NUM_ACTIONS, SLICES
from cribbage_env.envs.batched import OPPONENTS, CribbageVectorEnv, unpack_observation
from cribbage_env.kernels.vecobs import COMPACT_SIZE

#: The observation's entry saying "first discard pick": the learner's first decision of a deal.
DEAL_START = SLICES["phase"].start


def split(total: int, weights: list[float]) -> list[int]:
    """``total`` games shared out by ``weights`` (largest remainders; each share at least 1).

    >>> split(10, [1.0, 1.0, 2.0])
    [3, 2, 5]
    """
    w = np.asarray(weights, dtype=np.float64)
    raw = total * w / w.sum()
    n = np.maximum(np.floor(raw).astype(int), 1)
    for i in np.argsort(-(raw - np.floor(raw)), kind="stable")[: total - int(n.sum())]:
        n[i] += 1
    return [int(x) for x in n]


def check_opponents(opponents: tuple[tuple[str, float], ...]) -> None:
    """ValueError unless every opponent is one the batched env runs in its kernel."""
    for name, weight in opponents:
        if name not in OPPONENTS or not weight > 0:
            raise ValueError(
                f"the batched learner plays the kernel's opponents {sorted(OPPONENTS)} with "
                f"weights > 0, got {name!r}@{weight!r}"
            )


class Games:
    """``num_envs`` games against weighted opponents, stepped batch by batch."""

    def __init__(self, opponents, num_envs: int, agent_seed: int, reward: str = "points",
                 rules: str = "standard", seat: int | str = "alternate") -> None:  # fmt: skip
        check_opponents(opponents)
        names = [n for n, _ in opponents]
        counts = split(num_envs, [w for _, w in opponents])
        self.envs = [
            CribbageVectorEnv(n, name, seat=seat, reward=reward, rules=rules,
                              observation="compact", copy=False, agent_seed=agent_seed + k)
            for k, (name, n) in enumerate(zip(names, counts, strict=True))
        ]  # fmt: skip
        self.names = names
        self.bounds = np.cumsum([0, *counts])
        self.n = int(self.bounds[-1])
        self.target = self.envs[0].rules.target
        self.obs = np.zeros((self.n, COMPACT_SIZE), np.uint8)
        self.mask = np.zeros((self.n, NUM_ACTIONS), bool)
        self.reward = np.zeros(self.n, np.float32)
        self.done = np.zeros(self.n, bool)
        self.won = np.zeros(self.n, bool)

    def reset(self, seed: int) -> None:
        """Every game afresh: game ``i`` from seed ``seed + i``."""
        for env, lo, hi in self._parts():
            o, _ = env.reset(seed=seed + int(lo))
            self.obs[lo:hi] = o["observation"]
            self.mask[lo:hi] = o["action_mask"]

    def step(self, actions: np.ndarray) -> None:
        """One learner step in every game (a finished game restarts in the same step)."""
        for env, lo, hi in self._parts():
            o, r, term, _, info = env.step(actions[lo:hi])
            self.obs[lo:hi] = o["observation"]
            self.mask[lo:hi] = o["action_mask"]
            self.reward[lo:hi] = r
            self.done[lo:hi] = term
            self.won[lo:hi] = False
            if term.any():
                self.won[lo:hi] = info["final_info"]["won"] & term

    def floats(self, packed: np.ndarray | None = None) -> np.ndarray:
        """The standard float observation of ``packed`` rows (default: the current ones)."""
        return unpack_observation(self.obs if packed is None else packed, self.target)

    def per_opponent(self, values: np.ndarray) -> dict[str, np.ndarray]:
        """``values`` (last axis: games) cut into each opponent's games."""
        return {
            n: values[..., lo:hi] for n, (_, lo, hi) in zip(self.names, self._parts(), strict=True)
        }

    def _parts(self):
        return [
            (e, int(lo), int(hi))
            for e, lo, hi in zip(self.envs, self.bounds[:-1], self.bounds[1:], strict=True)
        ]
