"""``cribbage train``: usage errors exit 2, tiny runs of both methods write a run directory,
and ``--resume`` continues a run with its saved configuration."""

from __future__ import annotations

import json

import numpy as np
import pytest
from extras import needs_training

from ui.cli.cli import main


def test_bad_usage_exits_2(tmp_path, capsys):
    assert (
        main(["train", "--method", "dmc", "--reward", "win", "--run-dir", str(tmp_path / "a")]) == 2
    )
    assert "--reward points" in capsys.readouterr().err
    assert main(["train", "--eval-games", "3", "--run-dir", str(tmp_path / "b")]) == 2
    from cribbage_env.envs.rewards import REWARDS

    if "equity" not in REWARDS:
        assert main(["train", "--reward", "equity", "--run-dir", str(tmp_path / "e")]) == 2
        assert "equity" in capsys.readouterr().err
    assert main(["train", "--opponent", "nope@1", "--run-dir", str(tmp_path / "c")]) == 2
    assert "unknown agent" in capsys.readouterr().err
    for weight in ("-1", "inf", "nan"):
        with pytest.raises(SystemExit) as exc:
            main(["train", "--opponent", f"random@{weight}"])
        assert exc.value.code == 2


@pytest.mark.integration  # training end to end
def test_dmc_tiny_run_and_resume(tmp_path, capsys):
    needs_training("torch")
    run = tmp_path / "run"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"),
            *"--method dmc --shards 1 --games-per-shard 1 --epochs 1 --eval-games 2 "
            "--ladder random --workers 1 --no-progress".split()]  # fmt: skip
    assert main(args) == 0
    for name in ("config.json", "warm_start.npz", "gen1.npz", "model.npz", "curve.json"):
        assert (run / name).exists(), name
    curve = json.loads((run / "curve.json").read_text())
    assert [p["stage"] for p in curve] == ["warm_start", "gen1"]
    assert curve[0]["results"][0]["opponent"] == "random" and curve[0]["results"][0]["games"] == 2
    # Every fit trained (a shard is far below the batch of 512) and says how much.
    from agents.nets.mlp import load_nets

    log = (run / "train.log").read_text()
    assert "loss 0.0000" not in log and "gen1: trained " in log
    warm, gen1 = load_nets(run / "warm_start.npz"), load_nets(run / "gen1.npz")
    for stage in (warm, gen1):
        assert (
            int(stage[2]["gradient_steps_discard"]) > 0 and int(stage[2]["gradient_steps_play"]) > 0
        )
    for before, after in ((warm[0], gen1[0]), (warm[1], gen1[1])):
        assert all(not np.array_equal(a, b) for (a, _), (b, _) in zip(before.layers, after.layers,
                                                                     strict=True))  # fmt: skip
    assert main(args) == 2  # the run exists: --resume is needed
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0  # everything done: nothing is redone
    assert "is finished, nothing to train" in capsys.readouterr().err
    assert len(json.loads((run / "curve.json").read_text())) == 2
    from agents import make_agent

    agent = make_agent(f"neural:path={run / 'model.npz'}")
    assert "cribbage train" in agent.meta["command"]


@pytest.mark.integration  # training end to end
def test_ppo_tiny_run_with_a_league(tmp_path, capsys):
    needs_training("sb3_contrib")
    run = tmp_path / "ppo"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"),
            *"--timesteps 256 --n-steps 128 --eval-every 128 --snapshot-every 128 --eval-games 2 "
            "--ladder random --workers 1 --opponent random@1 --opponent self@1 "
            "--opponent snapshots@1 --no-progress".split()]  # fmt: skip
    assert main(args) == 0
    assert (run / "model.zip").exists() and (run / "checkpoints" / "step_128.zip").exists()
    curve = json.loads((run / "curve.json").read_text())
    assert curve[0]["steps"] == 128 and curve[0]["results"][0]["games"] == 2
    final = json.loads((run / "final.json").read_text())
    assert final["timesteps"] >= 256
    # Two rollouts of 128 steps, 5 epochs of one batch each: counted by the optimizer's hook.
    assert final["gradient_steps"] == 10
    assert (
        "ppo trained 10 gradient steps this session (10 in all; 5 epochs of 1 batches"
        in (run / "train.log").read_text()
    )
    # What the docs list for a run folder: the log and the curve image; and off a
    # terminal, a line per evaluation on stdout.
    log = (run / "train.log").read_text()
    assert "step_128 vs random: " in log and "final model" in log
    assert (run / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "step_128 vs random: " in out and "step_256 vs random: " in out


def test_epochs_set_the_fit_of_the_method_asked_for():
    """``--epochs`` is the cloning fit's length for ``bc`` and the DMC fit's for ``dmc``; the
    other keeps its default."""
    import argparse

    from agents.learn.dmc import DMCConfig
    from ui.cli.cmd_train.arguments import add_arguments
    from ui.cli.cmd_train.command import _config

    p = argparse.ArgumentParser()
    add_arguments(p)
    bc = _config(p.parse_args(["--method", "bc", "--teacher", "expert", "--epochs", "6"]))
    dmc = _config(p.parse_args(["--method", "dmc", "--epochs", "5"]))
    plain = _config(p.parse_args(["--method", "bc"]))
    assert (bc.epochs_bc, bc.epochs_dmc, bc.teacher) == (6, DMCConfig().epochs_dmc, "expert")
    assert (dmc.epochs_dmc, dmc.epochs_bc) == (5, DMCConfig().epochs_bc)
    assert (plain.epochs_bc, plain.epochs_dmc) == (DMCConfig().epochs_bc, DMCConfig().epochs_dmc)


def test_dmc_can_start_from_given_weights(tmp_path):
    """``--warm-start`` puts the given nets (here a tiny cloning run's) where the expectimax
    clone would go, and the DMC fit starts from them."""
    needs_training("torch")
    common = ["--shards", "1", "--games-per-shard", "1", "--epochs", "1", "--eval-games", "0",
              "--workers", "1", "--db", str(tmp_path / "r.sqlite"), "--no-progress"]  # fmt: skip
    bc = tmp_path / "bc"
    assert main(["train", "--method", "bc", "--run-dir", str(bc), *common]) == 0
    run = tmp_path / "dmc"
    args = [
        "train",
        "--method",
        "dmc",
        "--run-dir",
        str(run),
        "--warm-start",
        str(bc / "model.npz"),
    ]
    assert main([*args, *common]) == 0
    from agents.nets.mlp import load_nets

    _, _, meta = load_nets(run / "warm_start.npz")
    assert meta["stage"] == "warm_start:bc_expectimax"
    d_given, _, _ = load_nets(bc / "model.npz")
    d_warm, _, _ = load_nets(run / "warm_start.npz")
    assert all((a == b).all() for a, b in zip(d_given.arrays("d").values(),
                                               d_warm.arrays("d").values(), strict=True))  # fmt: skip
    assert (run / "gen1.npz").exists()
    assert main(["train", "--method", "dmc", "--run-dir", str(tmp_path / "x"),
                 "--warm-start", str(tmp_path / "none.npz"), *common]) == 2  # fmt: skip


def _train_without(blocked: tuple[str, ...], args: list[str]):
    """``cribbage train ARGS`` in a Python where importing ``blocked`` fails as if uninstalled."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    code = (
        "import sys\n"
        f"for name in {blocked!r}: sys.modules[name] = None  # import raises ImportError\n"
        "from ui.cli.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-c", code, "train", *args],
        capture_output=True, text=True, env=env, cwd=root, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("method", "blocked", "named"),
    [("dmc", ("torch",), "torch"), ("bc", ("torch",), "torch"),
     ("ppo", ("sb3_contrib",), "sb3-contrib"), ("ppo", ("torch", "sb3_contrib"), "torch and")],
)  # fmt: skip
def test_a_missing_extra_is_one_line_and_writes_nothing(tmp_path, method, blocked, named):
    """Without torch, ``cribbage train`` crashed with a traceback after writing
    config.json (and dmc its data), so the retry after installing was refused."""
    run = tmp_path / "run"
    r = _train_without(blocked, ["--method", method, "--run-dir", str(run), "--workers", "1"])
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert named in lines[0] and "cribbage-env[rl]" in lines[0] and "whl/cpu" in lines[0]
    assert not run.exists() and not any(tmp_path.iterdir())


def test_the_retry_after_installing_runs(tmp_path):
    needs_training("torch")
    run = tmp_path / "run"
    args = ["--method", "bc", "--run-dir", str(run), "--shards", "1", "--games-per-shard", "1",
            "--epochs", "1", "--eval-games", "0", "--workers", "1", "--no-progress",
            "--db", str(tmp_path / "r.sqlite")]  # fmt: skip
    assert _train_without(("torch",), args).returncode == 2
    assert main(["train", *args]) == 0 and (run / "model.npz").is_file()


def _bc_run(tmp_path, *extra: str) -> list[str]:
    return ["train", "--method", "bc", "--teacher", "greedy", "--run-dir", str(tmp_path / "bc"),
            "--db", str(tmp_path / "r.sqlite"), "--shards", "1", "--games-per-shard", "1",
            "--epochs", "1", "--eval-games", "0", "--no-progress", *extra]  # fmt: skip


def test_resume_refuses_changed_options_naming_them(tmp_path, capsys):
    needs_training("torch")
    assert main(_bc_run(tmp_path)) == 0
    model = (tmp_path / "bc" / "model.npz").read_bytes()
    log = (tmp_path / "bc" / "train.log").read_text()  # labels only: agreement, no made-up gain
    assert "held-out agree" in log and "gain" not in log and "gradient steps" in log
    capsys.readouterr()
    assert main(_bc_run(tmp_path, "--resume", "--seed", "3", "--epochs", "2")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--seed 3 (the run's: 0)" in err[0]
    assert "--epochs 2 (the run's: 1)" in err[0] and "--shards" not in err[0]
    assert main(_bc_run(tmp_path, "--resume", "--ladder", "random")) == 2
    assert "--ladder random (the run's: random greedy expectimax expert)" in capsys.readouterr().err
    # The same values again are no change; --workers may change and is said to apply.
    assert main(_bc_run(tmp_path, "--resume", "--seed", "0", "--workers", "1")) == 0
    captured = capsys.readouterr()
    assert "--resume applies --workers 1 (the run's: 2)" in captured.err
    assert "is finished, nothing to train" in captured.err
    assert (tmp_path / "bc" / "model.npz").read_bytes() == model


def test_a_finished_ppo_run_says_so_and_is_not_trained_again(tmp_path, capsys):
    needs_training("sb3_contrib")
    run = tmp_path / "ppo"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"), "--timesteps", "64",
            "--n-steps", "64", "--eval-games", "0", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    model = (run / "model.zip").read_bytes()
    assert not list((run / "checkpoints").iterdir())  # shorter than a checkpoint's interval
    capsys.readouterr()
    assert main([*args, "--resume"]) == 0
    captured = capsys.readouterr()
    assert "is finished, nothing to train" in captured.err
    assert f"model: {run / 'model.zip'}" in captured.out
    assert (run / "model.zip").read_bytes() == model
    assert (run / "train.log").read_text().count("ppo from step") == 1


def test_a_ppo_checkpoint_that_is_not_the_runs_is_refused(tmp_path, capsys):
    """A resume reads the newest checkpoint: one truncated or swapped is refused by name before
    anything trains, as is a finished run's damaged model."""
    needs_training("sb3_contrib")
    run = tmp_path / "ppo"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"), "--timesteps",
            "128", "--n-steps", "64", "--eval-every", "64", "--eval-games", "0", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    first, last = sorted((run / "checkpoints").iterdir(), key=lambda p: len(p.name))[:2]
    model = run / "model.zip"
    model.write_bytes(model.read_bytes()[:-100])
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "model.zip is not the file this run wrote" in err
    model.unlink()
    (run / "final.json").unlink()
    last.write_bytes(first.read_bytes())
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{last.name} is not the file this run wrote" in err
    assert not model.exists()


def test_ctrl_c_in_a_ppo_ladder_evaluation_exits_130_and_resumes(tmp_path, capsys, monkeypatch):
    """A real SIGINT while the first checkpoint is evaluated: exit 130, no partial curve point;
    the resume evaluates that checkpoint and trains on from it."""
    needs_training("sb3_contrib")
    import os
    import signal

    import agents.tournament.runner as runner

    real = runner.run_plan

    def interrupted(plan, **kw):
        block = kw["on_block"]

        def on_block(games):
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C sends, caught by the runner
            return block(games)

        return real(plan, **{**kw, "on_block": on_block})

    run = tmp_path / "ppo"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"), "--timesteps",
            "64", "--n-steps", "32", "--eval-every", "32", "--eval-games", "2", "--ladder",
            "random", "--workers", "1", "--no-progress"]  # fmt: skip
    monkeypatch.setattr(runner, "run_plan", interrupted)
    assert main(args) == 130
    assert "interrupted; continue with --resume" in capsys.readouterr().err
    assert not (run / "curve.json").exists() and not (run / "final.json").exists()
    assert (run / "checkpoints" / "step_32.zip").exists()
    monkeypatch.setattr(runner, "run_plan", real)
    assert main([*args, "--resume"]) == 0
    curve = json.loads((run / "curve.json").read_text())
    assert [(p["stage"], p["results"][0]["games"]) for p in curve] == [
        ("step_32", 2),
        ("step_64", 2),
    ]
    log = (run / "train.log").read_text()
    assert "ppo from step 32 to 64" in log and log.count("ppo from step 0") == 1
    # The checkpoint came after its rollout's update: the resume trains the second rollout
    # and the run has learnt from both (the interrupted session's log line never came).
    assert log.count("gradient steps this session") == 1
    assert "ppo trained 5 gradient steps this session (10 in all;" in log


def test_a_ppo_checkpoint_holds_every_step_it_is_named_for(tmp_path):
    """Checkpoints fall where a rollout's update is done: ``step_N`` has learnt from N steps
    (a checkpoint taken mid-rollout missed that rollout, and a resume from it never trained
    on it); ``--eval-every 40`` with rollouts of 32 checkpoints at 64 and 96."""
    needs_training("sb3_contrib")
    from sb3_contrib import MaskablePPO

    run = tmp_path / "ppo"
    args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"), "--timesteps",
            "96", "--n-steps", "32", "--eval-every", "40", "--eval-games", "2", "--ladder",
            "random", "--workers", "1", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    found = sorted(int(p.stem.split("_")[1]) for p in (run / "checkpoints").glob("step_*.zip"))
    assert found == [64, 96]
    for step in found:
        model = MaskablePPO.load(str(run / "checkpoints" / f"step_{step}.zip"), device="cpu")
        assert model.num_timesteps == step and model._n_updates == 5 * step // 32
    curve = json.loads((run / "curve.json").read_text())
    assert [p["steps"] for p in curve] == [64, 96]


@pytest.mark.parametrize("where", ["data", "fit"])
def test_ctrl_c_in_a_bc_run_exits_130_and_the_resume_continues(tmp_path, capsys, monkeypatch,
                                                               where):  # fmt: skip
    """A real SIGINT after the first data shard is written, or in the first gradient step:
    exit 130 with the resume line, nothing marked finished; the resume keeps the shards
    already written and finishes the run."""
    needs_training("torch")
    import os
    import signal

    import agents.learn.fit as fit_module
    import agents.learn.generate as generate

    target, name = (generate, "write_shard") if where == "data" else (fit_module, "_loss")
    real = getattr(target, name)

    def interrupted(*a, **kw):
        out = real(*a, **kw)
        os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C sends
        return out

    args = _bc_run(tmp_path, "--shards", "2", "--workers", "1")
    monkeypatch.setattr(target, name, interrupted)
    assert main(args) == 130
    run = tmp_path / "bc"
    assert "interrupted; continue with --resume" in capsys.readouterr().err
    assert not (run / "final.json").exists() and not (run / "model.npz").exists()
    shards = sorted((run / "data").rglob("*.npz"))
    assert len(shards) == (1 if where == "data" else 2)
    kept = {p: p.stat().st_mtime_ns for p in shards}
    monkeypatch.setattr(target, name, real)
    assert main([*args, "--resume"]) == 0
    assert (run / "final.json").exists() and len(list((run / "data").rglob("*.npz"))) == 2
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())  # continued, not redone


@pytest.mark.integration  # two runs in processes of their own, each importing torch
@pytest.mark.parametrize("method", ["bc", "ppo"])
def test_ctrl_c_from_a_terminal_with_two_workers_exits_130_and_resumes(tmp_path, method):
    """A terminal's Ctrl-C sends SIGINT to the whole foreground group, the pool's workers too:
    a run with ``--workers 2`` (in its data shards, or in a checkpoint's ladder evaluation)
    exits 130 with the resume line and no traceback, leaves no worker running, and resumes."""
    needs_training("torch" if method == "bc" else "sb3_contrib")
    import os
    import signal
    import subprocess
    import sys
    import time

    run = tmp_path / method
    if method == "bc":
        args = _bc_run(tmp_path, "--shards", "6", "--games-per-shard", "40", "--workers", "2")
        started = lambda: any((run / "data").rglob("*.npz"))  # noqa: E731
    else:
        args = ["train", "--run-dir", str(run), "--db", str(tmp_path / "r.sqlite"),
                *"--timesteps 64 --n-steps 32 --eval-every 32 --eval-games 40 --ladder random "
                "--workers 2 --no-progress".split()]  # fmt: skip
        started = lambda: "checkpoint step_32" in _text(run / "train.log")  # noqa: E731
    argv = [sys.executable, "-m", "ui", *args]
    proc = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while not started() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # the workers are busy
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; continue with --resume" in err and "Traceback" not in err
    time.sleep(1)
    alive = subprocess.run(["ps", "-o", "stat=", "-g", str(proc.pid)], capture_output=True,
                           text=True).stdout.split()  # fmt: skip
    assert all(stat.startswith("Z") for stat in alive)  # exited, not yet reaped at most
    assert not (run / "final.json").exists()
    done = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (run / "final.json").exists()


def _text(path) -> str:
    return path.read_text() if path.exists() else ""


def test_a_finished_run_and_a_refusal_answer_without_importing_torch(tmp_path):
    """Torch takes seconds to import (14 s on a loaded 2-core machine): the one-line answers of
    a resume, finished or refused, are given without it."""
    needs_training("torch")
    import subprocess
    import sys
    from pathlib import Path

    assert main(_bc_run(tmp_path)) == 0
    root = Path(__file__).resolve().parents[3]
    code = (
        "import sys\nfrom ui.cli.cli import main\n"
        "codes = [main(sys.argv[1:]), main([*sys.argv[1:], '--epochs', '2'])]\n"
        "print(codes, 'torch' in sys.modules)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, *_bc_run(tmp_path, "--resume")],
                       capture_output=True, text=True, cwd=root, timeout=120)  # fmt: skip
    assert r.stdout.strip().endswith("[0, 2] False"), r.stdout + r.stderr
    assert "is finished, nothing to train" in r.stderr and "--epochs 2 (the run's: 1)" in r.stderr
