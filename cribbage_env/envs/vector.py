"""Vectorized CribbageEnv: ``make_vec`` builds Sync/Async vector envs with same-step autoreset.

Why ``AutoresetMode.SAME_STEP`` by default: Gymnasium's default (``NEXT_STEP``) returns the
terminal observation of a finished sub-env and resets it only on the *next* ``step``, which then
ignores that sub-env's action. Its terminal observation carries an all-zero action mask (no card
is legal once the game is over), so a masked policy is handed a state with no legal action and
the action it chooses is thrown away. With ``SAME_STEP`` the finished sub-env is reset inside the
same ``step``: the returned observation (and ``info["action_mask"]``) is the new episode's first
decision, always with legal actions, and the terminal observation is kept in
``info["final_obs"]`` / ``info["final_info"]`` for value bootstrapping.

Standard trainers on the batched env (:class:`~cribbage_env.envs.batched.CribbageVectorEnv`, all games
in one compiled step): :func:`batched` with ``flatten=True`` is a Gymnasium ``VectorEnv`` with a
``Box`` observation (the :data:`~cribbage_env.encoding.OBS_SIZE` features; the mask in ``info["action_mask"]`` and
``action_masks()``), the shape CleanRL's ``ppo.py`` sizes its network from
(``examples/cleanrl_masked_ppo.py``); :func:`sb3_vec_env` is the same as a Stable-Baselines3
``VecEnv`` with ``action_masks()`` for sb3-contrib's ``MaskablePPO``.

>>> from cribbage_env.encoding import OBS_SIZE
>>> vec = make_vec(4, opponent="random")
>>> obs, info = vec.reset(seed=0)
>>> obs["observation"].shape == (4, OBS_SIZE), obs["action_mask"].shape
(True, (4, 52))
>>> bool(obs["action_mask"].any(axis=1).all())
True
>>> vec.close()
"""

from __future__ import annotations

from functools import partial
from typing import Any

import gymnasium as gym
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from ..rules.core import EnvError
from .single import CribbageEnv

_MODES = ("sync", "async")


def make_vec(
    num_envs: int = 8,
    *,
    vectorization_mode: str = "sync",
    autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    vector_kwargs: dict[str, Any] | None = None,
    **env_kwargs: Any,
) -> gym.vector.VectorEnv:
    """``num_envs`` copies of ``CribbageEnv(**env_kwargs)`` in a Sync- or AsyncVectorEnv.

    ``env_kwargs`` are CribbageEnv's arguments (``opponent``, ``seat``, ``episode``, ``reward``...).
    ``reset(seed=s)`` seeds sub-env ``i`` with ``s + i``. Opponents given as objects are copied
    into each async worker by pickling; names ("random") are resolved in each sub-env.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise EnvError(f"num_envs must be a positive int, got {num_envs!r}")
    if vectorization_mode not in _MODES:
        raise EnvError(f"vectorization_mode must be 'sync' or 'async', got {vectorization_mode!r}")
    mode = AutoresetMode(autoreset_mode)
    fns = [partial(CribbageEnv, **env_kwargs) for _ in range(num_envs)]
    cls = SyncVectorEnv if vectorization_mode == "sync" else AsyncVectorEnv
    return cls(fns, autoreset_mode=mode, **(vector_kwargs or {}))


class FlatVectorObservation(gym.vector.VectorWrapper):
    """The batched env with the observation vector alone (a ``Box``); masks stay in the info.

    (Gymnasium's ``VectorObservationWrapper`` refuses same-step autoreset, hence the overrides;
    ``info["final_obs"]`` keeps the dict.)"""

    def __init__(self, env: gym.vector.VectorEnv) -> None:
        super().__init__(env)
        box = env.single_observation_space["observation"]  # type: ignore[index]
        self.single_observation_space = box
        self.observation_space = gym.vector.utils.batch_space(box, env.num_envs)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs["observation"], info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        obs, *rest = self.env.step(actions)
        return (obs["observation"], *rest)

    def action_masks(self) -> Any:
        """The batch's legal-action masks as bool, shape ``(num_envs, 52)``."""
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


def batched(num_envs: int = 8, *, flatten: bool = False, **env_kwargs: Any) -> gym.vector.VectorEnv:
    """The batched env (``CribbageVectorEnv(num_envs, **env_kwargs)``), flattened on request.

    >>> from cribbage_env.encoding import OBS_SIZE
    >>> vec = batched(4, flatten=True)
    >>> obs, info = vec.reset(seed=0)
    >>> obs.shape == (4, OBS_SIZE), vec.single_observation_space.shape == (OBS_SIZE,)
    (True, True)
    >>> info["action_mask"].shape
    (4, 52)
    """
    from .batched import CribbageVectorEnv

    vec: gym.vector.VectorEnv = CribbageVectorEnv(num_envs, **env_kwargs)
    return FlatVectorObservation(vec) if flatten else vec


def sb3_vec_env(num_envs: int = 8, *, flatten: bool = False, **env_kwargs: Any) -> Any:
    """The batched env as a Stable-Baselines3 ``VecEnv`` (extra ``rl``), for ``MaskablePPO``.

    Observations are the env's dict (``MultiInputPolicy``) or, with ``flatten=True``, the vector
    alone (``MlpPolicy``); masks come from ``action_masks()``. A finished game is reset in the
    same step, its last observation in ``infos[i]["terminal_observation"]`` as SB3 expects.
    ``seed(s)`` before ``reset()`` seeds game ``i`` with ``s + i``. Wrap it in SB3's
    ``VecMonitor`` for episode statistics. See :mod:`cribbage_env.envs.sb3vec`.
    """
    from .sb3vec import SB3BatchedVecEnv

    return SB3BatchedVecEnv(batched(num_envs, **env_kwargs), flatten=flatten)
