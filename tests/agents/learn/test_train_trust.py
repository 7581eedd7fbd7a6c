"""A run folder of ``cribbage train`` is read like any shared file: its config is checked
as strictly as the command line, its specs are not built unless named again, its stage files are
checked before use (a damaged one is redone), every output is written atomically and never through
a link, and one process at a time owns the folder."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from extras import needs_training

from ui.cli.cli import main

PAYLOAD = "os:system:command=touch PWNED"
COMMON = ["--shards", "1", "--games-per-shard", "1", "--epochs", "1", "--eval-games", "0",
          "--workers", "1", "--no-progress"]  # fmt: skip


def _config_file(run: Path, method: str = "dmc", **changes) -> Path:
    from agents.learn.dmc import DMCConfig

    cfg = {**asdict(DMCConfig(shards=1, games_per_shard=1, eval_games=0, workers=1)), **changes}
    run.mkdir(parents=True, exist_ok=True)
    path = run / "config.json"
    path.write_text(json.dumps({"method": method, "command": "cribbage train", "config": cfg}))
    return path


def _resume(run: Path, *extra: str, method: str = "dmc") -> list[str]:
    shards = ["--shards", "2"] if (run / "data").is_dir() else []  # the finished run's
    return ["train", "--method", method, "--run-dir", str(run), "--resume", *COMMON, *shards,
            *extra]  # fmt: skip


def _one_line(err: str) -> bool:
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("method", "changes"),
    [
        ("dmc", {"ladder": [PAYLOAD]}),
        ("dmc", {"opponents": [[PAYLOAD, 1.0]]}),
        ("bc", {"teacher": PAYLOAD}),
        ("dmc", {"ladder": ["neural:path=/etc/passwd"]}),
    ],
    ids=["ladder", "opponents", "teacher", "path"],
)
def test_resume_never_builds_specs_from_the_run_folder(
    tmp_path, capsys, monkeypatch, method, changes
) -> None:
    needs_training("torch")  # a run that can train: the checks after the extras check
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run"
    _config_file(run, method, **changes)
    assert main(_resume(run, method=method)) == 2
    err = capsys.readouterr().err
    assert not (tmp_path / "PWNED").exists()
    assert _one_line(err) and "would run code or read a file" in err
    assert sorted(p.name for p in run.iterdir()) == ["config.json"]  # nothing written


def test_resume_builds_a_stored_import_path_named_again(tmp_path, capsys) -> None:
    needs_training("torch")  # a run that can train: the checks after the extras check
    run = tmp_path / "run"
    spec = "tests.plugin_agents:RandomLegal"
    _config_file(run, ladder=[spec])
    assert main(_resume(run)) == 2
    assert spec in capsys.readouterr().err
    import argparse

    from ui.cli.cmd_train.arguments import add_arguments
    from ui.cli.cmd_train.command import _prepare

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(["--method", "dmc", "--run-dir", str(run), "--resume", "--ladder", spec])
    cfg, _ = _prepare(args, "")
    assert cfg.ladder == (spec,)


@pytest.mark.parametrize(
    "changes",
    [
        {"workers": 1_000_000},
        {"shards": 10**9},
        {"games_per_shard": 10**7},
        {"epochs_dmc": 10**6},
        {"seed": -1},
        {"seed": "1"},
        {"workers": True},
        {"generations": 0},
        {"eps": float("nan")},
        {"lr": "fast"},
        {"hidden": [10**9]},
        {"hidden": "256"},
        {"opponents": [["random", -1]]},
        {"opponents": "random"},
        {"ladder": "random"},
        {"ladder": [7]},
        {"eval_games": 3},
        {"reward": "money"},
        {"nope": 1},
        {"extra": {"x": 1}},
        {"warm_start": "/etc/passwd"},
    ],
    ids=lambda c: "-".join(f"{k}={v!r}"[:30] for k, v in c.items()),
)
def test_a_saved_config_is_checked_like_the_command_line(tmp_path, capsys, changes) -> None:
    run = tmp_path / "run"
    _config_file(run, **changes)
    assert main(_resume(run)) == 2
    err = capsys.readouterr().err
    assert _one_line(err), err
    assert sorted(p.name for p in run.iterdir()) == ["config.json"]


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'{"method": "dmc"}', b'{"method": "dmc", "command": 1, "config": {}}',
     b'{"method": "dmc", "command": "c", "config": []}', b"\xff\xfe", b"9" * 5000],
)  # fmt: skip
def test_a_damaged_config_is_one_line(tmp_path, capsys, content) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_bytes(content)
    assert main(_resume(run)) == 2
    assert _one_line(capsys.readouterr().err)


def test_a_config_that_is_a_fifo_or_a_folder_is_one_line(tmp_path, capsys) -> None:
    run = tmp_path / "run"
    run.mkdir()
    os.mkfifo(run / "config.json")
    assert main(_resume(run)) == 2
    assert _one_line(capsys.readouterr().err)
    (run / "config.json").unlink()
    (run / "config.json").mkdir()
    assert main(_resume(run)) == 2
    assert _one_line(capsys.readouterr().err)


def test_resume_without_a_run_is_an_error(tmp_path, capsys) -> None:
    run = tmp_path / "nothing"
    assert main(_resume(run)) == 2
    assert "no run" in capsys.readouterr().err
    assert not run.exists()


def test_a_run_folder_in_use_is_refused(tmp_path, capsys) -> None:
    needs_training("torch")  # a run that can train: the checks after the extras check
    from agents.store.atomic import try_lock

    run = tmp_path / "run"
    _config_file(run)
    fd = try_lock(run, folder=True)
    assert fd is not None
    try:
        code = main(_resume(run))
    finally:
        os.close(fd)
    err = capsys.readouterr().err
    assert code == 2 and _one_line(err) and "in use" in err


@pytest.mark.parametrize("flag", ["--workers", "--shards", "--games-per-shard", "--epochs"])
def test_sizes_are_capped_like_bench(tmp_path, flag) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["train", "--method", "dmc", "--run-dir", str(tmp_path / "r"), flag, "1000000"])
    assert exc.value.code == 2
    assert not (tmp_path / "r").exists()


def test_never_more_workers_than_shards(tmp_path, monkeypatch) -> None:
    import agents.tournament.backends as backends
    from agents.learn import generate as g

    asked = []
    real = backends.make_backend

    def spy(name, workers=None, address=None):
        asked.append((name, workers))
        return real(name, workers, address)

    monkeypatch.setattr(backends, "make_backend", spy)
    cfg = g.GenConfig(seed=1, gen=0, shards=1, games=1, branch=False, policy="random")
    (path,) = g.generate(cfg, tmp_path, workers=8)
    assert path.exists() and asked == [("serial", None)]  # one shard: no pool of 8


def test_ppo_without_its_extra_is_one_line(tmp_path, capsys, monkeypatch) -> None:
    import sys

    for mod in ("sb3_contrib", "stable_baselines3"):
        monkeypatch.setitem(sys.modules, mod, None)
    monkeypatch.delitem(sys.modules, "agents.learn.ppo", raising=False)
    code = main(
        ["train", "--run-dir", str(tmp_path / "p"), "--timesteps", "8", "--eval-games", "0"]
    )
    err = capsys.readouterr().err
    assert code == 2 and _one_line(err) and "rl" in err and "sb3-contrib" in err
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p,  # a folder
        lambda p: (p / "w.npz").write_bytes(b"not a zip") and p / "w.npz",
        lambda p: np.savez(p / "n.npz", **{"discard.w0": np.full((2, 1), np.nan)}) or p / "n.npz",
    ],
    ids=["folder", "garbage", "nan"],
)
def test_a_bad_warm_start_is_one_line(tmp_path, capsys, make) -> None:
    weights = make(tmp_path)
    run = tmp_path / "run"
    code = main(["train", "--method", "dmc", "--run-dir", str(run), "--warm-start", str(weights),
                 *COMMON])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and _one_line(err), err
    assert not run.exists()


# ------------------------------------------------------------------------------ stage files
@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    needs_training("torch")
    run = tmp_path_factory.mktemp("train") / "run"
    code = main(["train", "--method", "dmc", "--run-dir", str(run), *COMMON, "--shards", "2",
                 "--db", str(run.parent / "r.sqlite")])  # fmt: skip
    assert code == 0
    return run


def _copy(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(run, out, symlinks=True)
    cfg = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps(cfg))
    return out


def _refused(run: Path, tmp_path: Path, capsys, name: str) -> None:
    """The resume is refused in one line naming ``name``, exit 2, and trains nothing."""
    before = {p: (p.stat().st_mtime_ns if p.is_file() else None) for p in run.rglob("*")}
    assert main(_resume(run, "--db", str(tmp_path / "r.sqlite"))) == 2
    err = capsys.readouterr().err
    assert _one_line(err) and name in err, err
    after = {p: (p.stat().st_mtime_ns if p.is_file() else None) for p in run.rglob("*")}
    assert after == before  # nothing written, nothing trained
    assert not (tmp_path / "r.sqlite").exists()


def test_resume_never_writes_through_a_link(finished_run, tmp_path, capsys) -> None:
    run = _copy(finished_run, tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    (run / "model.npz").unlink()
    (run / "model.npz").symlink_to(outside)
    _refused(run, tmp_path, capsys, "model.npz is a link")
    assert outside.read_text() == "precious"


def test_a_finished_run_with_a_truncated_model_is_refused(finished_run, tmp_path, capsys) -> None:
    run = _copy(finished_run, tmp_path)
    data = (run / "model.npz").read_bytes()
    (run / "model.npz").write_bytes(data[: len(data) // 2])
    _refused(run, tmp_path, capsys, "model.npz is not the file this run wrote")


def test_a_stage_swapped_for_the_previous_one_is_refused(finished_run, tmp_path, capsys) -> None:
    run = _copy(finished_run, tmp_path)
    for name in ("model.npz", "final.json"):
        (run / name).unlink()
    shutil.copyfile(run / "warm_start.npz", run / "gen1.npz")  # a valid weights file
    _refused(run, tmp_path, capsys, "gen1.npz is not the file this run wrote")


def test_a_file_the_run_did_not_write_is_refused(finished_run, tmp_path, capsys) -> None:
    run = _copy(finished_run, tmp_path)
    shutil.copyfile(run / "gen1.npz", run / "gen2.npz")
    _refused(run, tmp_path, capsys, "gen2.npz was not written by this run")


@pytest.mark.parametrize("stage", ["gen1.npz", "warm_start.npz"])
def test_a_truncated_stage_is_refused_and_made_again_once_removed(
    finished_run, tmp_path, capsys, stage
) -> None:
    from agents.nets.mlp import load_nets

    run = _copy(finished_run, tmp_path)
    data = (run / stage).read_bytes()
    (run / stage).write_bytes(data[: len(data) // 2])
    (run / "model.npz").unlink()
    _refused(run, tmp_path, capsys, f"{stage} is not the file this run wrote")
    (run / stage).unlink()
    assert main(_resume(run, "--db", str(tmp_path / "r.sqlite"))) == 0
    load_nets(run / stage)
    load_nets(run / "model.npz")


def test_a_shard_swapped_for_another_valid_shard_is_refused(finished_run, tmp_path, capsys):
    run = _copy(finished_run, tmp_path)
    first, second = sorted((run / "data" / "gen0").glob("shard_*.npz"))
    shutil.copyfile(second, first)
    (run / "gen1.npz").unlink()
    _refused(run, tmp_path, capsys, f"{first.name} is not the file this run wrote")


def test_a_shard_replaced_by_a_folder_is_refused(finished_run, tmp_path, capsys) -> None:
    run = _copy(finished_run, tmp_path)
    shard = sorted((run / "data" / "gen0").glob("shard_*.npz"))[0]
    shard.unlink()
    shard.mkdir()
    (run / "gen1.npz").unlink()
    _refused(run, tmp_path, capsys, f"{shard.name} is a folder")


def test_a_removed_shard_is_played_again_to_the_same_arrays(finished_run, tmp_path) -> None:
    from agents.nets.mlp import load_nets

    run = _copy(finished_run, tmp_path)
    shard = sorted((run / "data" / "gen0").glob("shard_*.npz"))[0]
    good = dict(np.load(shard))
    shard.unlink()
    for name in ("gen1.npz", "warm_start.npz", "model.npz"):
        (run / name).unlink()
    assert main(_resume(run, "--db", str(tmp_path / "r.sqlite"))) == 0
    again = dict(np.load(shard))
    assert good.keys() == again.keys() and all((good[k] == again[k]).all() for k in good)
    load_nets(run / "model.npz")
