"""The batched env (vector entry point) plays exactly CribbageEnv's games: the same seeds and
actions give the same observations, masks, rewards and episode ends as SyncVectorEnv."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from numba import njit

import cribbage_env  # noqa: F401  (registers the ids)
from cribbage_env.encoding import InvalidActionError
from cribbage_env.envs.batched import CribbageVectorEnv, unpack_observation
from cribbage_env.envs.vector import make_vec
from cribbage_env.kernels import simrng, veckernel
from cribbage_env.rules.core import IllegalActionError

IDS = {"game": "cribbage/Cribbage-v0", "deal": "cribbage/CribbageDeal-v0"}


@pytest.mark.parametrize(
    ("opponent", "episode", "kwargs"),
    [
        ("random", "game", {"seat": "alternate"}),
        ("greedy", "game", {"seat": 1}),
        ("random", "deal", {"reward": "win"}),
        ("random", "game", {"rules": "short", "reward": "win", "skunk_bonus": True}),
        ("greedy", "game", {"reward": "win", "skunk_bonus": True}),
        ("expectimax", "game", {"seat": "alternate"}),
        ("expectimax", "deal", {"reward": "win", "seat": 1}),
        ("expectimax", "game", {"rules": "short", "reward": "win", "skunk_bonus": True}),
        ("random", "game", {"observation": "compact", "seat": "alternate"}),
        ("expectimax", "deal", {"observation": "compact"}),
        ("greedy", "game", {"copy": False, "seat": "alternate"}),
        ("expectimax", "game", {"parallel": True}),  # the parallel kernel of the next test
    ],
)
def test_same_games_as_sync_vector_env(opponent: str, episode: str, kwargs: dict) -> None:
    n = 4
    batch_only = {k: kwargs.pop(k) for k in ("observation", "copy", "parallel") if k in kwargs}
    batched = gym.make_vec(
        IDS[episode],
        num_envs=n,
        vectorization_mode="vector_entry_point",
        opponent=opponent,
        agent_seed=5,
        **kwargs,
        **batch_only,
    )
    sync = make_vec(n, opponent=opponent, episode=episode, agent_seed=5, **kwargs)
    target = 61 if kwargs.get("rules") == "short" else 121

    def std(obs: np.ndarray) -> np.ndarray:
        compact = batch_only.get("observation") == "compact"
        return unpack_observation(obs, target) if compact else obs

    ob, ib = batched.reset(seed=11)
    os_, is_ = sync.reset(seed=11)
    rng = np.random.default_rng(0)
    ends = illegal = 0
    for step in range(300):
        assert np.array_equal(std(ob["observation"]), os_["observation"]), step
        assert np.array_equal(ob["action_mask"], os_["action_mask"]), step
        assert np.array_equal(ib["action_mask"], is_["action_mask"]), step
        acts = np.array(
            [
                rng.choice(np.flatnonzero(m)) if rng.random() > 0.03 else rng.integers(52)
                for m in os_["action_mask"]
            ]
        )
        ob, rb, tb, trb, ib = batched.step(acts)
        os_, rs, ts, trs, is_ = sync.step(acts)
        assert np.array_equal(rb, rs) and np.array_equal(tb, ts) and not trb.any(), step
        assert np.array_equal(ib["illegal_action"], is_["illegal_action"]), step
        if tb.any():
            for i in np.flatnonzero(tb):
                assert np.array_equal(
                    std(ib["final_obs"]["observation"][i]), is_["final_obs"][i]["observation"]
                )
                assert np.array_equal(
                    ib["final_obs"]["action_mask"][i], is_["final_obs"][i]["action_mask"]
                )
                assert list(ib["final_info"]["scores"][i]) == list(is_["final_info"]["scores"][i])
                assert ib["final_info"]["margin"][i] == is_["final_info"]["margin"][i]
                assert ib["final_info"]["won"][i] == is_["final_info"]["won"][i]
        ends += int(tb.sum())
        illegal += int(ib["illegal_action"].sum())
    assert ends >= (2 if episode == "game" else 20) and illegal > 5
    batched.close()
    sync.close()


def test_games_past_sixteen_deals_load_the_next_deck_block() -> None:
    """Decks come in blocks of 16 deals: long games (random play scores little) need more."""
    vec = CribbageVectorEnv(64, "random", agent_seed=1)
    sync = make_vec(64, opponent="random", agent_seed=1)
    obs, info = vec.reset(seed=7)  # seeds where some game lasts 17 deals
    sobs, _ = sync.reset(seed=7)
    rng = np.random.default_rng(1)
    most = 0
    for _ in range(480):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, r, _, _, info = vec.step(acts)
        sobs, sr, _, _, _ = sync.step(acts)
        assert np.array_equal(obs["observation"], sobs["observation"]) and np.array_equal(r, sr)
        most = max(most, int(vec._states[:, veckernel.DEAL_NO].max()))
    assert most >= 16


def test_bad_arguments_and_actions() -> None:
    with pytest.raises(ValueError, match="sync"):
        CribbageVectorEnv(2, "expert")
    with pytest.raises(ValueError, match="num_envs"):
        CribbageVectorEnv(0)
    vec = CribbageVectorEnv(2, illegal_action="raise")
    with pytest.raises(IllegalActionError, match="reset"):
        vec.step(np.array([0, 0]))
    _, info = vec.reset(seed=1)
    with pytest.raises(InvalidActionError):
        vec.step(np.array([0.5, 1.0]))
    with pytest.raises(InvalidActionError):
        vec.step(np.array([52, 0]))
    bad = np.array([int(np.flatnonzero(info["action_mask"][i] == 0)[0]) for i in range(2)])
    with pytest.raises(IllegalActionError, match="not legal"):
        vec.step(bad)


@njit
def _draw(g, ns, out):
    for i in range(ns.shape[0]):
        out[i] = simrng.integers(g, ns[i])


@pytest.mark.parametrize("seed", [0, 7, 2**63 - 2])
def test_compiled_pcg64_draws_what_numpy_draws(seed: int) -> None:
    ns = np.concatenate(
        [np.random.default_rng(seed % 97).integers(1, 16, 5000), np.full(500, 2**31 + 12345)]
    )
    out = np.empty(len(ns), dtype=np.int64)
    _draw(simrng.pcg64_words(seed), ns, out)
    r = np.random.Generator(np.random.PCG64(seed))
    assert out.tolist() == [int(r.integers(n)) for n in ns]


def test_parallel_steps_give_the_serial_results() -> None:
    """Games are independent: two threads over the halves of the batch change nothing."""
    a = CribbageVectorEnv(37, "expectimax", seat="alternate", agent_seed=3)
    b = CribbageVectorEnv(37, "expectimax", seat="alternate", parallel=True, agent_seed=3)
    oa, ia = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(150):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in ia["action_mask"]])
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, _ = b.step(acts)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
