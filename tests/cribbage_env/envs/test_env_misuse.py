"""The envs answer misuse the same way: a bad penalty refused in every env, masks a caller cannot
edit into the env's checks, and the AEC env's calls before ``reset()`` or for an unknown agent
one clear error, wrapped or raw."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cribbage_env import EnvError, IllegalActionError
from cribbage_env.envs.single import EpisodeOverError


@pytest.mark.parametrize("penalty", [math.nan, math.inf, -math.inf, "1", True])
def test_the_vector_env_refuses_a_penalty_the_gym_env_refuses(penalty) -> None:
    from cribbage_env.envs.batched import CribbageVectorEnv
    from cribbage_env.envs.single import CribbageEnv

    with pytest.raises(EnvError, match="illegal_penalty must be a finite number"):
        CribbageEnv(illegal_penalty=penalty)
    with pytest.raises(EnvError, match="illegal_penalty must be a finite number"):
        CribbageVectorEnv(2, illegal_penalty=penalty)


def test_masks_of_a_copy_false_vector_env_cannot_defeat_illegal_raise() -> None:
    from cribbage_env.envs.batched import CribbageVectorEnv

    env = CribbageVectorEnv(2, illegal_action="raise", copy=False, agent_seed=1)
    obs, info = env.reset(seed=3)
    for mask in (obs["action_mask"], info["action_mask"]):
        with pytest.raises(ValueError, match="read-only"):
            mask[:] = 1
    illegal = [int(np.flatnonzero(row == 0)[0]) for row in info["action_mask"]]
    forced = info["action_mask"].view()
    try:  # numpy lets a view of a writable buffer be made writable again: then edit it
        forced.flags.writeable = True
        forced[:] = 1
    except ValueError:
        pass
    with pytest.raises(IllegalActionError, match="is not legal now"):
        env.step(np.array(illegal))
    _, rewards, *_ = env.step(np.array([int(np.flatnonzero(m)[0]) for m in env._legal]))
    with pytest.raises(ValueError, match="read-only"):
        rewards[:] = 0.0


@pytest.mark.parametrize("wrapped", [True, False], ids=["env()", "raw_env()"])
def test_aec_calls_before_reset_and_unknown_agents_are_one_clear_error(wrapped) -> None:
    pytest.importorskip("pettingzoo")
    from cribbage_env.envs import aec

    e = aec.env() if wrapped else aec.raw_env()
    for call in (e.last, lambda: e.observe("player_0")):
        with pytest.raises(EpisodeOverError, match=r"call reset\(\) first"):
            call()
    e.reset(seed=1)
    for agent in ("nobody", 0, None):
        with pytest.raises(EnvError, match="unknown agent .*; the agents are player_0, player_1"):
            e.observe(agent)
    obs, *_ = e.last()
    assert obs["action_mask"].any()
