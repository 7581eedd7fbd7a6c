"""Deep Monte-Carlo training of the ``neural`` agent, in resumable stages inside a run directory.

1. **Data, generation 0**: ``expectimax`` self-play, ε-greedy, branching at every learner
   decision into all candidates (:mod:`agents.players.rollouts`), in seeded shards.
2. **Warm start**: behaviour cloning of ``expectimax``'s choices on that data (``warm_start.npz``).
3. **Learning from play**: the same network, then trained on the candidates' Monte-Carlo returns
   (``gen1.npz``): acting greedily on Q of the teacher's policy is one policy-improvement step.
4. **Later generations** (``--generations``): data from the learner itself against a league
   (itself, fixed agents by spec, frozen snapshots), then DMC again from the last snapshot.

After each stage the snapshot is evaluated against the ladder (results store, ``curve.json``,
``curve.png``). Each stage writes its file atomically and is skipped when present, and data
shards are resumable, so a killed run continues with ``--resume``. ``model.npz`` is the final
snapshot; its metadata holds the command and configuration.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..nets.features import DISCARD_DIM, PLAY_DIM
from ..nets.mlp import WeightsError, load_nets, nets_bytes
from ..tournament.backends import LOCAL, Where
from .critic import blended_targets
from .finish import mark_finished
from .fit import FitConfig, fit
from .generate import GenConfig, generate, load_shards, read_shard
from .ladder import LADDER, append_curve, evaluate, log_results, plot_curve, read_curve
from .ladder import log_line as _log
from .runfiles import RunFileError, RunFiles


@dataclass(frozen=True)
class DMCConfig:
    seed: int = 12
    generations: int = 1  # DMC stages after the warm start
    shards: int = 200  # data shards per generation (games_per_shard games each)
    games_per_shard: int = 20
    eps: float = 0.1
    rate_play: float = 1.0  # share of play decisions branched (every discard is)
    expected_shows: bool = False  # control variate on the shows (rollouts.show_correction)
    hidden: tuple[int, ...] = (256, 256)
    epochs_bc: int = 3
    teacher: str = "expectimax"  # method bc: whose decisions are cloned
    #: method dmc: weights (a ``.npz`` of this package's nets) to start the DMC fit from
    #: instead of cloning expectimax, e.g. a ``--method bc --teacher expert`` model.
    warm_start: str = ""
    epochs_dmc: int = 8
    lr: float = 1e-3
    #: the DMC target: "points" (the deal's point margin) or "equity" (the change in winning
    #: chance from the equity table at the deal's end, win-aligned)
    returns: str = "points"
    #: weight of the oracle critic's estimates in the DMC target (0: the returns alone)
    oracle: float = 0.0
    #: league for generations >= 1 (name, weight): "self", an agent spec, or "snapshots".
    opponents: tuple[tuple[str, float], ...] = (
        ("self", 0.5),
        ("expectimax", 0.3),
        ("snapshots", 0.2),
    )
    eval_games: int = 2000
    ladder: tuple[str, ...] = LADDER
    workers: int = 2
    reward: str = "points"
    rules: str = "standard"  # the game learnt (Rules.named text)
    extra: dict = field(default_factory=dict)


def stage_done(files: RunFiles, path: Path) -> bool:
    """Is the stage file at ``path`` there, what this run wrote (RunFileError if not) and
    whole?"""
    if not files.check(path):
        return False
    try:
        load_nets(path)
    except WeightsError as exc:
        raise RunFileError(f"{path} is damaged ({exc}): remove it to have it made again") from None
    return True


def save_stage(files: RunFiles, path: Path, discard, play, meta: dict) -> None:
    """A stage's nets, their digest recorded in the run's file list."""
    files.write(path, nets_bytes(discard, play, meta))


def finish_stage(files: RunFiles, stage: Path, info: dict) -> Path:
    """``model.npz``: a checked copy of the last stage, written atomically (never through a
    link); then ``final.json``, which marks the run finished."""
    run_dir = files.run_dir
    files.check(stage)
    _, _, meta = load_nets(stage)
    data = stage.read_bytes()
    model = files.write(run_dir / "model.npz", data)
    steps = {k: int(v) for k, v in meta.items() if k.startswith("gradient_steps_")}
    mark_finished(run_dir, model, {**info, "stage": stage.stem, **steps})
    return model


def _bar(total: int, desc: str, progress: bool):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="shard", dynamic_ncols=True)


def _generate(cfg: DMCConfig, files: RunFiles, gen: int, policy: str, league, progress, where):
    gcfg = GenConfig(
        seed=cfg.seed,
        gen=gen,
        shards=cfg.shards,
        games=cfg.games_per_shard,
        eps=cfg.eps,
        rate_play=cfg.rate_play,
        expected_shows=cfg.expected_shows,
        policy=policy,
        opponents=tuple(league),
        rules=cfg.rules,
    )
    return generate_shards(gcfg, files, cfg.workers, f"gen {gen} data", progress, where)


def generate_shards(
    gcfg: GenConfig, files: RunFiles, workers: int, desc: str, progress: bool, where: Where
):
    """The shards of ``gcfg`` in the run's ``data`` folder (made if missing, checked against
    what the run wrote if there), with a progress bar."""
    bar = _bar(gcfg.shards, desc, progress)

    def on_shard(done: int, total: int) -> None:
        if bar is not None:
            bar.n = done
            bar.refresh()

    paths = generate(gcfg, files.run_dir / "data", workers, on_shard, backend=where.backend,
                     address=where.address, files=files)  # fmt: skip
    if bar is not None:
        bar.close()
    return paths


def _league(cfg: DMCConfig, snapshots: list[str]) -> list[tuple[str, float]]:
    out = []
    for name, w in cfg.opponents:
        if name == "snapshots":
            for s in snapshots:
                out.append((s, w / len(snapshots)))
        else:
            out.append((name, w))
    return out


def evaluate_stage(cfg, run_dir, stage, path, steps, db, t0, where):
    curve = read_curve(run_dir)
    if any(p["stage"] == stage for p in curve) or cfg.eval_games <= 0:
        return
    rows = evaluate(
        f"neural:path={path}",
        cfg.ladder,
        cfg.eval_games,
        workers=cfg.workers,
        db=db,
        label=f"train {run_dir.name} {stage}",
        backend=where.backend,
        address=where.address,
        rules=cfg.rules,
    )
    log_results(run_dir, stage, rows)
    curve = append_curve(
        run_dir,
        {"stage": stage, "steps": steps, "results": rows, "wall_s": round(time.time() - t0, 1)},
    )
    plot_curve(curve, run_dir / "curve.png")


def train_dmc(
    cfg: DMCConfig,
    run_dir: Path,
    *,
    command: str,
    db=None,
    progress: bool = False,
    where: Where = LOCAL,
) -> Path:
    """Run (or resume) every stage; returns the path of the final model."""
    run_dir.mkdir(parents=True, exist_ok=True)
    files = RunFiles(run_dir)
    t0 = time.time()
    meta = {"command": command, "config": json.dumps(asdict(cfg))}
    # 1-2: teacher data and the warm start
    paths = _generate(cfg, files, 0, "expectimax", [("self", 1.0)], progress, where)
    data_paths = list(paths)
    warm = run_dir / "warm_start.npz"
    warm_start_stage(cfg, files, warm, data_paths, meta)
    steps = count_samples(data_paths)
    evaluate_stage(cfg, run_dir, "warm_start", warm, steps, db, t0, where)
    prev = warm
    snapshots: list[str] = []
    for gen in range(1, cfg.generations + 1):
        out = run_dir / f"gen{gen}.npz"
        if gen > 1:
            league = _league(cfg, snapshots)
            data_paths += _generate(cfg, files, gen - 1, str(prev), league, progress, where)
        if not stage_done(files, out):
            generation_stage(cfg, files, gen, prev, out, data_paths, meta)
        steps = count_samples(data_paths)
        evaluate_stage(cfg, run_dir, f"gen{gen}", out, steps, db, t0, where)
        snapshots.append(str(out))
        prev = out
    final = finish_stage(files, prev, {"command": command, "config": asdict(cfg)})
    _log(
        run_dir,
        f"final model {final} ({steps} sampled decisions, {time.time() - t0:.0f} s this session)",
    )
    return final


def warm_start_stage(
    cfg: DMCConfig, files: RunFiles, warm: Path, data_paths: list, meta: dict
) -> None:
    """The warm start at ``warm``, unless saved: the nets given (``cfg.warm_start``), else
    behaviour cloning of the teacher's data."""
    run_dir = warm.parent
    if cfg.warm_start and not stage_done(files, warm):
        d0, p0, given = load_nets(Path(cfg.warm_start))
        if (d0.in_dim, p0.in_dim) != (DISCARD_DIM, PLAY_DIM):
            raise ValueError(f"{cfg.warm_start}: nets of {d0.in_dim}/{p0.in_dim} inputs, "
                             f"the features are {DISCARD_DIM}/{PLAY_DIM}")  # fmt: skip
        stage = given.get("stage", "given")
        save_stage(files, warm, d0, p0, {**meta, "stage": f"warm_start:{stage}"})
    if not stage_done(files, warm):
        fcfg = FitConfig(hidden=cfg.hidden, lr=cfg.lr, seed=cfg.seed)
        data = load_shards(data_paths)
        nets, did = {}, {}
        for kind in ("discard", "play"):
            nets[kind], rep = fit(data, kind, "bc", replace(fcfg, epochs=cfg.epochs_bc),
                                  log=lambda m: _log(run_dir, m))  # fmt: skip
            did[f"gradient_steps_{kind}"] = str(rep["gradient_steps"])
        save_stage(
            files, warm, nets["discard"], nets["play"], {**meta, **did, "stage": "warm_start"}
        )
        log_steps(run_dir, "warm_start", did)


def generation_stage(
    cfg: DMCConfig, files: RunFiles, gen: int, prev: Path, out: Path, data_paths: list, meta: dict
) -> None:
    """Generation ``gen``: both nets fitted by DMC from ``prev``'s on all the data so far,
    saved at ``out``."""
    run_dir = out.parent
    data = load_shards(data_paths)
    d0, p0, _ = load_nets(prev)
    nets, margins = {}, {}
    for kind, init in (("discard", d0), ("play", p0)):
        nets[kind], rep = dmc_fit(cfg, data, kind, init, lambda m: _log(run_dir, m))
        margins[f"margin_{kind}"] = str(rep["margin"])
        margins[f"gradient_steps_{kind}"] = str(rep["gradient_steps"])
    log_steps(run_dir, f"gen{gen}", margins)
    save_stage(
        files,
        out,
        nets["discard"],
        nets["play"],
        {**meta, **margins, "stage": f"gen{gen}", "samples": str(count_samples(data_paths))},
    )


RETURNS = {"points": "g", "equity": "e"}


def log_steps(run_dir: Path, stage: str, meta: dict) -> None:
    """The stage's line saying how much it trained: the gradient steps of each net's fit."""
    _log(
        run_dir,
        f"{stage}: trained {meta['gradient_steps_discard']} gradient steps (discard net) and "
        f"{meta['gradient_steps_play']} (play net)",
    )


def dmc_fit(cfg: DMCConfig, data: dict, kind: str, init, log):
    """One DMC fit of the ``kind`` net from ``init`` on ``data``: ``cfg.returns`` regressed,
    blended with the oracle critic's cross-fitted estimates by ``cfg.oracle``."""
    fcfg = FitConfig(hidden=cfg.hidden, lr=cfg.lr, seed=cfg.seed, epochs=cfg.epochs_dmc)
    key = RETURNS[cfg.returns]
    targets = blended_targets(data, kind, cfg.oracle, fcfg, key, log, init)
    return fit(data, kind, "dmc", fcfg, init=init, log=log, returns=key, targets=targets)


def count_samples(paths) -> int:
    n = 0
    for p in paths:
        z = read_shard(p)
        n += len(z["discard_n"]) + len(z["play_n"])
    return n


def train_bc(
    cfg: DMCConfig,
    run_dir: Path,
    *,
    teacher: str,
    command: str,
    db=None,
    progress: bool = False,
    where: Where = LOCAL,
) -> Path:
    """Behaviour cloning only: ``teacher`` self-play labels (no rollouts), fitted and evaluated.

    Candidates are the same as the DMC agent's (the analyzer's top discards, the legal cards);
    a teacher's choice outside them (a discard below the analyzer's top five) is not a label."""
    run_dir.mkdir(parents=True, exist_ok=True)
    files = RunFiles(run_dir)
    t0 = time.time()
    gcfg = GenConfig(
        seed=cfg.seed,
        gen=0,
        shards=cfg.shards,
        games=cfg.games_per_shard,
        eps=0.0,
        policy=teacher,
        branch=False,
        name=f"bc_{teacher}",
        rules=cfg.rules,
    )
    paths = generate_shards(gcfg, files, cfg.workers, f"{teacher} labels", progress, where)
    out = run_dir / "model.npz"
    if not stage_done(files, out):
        data = load_shards(paths)
        nets, did = {}, {}
        for kind in ("discard", "play"):
            nets[kind], rep = fit(
                data,
                kind,
                "bc",
                FitConfig(epochs=cfg.epochs_bc, hidden=cfg.hidden, lr=cfg.lr, seed=cfg.seed),
                log=lambda m: _log(run_dir, m),
                returns=None,  # labels only: no rollouts to measure a gain by
            )
            did[f"gradient_steps_{kind}"] = str(rep["gradient_steps"])
        log_steps(run_dir, f"bc_{teacher}", did)
        save_stage(
            files,
            out,
            nets["discard"],
            nets["play"],
            {
                "command": command,
                "config": json.dumps(asdict(cfg)),
                **did,
                "stage": f"bc_{teacher}",
                "samples": str(count_samples(paths)),
            },
        )
    evaluate_stage(cfg, run_dir, f"bc_{teacher}", out, count_samples(paths), db, t0, where)
    steps = {k: int(v) for k, v in load_nets(out)[2].items() if k.startswith("gradient_steps_")}
    mark_finished(run_dir, out, {"command": command, "config": asdict(cfg), **steps})
    _log(run_dir, f"final model {out} ({time.time() - t0:.0f} s this session)")
    return out
