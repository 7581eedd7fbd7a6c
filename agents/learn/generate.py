"""Generation of DMC data in shards: resumable, reproducible whatever the number of workers.

Shard ``i`` of generation ``gen`` plays ``games`` games whose seeds and branching generator come
from ``SeedSequence(seed, spawn_key=(gen, i))``; a shard is written atomically when complete, so
a killed run loses at most the shards in flight and ``--resume`` plays only the missing ones.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .rollouts import new_batches, play_episode


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
    if path.exists():
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
            rules=cfg.rules,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    arrays = {**out["discard"].arrays("discard"), **out["play"].arrays("play")}
    np.savez(tmp, allow_pickle=False, **arrays)  # named, so mypy does not match it to **arrays
    os.replace(tmp, path)
    return path


def _worker(args) -> str:
    cfg, data_dir, i = args
    return str(play_shard(cfg, Path(data_dir), i))


def generate(cfg: GenConfig, data_dir: Path, workers: int = 1, on_shard=None) -> list[Path]:
    """Play every missing shard of ``cfg`` (in ``workers`` processes); returns all shard paths."""
    todo = [i for i in range(cfg.shards) if not shard_path(data_dir, cfg.gen, i, cfg.name).exists()]
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


def load_shards(paths: list[Path]) -> dict[str, np.ndarray]:
    """Concatenate shard arrays (discard_x, discard_g, ..., play_t)."""
    parts: dict[str, list] = {}
    for p in paths:
        with np.load(p) as z:
            for k in z.files:
                parts.setdefault(k, []).append(z[k])
    return {k: np.concatenate(v) for k, v in parts.items()}
