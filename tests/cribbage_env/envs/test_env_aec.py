"""PettingZoo AEC env: API test, seed test, and equality with the Gym env under the same policies."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import cribbage_env as ce  # noqa: E402
from agents.players.random_agent import RandomAgent  # noqa: E402
from cribbage_env.encoding import engine_action_to_picks  # noqa: E402
from cribbage_env.envs.aec import env as make_aec  # noqa: E402
from cribbage_env.envs.aec import raw_env  # noqa: E402
from cribbage_env.envs.single import CribbageEnv  # noqa: E402
from cribbage_env.seeding import agent_rng  # noqa: E402


# api_test's generic notes on Dict observations (PettingZoo's classic games get them too).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("kwargs", [{}, {"episode": "deal", "reward": "win"}])
def test_pettingzoo_api_test(kwargs) -> None:
    api_test(make_aec(**kwargs), num_cycles=600)


def test_pettingzoo_seed_test() -> None:
    seed_test(make_aec, num_cycles=300)


def test_registered_for_pettingzoo_make() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    e = pettingzoo.make("aec", "cribbage/CribbageDeal-v0")
    e.reset(seed=0)
    assert e.unwrapped.episode == "deal" and e.agent_selection in ("player_0", "player_1")


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("episode", ["game", "deal"])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gym_episode_equals_aec_game_with_same_policies_and_seeds(episode, seat, seed) -> None:
    """The Gym env with an opponent == the AEC game driven by the same two policies and seeds."""
    gym_env = CribbageEnv(RandomAgent(), seat=seat, episode=episode)
    learner_rng = np.random.default_rng(100 + seed)
    obs, _ = gym_env.reset(seed=seed)
    gym_obs, gym_rewards = [obs], []
    while True:
        obs, r, term, _, _ = gym_env.step(_pick(obs["action_mask"], learner_rng))
        gym_rewards.append(r)
        if term:
            break
        gym_obs.append(obs)

    aec = raw_env(episode=episode)
    aec.reset(seed=seed)
    opponent_rng = agent_rng(gym_env.agent_seed, aec.game.seed, 1 - seat)
    opponent = RandomAgent()
    learner_rng = np.random.default_rng(100 + seed)
    me, other = f"player_{seat}", f"player_{1 - seat}"
    aec_obs, aec_rewards, queue = [], [], []
    first_turn = True
    while aec.agents:
        agent = aec.agent_selection
        obs, reward, term, trunc, _ = aec.last()
        if agent == me and not first_turn:
            aec_rewards.append(reward)
        if term or trunc:
            aec.step(None)
            continue
        if agent == me:
            first_turn = False
            aec_obs.append(obs)
            aec.step(_pick(obs["action_mask"], learner_rng))
        else:
            if not queue:
                queue = engine_action_to_picks(opponent.act(aec.game.view(1 - seat), opponent_rng))
            aec.step(queue.pop(0))
    assert aec.game == gym_env.game  # same cards, same decisions, same events
    assert len(aec_obs) == len(gym_obs)
    for a, b in zip(aec_obs, gym_obs, strict=True):
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
    assert aec_rewards == gym_rewards
    s = gym_env.game.scores
    assert sum(aec_rewards) == s[seat] - s[1 - seat]
    assert other != me


def test_points_rewards_are_zero_sum_and_total_the_margin() -> None:
    aec = raw_env()
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = {"player_0": 0.0, "player_1": 0.0}
    while aec.agents:
        for a in list(aec.agents):
            totals[a] += aec.rewards[a]
        assert sum(aec.rewards.values()) == 0
        obs, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else _pick(obs["action_mask"], rng))
    s = aec.game.scores
    assert totals["player_0"] == s[0] - s[1] and totals["player_1"] == s[1] - s[0]


def test_only_the_agent_to_act_has_a_mask_and_info_mask_matches() -> None:
    aec = raw_env()
    aec.reset(seed=2)
    for _ in range(40):
        actor = aec.agent_selection
        for a in aec.agents:
            m = aec.observe(a)["action_mask"]
            assert m.any() == (a == actor)
            assert np.array_equal(m, aec.infos[a]["action_mask"])
        aec.step(_pick(aec.observe(actor)["action_mask"], np.random.default_rng(0)))


def test_raw_env_raises_on_illegal_card_and_wrapped_env_terminates() -> None:
    aec = raw_env()
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ce.IllegalActionError):
        aec.step(bad)
    wrapped = make_aec()
    wrapped.reset(seed=1)
    actor = wrapped.agent_selection
    wrapped.step(bad)  # PettingZoo logs "Illegal move made" and ends the game
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[actor] == -1


def test_ansi_render_shows_no_hand() -> None:
    aec = raw_env(render_mode="ansi")
    aec.reset(seed=3)
    text = aec.render()
    for seat in (0, 1):
        assert ce.cards_str(aec.game.hands[seat]) not in text
    assert "player_0" in text
