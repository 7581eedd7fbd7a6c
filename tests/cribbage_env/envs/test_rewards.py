"""One table of reward modes (cribbage_env.envs.rewards.REWARDS) behind the Gym, AEC and batched
envs and ``cribbage train``: a new mode is one entry, and every env offers it."""

from __future__ import annotations

import numpy as np
import pytest

from cribbage_env.envs import rewards
from cribbage_env.envs.aec import raw_env
from cribbage_env.envs.batched import CribbageVectorEnv
from cribbage_env.envs.single import CribbageEnv


def _episode_sum(env: CribbageEnv, seed: int) -> tuple[float, dict]:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, r, done, _, info = env.step(action)
        total += r
    return total, info


@pytest.fixture
def doubled(monkeypatch):
    mode = rewards.Reward(
        "doubled", "twice the points margin", lambda ep, seat: 2.0 * ep.margin(seat),
        lambda o: 2.0 * (o.margin - o.prev_margin),
    )  # fmt: skip
    monkeypatch.setitem(rewards.REWARDS, "doubled", mode)
    return mode


def test_a_new_reward_is_one_entry_and_every_env_offers_it(doubled) -> None:
    for seed in range(3):
        total, info = _episode_sum(CribbageEnv("random", reward="doubled", agent_seed=5), seed)
        assert total == 2 * info["margin"]
        points, _ = _episode_sum(CribbageEnv("random", reward="points", agent_seed=5), seed)
        assert total == 2 * points
    raw_env(reward="doubled")  # zero-sum: the AEC env takes it
    vec = CribbageVectorEnv(2, opponent="random", reward="doubled")
    vec.reset(seed=1)
    vec.close()


def test_the_win_potential_and_its_batched_step_agree() -> None:
    o = rewards.Outcome(
        margin=np.array([30, -5, 4]), prev_margin=np.array([20, -5, 0]),
        scores=np.array([[121, 91], [60, 121], [50, 46]]), winner=np.array([0, 1, -1]),
        seat=np.array([0, 0, 1]), over=np.array([True, True, False]), deal_episode=False,
        skunk_bonus=True, rules=rewards.Rules(),
    )  # fmt: skip
    assert rewards.win_value(o).tolist() == [1.0, -3.0, 0.0]
    assert rewards.REWARDS["points"].batched(o).tolist() == [10.0, 0.0, 4.0]  # type: ignore[misc]


def test_equity_is_offered_by_the_one_learner_env_only() -> None:
    CribbageEnv("random", reward="equity")
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="equity")
    with pytest.raises(ValueError, match="reward"):
        CribbageVectorEnv(2, reward="equity")
