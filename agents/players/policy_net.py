"""A policy net over the env's observations, played with numpy: ``policy_net:path=actor.npz``.

For nets trained outside sb3 on the Gym or batched env (``examples/cleanrl_masked_ppo.py`` saves
one): the ``.npz`` holds a ReLU MLP ``actor.w0, actor.b0, ...`` from the observation's features
(:data:`cribbage_env.encoding.OBS_SIZE`) to 52 card logits, plus ``meta.*`` strings. Decisions go
through :class:`~agents.players.maskable_ppo_agent.MaskablePPOAgent` (the env's encoding, a discard as
two picks), so a net plays in ``cribbage bench`` exactly as it acted in training. Loading reads
arrays only (``allow_pickle=False``): no code runs from the file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cribbage_env.encoding import NUM_ACTIONS, OBS_SIZE

from ..base import AgentSpecError
from ..nets.mlp import MLP
from ..params import REQUIRED, Param
from .maskable_ppo_agent import MaskablePPOAgent, Policy

PREFIX = "actor"


class NumpyPolicy:
    """Masked softmax of an MLP's 52 logits for one observation dict."""

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if not p.is_file():
            raise AgentSpecError(f"policy_net: no weights file {str(p)!r} (give path=FILE.npz)")
        try:
            with np.load(p, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            self.net = MLP.from_arrays(arrays, PREFIX)
        except (OSError, ValueError, KeyError) as exc:
            raise AgentSpecError(f"policy_net: cannot read {str(p)!r}: {exc}") from None
        if self.net.in_dim != OBS_SIZE or self.net.out_dim != NUM_ACTIONS:
            raise AgentSpecError(
                f"policy_net: {str(p)!r} maps {self.net.in_dim} -> {self.net.out_dim}, "
                f"this build's env needs {OBS_SIZE} -> {NUM_ACTIONS}"
            )
        self.meta = {k[5:]: str(v) for k, v in arrays.items() if k.startswith("meta.")}

    def probabilities(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        logits = self.net.forward(obs["observation"][None])[0].astype(np.float64)
        mask = obs["action_mask"].astype(bool)
        z = np.where(mask, logits, -np.inf)
        e = np.exp(z - z[mask].max()) if mask.any() else np.zeros_like(z)
        return e / e.sum() if e.sum() > 0 else e


class PolicyNetAgent(MaskablePPOAgent):
    """A numpy policy net (``.npz``) over the env's observations, as an agent."""

    name = "policy_net"
    PARAMS = (
        Param(
            "path",
            str,
            REQUIRED,
            "actor weights .npz (examples/cleanrl_masked_ppo.py --save); arrays only",
            metavar="actor.npz",
        ),
        Param("deterministic", bool, True, "most likely legal card (false: sample)"),
    )

    def _load(self, path: str) -> Policy:
        return NumpyPolicy(path)


#: The ``zero`` agent's policy (made by ``benchmarks/learning/ship_zero.py``; ``zero.md`` beside it).
ZERO_WEIGHTS = Path(__file__).resolve().parents[1] / "data" / "zero.npz"


class ZeroAgent(PolicyNetAgent):
    """Taught itself from zero (random weights, the env's observation, no teacher): numpy only.

    Its net (``agents/data/zero.npz``; the command that trained it, its steps and time in its
    ``meta.*`` strings and in ``agents/data/zero.md``) was trained by ``cribbage train --method
    ppo-zero`` or ``dmc-zero`` (:mod:`agents.learn.zero`): no teacher, no warm start, no analyzer
    feature. It plays as ``policy_net`` does, so it plays here as it acted in training."""

    name = "zero"
    PARAMS = (
        Param(
            "path",
            str,
            "",
            "policy weights .npz (default: the shipped agents/data/zero.npz)",
            metavar="weights.npz",
        ),  # fmt: skip
        Param("deterministic", bool, True, "most likely legal card (false: sample)"),
    )

    def __init__(self, path: str | None = None, deterministic: str | bool = True) -> None:
        super().__init__(str(path) if path else str(ZERO_WEIGHTS), deterministic)
        self.spec = f"zero:path={path}" if path else "zero"


def save_policy(path: str | Path, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict) -> None:
    """Write ``layers`` ((in, out) weights, bias; ReLU between) as a ``policy_net`` file,
    through a temporary name."""
    arrays = MLP(layers).arrays(PREFIX)
    arrays.update({f"meta.{k}": np.array(str(v)) for k, v in meta.items()})
    tmp = Path(str(path) + ".tmp.npz")
    np.savez_compressed(tmp, allow_pickle=False, **arrays)
    tmp.replace(path)
