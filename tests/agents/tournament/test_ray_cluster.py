"""A real two-node Ray cluster on this machine (`ray start --head`, then `ray start --address` for
a second node, each with its own CPU), with Ray's token authentication as a cluster runs it:
tournaments and training data give the pool's results bit for bit, a user's module that only the
driver has is shipped, and a worker node killed mid-run loses nothing (its tasks run again)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
from extras import needs_training

ray = pytest.importorskip("ray", reason="the 'ray' extra is not installed")

#: a real cluster of processes that mostly wait (start-up, a node killed): the integration tier.
pytestmark = pytest.mark.integration


RAY = str(Path(sys.executable).with_name("ray"))
NODE_PORT = 46000 + os.getpid() % 1000  # the second node's raylet, found by it to kill it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pids_with(text: str) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmd and int(d.name) != os.getpid():
                out.append(int(d.name))
    return out


def _kill(text: str) -> None:
    for pid in _pids_with(text):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _start(env: dict, *args: str) -> None:
    """``ray start ARGS`` with one CPU; a failed start is retried once (a loaded machine can miss
    Ray's own start-up deadlines), then reported with what Ray printed."""
    cmd = [RAY, "start", *args, "--num-cpus", "1", "--disable-usage-stats"]
    for attempt in (1, 2):
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        if done.returncode == 0:
            return
        if attempt == 1 and "--head" in args:
            _kill(next(a.split("=", 1)[1] for a in args if a.startswith("--temp-dir=")))
    raise AssertionError(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


@pytest.fixture(scope="module")
def cluster():
    """A head and a second node, each with one CPU; yields (address, environment)."""
    temp = tempfile.mkdtemp(prefix="rt")  # short: Ray's socket paths live under it
    token = Path(temp) / "token"
    token.write_text(secrets.token_hex(32))
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")} | auth
    saved = {k: os.environ.get(k) for k in auth}
    port = _free_port()
    try:
        _start(env, "--head", f"--port={port}", "--include-dashboard=false", f"--temp-dir={temp}")
        _start(env, f"--address=127.0.0.1:{port}", f"--node-manager-port={NODE_PORT}")
        os.environ.update(auth)  # the driver holds the cluster's token too
        yield f"127.0.0.1:{port}", env
    finally:
        if ray.is_initialized():
            ray.shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        _kill(temp)
        shutil.rmtree(temp, ignore_errors=True)


def _cribbage(env: dict, cwd: Path, *args: str) -> subprocess.Popen:
    """``cribbage ARGS`` in a new process, as a person runs it (the cluster's token in its env)."""
    root = str(Path(__file__).resolve().parents[3])
    return subprocess.Popen([sys.executable, "-m", "ui", *args], cwd=cwd, text=True,
                            env=env | {"PYTHONPATH": root},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def _strip(report: dict) -> list:
    """What must not depend on the backend: every pairing's games, wins and margins."""
    return [(p["agents"], p["games"], p["wins"], p["mean_margin"]) for p in report["pairings"]]


def _bench(env: dict, cwd: Path, agents: list[str], *extra: str) -> list:
    proc = _cribbage(env, cwd, "bench", *agents, "--seed", "4", "--agent-seed", "9", "--json",
                     "--db", str(cwd / "results.sqlite"), *extra)  # fmt: skip
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return _strip(json.loads(out))


BOT = "from agents.players.greedy import GreedyAgent\n\n\nclass Bot(GreedyAgent):\n    pass\n"


def test_tournament_on_two_nodes_ships_the_users_module(cluster, tmp_path):
    address, env = cluster
    (tmp_path / "shipped_bot_mod.py").write_text(BOT)  # only the driver's folder has this file
    agents = ["shipped_bot_mod:Bot", "random"]
    on_ray = _bench(
        env, tmp_path, agents, "--games", "16", "--backend", "ray", "--address", address
    )
    serial = _bench(env, tmp_path, agents, "--games", "16", "--backend", "serial")
    assert on_ray == serial


def _shards(folder: Path) -> dict[str, dict[str, bytes]]:
    """Each shard's arrays, byte for byte (a zip member's header holds its write time)."""
    out = {}
    for p in sorted(folder.rglob("*.npz")):
        with np.load(p, allow_pickle=False) as z:
            out[str(p.relative_to(folder))] = {k: z[k].tobytes() for k in z.files}
    return out


def test_training_shards_are_the_pools_bit_for_bit(cluster, tmp_path):
    needs_training("torch")  # cribbage train needs the training extra
    address, env = cluster
    args = ["train", "--method", "bc", "--teacher", "expectimax", "--shards", "6",
            "--games-per-shard", "2", "--epochs", "1", "--eval-games", "0", "--seed", "3",
            "--no-progress"]  # fmt: skip
    runs = {}
    for name, where in (("ray", ["--backend", "ray", "--address", address]),
                        ("pool", ["--backend", "pool", "--workers", "2"])):  # fmt: skip
        proc = _cribbage(env, tmp_path, *args, "--run-dir", str(tmp_path / name), *where)
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        runs[name] = _shards(tmp_path / name / "data")
    assert runs["ray"] and runs["ray"] == runs["pool"]


def test_a_killed_worker_node_loses_nothing(cluster, tmp_path):
    address, env = cluster
    agents = ["expectimax", "greedy"]
    proc = _cribbage(env, tmp_path, "bench", *agents, "--games", "60", "--block", "2", "--seed",
                     "4", "--agent-seed", "9", "--json", "--db", str(tmp_path / "r.sqlite"),
                     "--backend", "ray", "--address", address)  # fmt: skip
    deadline = time.time() + 180
    while not _games_saved(tmp_path / "r.sqlite") and time.time() < deadline:
        time.sleep(0.2)  # the run is under way on both nodes
    assert proc.poll() is None, "the run ended before the node could be killed"
    _kill(f"--node_manager_port={NODE_PORT}")  # the second node's raylet: its workers follow
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    serial = _bench(env, tmp_path, agents, "--games", "60", "--backend", "serial")
    assert _strip(json.loads(out)) == serial


def _games_saved(db: Path) -> bool:
    import sqlite3

    if not db.exists():
        return False
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as con:
            return con.execute("select count(*) from games").fetchone()[0] > 0
    except sqlite3.Error:
        return False


def _chunks(folder: Path) -> dict[str, dict]:
    out = {}
    for p in sorted(folder.glob("chunk_*.npz")):
        with np.load(p, allow_pickle=False) as z:
            out[p.name] = {k: z[k].tolist() for k in z.files}
    return out


def test_equity_traces_are_the_same_on_the_cluster(cluster, tmp_path):
    """The table builder's chunks through the same backend helper: pool and cluster agree."""
    address, env = cluster
    script = str(Path(__file__).resolve().parents[3] / "benchmarks" / "tables" / "equity_sim.py")
    root = str(Path(__file__).resolve().parents[3])
    common = ["--chunks", "3", "--deals", "20", "--agent", "greedy", "--seed", "5"]
    for name, where in (("ray", ["--backend", "ray", "--address", address]),
                        ("pool", ["--backend", "pool", "--workers", "2"])):  # fmt: skip
        subprocess.run([sys.executable, script, "--out", str(tmp_path / name), *common, *where],
                       env=env | {"PYTHONPATH": root}, check=True, capture_output=True,
                       timeout=600)  # fmt: skip
    assert len(_chunks(tmp_path / "ray")) == 3
    assert _chunks(tmp_path / "ray") == _chunks(tmp_path / "pool")


def test_a_killed_worker_node_loses_no_training_data(cluster, tmp_path):
    needs_training("torch")  # cribbage train needs the training extra
    address, env = cluster
    if not _pids_with(f"--node_manager_port={NODE_PORT}"):  # killed by an earlier test
        _start(env, f"--address={address}", f"--node-manager-port={NODE_PORT}")
    args = ["train", "--method", "bc", "--teacher", "expectimax", "--shards", "12",
            "--games-per-shard", "2", "--epochs", "1", "--eval-games", "0", "--seed", "8",
            "--no-progress"]  # fmt: skip
    proc = _cribbage(env, tmp_path, *args, "--run-dir", str(tmp_path / "ray"), "--backend", "ray",
                     "--address", address)  # fmt: skip
    deadline = time.time() + 180
    while not list((tmp_path / "ray").rglob("shard_*.npz")) and time.time() < deadline:
        time.sleep(0.2)  # the first shards are written: the run is under way on both nodes
    assert proc.poll() is None, "the run ended before the node could be killed"
    _kill(f"--node_manager_port={NODE_PORT}")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    pool = _cribbage(env, tmp_path, *args, "--run-dir", str(tmp_path / "pool"), "--workers", "2")
    _, err = pool.communicate(timeout=600)
    assert pool.returncode == 0, err
    assert _shards(tmp_path / "ray" / "data") == _shards(tmp_path / "pool" / "data")
    assert _weights(tmp_path / "ray" / "model.npz") == _weights(tmp_path / "pool" / "model.npz")


def _weights(path: Path) -> dict[str, bytes]:
    """The nets' numbers (the metadata holds each run's own command line)."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k].tobytes() for k in z.files if z[k].dtype.kind == "f"}
