"""Observation wrappers of :class:`~cribbage_env.envs.single.CribbageEnv` for libraries that want
another shape: a Box alone (sb3-contrib ``MlpPolicy``, CleanRL) or RLlib's key names."""

from __future__ import annotations

from typing import cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

__all__ = ["FlatObservation", "RLlibMaskObservation"]


class FlatObservation(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Only the float32 vector as observation (``Box``); the mask stays in ``info["action_mask"]``
    and :meth:`CribbageEnv.action_masks` (reached through ``get_wrapper_attr``).

    For libraries whose policies want a Box (sb3-contrib ``MaskablePPO("MlpPolicy")``, CleanRL).
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ObservationWrapper.__init__(self, env)
        self.observation_space = cast(spaces.Dict, env.observation_space)["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]


class RLlibMaskObservation(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Renames the observation keys to RLlib's action-masking convention.

    ``{"observation", "action_mask"}`` -> ``{"observations", "action_mask"}`` (what RLlib's
    action-masking RLModule example reads). The mask itself comes from the same function.
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ObservationWrapper.__init__(self, env)
        inner = cast(spaces.Dict, env.observation_space)
        self.observation_space = spaces.Dict(
            {"observations": inner["observation"], "action_mask": inner["action_mask"]}
        )

    def observation(self, observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {
            "observations": observation["observation"],
            "action_mask": observation["action_mask"],
        }
