"""``cribbage train``: train a learned agent into a run directory (config, curve, model).

Methods: ``ppo`` (default; sb3-contrib MaskablePPO on the Gym env), ``dmc`` (Deep Monte-Carlo
on (state, action) features: the shipped ``neural``), ``bc`` (behaviour cloning), ``exit``
(expert iteration), and ``ppo-zero`` / ``dmc-zero`` (from random weights on the batched env:
:mod:`ui.cli.cmd_train.zero`). Opponents form a league: ``--opponent SPEC@WEIGHT`` (repeat),
SPEC an agent spec, ``self`` or ``snapshots``. Evaluations go to the results store.
``--resume`` continues a killed run with the configuration it was started with: an option typed
again with another value is refused (exit 2, naming each), but ``--workers`` is applied and said;
a finished run (``final.json``) says so and trains nothing. Every file the resume would read is
first checked against the digest the run recorded when it wrote it: one that differs is refused
(exit 2, naming it). Exit codes: 0 done, 1 a run-time failure, 2 bad usage, 130 interrupted.
Its options are :mod:`ui.cli.cmd_train.arguments`'s.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import asdict
from pathlib import Path

from agents.base import AgentSpecError
from agents.store.atomic import atomic_write_text, try_lock
from agents.tournament.backends import BackendError, Where
from cribbage_env import STANDARD

from ..args import argtypes
from . import zero
from .config import DEFAULTS, ConfigError, check_config, read_saved, resume_changes

#: the options that set a field of the run's configuration (compared on --resume)
_SETTINGS = (*DEFAULTS, "rules", "eval_games", "ladder", "opponent")


def _typed(args) -> list[str]:
    """The run's settings typed on the command line; the others get their defaults here."""
    typed = [n for n in (*_SETTINGS, *_ONLY) if getattr(args, n) is not None]
    for name, value in DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.rules is None:
        args.rules = STANDARD
    return typed


def _err(msg: str) -> int:
    print(f"cribbage train: {msg}", file=sys.stderr)
    return 2


#: what each method imports to train (all in the extra "rl")
_NEEDS = {"ppo": ("torch", "sb3_contrib"), **dict.fromkeys(("dmc", "bc", "exit", *zero.METHODS), ("torch",))}  # fmt: skip
#: the teacher when --teacher is left out
_TEACHER = {"bc": "expectimax", "exit": "expert"}
CPU_TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


def missing_extra(method: str) -> str | None:
    """One line naming what ``--method`` lacks and how to install it, or None (all there).

    Checked after the command line's own errors and before anything is written, so a run
    folder is never left half-made and the retry after installing is a fresh start. Found, not
    imported: torch takes seconds to import, and a refusal or a finished run needs none of it."""
    import importlib.util

    missing = []
    for name in _NEEDS[method]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a half-removed install
            found = False
        if not found:
            missing.append(name.replace("_", "-"))
    if not missing:
        return None
    return (
        f"--method {method} needs {' and '.join(missing)}, not installed: "
        f"pip install 'cribbage-env[rl]' (a CPU-only torch first: {CPU_TORCH})"
    )


def _warm_start(path: Path) -> str:
    """The absolute path of checked weights for ``--warm-start`` (WeightsError if unfit)."""
    from agents.nets.features import DISCARD_DIM, PLAY_DIM
    from agents.nets.mlp import load_nets

    d0, p0, _ = load_nets(path)
    if (d0.in_dim, p0.in_dim) != (DISCARD_DIM, PLAY_DIM):
        raise ValueError(f"--warm-start {path}: nets of {d0.in_dim}/{p0.in_dim} inputs, the "
                         f"features are {DISCARD_DIM}/{PLAY_DIM}")  # fmt: skip
    return str(path.resolve())


#: the options only some methods use (None when not given: the method's config has the default)
_ONLY = {
    "timesteps": ("ppo", *zero.METHODS),
    "eval_every": ("ppo", *zero.METHODS),
    "snapshot_every": ("ppo",),
    "max_illegal": ("ppo",),
    "n_steps": ("ppo", *zero.METHODS),
    "generations": ("dmc", "exit"),
    "warm_start": ("dmc", "exit"),
    "shards": ("dmc", "bc", "exit"),
    "games_per_shard": ("dmc", "bc", "exit"),
    "epochs": ("dmc", "bc", "exit", *zero.METHODS),
    "teacher": ("bc", "exit"),
    "num_envs": zero.METHODS,
}


def _given(args, *names: str) -> dict:
    """The options among ``names`` given on the command line (the others keep the config's
    defaults)."""
    return {n: getattr(args, n) for n in names if getattr(args, n) is not None}


def _idle_options(args) -> str:
    """The options given that ``--method`` does not use ("" if none): refused, not ignored."""
    idle = [
        n
        for n, methods in _ONLY.items()
        if getattr(args, n) is not None and args.method not in methods
    ]
    if not idle:
        return ""
    flags = ", ".join("--" + n.replace("_", "-") for n in idle)
    uses = "; ".join(f"--{n.replace('_', '-')} is for {', '.join(_ONLY[n])}" for n in idle)
    return f"--method {args.method} does not use {flags} ({uses})"


def _config(args):
    from agents.learn.ladder import LADDER

    _typed(args)  # the defaults of what was left out (run() has noted what was typed)
    ladder = tuple(args.ladder) if args.ladder else LADDER
    if args.method in zero.METHODS:
        return zero.config(args, tuple(args.ladder) if args.ladder else LADDER[:3])
    if args.method in ("dmc", "bc", "exit"):
        from agents.learn.dmc import DMCConfig

        kw = dict(
            _given(args, "generations", "shards", "games_per_shard"),
            seed=args.seed,
            teacher=args.teacher or _TEACHER.get(args.method, "expectimax"),
            returns=args.returns,
            oracle=args.oracle,
            ladder=ladder,
            workers=args.workers,
            reward=args.reward,
            rules=args.rules.spec,
        )
        if args.warm_start is not None:
            kw["warm_start"] = _warm_start(args.warm_start)
        if args.epochs is not None:
            kw["epochs_dmc" if args.method == "dmc" else "epochs_bc"] = args.epochs
        if args.opponent:
            kw["opponents"] = tuple(args.opponent)
        if args.eval_games is not None:
            kw["eval_games"] = args.eval_games
        return DMCConfig(**kw)
    from agents.learn.ppo import PPOConfig

    kw = dict(
        _given(args, "timesteps", "eval_every", "snapshot_every", "max_illegal", "n_steps"),
        seed=args.seed,
        reward=args.reward,
        ladder=ladder,
        workers=args.workers,
        rules=args.rules.spec,
    )
    if args.opponent:
        kw["opponents"] = tuple(args.opponent)
    if args.eval_games is not None:
        kw["eval_games"] = args.eval_games
    return PPOConfig(**kw)


def _usage_problem(args) -> str | None:
    _typed(args)
    problem = argtypes.backend_problem(args)
    if problem:
        return problem
    if args.backend == "ray" and args.method == "ppo":
        return "--backend ray runs the data and ladder of dmc and bc; ppo trains in this process"
    if args.method in ("dmc", "bc", "exit") and args.reward != "points":
        return (f"--method {args.method} takes no env reward (dmc: --returns points or equity): "
                "use --reward points, the default")  # fmt: skip
    idle = _idle_options(args) or zero.usage_problem(args)
    if idle:
        return idle
    if args.method != "dmc" and (args.returns != "points" or args.oracle):
        return f"--returns and --oracle are for --method dmc, not {args.method}"
    if args.method == "ppo":
        from cribbage_env.envs.single import CribbageEnv

        try:
            CribbageEnv("random", reward=args.reward)
        except ValueError as exc:  # e.g. "equity" before the env offers it
            return f"--reward {args.reward}: {exc}"
    if args.eval_games is not None and args.eval_games % 2:
        return f"--eval-games must be even (duplicate deals), got {args.eval_games}"
    if args.resume and not os.path.lexists(args.run_dir / "config.json"):
        return (
            f"no run to resume in {args.run_dir} (no config.json): leave out --resume to start one"
        )
    if not args.resume and os.path.lexists(args.run_dir / "config.json"):
        return (f"{args.run_dir} holds a run already: add --resume to continue it, or choose "
                "another --run-dir")  # fmt: skip
    return None


def _check_specs(args, cfg) -> None:
    """Build every agent the run names once (AgentSpecError says what is wrong), the command
    line's too even where this method does not use them (a typo is a typo)."""
    from agents.registry import make_agent

    given = [*(s for s, _ in args.opponent or ()), *(args.ladder or ()), args.teacher or "random"]
    stored = [*(s for s, _ in getattr(cfg, "opponents", ())), *cfg.ladder]
    for name in dict.fromkeys([*given, *stored, getattr(cfg, "teacher", "random")]):
        if name not in ("self", "snapshots"):
            make_agent(name)


def _prepare(args, command: str, typed: list[str] | None = None):
    """The configuration to train (a new run's, written to config.json; or the saved one,
    checked like the command line, with the options a resume may change applied and said)
    and the command that started the run. ``typed``: the settings typed (:func:`_typed`)."""
    typed = _typed(args) if typed is None else typed
    cfg = _config(args)
    cfg_path = args.run_dir / "config.json"
    if args.resume:
        saved = read_saved(cfg_path)
        if saved["method"] != args.method:
            raise ConfigError(f"{args.run_dir} is a {saved['method']:.40} run, not {args.method}")
        run_cfg = check_config(type(cfg), saved["config"], args, cfg_path)
        epochs = {"dmc": "epochs_dmc", **dict.fromkeys(zero.METHODS, "epochs")}.get(
            args.method, "epochs_bc"
        )
        cfg, applied = resume_changes(run_cfg, cfg, typed, epochs)
        for change in applied:
            print(f"cribbage train: --resume applies {change}", file=sys.stderr)
        command = saved["command"][:10_000]
    _check_specs(args, cfg)
    if not args.resume:
        saved_cfg = {"method": args.method, "command": command, "config": asdict(cfg)}
        text = json.dumps({**saved_cfg, **zero.provenance(args.method)}, indent=1)
        atomic_write_text(cfg_path, text + "\n")
    return cfg, command


def run(args) -> int:
    typed = _typed(args)
    problem = _usage_problem(args)
    if problem:
        return _err(problem)
    command = (
        "cribbage train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        if len(sys.argv) > 1 and sys.argv[1] == "train"
        else "cribbage train ..."
    )
    try:
        cfg = _config(args)  # the command line's own errors first, before a folder is made
        if not args.resume:
            _check_specs(args, cfg)
        lacking = missing_extra(args.method)
        if lacking:
            return _err(lacking)
        if not args.resume:
            args.run_dir.mkdir(parents=True, exist_ok=True)
        lock = try_lock(args.run_dir, folder=True)
    except (AgentSpecError, ValueError) as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(f"cannot use the run folder {args.run_dir}: {exc.strerror or exc}")
    if lock is None:
        return _err(f"{args.run_dir} is in use by another cribbage train: wait for it to finish")
    try:
        return _train(args, command, typed)
    finally:
        os.close(lock)


def _train(args, command: str, typed: list[str]) -> int:
    from agents.store.db_errors import ResultsStoreError

    try:
        cfg, command = _prepare(args, command, typed)
    except (AgentSpecError, ValueError) as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(f"cannot write in {args.run_dir}: {exc.strerror or exc}")
    from agents.learn.finish import finished
    from agents.learn.runfiles import RunFileError, RunFiles

    if args.resume:
        try:  # every file the resume would read, before anything trains
            RunFiles(args.run_dir).check_all()
        except RunFileError as exc:
            return _err(str(exc))
    done = finished(args.run_dir) if args.resume else None
    if done is not None:
        model = args.run_dir / Path(done["model"]).name
        print(f"cribbage train: {args.run_dir} is finished, nothing to train: start another "
              "--run-dir to train more", file=sys.stderr)  # fmt: skip
        print(f"model: {model}")
        return 0
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    where = Where(args.backend, args.address)
    try:
        if args.method == "dmc":
            from agents.learn.dmc import train_dmc

            final = train_dmc(cfg, args.run_dir, command=command, db=args.db, progress=progress,
                              where=where)  # fmt: skip
        elif args.method == "exit":
            from agents.learn.expert_iteration import train_exit

            final = train_exit(cfg, args.run_dir, command=command, db=args.db, progress=progress,
                               where=where)  # fmt: skip
        elif args.method == "bc":
            from agents.learn.dmc import train_bc

            final = train_bc(cfg, args.run_dir, teacher=cfg.teacher, command=command, db=args.db,
                             progress=progress, where=where)  # fmt: skip
        elif args.method in zero.METHODS:
            final = zero.train(cfg, args, command, progress)
        else:
            from agents.learn.ppo import train_ppo

            final = train_ppo(cfg, args.run_dir, command=command, db=args.db, progress=progress)
    except KeyboardInterrupt:
        print(f"cribbage train: interrupted; continue with --resume --run-dir {args.run_dir}",
              file=sys.stderr)  # fmt: skip
        return 130
    except (AgentSpecError, ValueError) as exc:  # e.g. a warm start that is not this package's
        return _err(str(exc))
    except (OSError, ResultsStoreError, BackendError) as exc:
        print(f"cribbage train: {exc}", file=sys.stderr)
        return 1
    print(f"model: {final}")
    return 0
