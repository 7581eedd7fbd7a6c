"""Expert iteration: distil a search agent's decisions into the network, then repeat.

Round 0 is the start: the ``--warm-start`` weights, or a clone of the teacher's self-play
choices. In round ``r >= 1`` the round ``r - 1`` network plays itself and, at each of its
decisions, the teacher (any agent spec: ``expert`` by default, ``master`` once it exists) says
what it would do there; the labels of all rounds so far are fitted (cross-entropy over the
candidates, from the previous net). Playing the learner's own positions with the teacher's
labels is DAgger: the net learns the positions it reaches, not only the teacher's. Each round's
net is evaluated against the ladder (``curve.json``) and written atomically (``round<r>.npz``);
a killed run resumes at the first missing shard or round. ``model.npz`` is the last round.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

from ..nets.mlp import load_nets
from ..tournament.backends import LOCAL, Where
from .dmc import (
    DMCConfig,
    count_samples,
    evaluate_stage,
    finish_stage,
    generate_shards,
    log_steps,
    save_stage,
    stage_done,
)
from .fit import FitConfig, fit
from .generate import GenConfig, load_shards
from .ladder import log_line as _log
from .runfiles import RunFiles


def _labels(cfg: DMCConfig, files: RunFiles, r: int, policy: str, teacher: str, progress, where):
    """Round ``r``'s shards: ``policy`` in self-play, labelled by ``teacher``."""
    gcfg = GenConfig(
        seed=cfg.seed,
        gen=r,
        shards=cfg.shards,
        games=cfg.games_per_shard,
        eps=0.0,
        branch=False,
        name=f"exit{r}",
        policy=policy,
        labeler="" if policy == teacher else teacher,
        rules=cfg.rules,
    )
    return generate_shards(gcfg, files, cfg.workers, f"round {r} labels", progress, where)


def _fit_round(cfg: DMCConfig, files: RunFiles, paths, init, out: Path, meta: dict) -> None:
    run_dir = files.run_dir
    data = load_shards(paths)
    fcfg = FitConfig(hidden=cfg.hidden, lr=cfg.lr, seed=cfg.seed, epochs=cfg.epochs_bc)
    nets, did = {}, {}
    for kind, start in (("discard", init and init[0]), ("play", init and init[1])):
        nets[kind], rep = fit(
            data, kind, "bc", fcfg, init=start, log=lambda m: _log(run_dir, m), returns=None
        )
        did[f"gradient_steps_{kind}"] = str(rep["gradient_steps"])
    log_steps(run_dir, meta["stage"], did)
    meta = {**meta, **did, "samples": str(count_samples(paths))}
    save_stage(files, out, nets["discard"], nets["play"], meta)


def train_exit(
    cfg: DMCConfig,
    run_dir: Path,
    *,
    command: str,
    db=None,
    progress: bool = False,
    where: Where = LOCAL,
) -> Path:
    """Run (or resume) round 0 and ``cfg.generations`` distillation rounds of ``cfg.teacher``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    files = RunFiles(run_dir)
    t0 = time.time()
    meta = {"command": command, "config": json.dumps(asdict(cfg))}
    prev = run_dir / "round0.npz"
    paths: list[Path] = []
    if cfg.warm_start:
        if not stage_done(files, prev):
            d0, p0, given = load_nets(Path(cfg.warm_start))
            save_stage(
                files, prev, d0, p0, {**meta, "stage": f"round0:{given.get('stage', 'given')}"}
            )
    else:
        paths += _labels(cfg, files, 0, cfg.teacher, cfg.teacher, progress, where)
        if not stage_done(files, prev):
            _fit_round(cfg, files, paths, None, prev, {**meta, "stage": "round0"})
    evaluate_stage(cfg, run_dir, "round0", prev, count_samples(paths), db, t0, where)
    for r in range(1, cfg.generations + 1):
        out = run_dir / f"round{r}.npz"
        paths += _labels(cfg, files, r, str(prev), cfg.teacher, progress, where)
        if not stage_done(files, out):
            d0, p0, _ = load_nets(prev)
            _fit_round(cfg, files, paths, (d0, p0), out, {**meta, "stage": f"round{r}"})
        evaluate_stage(cfg, run_dir, f"round{r}", out, count_samples(paths), db, t0, where)
        prev = out
    final = finish_stage(files, prev, {"command": command, "config": asdict(cfg)})
    _log(run_dir, f"final model {final} ({time.time() - t0:.0f} s this session)")
    return final
