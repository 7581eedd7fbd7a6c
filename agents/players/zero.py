"""The ``zero`` agent: a policy that taught itself cribbage from random weights, played with numpy.

Its net (``agents/data/zero.npz``, the command that trained it, its steps and time in its
``meta.*`` strings and in ``agents/data/zero.md``) was trained by ``cribbage train --method
ppo-zero`` or ``dmc-zero`` (:mod:`agents.learn.zero`): no teacher, no warm start, no analyzer
feature, the env's observation only. It plays as ``policy_net`` does (the env's encoding, a
discard as two picks, the most likely legal card), so it plays here as it acted in training.
"""

from __future__ import annotations

from pathlib import Path

from ..params import Param
from .policy_net import PolicyNetAgent

DEFAULT_WEIGHTS = Path(__file__).resolve().parents[1] / "data" / "zero.npz"


class ZeroAgent(PolicyNetAgent):
    """Taught itself from zero (random weights, the env's observation, no teacher): numpy only."""

    name = "zero"
    PARAMS = (
        Param("path", str, "", "policy weights .npz (default: the shipped agents/data/zero.npz)",
              metavar="weights.npz"),  # fmt: skip
        Param("deterministic", bool, True, "most likely legal card (false: sample)"),
    )

    def __init__(self, path: str | None = None, deterministic: str | bool = True) -> None:
        super().__init__(str(path) if path else str(DEFAULT_WEIGHTS), deterministic)
        self.spec = f"zero:path={path}" if path else "zero"
