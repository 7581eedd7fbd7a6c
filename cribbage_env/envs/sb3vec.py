"""The batched env as a Stable-Baselines3 ``VecEnv`` (extra ``rl``); built by
:func:`cribbage_env.envs.vector.sb3_vec_env`.

SB3 takes only its own ``VecEnv`` class, not a Gymnasium ``VectorEnv``: this adapter steps the
compiled batch (:class:`~cribbage_env.envs.batched.CribbageVectorEnv`) and speaks SB3's protocol
(``reset() -> obs``, ``step_wait() -> (obs, rewards, dones, infos)`` with a list of per-game
info dicts and ``terminal_observation`` on finished games). ``action_masks()`` and
``env_method("action_masks")`` (how sb3-contrib's ``MaskablePPO`` asks) give the batch's masks.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .extras import missing_extra

try:
    from stable_baselines3.common.vec_env import VecEnv
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "cribbage_env.envs.vector.sb3_vec_env", "rl") from None


class SB3BatchedVecEnv(VecEnv):
    """An SB3 ``VecEnv`` over a Gymnasium batched env (dict or flattened observations)."""

    def __init__(self, vec: gym.vector.VectorEnv, *, flatten: bool = False) -> None:
        self.vec = vec
        self.flatten = bool(flatten)
        single = vec.single_observation_space
        space = single["observation"] if flatten else single  # type: ignore[index]
        super().__init__(vec.num_envs, space, vec.single_action_space)
        self._actions: np.ndarray | None = None

    def _obs(self, obs: dict[str, np.ndarray]) -> Any:
        return obs["observation"] if self.flatten else obs

    def reset(self) -> Any:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, _ = self.vec.reset(seed=seeds)  # type: ignore[arg-type]  # the batched env takes a list
        self._reset_seeds()
        self._reset_options()
        return self._obs(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self) -> Any:
        assert self._actions is not None, "step_async comes first"
        obs, rewards, terminated, truncated, info = self.vec.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in info:
            final, final_info = info["final_obs"], info["final_info"]
            for i in np.flatnonzero(info["_final_obs"]):
                row = {k: v[i] for k, v in final.items()}
                infos[i]["terminal_observation"] = self._obs(row)
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                infos[i]["won"] = bool(final_info["won"][i])
                infos[i]["margin"] = int(final_info["margin"][i])
        return self._obs(obs), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The batch's legal-action masks, bool ``(num_envs, 52)``."""
        return self.vec.unwrapped.action_masks()  # type: ignore[attr-defined]

    def close(self) -> None:
        self.vec.close()

    # SB3's per-sub-env protocol: one compiled batch has no sub-env objects, so attributes and
    # methods are the batch's (``action_masks`` answered row by row, as sb3-contrib stacks it).
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        target = self if attr_name == "action_masks" else self.vec.unwrapped
        value = getattr(target, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the batched env's games share {attr_name!r}; rebuild it instead")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.vec.unwrapped, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
