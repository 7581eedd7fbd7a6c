"""The AEC env under RLlib's key names: same data, spaces fixed per agent, PettingZoo's API test."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from cribbage_env.envs.aec import env as aec_env  # noqa: E402
from cribbage_env.envs.aec import rllib_env  # noqa: E402


def test_rllib_keys_carry_the_same_observation():
    a, b = aec_env(), rllib_env()
    a.reset(seed=4)
    b.reset(seed=4)
    agent = a.agent_selection
    assert b.agent_selection == agent
    oa, ob = a.observe(agent), b.observe(agent)
    assert set(ob) == {"observations", "action_mask"}
    np.testing.assert_array_equal(oa["observation"], ob["observations"])
    np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
    assert b.observation_space(agent) is b.observation_space(agent)
    assert b.observation_space(agent).contains(ob)


def test_rllib_keys_pass_the_api_test():
    api_test(rllib_env(), num_cycles=200)
