"""The learner's network: a ReLU trunk over the env's observation, a 52-way head (PPO: masked
logits; DMC: Q values of each card) and, for PPO, a value head. Trained with torch; collected
and played with numpy (:class:`NumpyNet`, the same arithmetic on ``(in, out)`` arrays)."""

from __future__ import annotations

import numpy as np

from cribbage_env.encoding import NUM_ACTIONS, OBS_SIZE


def torch_net(hidden: tuple[int, ...], value_head: bool, seed: int):
    """A freshly initialised (random, seeded) torch module: ``forward(x) -> (head, value)``."""
    import torch
    from torch import nn

    torch.manual_seed(seed)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = (OBS_SIZE, *hidden)
            self.trunk = nn.ModuleList(
                nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:], strict=True)
            )
            self.head = nn.Linear(sizes[-1], NUM_ACTIONS)
            self.value = nn.Linear(sizes[-1], 1) if value_head else None
            nn.init.orthogonal_(self.head.weight, 0.01)
            nn.init.zeros_(self.head.bias)

        def forward(self, x):
            h = x
            for layer in self.trunk:
                h = torch.relu(layer(h))
            v = self.value(h)[:, 0] if self.value is not None else None
            return self.head(h), v

    return Net()


class NumpyNet:
    """The torch net's arithmetic in numpy (float32): what collects, evaluates and plays."""

    def __init__(self, trunk: list[tuple[np.ndarray, np.ndarray]],
                 head: tuple[np.ndarray, np.ndarray],
                 value: tuple[np.ndarray, np.ndarray] | None) -> None:  # fmt: skip
        self.trunk, self.head, self.value = trunk, head, value

    @classmethod
    def of(cls, net) -> NumpyNet:
        """A copy of a torch net's current weights."""

        def pair(layer) -> tuple[np.ndarray, np.ndarray]:
            w = layer.weight.detach().numpy().T
            return np.ascontiguousarray(w, np.float32), layer.bias.detach().numpy().copy()

        value = pair(net.value) if net.value is not None else None
        return cls([pair(layer) for layer in net.trunk], pair(net.head), value)

    @classmethod
    def of_policy(cls, path) -> NumpyNet:
        """The actor of a ``policy_net`` weights file (no value head)."""
        from ...players.policy_net import NumpyPolicy

        layers = NumpyPolicy(path).net.layers
        return cls(list(layers[:-1]), layers[-1], None)

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The actor's layers (trunk then head) as :func:`agents.players.policy_net.save_policy`
        writes them."""
        return [*self.trunk, self.head]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(n, OBS_SIZE) observations -> (n, 52) head outputs and (n,) values (or None)."""
        h = x
        for w, b in self.trunk:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        out = h @ self.head[0] + self.head[1]
        v = None if self.value is None else (h @ self.value[0] + self.value[1])[:, 0]
        return out, v
