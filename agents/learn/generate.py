"""Generation of DMC data in shards: resumable, reproducible whatever the number of workers.

Shard ``i`` of generation ``gen`` plays ``games`` games whose seeds and branching generator come
from ``SeedSequence(seed, spawn_key=(gen, i))``; a shard is written atomically when complete, so
a killed run loses at most the shards in flight and ``--resume`` plays only the missing ones.
"""

from __future__ import annotations

import hashlib
import io
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..nets.oracle import ORACLE_DIM
from ..nets.weights import Kind, WeightsError, read_weights
from ..players.rollouts import new_batches, play_episode
from ..store.atomic import atomic_write
from ..tournament.limits import check_limit
from .runfiles import RunFiles


@dataclass(frozen=True)
class GenConfig:
    seed: int
    gen: int
    shards: int
    games: int = 20  # per shard
    eps: float = 0.1
    rate_discard: float = 1.0
    rate_play: float = 1.0
    win_bonus: float = 0.0
    expected_shows: bool = False  # shows at their expectation over the starter
    branch: bool = True  # False: no rollouts, only the policy's choices (behaviour-cloning labels)
    name: str = ""  # data directory name (default gen<gen>)
    policy: str = "expectimax"  # the learner (behaviour and rollouts): an agent spec or weights
    opponents: tuple[tuple[str, float], ...] = (("self", 1.0),)
    rules: str = "standard"  # the game played (Rules.named text)
    labeler: str = ""  # branch False: the agent spec whose choices are the labels (default policy)


def shard_path(data_dir: Path, gen: int, i: int, name: str = "") -> Path:
    return data_dir / (name or f"gen{gen}") / f"shard_{i:05d}.npz"


def _make_policy(spec: str):
    from ..registry import make_agent

    if spec.endswith(".npz"):
        from ..players.neural import NeuralAgent

        return NeuralAgent(spec)
    return make_agent(spec)


_CACHE: dict[str, object] = {}


def _cached(spec: str):
    """League members are built once per worker and reused for every episode."""
    if spec not in _CACHE:
        _CACHE[spec] = _make_policy(spec)
    return _CACHE[spec]


def shard_arrays(cfg: GenConfig, i: int) -> dict[str, np.ndarray]:
    """The arrays of shard ``i``: a pure function of ``cfg`` and ``i`` (any process, any node)."""
    from ..players.expectimax import ExpectimaxAgent

    ss = np.random.SeedSequence(cfg.seed, spawn_key=(cfg.gen, i))
    seeds = ss.generate_state(cfg.games)
    rng = np.random.default_rng(ss.spawn(1)[0])
    teacher = (
        _cached("expectimax")
        if isinstance(_cached("expectimax"), ExpectimaxAgent)
        else ExpectimaxAgent()
    )
    learner = _cached(cfg.policy)
    names = [n for n, _ in cfg.opponents]
    weights = np.array([w for _, w in cfg.opponents], dtype=float)
    out = new_batches()
    rate = {"discard": cfg.rate_discard, "play": cfg.rate_play}
    seats: tuple[int, ...]  # the learner's seats: both in self-play
    for k, s in enumerate(seeds):
        opp = names[int(rng.choice(len(names), p=weights / weights.sum()))]
        if opp == "self":
            policies, seats = (learner, learner), (0, 1)
        else:
            seat = k % 2
            other = _cached(opp)
            policies = (learner, other) if seat == 0 else (other, learner)
            seats = (seat,)
        play_episode(
            int(s),
            policies,
            seats,
            eps=cfg.eps,
            rate=rate,
            rng=rng,
            out=out,
            teacher=teacher,
            win_bonus=cfg.win_bonus,
            expected_shows=cfg.expected_shows,
            branch=cfg.branch,
            rules=cfg.rules,
            labeler=_cached(cfg.labeler) if cfg.labeler else None,
        )
    return {**out["discard"].arrays("discard"), **out["play"].arrays("play")}


def shard_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """The bytes of a shard's ``.npz``."""
    out = io.BytesIO()
    np.savez(out, allow_pickle=False, **arrays)  # named, so mypy does not match it to **arrays
    return out.getvalue()


def write_shard(path: Path, arrays: dict[str, np.ndarray], files: RunFiles | None = None) -> Path:
    """Write a shard atomically (its digest recorded first in ``files``, a run's, if given)."""
    data = shard_bytes(arrays)
    if files is not None:
        return files.write(path, data)
    return atomic_write(path, lambda f: f.write(data))


def _have(path: Path, files: RunFiles | None) -> bool:
    """Is shard ``path`` there to use? In a run (``files``): there and what the run wrote
    (RunFileError if it is there and is not); else: there and whole (a damaged one is redone)."""
    return files.check(path) if files is not None else shard_ok(path)


def play_shard(cfg: GenConfig, data_dir: Path, i: int) -> Path:
    """Shard ``i`` of ``cfg`` under ``data_dir``, played here unless a whole one is there."""
    path = shard_path(data_dir, cfg.gen, i, cfg.name)
    if shard_ok(path):
        return path
    return write_shard(path, shard_arrays(cfg, i))


def _weight_files(cfg: GenConfig) -> dict[str, bytes]:
    """The weights files ``cfg`` names (learner, league), read here to travel with the tasks:
    a remote node has the project, not this run folder."""
    specs = [cfg.policy, cfg.labeler, *(n for n, _ in cfg.opponents)]
    return {s: Path(s).read_bytes() for s in specs if s.endswith(".npz")}


def _local_copy(spec: str, blob: bytes) -> str:
    """A weights file on this node with ``blob``'s bytes (written once per content)."""
    digest = hashlib.sha256(blob).hexdigest()[:24]
    path = Path(tempfile.gettempdir()) / f"cribbage-weights-{digest}.npz"
    if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest()[:24] != digest:
        atomic_write(path, lambda f: f.write(blob))
    return str(path)


def _shard_job(job: tuple[GenConfig, int, dict[str, bytes]]) -> tuple[int, dict[str, np.ndarray]]:
    """One shard in a worker (pool or Ray): its arrays go back to the driver, which writes them."""
    cfg, i, files = job
    if files:
        local = {spec: _local_copy(spec, blob) for spec, blob in files.items()}
        cfg = replace(
            cfg,
            policy=local.get(cfg.policy, cfg.policy),
            labeler=local.get(cfg.labeler, cfg.labeler),
            opponents=tuple((local.get(n, n), w) for n, w in cfg.opponents),
        )
    return i, shard_arrays(cfg, i)


def generate(
    cfg: GenConfig,
    data_dir: Path,
    workers: int = 1,
    on_shard=None,
    backend: Any = "pool",
    address: str | None = None,
    files: RunFiles | None = None,
) -> list[Path]:
    """Play every missing shard of ``cfg`` on ``backend`` (``serial``, ``pool`` with ``workers``
    processes, or ``ray``, joining ``address`` if given; or a backend object, left open);
    returns all shard paths. Workers send
    the arrays back and this process writes them, so the shards are the same bytes on any backend
    and a killed run (driver or worker) replays only the shards not yet written. ``files``: the
    run's record of what it wrote (each shard checked against it, and recorded in it)."""
    from ..tournament.backends import make_backend

    todo = [
        i for i in range(cfg.shards) if not _have(shard_path(data_dir, cfg.gen, i, cfg.name), files)
    ]
    workers = min(check_limit("workers", workers), max(1, len(todo)))  # never more than shards
    done = cfg.shards - len(todo)
    if on_shard:
        on_shard(done, cfg.shards)
    if not todo:
        return [shard_path(data_dir, cfg.gen, i, cfg.name) for i in range(cfg.shards)]
    owned = isinstance(backend, str)  # a backend object (already started) stays open
    if owned and backend == "pool" and workers <= 1:
        backend = "serial"
    be = (
        make_backend(backend, None if backend == "serial" else workers, address)
        if owned
        else backend
    )
    blobs = _weight_files(cfg) if be.name == "ray" else {}
    try:
        for out in be.map(_shard_job, [(cfg, i, blobs) for i in todo]):
            if out is None:
                continue
            i, arrays = out
            write_shard(shard_path(data_dir, cfg.gen, i, cfg.name), arrays, files)
            done += 1
            if on_shard:
                on_shard(done, cfg.shards)
    finally:
        if owned:
            be.close()
    return [shard_path(data_dir, cfg.gen, i, cfg.name) for i in range(cfg.shards)]


#: What a data shard may hold (its own caps: a shard of many games is bigger than any net).
SHARD = Kind("data shard", frozenset({"f2", "f4", "i1"}), max_ndim=3, max_array_bytes=1 << 30,
             max_total_bytes=1 << 31, max_file_bytes=1 << 31)  # fmt: skip


#: a shard's arrays per kind: rows, point returns, candidates, teacher, equity returns, oracle
_ARRAYS = "xgnteo"


def read_shard(path: Path) -> dict[str, np.ndarray]:
    """A shard's arrays, checked (:mod:`.weights`: sizes before decompression, finite values)
    and consistent with the features (WeightsError, a ValueError, if not)."""
    arrays = read_weights(path, SHARD)
    for prefix, batch in new_batches().items():
        names = [f"{prefix}_{s}" for s in _ARRAYS]
        if any(n not in arrays for n in names):
            raise WeightsError(f"{path}: not a data shard of this version (no {prefix} arrays)")
        x, g, n, t, e, o = (arrays[k] for k in names)
        rows = len(x)
        if (
            x.shape != (rows, batch.k, batch.dim)
            or g.shape != (rows, batch.k)
            or e.shape != (rows, batch.k)
            or o.shape != (rows, ORACLE_DIM)
            or (n.shape != (rows,) or t.shape != (rows,))
        ):
            raise WeightsError(f"{path}: the {prefix} arrays do not fit together")
    if set(arrays) != {f"{p}_{s}" for p in ("discard", "play") for s in _ARRAYS}:
        raise WeightsError(f"{path}: not a data shard (unexpected arrays)")
    return arrays


def shard_ok(path: Path) -> bool:
    """Is there a whole, checked shard at ``path`` (a damaged one is played again)?"""
    try:
        read_shard(path)
    except WeightsError:
        return False
    return True


def load_shards(paths: list[Path]) -> dict[str, np.ndarray]:
    """Concatenate shard arrays (discard_x, discard_g, ..., play_o), each checked."""
    parts: dict[str, list] = {}
    for p in paths:
        for k, v in read_shard(p).items():
            parts.setdefault(k, []).append(v)
    return {k: np.concatenate(v) for k, v in parts.items()}
