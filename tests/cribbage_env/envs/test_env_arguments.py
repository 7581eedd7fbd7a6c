"""The library's side of the command contract: env options it cannot use are refused when the env
is made, and misuse (stepping before ``reset()``) raises one clear error."""

from __future__ import annotations

import math

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.envs.single import CribbageEnv, EpisodeOverError


@pytest.mark.parametrize(
    "kwargs",
    [{"illegal_penalty": math.nan}, {"illegal_penalty": math.inf}, {"illegal_penalty": -math.inf},
     {"illegal_penalty": "-1"}, {"illegal_penalty": True}, {"illegal_penalty": None},
     {"skunk_bonus": "no"}, {"skunk_bonus": 1}, {"skunk_bonus": None}],
)  # fmt: skip
def test_the_gym_env_refuses_options_it_cannot_use(kwargs: dict) -> None:
    name = next(iter(kwargs))
    with pytest.raises(ce.EnvError, match=name):
        CribbageEnv("random", **kwargs)


def test_finite_penalties_and_numpy_values_are_taken() -> None:
    env = CribbageEnv("random", illegal_penalty=np.float32(-0.5), skunk_bonus=np.bool_(True))
    assert env.illegal_penalty == -0.5 and env.skunk_bonus is True
    assert CribbageEnv("random", illegal_penalty=-2).illegal_penalty == -2.0


aec = pytest.importorskip("cribbage_env.envs.aec", reason="the AEC env needs the pettingzoo extra")


def test_the_aec_env_refuses_a_flag_that_is_not_one() -> None:
    with pytest.raises(ce.EnvError, match="skunk_bonus"):
        aec.raw_env(skunk_bonus="yes")


def test_stepping_or_observing_the_aec_env_before_reset_is_one_clear_error() -> None:
    env = aec.raw_env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0")):
        with pytest.raises(EpisodeOverError, match=r"call reset\(\) first"):
            call()
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # after reset it plays
