"""The from-zero learners (``cribbage train --method ppo-zero`` / ``dmc-zero``): they learn on a
tiny budget, start from random weights with nothing else, play without torch, and a resumed run
ends with the weights of an uninterrupted one."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from extras import needs_training

from ui.cli.cli import main

#: A run small enough for the fast tier: 64 games, 8 steps an update, 2 updates a round.
TINY = dict(num_envs=64, n_steps=8, round_updates=2, hidden=(16,), minibatch=256,
            eval_every=10**9, quick_games=8, opponents=(("random", 1.0), ("greedy", 1.0)))  # fmt: skip


def _cfg(**kw):
    from agents.learn.zero.config import ZeroConfig

    return ZeroConfig(**{**TINY, **kw})


def _arrays(path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files if not k.startswith("meta.")}


@pytest.mark.parametrize("algo", ["ppo", "dmc"])
def test_a_resumed_run_ends_with_the_uninterrupted_runs_weights(tmp_path, algo):
    needs_training("torch")
    from agents.learn.zero.train import train_zero

    whole = train_zero(_cfg(algo=algo, timesteps=2048), tmp_path / "a", command="t")
    half = train_zero(_cfg(algo=algo, timesteps=1024), tmp_path / "b", command="t")
    first = _arrays(half)
    (tmp_path / "b" / "final.json").unlink()  # as if it had been stopped there
    resumed = train_zero(_cfg(algo=algo, timesteps=2048), tmp_path / "b", command="t")
    a, b = _arrays(whole), _arrays(resumed)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert not all(np.array_equal(first[k], b[k]) for k in a)  # the resume trained
    lines = (tmp_path / "b" / "progress.jsonl").read_text().splitlines()
    assert [json.loads(x)["steps"] for x in lines] == [512, 1024, 1536, 2048]


def test_the_run_says_it_started_from_nothing_and_plays_without_torch(tmp_path):
    needs_training("torch")
    run = tmp_path / "run"
    args = ["train", "--method", "dmc-zero", "--run-dir", str(run), "--timesteps", "1024",
            "--num-envs", "64", "--n-steps", "8", "--eval-games", "0", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    saved = json.loads((run / "config.json").read_text())
    assert saved["method"] == "dmc-zero" and saved["provenance"]["warm_start"] is None
    assert "observation only" in saved["provenance"]["inputs"]
    with np.load(run / "model.npz", allow_pickle=False) as z:
        assert str(z["meta.warm_start"]) == "none"
        assert json.loads(str(z["meta.provenance"]))["warm_start"] is None
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from agents import make_agent\n"
        "from agents.tournament.play import play_game\n"
        f"a = make_agent('policy_net:path={run / 'model.npz'}')\n"
        "print(play_game(a, make_agent('random'), seed=3).winner in (0, 1))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_the_from_zero_methods_refuse_what_they_cannot_do(tmp_path, capsys):
    base = ["train", "--method", "ppo-zero", "--run-dir", str(tmp_path / "r")]
    assert main([*base, "--opponent", "expert"]) == 2
    assert "built-in opponents" in capsys.readouterr().err
    assert main([*base, "--shards", "3"]) == 2
    assert main(["train", "--method", "ppo", "--num-envs", "8", "--run-dir", str(tmp_path)]) == 2
    assert "--num-envs" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_resume_refuses_a_changed_option(tmp_path, capsys):
    needs_training("torch")
    run = tmp_path / "run"
    args = ["train", "--method", "ppo-zero", "--run-dir", str(run), "--timesteps", "512",
            "--num-envs", "64", "--n-steps", "8", "--eval-games", "0", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    assert main([*args[:-1], "--resume", "--num-envs", "128"]) == 2
    assert "--num-envs 128 (the run's: 64)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("algo", "steps"), [("ppo", 65536), pytest.param("dmc", 131072, marks=pytest.mark.integration)]
)
def test_the_learner_beats_its_own_random_start_on_a_tiny_budget(tmp_path, algo, steps):
    """Fails for a learner that learns nothing: the trained policy must win clearly more often
    against ``random`` than the same net before training, on the same deals."""
    needs_training("torch")
    import torch

    from agents.learn.zero.evaluate import quick_eval
    from agents.learn.zero.net import NumpyNet, torch_net
    from agents.learn.zero.train import train_zero

    cfg = _cfg(algo=algo, timesteps=steps, num_envs=256, n_steps=16, round_updates=32,
               hidden=(64,), minibatch=1024, lr=0.003, opponents=(("random", 1.0),))  # fmt: skip
    net = torch_net(cfg.hidden, algo == "ppo", cfg.seed)
    before = quick_eval(NumpyNet.of(net), ["random"], 400, "standard")["random"]["win_rate"]
    train_zero(cfg, tmp_path, command="t")
    state = torch.load(tmp_path / "checkpoints" / "round_1.pt", weights_only=True)
    net.load_state_dict(state["model"])
    after = quick_eval(NumpyNet.of(net), ["random"], 400, "standard")["random"]["win_rate"]
    assert after > before + 0.08, (before, after)


def test_ctrl_c_exits_130_and_the_resume_finishes_the_run(tmp_path, capsys, monkeypatch):
    needs_training("torch")
    from agents.learn.zero import train

    run = tmp_path / "run"
    args = ["train", "--method", "ppo-zero", "--run-dir", str(run), "--timesteps", "8192",
            "--num-envs", "64", "--n-steps", "8", "--eval-games", "0", "--no-progress"]  # fmt: skip
    real, calls = train._one_update, []

    def interrupted(*a, **kw):
        calls.append(1)
        if len(calls) == 10:  # in the second round (8 updates a round): round 1 is saved
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(train, "_one_update", interrupted)
    assert main(args) == 130
    assert "--resume" in capsys.readouterr().err
    assert [p.name for p in (run / "checkpoints").iterdir()] == ["round_1.pt"]
    monkeypatch.setattr(train, "_one_update", real)
    assert main([*args, "--resume"]) == 0
    assert (run / "model.npz").is_file()
