"""Vectorized CribbageEnv: ``make_vec`` builds Sync/Async vector envs with same-step autoreset.

Why ``AutoresetMode.SAME_STEP`` by default: Gymnasium's default (``NEXT_STEP``) returns the
terminal observation of a finished sub-env and resets it only on the *next* ``step``, which then
ignores that sub-env's action. Its terminal observation carries an all-zero action mask (no card
is legal once the game is over), so a masked policy is handed a state with no legal action and
the action it chooses is thrown away. With ``SAME_STEP`` the finished sub-env is reset inside the
same ``step``: the returned observation (and ``info["action_mask"]``) is the new episode's first
decision, always with legal actions, and the terminal observation is kept in
``info["final_obs"]`` / ``info["final_info"]`` for value bootstrapping.

>>> vec = make_vec(4, opponent="random")
>>> obs, info = vec.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape, bool(obs["action_mask"].any(axis=1).all())
((4, 534), (4, 52), True)
>>> vec.close()
"""

from __future__ import annotations

from functools import partial
from typing import Any

import gymnasium as gym
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from .core import EnvError
from .env import CribbageEnv

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
