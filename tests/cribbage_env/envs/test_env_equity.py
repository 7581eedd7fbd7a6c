"""``reward="equity"``: the change of the learner's winning chance, summing to the outcome minus
the chance at the start."""

from __future__ import annotations

import numpy as np
import pytest

from cribbage_env.envs.single import CribbageEnv
from cribbage_env.equity import win_probability
from cribbage_env.rules.core import Phase


def _episode(env: CribbageEnv, seed: int):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    start = info["start_chance"]
    assert info["win_chance"] == start
    rewards, checked = [], 0
    while True:
        g = env.game
        if g.phase is Phase.DISCARD and env._pending is None:
            s = g.scores
            want = win_probability(s[env.seat], s[1 - env.seat], dealer=g.dealer == env.seat)
            assert info["win_chance"] == pytest.approx(want)
            checked += 1
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, _, info = env.step(int(legal[rng.integers(len(legal))]))
        rewards.append(r)
        if term:
            return start, rewards, info, checked


@pytest.mark.parametrize("seat", [0, 1])
def test_equity_rewards_sum_to_the_outcome_minus_the_start_chance(seat):
    env = CribbageEnv("greedy", seat=seat, reward="equity")
    for seed in range(3):
        start, rewards, info, checked = _episode(env, seed)
        assert 0.0 < start < 1.0 and checked >= 3
        assert sum(rewards) == pytest.approx((1.0 if info["won"] else 0.0) - start, abs=1e-9)
        assert all(-1.0 <= r <= 1.0 for r in rewards)
        assert sum(1 for r in rewards if r != 0) > len(rewards) // 3  # dense, not only at the end


def test_equity_reward_for_one_deal_ends_at_the_tables_chance():
    env = CribbageEnv("random", episode="deal", reward="equity")
    start, rewards, info, _ = _episode(env, 4)
    s, g = info["scores"], env.game
    end = win_probability(s[0], s[1], dealer=g.dealer == env.seat)  # the next deal's dealer
    assert sum(rewards) == pytest.approx(end - start, abs=1e-9)


def test_aec_env_does_not_offer_equity():
    pytest.importorskip("pettingzoo")
    from cribbage_env.envs.aec import raw_env

    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="equity")
