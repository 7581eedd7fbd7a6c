"""`maskable_ppo:path=...`: a trained policy plays through the env's own observation encoding."""

from __future__ import annotations

import numpy as np
import pytest
from extras import needs_training, refuses_missing_and_broken_files, tiny_maskable_ppo

import cribbage_env as ce
from agents import make_agent
from agents.base import AgentSpecError
from agents.tournament.play import play_game
from cribbage_env.encoding import observation_dict


class _RecordingPolicy:
    """Prefers the highest card id; records every observation it is shown."""

    def __init__(self) -> None:
        self.seen: list[dict[str, np.ndarray]] = []

    def probabilities(self, obs):
        self.seen.append(obs)
        p = np.arange(1, 53, dtype=float)
        return p / p.sum()


@pytest.fixture
def fake_policy(monkeypatch):
    import agents.players.maskable_ppo_agent as m

    policy = _RecordingPolicy()
    monkeypatch.setattr(m, "_load_policy", lambda path: policy)
    return policy


def test_discard_is_two_picks_through_the_env_encoding(fake_policy) -> None:
    agent = make_agent("maskable_ppo:path=fake.zip")
    g = ce.new_game(3)
    view = g.view(g.current_player)
    action = agent.act(view, np.random.default_rng(0))
    top2 = sorted(view.hand)[-2:]
    assert action == ce.discard_action(*top2)
    first, second = fake_policy.seen
    want1, want2 = observation_dict(view), observation_dict(view, pending=top2[1])
    for got, want in ((first, want1), (second, want2)):
        assert np.array_equal(got["observation"], want["observation"])
        assert np.array_equal(got["action_mask"], want["action_mask"])


def test_plays_only_legal_cards_for_whole_games(fake_policy, monkeypatch) -> None:
    import agents.tournament.play as t

    monkeypatch.setattr(t, "_AGENT_CACHE", {})
    for seed in range(5):
        g = play_game("maskable_ppo:path=fake.zip", "random", seed)  # AgentFailure if illegal
        assert g.is_over


def test_bad_specs_are_clear(tmp_path) -> None:
    with pytest.raises(AgentSpecError, match="path=model.zip"):
        make_agent("maskable_ppo")
    needs_training("sb3_contrib")
    refuses_missing_and_broken_files(
        "maskable_ppo", ".zip", "no model file", "cannot load", tmp_path
    )


@pytest.mark.parametrize("flat", [False, True], ids=["dict-obs", "flat-obs"])
def test_agent_matches_model_predict_on_the_env(tmp_path, flat) -> None:
    """The agent's choice equals MaskablePPO.predict(deterministic=True) on the env's observations
    (Dict observations with MultiInputPolicy, or FlatObservation with MlpPolicy)."""
    needs_training("sb3_contrib")
    import gymnasium as gym
    import torch

    import cribbage_env  # noqa: F401  (registers the env ids)

    torch.set_num_threads(1)
    env = gym.make("cribbage/Cribbage-v0", opponent="random")
    if flat:
        from cribbage_env.envs.wrappers import FlatObservation

        env = FlatObservation(env)
    model = tiny_maskable_ppo(env, flat=flat, batch_size=32, width=16)
    model.learn(32)
    path = tmp_path / "model.zip"
    model.save(path)
    agent = make_agent(f"maskable_ppo:path={path}")
    obs, info = env.reset(seed=5)
    checked = 0
    for _ in range(60):
        inner = env.unwrapped
        want, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
        got = agent._pick(inner._view(), inner._pending, np.random.default_rng(0))
        assert got == int(want)
        checked += 1
        obs, _, term, _, info = env.step(int(want))
        if term:
            obs, info = env.reset()
    assert checked == 60
