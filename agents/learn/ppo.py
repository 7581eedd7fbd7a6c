"""MaskablePPO (sb3-contrib) on ``cribbage/Cribbage-v0`` against a league, with checkpoints.

The league holds fixed agents by spec (anything :func:`agents.make_agent` builds, including
import-path specs), frozen snapshots of the learner (saved every ``snapshot_every`` steps) and
the live learner itself ("self"); one opponent is sampled per episode with the chosen weights.
Every member is built once and cached. A checkpoint (``checkpoints/step_N.zip``) is written at
the end of the first rollout that reaches each multiple of ``eval_every`` steps, after that
rollout's update, so ``N`` is the steps its weights have learnt from and a resume loses none;
each is evaluated against the ladder, and ``--resume`` loads the newest one.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .finish import finished, mark_finished
from .ladder import LADDER, append_curve, evaluate, log_line, log_results, plot_curve, read_curve
from .runfiles import RunFiles


@dataclass(frozen=True)
class PPOConfig:
    seed: int = 0
    timesteps: int = 300_000
    reward: str = "points"
    opponents: tuple[tuple[str, float], ...] = (("random", 1.0),)
    snapshot_every: int = 50_000
    eval_every: int = 50_000
    eval_games: int = 400
    ladder: tuple[str, ...] = LADDER
    n_steps: int = 2048
    hidden: tuple[int, ...] = (256, 256)
    workers: int = 1
    max_illegal: int = 0  # 0: masks are used, so illegal picks cannot happen
    rules: str = "standard"  # the game learnt (Rules.named text)


class _LivePolicy:
    """The learner's current network as an opponent policy (same object, always up to date)."""

    def __init__(self, model) -> None:
        self.model = model

    def probabilities(self, obs):
        import torch

        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(obs["observation"])
        with torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=obs["action_mask"].astype(bool))
            return dist.distribution.probs[0].cpu().numpy().astype(np.float64)


def live_agent(model):
    from ..players.maskable_ppo_agent import MaskablePPOAgent

    agent = MaskablePPOAgent.__new__(MaskablePPOAgent)
    agent.deterministic, agent.path, agent.spec = False, None, "self"
    agent.policy = _LivePolicy(model)
    return agent


class League:
    """Weighted opponents sampled per episode; members are built once."""

    def __init__(self, members: tuple[tuple[str, float], ...], seed: int) -> None:
        from ..registry import make_agent

        self.members = list(members)
        self.rng = np.random.default_rng(seed)
        self.agents: dict[str, object] = {}
        self.snapshots: list[object] = []
        for name, _ in self.members:
            if name not in ("self", "snapshots"):
                self.agents[name] = make_agent(name)
        self.model = None

    def add_snapshot(self, path: Path) -> None:
        from ..players.maskable_ppo_agent import MaskablePPOAgent

        self.snapshots.append(MaskablePPOAgent(str(path), deterministic=False))

    def sample(self):
        live = [
            (n, w)
            for n, w in self.members
            if (n != "snapshots" or self.snapshots) and (n != "self" or self.model)
        ]
        w = np.array([x for _, x in live], dtype=float)
        name = live[int(self.rng.choice(len(live), p=w / w.sum()))][0]
        if name == "self":
            return live_agent(self.model)
        if name == "snapshots":
            return self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        return self.agents[name]


class LeagueOpponents(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Puts a league member in as the opponent at every reset."""

    def __init__(self, env: gym.Env, league: League) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self.league = league

    def reset(self, *, seed=None, options=None):
        options = {**(options or {}), "opponent": self.league.sample()}
        return self.env.reset(seed=seed, options=options)


def make_env(cfg: PPOConfig, league: League):
    from cribbage_env.envs.single import CribbageEnv
    from cribbage_env.envs.wrappers import FlatObservation

    first = next((a for a in league.agents.values()), "random")
    # The league's agents are the trainer's own: pin their generators so a run replays exactly.
    env = CribbageEnv(first, seat="alternate", reward=cfg.reward, max_illegal=cfg.max_illegal,
                      rules=cfg.rules, agent_seed=cfg.seed)  # fmt: skip
    return LeagueOpponents(FlatObservation(env), league)


#: MaskablePPO's settings here (``cribbage train --method ppo`` and the PPO benchmark).
PPO_SETTINGS: dict[str, Any] = {"batch_size": 256, "n_epochs": 5, "learning_rate": 3e-4,
                                  "gamma": 0.99, "gae_lambda": 0.95, "ent_coef": 0.01}  # fmt: skip


def _checkpoints(ckpt_dir: Path) -> list[Path]:
    """The checkpoints in the order they were taken (by step, not by name)."""
    return sorted(ckpt_dir.glob("step_*.zip"), key=lambda p: int(p.stem.split("_")[1]))


def snapshot_steps(steps: list[int], every: int) -> list[int]:
    """The checkpoint steps that become league snapshots: the first at or past each multiple of
    ``every`` (checkpoints fall at rollout ends, rarely on a multiple).

    >>> snapshot_steps([2048, 4096, 51200, 53248, 100352], 50_000)
    [51200, 100352]
    """
    out, last = [], 0
    for step in sorted(steps):
        if step // every > last // every:
            out.append(step)
        last = step
    return out


def _model_bytes(model) -> bytes:
    """The bytes of ``model.save`` (a zip), to record before they are written."""
    import io

    out = io.BytesIO()
    model.save(out)
    return out.getvalue()


def _model(cfg: PPOConfig, env, files: RunFiles, league: League):
    """The newest checkpoint (its snapshots back in the league; each checked against what the
    run wrote), or a new MaskablePPO."""
    from sb3_contrib import MaskablePPO

    found = [p for p in _checkpoints(files.run_dir / "checkpoints") if files.check(p)]
    if found:
        steps = snapshot_steps([int(p.stem.split("_")[1]) for p in found], cfg.snapshot_every)
        for snap in found:
            if int(snap.stem.split("_")[1]) in steps:
                league.add_snapshot(snap)
        return MaskablePPO.load(str(found[-1]), env=env, device="cpu")
    return MaskablePPO("MlpPolicy", env, n_steps=cfg.n_steps, seed=cfg.seed, verbose=0,
                       device="cpu", policy_kwargs={"net_arch": list(cfg.hidden)},
                       **PPO_SETTINGS)  # fmt: skip


def _checkpoint(cfg: PPOConfig, files: RunFiles, league: League, m, step: int, db, t0: float):
    """Save ``step_N.zip`` (atomically, its digest recorded), add it to the league as a
    snapshot, evaluate it."""
    run_dir = files.run_dir
    path = run_dir / "checkpoints" / f"step_{step}.zip"
    files.write(path, _model_bytes(m))
    log_line(run_dir, f"step {step:,} of {cfg.timesteps:,}: checkpoint {path.name}")
    taken = [int(p.stem.split("_")[1]) for p in _checkpoints(path.parent)]
    wanted = any(n == "snapshots" for n, _ in cfg.opponents)
    if wanted and step in snapshot_steps(taken, cfg.snapshot_every):
        league.add_snapshot(path)
    _evaluate(cfg, run_dir, path, step, db, t0)


def _evaluate(cfg: PPOConfig, run_dir: Path, path: Path, step: int, db, t0: float) -> None:
    """The ladder evaluation of checkpoint ``path`` (a point of the curve), unless it has one."""
    if cfg.eval_games <= 0 or any(p["stage"] == f"step_{step}" for p in read_curve(run_dir)):
        return
    rows = evaluate(
        f"maskable_ppo:path={path}",
        cfg.ladder,
        cfg.eval_games,
        workers=cfg.workers,
        db=db,
        label=f"train {run_dir.name} {step}",
        rules=cfg.rules,
    )
    log_results(run_dir, f"step_{step}", rows)
    point = {"stage": f"step_{step}", "steps": step, "results": rows,
             "wall_s": round(time.time() - t0, 1)}  # fmt: skip
    plot_curve(append_curve(run_dir, point), run_dir / "curve.png")


def _callback(cfg: PPOConfig, on_checkpoint, progress: bool):
    from stable_baselines3.common.callbacks import BaseCallback

    class Checkpoints(BaseCallback):
        """Checkpoint + evaluation once a rollout's update has passed each multiple of
        ``eval_every`` steps (checked as the next rollout starts, and at the end); the bar."""

        def _on_training_start(self) -> None:
            self.next = (self.model.num_timesteps // cfg.eval_every + 1) * cfg.eval_every
            self.bar = None
            if progress:
                from tqdm import tqdm

                self.bar = tqdm(
                    total=cfg.timesteps,
                    initial=self.model.num_timesteps,
                    unit="step",
                    dynamic_ncols=True,
                    desc="ppo",
                )

        def _on_step(self) -> bool:
            if self.bar is not None and self.model.num_timesteps % 1000 == 0:
                self.bar.n = self.model.num_timesteps
                self.bar.refresh()
            return True

        def _after_update(self) -> None:
            """Mid-rollout weights have not learnt from the steps counted so far: a
            checkpoint waits for the update (a resume would drop that rollout)."""
            step = self.model.num_timesteps
            if step >= self.next:
                on_checkpoint(self.model, step)
                self.next = (step // cfg.eval_every + 1) * cfg.eval_every

        def _on_rollout_start(self) -> None:
            self._after_update()

        def _on_training_end(self) -> None:
            self._after_update()
            if self.bar is not None:
                self.bar.close()

    return Checkpoints()


def _batches(model) -> tuple[int, int]:
    """(rollout size, batches per epoch over it): sb3's buffer makes the last batch smaller
    when the batch size does not divide the rollout."""
    size = model.n_steps * model.n_envs
    return size, -(-size // model.batch_size)


def total_gradient_steps(model) -> int:
    """Gradient steps of the model since step 0, resumes included: the epochs it has run
    (``_n_updates``, saved in every checkpoint) times the batches per epoch."""
    return int(model._n_updates) * _batches(model)[1]


def _learn(model, remaining: int, callback, run_dir: Path) -> int:
    """``model.learn`` for ``remaining`` steps; logs and returns the gradient steps taken, as
    counted by the optimizer (a hook on its ``step``), not worked out."""
    taken = [0]

    def count(*_: object) -> None:
        taken[0] += 1

    hook = model.policy.optimizer.register_step_post_hook(count)
    try:
        model.learn(total_timesteps=remaining, callback=callback, reset_num_timesteps=False)
    finally:
        hook.remove()
    size, batches = _batches(model)
    log_line(run_dir, f"ppo trained {taken[0]:,} gradient steps this session "
                      f"({total_gradient_steps(model):,} in all; {model.n_epochs} epochs of "
                      f"{batches} batches over each rollout of {size:,} steps)")  # fmt: skip
    return taken[0]


def train_ppo(
    cfg: PPOConfig, run_dir: Path, *, command: str, db=None, progress: bool = False
) -> Path:
    """Train (or resume) MaskablePPO; returns the final model path (``model.zip``)."""
    import torch

    torch.set_num_threads(1)
    run_dir.mkdir(parents=True, exist_ok=True)
    final = run_dir / "model.zip"
    done = finished(run_dir)
    if (
        done is not None
        and isinstance(done.get("timesteps"), int)
        and done["timesteps"] >= cfg.timesteps
    ):
        log_line(run_dir, f"the run is finished ({done['timesteps']:,} steps): {final}")
        return final
    ckpt_dir = run_dir / "checkpoints"
    ckpt_dir.mkdir(exist_ok=True)
    files = RunFiles(run_dir)
    league = League(cfg.opponents, cfg.seed)
    env = make_env(cfg, league)
    model = _model(cfg, env, files, league)
    league.model = model
    t0 = time.time()
    for path in _checkpoints(ckpt_dir):
        _evaluate(cfg, run_dir, path, int(path.stem.split("_")[1]), db, t0)  # interrupted ones
    env.reset(seed=cfg.seed + model.num_timesteps)

    def on_checkpoint(m, step: int) -> None:
        _checkpoint(cfg, files, league, m, step, db, t0)

    remaining = cfg.timesteps - model.num_timesteps
    log_line(run_dir, f"ppo from step {model.num_timesteps:,} to {cfg.timesteps:,}: {command}")
    if remaining > 0:
        _learn(model, remaining, _callback(cfg, on_checkpoint, progress), run_dir)
    files.write(final, _model_bytes(model))
    info = {"command": command, "config": asdict(cfg), "timesteps": int(model.num_timesteps),
            "gradient_steps": total_gradient_steps(model)}  # fmt: skip
    mark_finished(run_dir, final, info)
    log_line(run_dir, f"final model {final} ({time.time() - t0:.0f} s this session)")
    return final
