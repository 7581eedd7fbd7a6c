"""A trained policy as an agent: ``maskable_ppo:path=model.zip`` (extra ``rl``: sb3-contrib, torch).

The bot sees exactly what it saw in training: each decision goes through the env's own encoding
(:func:`cribbage_env.encoding.observation_dict`, the ``{"observation", "action_mask"}`` dict of
``cribbage/Cribbage-v0``, or its vector alone for models trained through ``FlatObservation`` as
``benchmarks/strength/train_maskable_ppo.py`` does), and a discard is made as in the env, as two picks in a row, the first
held as ``pending`` in the second observation. Actions are the policy's most likely legal card
(``deterministic=true``, the default, as ``model.predict(..., deterministic=True)``) or sampled
from its masked distribution with the agent's seeded generator (``deterministic=false``), so a
tournament stays reproducible either way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from cribbage_env.encoding import OBS_SIZE, observation_dict, picks_to_engine_action
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..base import AgentSpecError
from ..params import REQUIRED, Param


class Policy(Protocol):
    """Anything giving action probabilities (52, masked) for one env observation dict."""

    def probabilities(self, obs: dict[str, np.ndarray]) -> np.ndarray: ...


class SB3MaskablePolicy:
    """A saved sb3-contrib ``MaskablePPO`` model, on CPU, one torch thread."""

    def __init__(self, path: str | Path) -> None:
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise AgentSpecError(
                "maskable_ppo needs sb3-contrib and torch: pip install 'cribbage-env[rl]'"
            ) from None
        p = Path(path)
        if not p.is_file():
            raise AgentSpecError(f"maskable_ppo: no model file {str(p)!r} (give path=FILE.zip)")
        torch.set_num_threads(1)  # a worker per core; more threads only contend (ARCHITECTURE)
        self._torch = torch
        try:
            self.model = MaskablePPO.load(str(p), device="cpu")
        except Exception as exc:  # zip, pickle or shape errors: all mean "not a usable model"
            raise AgentSpecError(f"maskable_ppo: cannot load {str(p)!r}: {exc}") from None
        self._adapt = _adapter(self.model.observation_space, p)

    def probabilities(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(self._adapt(obs))
        with self._torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=obs["action_mask"].astype(bool))
            probs = cast(Any, dist.distribution).probs  # one Categorical for a Discrete space
            return probs[0].cpu().numpy().astype(np.float64)


def _adapter(space, path: Path):
    """How the model saw the env: the Dict itself, RLlib key names, or ``FlatObservation``'s Box."""
    want = (OBS_SIZE,)
    spaces_ = getattr(space, "spaces", None)
    if spaces_ is not None:
        key = "observations" if "observations" in spaces_ else "observation"
        shape = getattr(spaces_.get(key), "shape", None)
        if shape != want or "action_mask" not in spaces_:
            raise AgentSpecError(
                f"maskable_ppo: {str(path)!r} was trained on observations {space}, "
                f"not this build's {{'observation': {want}, 'action_mask': (52,)}}"
            )
        if key == "observation":
            return lambda obs: obs
        return lambda obs: {"observations": obs["observation"], "action_mask": obs["action_mask"]}
    if getattr(space, "shape", None) != want:
        raise AgentSpecError(
            f"maskable_ppo: {str(path)!r} was trained on observations of shape "
            f"{getattr(space, 'shape', space)}, this build encodes {want}"
        )
    return lambda obs: obs["observation"]


def _load_policy(path: str) -> Policy:
    return SB3MaskablePolicy(path)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class MaskablePPOAgent:
    """Plays a trained MaskablePPO policy through the env's PlayerView -> observation encoding.

    The one place a policy over the env's observations becomes an agent: a discard is two picks,
    as in the env (``agents.players.policy_net`` plays numpy nets through it too)."""

    name = "maskable_ppo"
    PARAMS = (
        Param(
            "path",
            str,
            REQUIRED,
            "the saved MaskablePPO model (.zip; trusted files only: loading unpickles code)",
            metavar="model.zip",
        ),
        Param("deterministic", bool, True, "most likely legal card (false: sample)"),
    )

    def __init__(self, path: str | None = None, deterministic: str | bool = True) -> None:
        if not path:
            raise AgentSpecError(
                f"{self.name} needs a model: {self.name}:path={self.PARAMS[0].metavar}"
            )
        if isinstance(deterministic, str):
            low = deterministic.lower()
            if low not in _TRUE | _FALSE:
                raise AgentSpecError(
                    f"{self.name}: deterministic must be true or false, got {deterministic!r}"
                )
            deterministic = low in _TRUE
        self.deterministic = bool(deterministic)
        self.path = path
        self.policy = self._load(path)
        self.spec = f"{self.name}:path={path}"

    def _load(self, path: str) -> Policy:
        """The policy behind the agent (subclasses load other formats: ``agents.players.policy_net``)."""
        return _load_policy(path)

    def _pick(self, view: PlayerView, pending: int | None, rng: np.random.Generator) -> int:
        obs = observation_dict(view, pending)
        mask = obs["action_mask"].astype(bool)
        probs = np.where(mask, self.policy.probabilities(obs), 0.0)
        if not mask.any():
            raise ValueError(
                f"{self.name}: no legal card for seat {view.seat} in {view.phase.value}"
            )
        if self.deterministic or probs.sum() <= 0:
            scores = np.where(mask, probs, -1.0)
            return int(np.argmax(scores))
        return int(rng.choice(len(probs), p=probs / probs.sum()))

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is Phase.DISCARD:
            first = self._pick(view, None, rng)
            second = self._pick(view, first, rng)
            return picks_to_engine_action(first, second)
        if view.phase is Phase.PLAY:
            return self._pick(view, None, rng)
        # Cut decisions (interactive cuts only) never change the card (R11.1): any legal one.
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])
