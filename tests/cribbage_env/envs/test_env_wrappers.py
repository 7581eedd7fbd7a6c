"""The observation wrappers pass Gymnasium's checker; unmasked play cannot stall an episode."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cribbage_env.envs.single import CribbageEnv
from cribbage_env.envs.wrappers import FlatObservation, RLlibMaskObservation


@pytest.mark.parametrize("wrapper", [FlatObservation, RLlibMaskObservation])
def test_wrappers_pass_check_env(wrapper):
    env = wrapper(CribbageEnv("random"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    # Before the fix the checker raised "... does not inherit from RecordConstructorArgs".
    assert not [w for w in caught if "RecordConstructorArgs" in str(w.message)]
    assert isinstance(env, gym.utils.RecordConstructorArgs)
    assert env.spec is None or env.spec.id


def test_flat_observation_is_the_vector_and_mask_stays_in_info():
    inner = CribbageEnv("random")
    env = FlatObservation(inner)
    obs, info = env.reset(seed=3)
    ref, ref_info = CribbageEnv("random").reset(seed=3)
    np.testing.assert_array_equal(obs, ref["observation"])
    np.testing.assert_array_equal(info["action_mask"], ref_info["action_mask"])
    assert env.observation_space == inner.observation_space["observation"]


def test_rllib_keys():
    env = RLlibMaskObservation(CribbageEnv("random"))
    obs, info = env.reset(seed=1)
    assert set(obs) == {"observations", "action_mask"}
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])


def _illegal_card(info) -> int:
    return int(np.flatnonzero(info["action_mask"] == 0)[0])


def test_max_illegal_truncates_after_n_consecutive_illegal_picks():
    env = CribbageEnv("random", max_illegal=3, illegal_penalty=-0.5)
    obs, info = env.reset(seed=0)
    rewards = []
    for k in range(3):
        obs, r, term, trunc, info = env.step(_illegal_card(info))
        rewards.append(r)
        assert not term and trunc == (k == 2)
    assert rewards == [-0.5, -0.5, -0.5]
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def test_a_legal_pick_resets_the_illegal_run():
    env = CribbageEnv("random", max_illegal=2)
    obs, info = env.reset(seed=0)
    _, _, _, trunc, info = env.step(_illegal_card(info))
    assert not trunc
    _, _, _, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not trunc
    _, _, _, trunc, info = env.step(_illegal_card(info))
    assert not trunc  # one in a row again, not two


def test_unmasked_random_policy_always_finishes():
    env = CribbageEnv("random", max_illegal=5)
    rng = np.random.default_rng(0)
    for ep in range(3):
        env.reset(seed=ep)
        for _ in range(5000):
            _, _, term, trunc, _ = env.step(int(rng.integers(52)))
            if term or trunc:
                break
        else:
            pytest.fail("an unmasked episode ran 5000 steps")


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_max_illegal_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="max_illegal"):
        CribbageEnv("random", max_illegal=bad)
