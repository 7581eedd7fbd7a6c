"""Generation of DMC data in shards: resumable, reproducible whatever the number of workers.

Shard ``i`` of generation ``gen`` plays ``games`` games whose seeds and branching generator come
from ``SeedSequence(seed, spawn_key=(gen, i))``; a shard is written atomically when complete, so
a killed run loses at most the shards in flight and ``--resume`` plays only the missing ones.
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..atomic import atomic_write
from ..limits import check_limit
from .rollouts import new_batches, play_episode
from .weights import Kind, WeightsError, read_weights


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


def shard_path(data_dir: Path, gen: int, i: int, name: str = "") -> Path:
    return data_dir / (name or f"gen{gen}") / f"shard_{i:05d}.npz"


def _make_policy(spec: str):
    from ..registry import make_agent

    if spec.endswith(".npz"):
        from ..neural import NeuralAgent

        return NeuralAgent(spec)
    return make_agent(spec)


_CACHE: dict[str, object] = {}


def _cached(spec: str):
    """League members are built once per worker and reused for every episode."""
    if spec not in _CACHE:
        _CACHE[spec] = _make_policy(spec)
    return _CACHE[spec]


def play_shard(cfg: GenConfig, data_dir: Path, i: int) -> Path:
    from ..expectimax import ExpectimaxAgent

    path = shard_path(data_dir, cfg.gen, i, cfg.name)
    if shard_ok(path):
        return path
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
        )
    arrays = {**out["discard"].arrays("discard"), **out["play"].arrays("play")}
    # allow_pickle named, so mypy does not match it to **arrays
    atomic_write(path, lambda f: np.savez(f, allow_pickle=False, **arrays))
    return path


def _worker(args) -> str:
    cfg, data_dir, i = args
    return str(play_shard(cfg, Path(data_dir), i))


def generate(cfg: GenConfig, data_dir: Path, workers: int = 1, on_shard=None) -> list[Path]:
    """Play every missing shard of ``cfg`` (in ``workers`` processes); returns all shard paths."""
    todo = [
        i for i in range(cfg.shards) if not shard_ok(shard_path(data_dir, cfg.gen, i, cfg.name))
    ]
    workers = min(check_limit("workers", workers), len(todo))  # never more processes than shards
    done = cfg.shards - len(todo)
    if on_shard:
        on_shard(done, cfg.shards)
    if workers <= 1:
        for i in todo:
            play_shard(cfg, data_dir, i)
            done += 1
            if on_shard:
                on_shard(done, cfg.shards)
    else:
        ctx = mp.get_context("forkserver")
        with ctx.Pool(workers) as pool:
            for _ in pool.imap_unordered(_worker, [(cfg, str(data_dir), i) for i in todo]):
                done += 1
                if on_shard:
                    on_shard(done, cfg.shards)
    return [shard_path(data_dir, cfg.gen, i, cfg.name) for i in range(cfg.shards)]


#: What a data shard may hold (its own caps: a shard of many games is bigger than any net).
SHARD = Kind("data shard", frozenset({"f2", "f4", "i1"}), max_ndim=3, max_array_bytes=1 << 30,
             max_total_bytes=1 << 31, max_file_bytes=1 << 31)  # fmt: skip


def read_shard(path: Path) -> dict[str, np.ndarray]:
    """A shard's arrays, checked (:mod:`.weights`: sizes before decompression, finite values)
    and consistent with the features (WeightsError, a ValueError, if not)."""
    arrays = read_weights(path, SHARD)
    for prefix, batch in new_batches().items():
        names = [f"{prefix}_{s}" for s in "xgnt"]
        if any(n not in arrays for n in names):
            raise WeightsError(f"{path}: not a data shard (no {prefix} arrays)")
        x, g, n, t = (arrays[k] for k in names)
        rows = len(x)
        if (
            x.shape != (rows, batch.k, batch.dim)
            or g.shape != (rows, batch.k)
            or (n.shape != (rows,) or t.shape != (rows,))
        ):
            raise WeightsError(f"{path}: the {prefix} arrays do not fit together")
    if set(arrays) != {f"{p}_{s}" for p in ("discard", "play") for s in "xgnt"}:
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
    """Concatenate shard arrays (discard_x, discard_g, ..., play_t), each checked."""
    parts: dict[str, list] = {}
    for p in paths:
        for k, v in read_shard(p).items():
            parts.setdefault(k, []).append(v)
    return {k: np.concatenate(v) for k, v in parts.items()}
