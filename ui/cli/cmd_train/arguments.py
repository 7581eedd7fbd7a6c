"""``cribbage train``'s options: the method, the run folder, the league, and the settings of each
method (each option says which methods use it; :mod:`ui.cli.cmd_train.command` refuses one the
method does not use, and on ``--resume`` one typed again with another value).

Every setting of the run's configuration is None when left out, so that the command knows what
was typed; it fills the defaults (:data:`ui.cli.cmd_train.config.DEFAULTS`) in itself.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from cribbage_env import STANDARD
from cribbage_env.envs.rewards import REWARDS

from ..args import argtypes, options
from ..args.options import add_options
from . import zero
from .config import DEFAULTS


def _opponent(text: str) -> tuple[str, float]:
    spec, at, weight = text.rpartition("@")
    if not at:
        return text, 1.0
    try:
        w = float(weight)
    except ValueError:
        w = -1.0
    if not spec or not 0 < w < math.inf:  # an infinite weight could not be saved to resume
        raise argparse.ArgumentTypeError(
            f"expected SPEC or SPEC@WEIGHT (a finite weight > 0), got {text!r}"
        )
    return spec, w


def add_arguments(p: argparse.ArgumentParser) -> None:
    _common_arguments(p)
    _ppo_arguments(p)
    _dmc_arguments(p)
    _eval_arguments(p)
    zero.add_arguments(p)
    # None when left out, so that --resume knows what was typed (run() fills the defaults in)
    p.set_defaults(rules=None, **dict.fromkeys(DEFAULTS))


def _common_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    p.add_argument("--method", choices=("ppo", "dmc", "bc", "exit", *zero.METHODS), default="ppo",
                   help="ppo: MaskablePPO (default); dmc: Deep Monte-Carlo (the neural agent); "
                   "bc: behaviour cloning of --teacher only; exit: expert iteration (--generations rounds "
                   "of distilling --teacher's decisions on the learner's own positions); ppo-zero, dmc-zero: masked PPO or "
                   "Deep Monte-Carlo from random weights on the batched env")
    add_options(
        p,
        ("--run-dir", argtypes.path, Path("runs/train"), None, "where config.json, curve.json/png, checkpoints and the model go (default runs/train in the current folder)"),
        ("--resume", "continue the run in --run-dir"),
        options.seed(0, "root seed of the data and the training (default 0)"),
    )
    p.add_argument("--reward", choices=tuple(REWARDS), default="points",
                   help="env reward (ppo): " + ", ".join(f"{k}: {r.summary}" for k, r in REWARDS.items()))
    add_options(p, options.rules(STANDARD))
    p.add_argument("--opponent", type=_opponent, action="append", default=None, metavar="SPEC[@W]",
                   help="league member with weight (repeat); ppo default "
                   "random; dmc default self@0.5 expectimax@0.3 snapshots@0.2")
    # fmt: on


def _ppo_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    add_options(
        p,
        ("--timesteps", argtypes.positive_int, None, None, "ppo: environment steps (default 300000)" + zero.DEFAULTS["timesteps"]),
        ("--eval-every", argtypes.positive_int, None, None, "ppo: checkpoint + ladder evaluation after the rollout that passes each K steps (default 50000)" + zero.DEFAULTS["eval_every"]),
        ("--snapshot-every", argtypes.positive_int, None, None, "ppo: the first checkpoint past each K steps joins the league as a frozen snapshot (default 50000)"),
        ("--max-illegal", argtypes.whole_number(0, "an integer >= 0"), None, None, "ppo: truncate an episode after N consecutive illegal picks (0: off)"),
    )
    # fmt: on


def _dmc_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    add_options(
        p,
        ("--generations", argtypes.limited("generations"), None, None, "dmc: learning-from-play stages after the warm start; exit: distillation rounds (default 1)"),
        ("--shards", argtypes.limited("shards"), None, None, "dmc, bc, exit: data shards per generation (default 200)"),
        ("--epochs", argtypes.limited("epochs"), None, None, "dmc: epochs per DMC fit (default 8); bc, exit: epochs of the cloning fit (default 3)" + zero.DEFAULTS["epochs"]),
        ("--warm-start", argtypes.path, None, "WEIGHTS", "dmc: start the DMC fit from these weights (e.g. a --method bc model) instead of "
         "cloning expectimax; exit: round 0 (instead of cloning the teacher)"),
        ("--teacher", None, None, None, "bc: the agent spec whose decisions are cloned (default expectimax); exit: the "
         "agent distilled each round (default expert)"),
    )
    p.add_argument("--returns", choices=("points", "equity"), default="points",
                   help="dmc: the rollouts' return regressed: points (the deal's point margin, default) or "
                   "equity (the change in winning chance from the equity table at the deal's end)")
    add_options(
        p,
        ("--oracle", argtypes.weight, 0.0, "W", "dmc: weight (0 to 1) of a training-only critic that sees the opponent's hand and "
         "crib: the net regresses W * critic + (1 - W) * returns (default 0: returns alone)"),
        ("--games-per-shard", argtypes.limited("games_per_shard"), None, None, "dmc, bc, exit: games per data shard (default 20)"),
        ("--n-steps", argtypes.positive_int, None, None, "ppo: rollout length per update (default 2048)" + zero.DEFAULTS["n_steps"]),
    )
    # fmt: on


def _eval_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    add_options(
        p,
        ("--eval-games", argtypes.whole_number(0, "an even integer >= 0"), None, None, "games per ladder opponent (ppo 400, dmc 2000; 0 = none)" + zero.DEFAULTS["eval_games"]),
    )
    p.add_argument("--ladder", nargs="+", default=None, metavar="AGENT",
                   help="evaluation opponents (default random greedy expectimax expert)")
    add_options(
        p,
        ("--workers", argtypes.limited("workers"), 2, None, "processes for data and evaluation (default 2; Ray: CPUs of a local Ray)"),
    )
    # fmt: on
    options.backend_options(p)
    options.db_option(p, "results database (default: the user's)")
    options.progress_options(p)
