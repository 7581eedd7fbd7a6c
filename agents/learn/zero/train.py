"""The from-zero training loop: rounds of updates, a checkpoint after each, evaluations past each
``eval_every`` steps, a final ``model.npz`` that plays as ``policy_net:path=model.npz``.

Deterministic from the seed and resumable to the same weights: a round starts every game afresh
from seeds of (seed, round) and draws its generators from them, so a run resumed from round
``r``'s checkpoint continues exactly as the uninterrupted run did. The run folder holds
``checkpoints/round_R.pt`` (torch tensors only, read back with ``weights_only``),
``policies/step_N.npz`` (the numpy policy at each evaluation), ``progress.jsonl`` (one line per
update: steps, times, losses, training wins) and ``scalars.jsonl`` (what TensorBoard is given).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ...players.policy_net import save_policy
from ..finish import finished, mark_finished
from ..ladder import append_curve, evaluate, log_line, log_results, plot_curve, read_curve
from .collect import Rollout, collect
from .config import PROVENANCE, ZeroConfig
from .evaluate import quick_eval
from .games import Games
from .net import NumpyNet, torch_net
from .scalars import Scalars
from .update import dmc_update, ppo_update


def _rng(cfg: ZeroConfig, round_no: int, what: int) -> np.random.Generator:
    return np.random.default_rng([cfg.seed, round_no, what])


def _checkpoints(run_dir: Path) -> list[Path]:
    found = (run_dir / "checkpoints").glob("round_*.pt")
    return sorted(found, key=lambda p: int(p.stem.split("_")[1]))


def _save_checkpoint(run_dir: Path, state: dict) -> None:
    import torch

    path = run_dir / "checkpoints" / f"round_{state['round']}.pt"
    tmp = path.with_name(path.name + ".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def _load_state(cfg: ZeroConfig, run_dir: Path):
    """(net, optimizer, round, steps, wall seconds) of the newest checkpoint or a new run."""
    import torch

    net = torch_net(cfg.hidden, cfg.algo == "ppo", cfg.seed)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    found = _checkpoints(run_dir)
    if not found:
        return net, opt, 0, 0, 0.0, 0.0
    state = torch.load(found[-1], weights_only=True)
    net.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    times = float(state["wall_s"]), float(state["cpu_s"])
    return net, opt, int(state["round"]), int(state["steps"]), *times


def _trim(path: Path, steps: int) -> None:
    """Drop the lines of updates after the checkpoint (a resume does them again)."""
    if not path.exists():
        return
    keep = [ln for ln in path.read_text().splitlines() if ln and json.loads(ln)["steps"] <= steps]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(ln + "\n" for ln in keep))
    os.replace(tmp, path)


def _append(path: Path, row: dict) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(row) + "\n")


def meta(cfg: ZeroConfig, command: str, steps: int, wall_s: float) -> dict[str, str]:
    """What a saved policy says about itself (its ``meta.*`` strings)."""
    return {"command": command, "config": json.dumps(asdict(cfg)), "steps": str(steps),
            "train_seconds": f"{wall_s:.0f}", "provenance": json.dumps(PROVENANCE),
            "warm_start": "none"}  # fmt: skip


def _evaluate(cfg: ZeroConfig, run_dir: Path, net, steps: int, wall_s: float, command: str,
              scalars: Scalars, db) -> None:  # fmt: skip
    """Save the policy of ``steps``, the quick batched evaluation and (``eval_games``) the
    ladder's duplicate games: a point of ``curve.json``."""
    npnet = NumpyNet.of(net)
    path = run_dir / "policies" / f"step_{steps}.npz"
    save_policy(path, npnet.layers(), meta(cfg, command, steps, wall_s))
    quick = quick_eval(npnet, [n for n, _ in cfg.opponents], cfg.quick_games, cfg.rules)
    for name, row in quick.items():
        scalars.add(f"quick_eval/{name}", row["win_rate"], steps)
    point: dict = {"stage": f"step_{steps}", "steps": steps, "wall_s": round(wall_s, 1),
                   "quick": quick, "results": []}  # fmt: skip
    if cfg.eval_games > 0:
        rows = evaluate(f"policy_net:path={path}", cfg.ladder, cfg.eval_games, db=db,
                        workers=cfg.workers, label=f"train {run_dir.name} {steps}",
                        rules=cfg.rules)  # fmt: skip
        log_results(run_dir, f"step_{steps}", rows)
        point["results"] = rows
        for row in rows:
            scalars.add(f"eval/{row['opponent']}", row["win_rate"], steps)
    quick_text = ", ".join(f"{n} {r['win_rate']:.3f}" for n, r in quick.items())
    log_line(run_dir, f"step {steps:,} ({wall_s:.0f} s): quick evaluation {quick_text}")
    curve = append_curve(run_dir, point)
    if cfg.eval_games > 0:
        plot_curve(curve, run_dir / "curve.png")


def _one_update(cfg, games, net, opt, roll, rng, target):
    """Collect a rollout and update on it: (tally, stats, collect s, update s)."""
    t0 = time.perf_counter()
    npnet = NumpyNet.of(net)
    tally = collect(games, npnet, roll, rng, sample=cfg.algo == "ppo", eps=cfg.eps)
    t1 = time.perf_counter()
    if cfg.algo == "ppo":
        _, nv = npnet.forward(games.floats(roll.next_obs))
        assert nv is not None
        stats = ppo_update(net, opt, roll, nv.astype(np.float32), cfg, rng, target)
    else:
        stats = dmc_update(net, opt, roll, cfg, rng, target)
    return tally, stats, t1 - t0, time.perf_counter() - t1


def _progress_row(cfg, steps, wall_s, tally, stats, tc, tu) -> dict:
    n = cfg.num_envs * cfg.n_steps
    row = {
        "steps": steps,
        "wall_s": round(wall_s, 2),
        "collect_s": round(tc, 3),
        "update_s": round(tu, 3),
        "steps_per_s": round(n / (tc + tu), 1),
        "collect_steps_per_s": round(n / tc, 1),
        **{k: round(v, 5) for k, v in stats.items()},
    }
    for name, games in tally.games.items():
        row[f"train_win/{name}"] = round(tally.wins[name] / games, 4) if games else None
    return row  # fmt: skip


def train_zero(cfg: ZeroConfig, run_dir: Path, *, command: str, db=None, progress: bool = False,
               tensorboard: Path | None = None) -> Path:  # fmt: skip
    """Train (or resume) a from-zero run in ``run_dir``; returns the final ``model.npz``."""
    import torch

    torch.set_num_threads(1)
    final = run_dir / "model.npz"
    done = finished(run_dir)
    if done is not None and done.get("timesteps", 0) >= cfg.timesteps:
        log_line(run_dir, f"the run is finished ({done['timesteps']:,} steps): {final}")
        return final
    for sub in ("checkpoints", "policies"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    net, opt, round_no, steps, wall_s, cpu_s = _load_state(cfg, run_dir)
    clock = {"steps": steps, "wall_s": wall_s, "cpu_s": cpu_s}
    for name in ("progress.jsonl", "scalars.jsonl"):
        _trim(run_dir / name, steps)
    scalars = Scalars(run_dir / "scalars.jsonl", tensorboard)
    games = Games(cfg.opponents, cfg.num_envs, agent_seed=cfg.seed, reward=cfg.reward,
                  rules=cfg.rules)  # fmt: skip
    roll = Rollout.empty(cfg.n_steps, games.n)
    log_line(run_dir, f"{cfg.algo} from step {steps:,} to {cfg.timesteps:,}: {command}")
    bar = _bar(progress, cfg, steps)
    try:
        while clock["steps"] < cfg.timesteps:
            before = clock["steps"]
            _round(cfg, run_dir, games, net, opt, roll, round_no, clock, scalars, bar)
            round_no += 1
            state = {"model": net.state_dict(), "optimizer": opt.state_dict(), "round": round_no}
            _save_checkpoint(run_dir, {**state, **clock})
            steps = clock["steps"]
            due = steps // cfg.eval_every > before // cfg.eval_every or steps >= cfg.timesteps
            if due and not _evaluated(run_dir, steps):
                _evaluate(cfg, run_dir, net, steps, clock["wall_s"], command, scalars, db)
    finally:
        if bar is not None:
            bar.close()
        scalars.close()
    steps, wall_s = clock["steps"], clock["wall_s"]
    save_policy(final, NumpyNet.of(net).layers(), meta(cfg, command, steps, wall_s))
    mark_finished(run_dir, final, {"command": command, "config": asdict(cfg), "timesteps": steps,
                                   "train_seconds": round(wall_s, 1),
                                   "cpu_seconds": round(clock["cpu_s"], 1),
                                   "provenance": PROVENANCE})  # fmt: skip
    log_line(run_dir, f"final model {final} ({steps:,} steps, {wall_s:.0f} s of training)")
    return final


def _round(cfg, run_dir, games, net, opt, roll, round_no, clock, scalars, bar) -> None:
    """``cfg.round_updates`` updates from freshly started games (seeded by the round)."""
    import torch

    n = games.n
    games.reset(((cfg.seed * 1_000_003 + round_no) * n) % (1 << 62))
    rng = _rng(cfg, round_no, 0)
    torch.manual_seed(cfg.seed * 1_000_003 + round_no)
    for _ in range(cfg.round_updates):
        if clock["steps"] >= cfg.timesteps:
            return
        c0 = time.process_time()
        tally, stats, tc, tu = _one_update(cfg, games, net, opt, roll, rng, games.target)
        clock["steps"] += n * cfg.n_steps
        clock["wall_s"] += tc + tu
        clock["cpu_s"] += time.process_time() - c0
        row = _progress_row(cfg, clock["steps"], clock["wall_s"], tally, stats, tc, tu)
        row["cpu_s"] = round(clock["cpu_s"], 2)
        _append(run_dir / "progress.jsonl", row)
        scalars.row(row, clock["steps"])
        if bar is not None:
            bar.update(n * cfg.n_steps)
            bar.set_postfix_str(f"{row['steps_per_s']:,.0f} steps/s")


def _evaluated(run_dir: Path, steps: int) -> bool:
    return any(p.get("steps") == steps for p in read_curve(run_dir))


def _bar(progress: bool, cfg: ZeroConfig, steps: int):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=cfg.timesteps, initial=steps, unit="step", unit_scale=True,
                dynamic_ncols=True, desc=cfg.algo)  # fmt: skip
