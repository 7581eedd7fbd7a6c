"""Standard trainers on the batched env: the flattened Gymnasium vector env CleanRL's
``ppo.py`` sizes its net from, the SB3 ``VecEnv`` with masks for ``MaskablePPO``, the single-file
example and the ``policy_net`` agent its saved net plays through."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from extras import needs_training, refuses_missing_and_broken_files, tiny_maskable_ppo

import cribbage_env as ce
from agents import make_agent
from agents.base import AgentSpecError
from agents.players.policy_net import NumpyPolicy, save_policy
from cribbage_env.encoding import NUM_ACTIONS, OBS_SIZE, observation_dict
from cribbage_env.envs.batched import CribbageVectorEnv
from cribbage_env.envs.vector import batched

ROOT = Path(__file__).resolve().parents[3]


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


def test_flattened_batched_env_is_the_batched_env_with_a_box() -> None:
    flat, ref = batched(3, flatten=True, agent_seed=7), CribbageVectorEnv(3, agent_seed=7)
    assert flat.single_observation_space.shape == (OBS_SIZE,)
    assert flat.observation_space.shape == (3, OBS_SIZE)
    o, info = flat.reset(seed=4)
    r, rinfo = ref.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(120):
        assert np.array_equal(o, r["observation"])
        assert np.array_equal(info["action_mask"], r["action_mask"])
        assert np.array_equal(flat.action_masks(), r["action_mask"].astype(bool))
        acts = _random_actions(info["action_mask"], rng)
        o, rew, term, _, info = flat.step(acts)
        r, rrew, rterm, _, rinfo = ref.step(acts)
        assert np.array_equal(rew, rrew) and np.array_equal(term, rterm)


def test_sb3_vec_env_steps_the_batched_games_with_masks_and_terminal_observations() -> None:
    needs_training("stable_baselines3")
    from stable_baselines3.common.vec_env import VecEnv

    from cribbage_env.envs.vector import sb3_vec_env

    for flatten in (False, True):
        vec = sb3_vec_env(4, flatten=flatten, agent_seed=7)
        ref = CribbageVectorEnv(4, agent_seed=7)
        assert isinstance(vec, VecEnv) and vec.num_envs == 4
        vec.seed(9)
        obs = vec.reset()
        r, rinfo = ref.reset(seed=9)
        rng = np.random.default_rng(1)
        finished = 0
        for _ in range(400):
            got = obs if flatten else obs["observation"]
            assert np.array_equal(got, r["observation"])
            masks = np.stack(vec.env_method("action_masks"))  # how sb3-contrib asks
            assert np.array_equal(masks, r["action_mask"].astype(bool))
            acts = _random_actions(masks, rng)
            obs, rew, dones, infos = vec.step(acts)
            r, rrew, rterm, _, rinfo = ref.step(acts)
            assert np.allclose(rew, rrew) and np.array_equal(dones, rterm)
            for i in np.flatnonzero(dones):
                final = infos[i]["terminal_observation"]
                want = rinfo["final_obs"]["observation"][i]
                assert np.array_equal(final if flatten else final["observation"], want)
                assert infos[i]["won"] == bool(rinfo["final_info"]["won"][i])
                finished += 1
        assert finished > 0
        vec.close()


@pytest.mark.parametrize("flatten", [False, True], ids=["dict-obs", "flat-obs"])
def test_maskable_ppo_learns_a_few_iterations_on_the_batched_env(tmp_path, flatten) -> None:
    needs_training("sb3_contrib")
    from stable_baselines3.common.vec_env import VecMonitor

    from cribbage_env.envs.vector import sb3_vec_env

    env = VecMonitor(sb3_vec_env(8, flatten=flatten))
    model = tiny_maskable_ppo(env, flat=flatten, batch_size=128, width=32)
    model.learn(3 * 8 * 32)
    assert model.num_timesteps == 3 * 8 * 32 and len(model.ep_info_buffer) > 0
    model.save(tmp_path / "m.zip")
    agent = make_agent(f"maskable_ppo:path={tmp_path / 'm.zip'}")
    from agents.tournament.play import play_game

    assert play_game(agent, "random", 0, agent_seed=0).is_over


def _tiny_net(tmp_path: Path, rng: np.random.Generator) -> Path:
    layers = [
        (rng.normal(size=(OBS_SIZE, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
        (rng.normal(size=(8, NUM_ACTIONS)).astype(np.float32), np.zeros(52, np.float32)),
    ]
    path = tmp_path / "actor.npz"
    save_policy(path, layers, {"trainer": "test"})
    return path


def test_policy_net_is_a_masked_softmax_of_its_mlp(tmp_path) -> None:
    rng = np.random.default_rng(0)
    path = _tiny_net(tmp_path, rng)
    policy = NumpyPolicy(path)
    g = ce.new_game(5)
    obs = observation_dict(g.view(g.current_player))
    p = policy.probabilities(obs)
    (w0, b0), (w1, b1) = policy.net.layers
    logits = np.maximum(obs["observation"] @ w0 + b0, 0) @ w1 + b1  # independent forward pass
    legal = obs["action_mask"].astype(bool)
    want = np.exp(logits[legal] - logits[legal].max())
    assert np.allclose(p[legal], want / want.sum(), atol=1e-6) and not p[~legal].any()
    assert policy.meta == {"trainer": "test"}


def test_policy_net_plays_whole_games_and_discards_in_two_picks(tmp_path) -> None:
    from agents.tournament.play import play_game

    path = _tiny_net(tmp_path, np.random.default_rng(1))
    agent = make_agent(f"policy_net:path={path}")
    g = ce.new_game(3)
    view = g.view(g.current_player)
    action = agent.act(view, np.random.default_rng(0))
    first = int(np.argmax(agent.policy.probabilities(observation_dict(view))))
    assert first in ce.discard_cards(action)
    for seed in range(3):
        assert play_game(agent, "random", seed, agent_seed=0).is_over


def test_policy_net_bad_files_are_clear(tmp_path) -> None:
    refuses_missing_and_broken_files(
        "policy_net", ".npz", "no weights file", "cannot read", tmp_path
    )
    small = tmp_path / "small.npz"
    save_policy(small, [(np.zeros((3, 52), np.float32), np.zeros(52, np.float32))], {})
    with pytest.raises(AgentSpecError, match=f"{OBS_SIZE} -> 52"):
        make_agent(f"policy_net:path={small}")


@pytest.mark.integration  # training end to end
def test_cleanrl_example_trains_saves_and_its_net_plays_in_bench(tmp_path) -> None:
    needs_training("torch")
    save = tmp_path / "actor.npz"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = ["--total-timesteps", "512", "--num-envs", "8", "--num-steps", "32", "--seed", "3"]
    r = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "cleanrl_masked_ppo.py"), *args, "--save", str(save)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "iteration 2/2 step 512" in r.stdout and save.is_file()
    bench = subprocess.run(
        [sys.executable, "-m", "ui", "bench", f"policy_net:path={save}", "random",
         "--games", "4", "--workers", "1", "--db", str(tmp_path / "r.sqlite")],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env=env,
    )  # fmt: skip
    assert bench.returncode == 0, bench.stderr
    assert "4 games" in bench.stdout


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [("cribbage_env.envs.aec", "pettingzoo", "pettingzoo"),
     ("cribbage_env.openspiel", "pyspiel", "openspiel"),
     ("cribbage_env.envs.sb3vec", "stable_baselines3", "rl")],
)  # fmt: skip
def test_a_missing_extra_is_named_in_one_line(module, blocked, extra) -> None:
    """The AEC env without PettingZoo gave a bare ``No module named 'pettingzoo'``."""
    code = f"import sys; sys.modules[{blocked!r}] = None\nimport {module}"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)  # fmt: skip
    last = r.stderr.strip().splitlines()[-1]
    assert r.returncode == 1 and last.startswith("ModuleNotFoundError: ")
    assert f"needs {blocked}, which is not installed" in last
    assert f"pip install 'cribbage-env[{extra}]'" in last
