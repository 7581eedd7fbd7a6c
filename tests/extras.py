"""Skips for optional extras, with the reason CI's skip check (``.ci/check_skips.py``) accepts.

The README's test install (``.[dev]``) leaves out the training extra (torch is a large download
and PyPI's default build is CUDA's); its tests then skip with :data:`TRAINING`, and CI runs them
again after installing a CPU torch and ``.[rl]``, where no skip is allowed.
"""

from __future__ import annotations

from typing import Any

import pytest

TRAINING = (
    "training extra not installed: pip install torch --index-url "
    "https://download.pytorch.org/whl/cpu && pip install -e '.[rl]' (CI runs these tests with it)"
)


def needs_training(module: str = "sb3_contrib") -> Any:
    """The module (``torch`` or ``sb3_contrib``), or a skip with :data:`TRAINING`."""
    return pytest.importorskip(module, reason=TRAINING)


def tiny_maskable_ppo(env: Any, *, flat: bool, batch_size: int, width: int) -> Any:
    """A small MaskablePPO on ``env`` (one epoch per 32-step update, seed 0, on the CPU): a model
    to save and load, not to play well."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy" if flat else "MultiInputPolicy",
        env,
        n_steps=32,
        batch_size=batch_size,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [width]},
    )


def refuses_missing_and_broken_files(
    name: str, suffix: str, missing: str, broken: str, tmp_path
) -> None:
    """Agent ``name``'s ``path=`` refuses a missing file (AgentSpecError matching ``missing``)
    and a file of junk (matching ``broken``) with a clear message."""
    from agents import make_agent
    from agents.base import AgentSpecError

    with pytest.raises(AgentSpecError, match=missing):
        make_agent(f"{name}:path={tmp_path / ('missing' + suffix)}")
    bad = tmp_path / f"bad{suffix}"
    bad.write_bytes(b"not a model")
    with pytest.raises(AgentSpecError, match=broken):
        make_agent(f"{name}:path={bad}")
