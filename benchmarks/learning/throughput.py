"""Throughput of the from-zero learner and what it is made of, side by side in one run.

    python benchmarks/learning/throughput.py --out benchmarks/results/zero_throughput.json

Rows (learner steps or samples per CPU second of one thread: on shared cores, what a dedicated
core does; wall-clock rates beside them where they differ): the batched env alone (compact
observations, a free policy: uniform legal cards) with the curves' opponent mix; the network's
own costs (numpy forward on the collect batch, torch forward+backward+Adam on a minibatch); the
learner end to end (collect + update) for PPO and DMC with the curves' configuration; and, as a
new user would run them, sb3-contrib's MaskablePPO on the batched env and the CleanRL-style
example. The machine's load average is recorded: these cores are shared, so ratios taken in
the same run are the comparable figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

from agents.learn.zero.collect import act
from agents.learn.zero.config import ZeroConfig
from agents.learn.zero.games import Games
from agents.learn.zero.net import NumpyNet, torch_net


def _timed(fn, seconds: float) -> tuple[int, float]:
    """Call ``fn`` (returning a count) until ``seconds`` of this process's CPU time have passed:
    (count, CPU seconds). CPU time, not wall-clock: on shared cores it is what a dedicated core
    would take (one thread), whatever else runs."""
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        n += fn()
    return n, time.process_time() - t0


def env_alone(cfg: ZeroConfig, seconds: float) -> float:
    games = Games(cfg.opponents, cfg.num_envs, agent_seed=0)
    games.reset(0)
    rng = np.random.default_rng(0)

    def step() -> int:
        a = np.argmax(np.where(games.mask, rng.random(games.mask.shape), -1), axis=1)
        games.step(a)
        return games.n

    return _rate(*_timed(step, seconds))


def _rate(n: int, s: float) -> float:
    return round(n / s, 1)


def network_alone(cfg: ZeroConfig, seconds: float) -> dict[str, float]:
    """Forward (numpy, collect batch; the observation unpacked too) and update (torch)."""
    import torch

    games = Games(cfg.opponents, cfg.num_envs, agent_seed=0)
    games.reset(0)
    net = torch_net(cfg.hidden, True, 0)
    npnet = NumpyNet.of(net)
    rng = np.random.default_rng(0)

    def forward() -> int:
        act(npnet, games.floats(), games.mask, rng, sample=True)
        return games.n

    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    x = torch.from_numpy(games.floats()[: cfg.minibatch].copy())

    def update() -> int:
        logits, v = net(x)
        loss = logits.square().mean() + v.square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        return len(x)

    forward(), update()  # warm-up: first calls allocate
    fwd, upd = _rate(*_timed(forward, seconds)), _rate(*_timed(update, seconds))
    per_step = 1.0 / (1.0 / fwd + cfg.epochs / upd)
    return {"forward_samples_per_s": fwd, "update_samples_per_s": upd,
            "network_bound_steps_per_s": round(per_step, 1)}  # fmt: skip


def learner(cfg: ZeroConfig, updates: int) -> dict[str, float]:
    from agents.learn.zero.train import train_zero

    with tempfile.TemporaryDirectory() as tmp:
        run = replace(cfg, timesteps=cfg.num_envs * cfg.n_steps * (updates + 1), eval_every=10**12,
                      quick_games=2, round_updates=updates + 1)  # fmt: skip
        train_zero(run, Path(tmp), command="throughput")
        rows = [json.loads(x) for x in (Path(tmp) / "progress.jsonl").read_text().splitlines()]
    first, last = rows[0], rows[-1]  # the first update pays for warm-up
    steps = last["steps"] - first["steps"]
    wall = last["wall_s"] - first["wall_s"]
    cpu = last["cpu_s"] - first["cpu_s"]
    collect = sum(r["collect_s"] for r in rows[1:])
    return {"steps_per_s": _rate(steps, cpu), "steps_per_wall_s": _rate(steps, wall),
            "collect_share": round(collect / wall, 3), "steps": steps}  # fmt: skip


def sb3_maskable_ppo(steps: int) -> dict[str, float]:
    """sb3-contrib's MaskablePPO (its defaults but 256x256, as the earlier figures) on the
    batched env through the SB3 adapter, 8 games a batch."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from cribbage_env.envs.vector import sb3_vec_env

    torch.set_num_threads(1)
    env = VecMonitor(sb3_vec_env(8, flatten=True, opponent="random", seat="alternate"))
    model = MaskablePPO("MlpPolicy", env, n_steps=256, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [256, 256]})  # fmt: skip
    t0, c0 = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps)
    s, c = time.perf_counter() - t0, time.process_time() - c0
    return {
        "steps_per_s": _rate(model.num_timesteps, c),
        "steps_per_wall_s": _rate(model.num_timesteps, s),
        "steps": int(model.num_timesteps),
    }


def cleanrl_example(steps: int) -> dict[str, float]:
    """``examples/cleanrl_masked_ppo.py`` with its defaults (its own steps/s line)."""
    import resource
    import subprocess

    root = Path(__file__).resolve().parents[2]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, str(root / "examples" / "cleanrl_masked_ppo.py"),
               "--total-timesteps", str(steps), "--save", str(Path(tmp) / "actor.npz")]  # fmt: skip
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    last = [ln for ln in out.splitlines() if "steps/s" in ln][-1].split()
    done = int(last[last.index("step") + 1])
    # its CPU time includes starting Python and torch: a few seconds against the run's
    return {"steps_per_s": _rate(done, cpu), "steps": done,
            "steps_per_wall_s": float(last[last.index("steps/s") + 1])}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=10.0, help="per env / network row")
    p.add_argument("--updates", type=int, default=4, help="learner updates timed (+1 warm-up)")
    p.add_argument("--sb3-steps", type=int, default=20_480)
    p.add_argument("--cleanrl-steps", type=int, default=131_072)
    args = p.parse_args(argv)
    cfg = ZeroConfig()
    load0 = os.getloadavg()
    rows: dict = {"env_alone_steps_per_s": env_alone(cfg, args.seconds)}
    rows["network_alone"] = network_alone(cfg, args.seconds)
    for algo in ("ppo", "dmc"):
        rows[f"learner_{algo}"] = learner(replace(cfg, algo=algo), args.updates)
    net = rows["network_alone"]
    dmc_net = 1.0 / (1.0 / net["forward_samples_per_s"] + cfg.epochs / net["update_samples_per_s"])
    rows["learner_over_network_cost"] = {
        "ppo": round(net["network_bound_steps_per_s"] / rows["learner_ppo"]["steps_per_s"], 2),
        "dmc": round(dmc_net / rows["learner_dmc"]["steps_per_s"], 2),
    }
    rows["sb3_maskable_ppo"] = sb3_maskable_ppo(args.sb3_steps)
    rows["cleanrl_example"] = cleanrl_example(args.cleanrl_steps)
    out = {"command": "python benchmarks/learning/throughput.py " + shlex.join(sys.argv[1:]),
           "config": asdict(cfg), "threads": 1, "load_average_before": load0,
           "load_average_after": os.getloadavg(), "cpus": os.cpu_count(), "rows": rows}  # fmt: skip
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(json.dumps(out, indent=1) + "\n")
    os.replace(tmp, args.out)
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
