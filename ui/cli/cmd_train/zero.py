"""``cribbage train --method ppo-zero`` / ``dmc-zero``: the from-zero learners on the batched env
(:mod:`agents.learn.zero`). Their configuration from the command line, what they refuse, and the
call; resume, refusal of changed options and exit codes are the command's own."""

from __future__ import annotations

import argparse

from ..args import argtypes
from ..args.options import add_options

METHODS = ("ppo-zero", "dmc-zero")


def _defaults() -> dict[str, str]:
    """What the shared options mean for the from-zero methods, with their defaults (for help)."""
    from agents.learn.zero.config import ZeroConfig

    c = ZeroConfig()
    return {
        "timesteps": f"; ppo-zero, dmc-zero: learner steps (default {c.timesteps})",
        "eval_every": f"; ppo-zero, dmc-zero: the first round past each K steps (default {c.eval_every})",
        "epochs": f"; ppo-zero, dmc-zero: passes over each rollout (default {c.epochs})",
        "n_steps": f"; ppo-zero, dmc-zero: steps of every game per update (default {c.n_steps})",
        "eval_games": f"; ppo-zero, dmc-zero: default {c.eval_games}, the batched evaluation of "
        f"{c.quick_games} games per opponent runs anyway",
    }


DEFAULTS = _defaults()


def add_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    add_options(
        p,
        ("--num-envs", argtypes.whole_number(1, "an integer from 1 to 65536", 65536), None, None, "ppo-zero, dmc-zero: games stepped together in the batched env (default 2048)"),
        ("--tensorboard", argtypes.path, None, "DIR", "ppo-zero, dmc-zero: also write TensorBoard scalars (losses, entropy, steps/s, win rates) to DIR (needs the tensorboard package; scalars.jsonl in the run folder always has them)"),
    )
    # fmt: on


def usage_problem(args) -> str | None:
    """What the from-zero methods refuse on this command line (None: nothing)."""
    if args.method not in METHODS:
        if args.tensorboard is not None:
            return f"--tensorboard is for --method {' or '.join(METHODS)}"
        return None
    if args.backend == "ray":
        return f"--method {args.method} collects in this process; --backend ray is for dmc and bc"
    from cribbage_env.envs.batched import OPPONENTS  # imports numba: only when these methods run

    for spec, _ in args.opponent or ():
        if spec not in OPPONENTS:
            return (f"--method {args.method} plays the batched env's built-in opponents "
                    f"({', '.join(OPPONENTS)}), not {spec!r}")  # fmt: skip
    if args.reward not in ("points", "win"):
        return f"--method {args.method} takes --reward points or win (the batched env's)"
    if args.tensorboard is not None:
        from agents.learn.zero.scalars import tensorboard_missing

        missing = tensorboard_missing()
        if missing:
            return f"--tensorboard: {missing}; the run's scalars.jsonl has the same scalars"
    return None


def config(args, ladder: tuple[str, ...]):
    """The :class:`~agents.learn.zero.config.ZeroConfig` of the command line."""
    from agents.learn.zero.config import ZeroConfig

    kw: dict = {"algo": args.method.split("-")[0], "seed": args.seed, "reward": args.reward,
                "ladder": ladder, "workers": args.workers, "rules": args.rules.spec}  # fmt: skip
    for flag in ("timesteps", "eval_every", "n_steps", "epochs", "num_envs", "eval_games"):
        if getattr(args, flag) is not None:
            kw[flag] = getattr(args, flag)
    if args.opponent:
        kw["opponents"] = tuple(args.opponent)
    return ZeroConfig(**kw)


def provenance(method: str) -> dict:
    """What a from-zero run saw, for its ``config.json`` (nothing for the other methods)."""
    if method not in METHODS:
        return {}
    from agents.learn.zero.config import PROVENANCE

    return {"provenance": PROVENANCE}


def train(cfg, args, command: str, progress: bool):
    from agents.learn.zero.train import train_zero

    return train_zero(cfg, args.run_dir, command=command, db=args.db, progress=progress,
                      tensorboard=args.tensorboard)  # fmt: skip
