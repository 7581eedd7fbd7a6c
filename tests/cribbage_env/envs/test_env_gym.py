"""CribbageEnv (Gymnasium): API conformance, masks, rewards, seeding, opponents, bad input."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cribbage_env as ce
from agents.players.random_agent import RandomAgent
from cribbage_env.encoding import InvalidActionError
from cribbage_env.envs.opponent import OpponentError
from cribbage_env.envs.single import CribbageEnv, EpisodeOverError
from cribbage_env.envs.vector import make_vec
from cribbage_env.envs.wrappers import RLlibMaskObservation
from cribbage_env.rules.actions import discard_cards

# Warnings the checker emits about how it is called, not about the env.
_CHECKER_NOTES = ("Not able to test alternative render modes", "is different from the unwrapped")


def play_masked(env: gym.Env, seed: int, rng: np.random.Generator, max_steps: int = 5000):
    """One episode with a uniformly random masked learner; returns (steps, rewards, last info)."""
    obs, info = env.reset(seed=seed)
    rewards = []
    for _ in range(max_steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        rewards.append(r)
        assert not info["illegal_action"]
        if term or trunc:
            return obs, rewards, info, term, trunc
    raise AssertionError("episode did not end")


def _our_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if not any(n in str(w.message) for n in _CHECKER_NOTES)]


@pytest.mark.parametrize("kwargs", [{}, {"episode": "deal", "reward": "win"}, {"seat": 1}])
def test_check_env_raw_env_passes_without_warnings_of_ours(kwargs) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(CribbageEnv(**kwargs))
    assert _our_warnings(caught) == []


@pytest.mark.parametrize(
    "env_id",
    ["cribbage/Cribbage-v0", "cribbage/CribbageDeal-v0", "cribbage_env:cribbage/Cribbage-v0"],
)
def test_gym_make_registered_ids_pass_check_env(env_id) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make(env_id, opponent="random")
        check_env(env)
        check_env(env.unwrapped)
        env.reset(seed=3)
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.shape == (52,) and mask.sum() == 6
    assert _our_warnings(caught) == []


def test_deal_id_plays_one_deal_and_game_id_plays_to_121() -> None:
    """R10: the game id ends at 121; the deal id ends after the first show (R9)."""
    rng = np.random.default_rng(0)
    game = gym.make("cribbage/Cribbage-v0").unwrapped
    play_masked(game, 1, rng)
    assert game.game.is_over and max(game.game.scores) >= 121
    deal = gym.make("cribbage/CribbageDeal-v0").unwrapped
    obs, *_ = play_masked(deal, 1, rng)
    g = deal.game
    assert g.deal_no == 1 and not g.is_over  # the engine already dealt the next hand ...
    parts = ce.encoding.named_views(obs["observation"])
    assert parts["hand"].sum() == 0 and parts["phase"][3] == 1  # ... which is not shown
    assert not obs["action_mask"].any()


@pytest.mark.parametrize("episode", ["game", "deal"])
@pytest.mark.parametrize("seat", [0, 1])
def test_points_rewards_sum_to_final_margin(episode, seat) -> None:
    rng = np.random.default_rng(seat)
    env = CribbageEnv("random", seat=seat, episode=episode)
    for seed in range(5):
        _, rewards, info, term, trunc = play_masked(env, seed, rng)
        s = env.game.scores
        assert term and not trunc
        assert sum(rewards) == s[seat] - s[1 - seat] == info["margin"]
        assert info["scores"] == (s[seat], s[1 - seat])


def test_win_reward_is_plus_minus_one_only_at_the_end_with_optional_skunk_bonus() -> None:
    """R10 winner +1 / loser -1; skunk levels from ce.skunk_level (2 under 91, 3 under 61)."""
    rng = np.random.default_rng(1)
    for bonus in (False, True):
        env = CribbageEnv("random", reward="win", skunk_bonus=bonus)
        for seed in range(6):
            _, rewards, info, _, _ = play_masked(env, seed, rng)
            assert all(r == 0 for r in rewards[:-1])
            loser = min(env.game.scores)
            level = (3 if loser < 61 else 2 if loser < 91 else 1) if bonus else 1
            assert rewards[-1] == (level if env.game.winner == 0 else -level)
            assert info["won"] == (env.game.winner == 0)


def test_masked_random_play_is_never_illegal_and_masks_match_the_engine() -> None:
    """Every info mask equals the engine's legal set (discard as two picks, R4)."""
    env = CribbageEnv("random", seat="alternate", illegal_action="raise")
    rng = np.random.default_rng(2)
    for seed in range(15):
        obs, info = env.reset(seed=seed + 100)
        first = None
        while True:
            g = env.game
            legal = g.legal_actions()
            if g.phase is ce.Phase.DISCARD:
                pairs = [discard_cards(a) for a in legal]
                want = (
                    {c for p in pairs for c in p}
                    if first is None
                    else {b if a == first else a for a, b in pairs if first in (a, b)}
                )
            else:
                want = set(legal)
            assert set(np.flatnonzero(info["action_mask"]).tolist()) == want
            assert np.array_equal(obs["action_mask"], info["action_mask"])
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            choice = int(rng.choice(sorted(want)))
            first = choice if g.phase is ce.Phase.DISCARD and first is None else None
            obs, r, term, trunc, info = env.step(choice)
            if term:
                break


def test_discrete_sample_with_our_mask_picks_only_legal_cards() -> None:
    env = CribbageEnv("random")
    env.action_space.seed(0)
    obs, info = env.reset(seed=4)
    for _ in range(300):
        a = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][a] == 1
        obs, r, term, trunc, info = env.step(a)
        assert not info["illegal_action"]
        if term:
            obs, info = env.reset()


def test_same_seed_gives_identical_trajectories() -> None:
    """The same seed and agent seed replay a game (a fresh env draws a fresh agent seed)."""

    def run(seed: int, env: CribbageEnv | None = None):
        env = env or CribbageEnv("random", seat="alternate", agent_seed=3)
        rng = np.random.default_rng(7)
        out = []
        for episode in range(2):
            obs, info = env.reset(seed=seed) if episode == 0 else env.reset()
            out.append(obs["observation"].tobytes())
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, r, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
                out.append((obs["observation"].tobytes(), r))
            out.append(tuple(env.game.decisions))
        return out

    a, b, c = run(11), run(11), run(12)
    assert a == b
    assert a != c
    env = CribbageEnv("random", seat="alternate")
    assert run(11, env) == run(11, env)


def test_masks_are_fresh_arrays_each_call() -> None:
    env = CribbageEnv()
    obs, info = env.reset(seed=0)
    assert obs["action_mask"] is not info["action_mask"]
    assert env.action_masks() is not env.action_masks()
    obs2, _, _, _, info2 = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert (
        obs2["action_mask"] is not obs["action_mask"]
        and info2["action_mask"] is not info["action_mask"]
    )
    info["action_mask"][:] = 0  # mutating a returned mask must not change the env's
    assert env.action_masks().any()


def test_discard_is_two_picks_then_one_engine_decision() -> None:
    """R4: the engine gets discard_action(first, second) only after the second pick."""
    env = CribbageEnv("random", seat=0)
    obs, info = env.reset(seed=9)
    g = env.game
    hand = list(g.hands[0])
    n = len(g.decisions)
    obs, r, *_ = env.step(hand[0])
    assert r == 0 and len(g.decisions) == n and g.hands[0] == hand
    assert obs["action_mask"][hand[0]] == 0 and obs["action_mask"].sum() == 5
    env.step(hand[3])
    assert g.decisions[n] == ce.discard_action(hand[0], hand[3])
    assert g.discards[0] == tuple(sorted((hand[0], hand[3])))


def test_illegal_card_penalize_changes_nothing_and_raise_raises() -> None:
    env = CribbageEnv("random", illegal_penalty=-2.5)
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.fingerprint()
    obs2, r, term, trunc, info2 = env.step(bad)
    assert (r, term, trunc, info2["illegal_action"]) == (-2.5, False, False, True)
    assert env.game.fingerprint() == before and np.array_equal(
        obs2["observation"], obs["observation"]
    )
    strict = CribbageEnv("random", illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(ce.IllegalActionError, match="legal:"):
        strict.step(bad)
    assert strict.game.fingerprint() == before


@pytest.mark.parametrize("mode", ["penalize", "raise"])
def test_step_input_types_behave_as_documented(mode) -> None:
    """numpy ints and 0-d int arrays are actions; floats, None, bools and out-of-range ints raise."""
    env = CribbageEnv("random", illegal_action=mode)
    obs, info = env.reset(seed=2)
    legal = np.flatnonzero(obs["action_mask"])
    before = env.game.fingerprint()
    n = len(env.game.decisions)
    for bad in (52, -1, 3.0, float(legal[0]), None, True, "5H"):
        with pytest.raises(InvalidActionError):
            env.step(bad)
    assert env.game.fingerprint() == before
    _, r, _, _, info = env.step(np.int64(legal[0]))
    assert not info["illegal_action"]
    obs, _, _, _, info = env.step(np.array(legal[1], dtype=np.int32))
    assert (
        not info["illegal_action"]
        and ce.discard_action(int(legal[0]), int(legal[1])) in env.game.decisions[n:]
    )


def test_step_after_the_end_requires_reset() -> None:
    env = CribbageEnv("random", episode="deal")
    play_masked(env, 0, np.random.default_rng(0))
    with pytest.raises(EpisodeOverError, match="reset"):
        env.step(0)
    with pytest.raises(EpisodeOverError):
        CribbageEnv().step(0)


def test_opponent_by_name_callable_instance_and_swap_per_episode() -> None:
    calls = []

    def lowest(view, rng):
        calls.append(view.seat)
        assert isinstance(rng, np.random.Generator)
        return min(view.legal_actions)

    env = CribbageEnv(lowest, seat=0)
    rng = np.random.default_rng(0)
    play_masked(env, 3, rng)
    assert calls and set(calls) == {1}
    n = len(calls)
    env.reset(seed=3, options={"opponent": "random"})
    assert env.opponent.name == "random" and len(calls) == n
    env.reset(options={"opponent": RandomAgent()})
    assert isinstance(env.opponent, RandomAgent)
    with pytest.raises(ValueError, match="opponent"):
        CribbageEnv(opponent=42)
    with pytest.raises(ValueError, match="unknown agent"):
        CribbageEnv(opponent="nope").reset(seed=0)
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"oponent": "random"})
    with pytest.raises(ValueError, match="unknown agent"):
        env.reset(options={"opponent": "nope", "seat": 1})
    assert isinstance(env.opponent, RandomAgent)  # a bad swap changes nothing
    assert env.reset(seed=0)[1]["seat"] == 0


def test_opponent_randomness_comes_from_the_env_seed() -> None:
    """Same env seed and agent seed: same opponent choices."""

    def opp_decisions(seed: int) -> list[int]:
        env = CribbageEnv("random", seat=0, agent_seed=4)
        obs, _ = env.reset(seed=seed)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[1]))
        return [a for a in env.game.decisions]

    assert opp_decisions(5) == opp_decisions(5)


def test_bad_opponent_action_is_reported_as_opponent_error() -> None:
    env = CribbageEnv(lambda view, rng: 999, seat=1)
    with pytest.raises(OpponentError, match="opponent"):
        for seed in range(5):  # the opponent must act at some point during reset/step
            obs, _ = env.reset(seed=seed)
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_seat_alternates_from_a_seeded_reset() -> None:
    env = CribbageEnv("random", seat="alternate")
    seats = [env.reset(seed=0)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(3)]
    assert seats == [0, 1, 0, 1]
    assert env.reset(seed=0)[1]["seat"] == 0
    assert env.reset(options={"seat": 1})[1]["seat"] == 1


def test_a_seeded_evaluation_loop_plays_both_seats_equally() -> None:
    """``reset(seed=s)`` for s in 0..99 plays both seats (it once played seat 0 every time)."""
    env = CribbageEnv("random", seat="alternate")
    seats = [env.reset(seed=s)[1]["seat"] for s in range(100)]
    assert seats.count(0) == seats.count(1) == 50
    assert seats[:4] == [0, 1, 0, 1]
    assert [env.reset(seed=s)[1]["seat"] for s in (7, 7, 8)] == [1, 1, 0]  # a seed, one seat
    vec = make_vec(4, seat="alternate")
    try:
        assert vec.reset(seed=10)[1]["seat"].tolist() == [0, 1, 0, 1]
    finally:
        vec.close()


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 2},
        {"reward": "margin"},
        {"episode": "hand"},
        {"illegal_action": "ignore"},
        {"render_mode": "human"},
    ],
)
def test_bad_constructor_arguments_raise_value_error(bad) -> None:
    with pytest.raises(ValueError, match="must be"):
        CribbageEnv(**bad)


def test_ansi_render_shows_own_hand_and_hides_the_opponents() -> None:
    env = CribbageEnv("random", render_mode="ansi")
    env.reset(seed=6)
    text = env.render()
    g = env.game
    assert ce.cards_str(g.hands[0]) in text
    assert ce.cards_str(g.hands[1]) not in text
    for card in g.hands[1]:
        if card not in g.hands[0]:
            assert ce.card_str(card) not in text
    assert "score" in text


def test_rllib_wrapper_renames_the_observation_key() -> None:
    env = RLlibMaskObservation(CribbageEnv())
    obs, info = env.reset(seed=0)
    assert set(obs) == {"observations", "action_mask"}
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert np.array_equal(env.unwrapped.action_masks(), obs["action_mask"].astype(bool))


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env_same_step_autoreset_never_hands_out_an_empty_mask(mode) -> None:
    vec = make_vec(3, vectorization_mode=mode, episode="deal")
    try:
        obs, info = vec.reset(seed=0)
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(120):
            masks = obs["action_mask"]
            assert masks.any(axis=1).all()
            assert np.array_equal(masks, info["action_mask"])
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, term, trunc, info = vec.step(actions)
            finished += int(term.sum())
        assert finished > 3
    finally:
        vec.close()


def test_make_vec_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        make_vec(0)
    with pytest.raises(ValueError, match="vectorization_mode"):
        make_vec(2, vectorization_mode="threads")


def test_package_import_registers_envs_without_importing_agents_or_arcade() -> None:
    """Boundaries: cribbage_env resolves opponent names lazily and never imports arcade."""
    import subprocess
    import sys

    code = (
        "import sys, gymnasium, cribbage_env; "
        "assert 'cribbage/Cribbage-v0' in gymnasium.registry; "
        "assert 'cribbage/CribbageDeal-v0' in gymnasium.registry; "
        "import cribbage_env.envs.single, cribbage_env.envs.vector; "
        "print('agents' in sys.modules, 'arcade' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("name", ["greedy", "expectimax"])
def test_named_stronger_opponents_play_a_deal_when_registered(name) -> None:
    from agents.registry import AGENTS

    if name not in AGENTS:
        pytest.skip(f"agent {name!r} is not registered yet")
    env = CribbageEnv(name, episode="deal")
    _, rewards, info, term, _ = play_masked(env, 0, np.random.default_rng(0))
    assert term and sum(rewards) == info["margin"]
    assert env.opponent.name == name


def test_sync_and_async_vector_envs_give_the_same_trajectory() -> None:
    def run(mode: str) -> list[bytes]:
        vec = make_vec(2, vectorization_mode=mode, seat="alternate", agent_seed=4)
        try:
            obs, _ = vec.reset(seed=5)
            rng = np.random.default_rng(1)
            out = [obs["observation"].tobytes()]
            for _ in range(60):
                acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
                obs, rewards, *_ = vec.step(acts)
                out += [obs["observation"].tobytes(), rewards.tobytes()]
            return out
        finally:
            vec.close()

    assert run("sync") == run("async")
