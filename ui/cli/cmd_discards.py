"""``cribbage discards STRATEGY... --deals N [--json] [--plot DIR] [--games N]``: discard
strategies on the same deals (:mod:`agents.discard_bench`), saved to the results database.

Exit codes: 0 done, 1 a run-time failure (database, plot, backend), 2 bad usage (an unknown or
broken strategy, bad numbers), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from agents.base import AgentSpecError
from agents.discard_bench import MAX_DEALS, compare, format_report, whole_games
from agents.store.db_errors import NamedNothing, ResultsStoreError
from agents.store.results_store import ResultsStore, default_db_path
from agents.tournament.backends import BACKENDS, BackendError
from agents.tournament.tournament import AgentFailure, TournamentError
from cribbage_env import STANDARD

from .args import argtypes, options
from .args.options import add_options

USAGE = (
    "usage: cribbage discards STRATEGY [STRATEGY ...] [--deals N] [--seed S] [--json] "
    "[--plot DIR] [--games N [--rules RULES] [--backend B] [--workers W]] [--db PATH]"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    p.add_argument("strategies", nargs="+", metavar="STRATEGY",
                   help="random, best-hand, analyzer, a plug-in, agent:SPEC or "
                   "module.path:function (the first is the baseline of the differences)")
    add_options(
        p,
        ("--deals", argtypes.whole_number(1, f"a number of deals in 1..{MAX_DEALS}"), 20000, None, "paired deals (default 20000)"),
        options.seed(7, "seed of the deals (default 7)"),
        ("--json", "print the report as one JSON object"),
        ("--plot", argtypes.path, None, "DIR", "write discard_strategies.png (per-deal distributions) to DIR"),
        ("--games", argtypes.positive_int, None, "N", "also play N games (even) per strategy: its discards with expectimax "
         "pegging against expectimax, duplicate deals"),
        ("--agent-seed", argtypes.agent_seed, None, None, "for --games: seed of the agents' own randomness (default: fresh, recorded)"),
        options.rules(STANDARD, "for --games: the rules the games are played by; " + argtypes.RULES_HELP),
    )
    # fmt: on
    p.add_argument("--backend", choices=BACKENDS, default="pool", help="for --games (default pool)")
    add_options(p, ("--workers", argtypes.positive_int, None, None, "for --games"))
    options.db_option(p)


def _err(msg: str) -> None:
    print(f"cribbage discards: {msg}", file=sys.stderr)


def _usage(msg: str) -> int:
    print(USAGE, file=sys.stderr)
    _err(f"error: {msg}")
    return 2


def _numbers_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the sizes and the game options, or None."""
    if args.deals > MAX_DEALS:
        return f"--deals is at most {MAX_DEALS}, got {args.deals}"
    idle = _idle_game_options(args)
    if idle:
        return f"{idle} only act on the games of --games N: add --games N or leave them out"
    if args.games is not None and args.games % 2:
        return f"--games must be even (duplicate deals: each seed twice), got {args.games}"
    return None


def _idle_game_options(args: argparse.Namespace) -> str:
    """The options given that only ``--games`` uses, when it is not given ("" if none)."""
    if args.games is not None:
        return ""
    given = {
        "--rules": not args.rules.is_standard,
        "--workers": args.workers is not None,
        "--agent-seed": args.agent_seed is not None,
        "--backend ray": args.backend == "ray",  # serial is how the deals run anyway
    }
    return ", ".join(flag for flag, on in given.items() if on)


def run(args: argparse.Namespace) -> int:
    problem = _usage_problem(args)
    if problem:
        return _usage(problem)
    try:
        store = ResultsStore(args.db if args.db is not None else default_db_path())
    except ResultsStoreError as exc:
        _err(str(exc))
        return 2 if isinstance(exc, NamedNothing) else 1
    with store:
        done = _stored_run(store, args)
    if isinstance(done, int):  # the run failed or was interrupted: its exit code
        return done
    report, nets = done
    print(
        json.dumps(report)
        if args.json
        else format_report(report)
        + f"\n\nrun {report['run']['id']} saved to {store.path} ({report['run']['elapsed_s']:.1f} s)"
    )
    return _plot(args, report, nets)


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line, checked before any deal is played, or None."""
    from agents.discards.strategies import make_strategy

    problem = _numbers_problem(args)
    if problem:
        return problem
    try:
        for s in args.strategies:
            make_strategy(s)
    except AgentSpecError as exc:
        return str(exc)
    return argtypes.output_folder_problem(args.plot)


def _stored_run(store: ResultsStore, args: argparse.Namespace) -> int | tuple[dict, object]:
    """Play the deals as a run of the results database: the report (with the run's id, its
    database and time) and the per-deal points, or the exit code of a run that did not end."""
    params = {
        "kind": "discards",
        "agents": list(args.strategies),
        "games": args.deals,
        "deals": args.deals,
        "seed": args.seed,
        "duplicate": True,
        "whole_games": args.games,
        **({} if args.rules.is_standard else {"rules": args.rules.to_json()}),
    }
    try:
        run_id = store.start_run(params, backend="serial", workers=1)
    except ResultsStoreError as exc:
        _err(str(exc))
        return 1
    start = time.perf_counter()
    try:
        report = _measure(args)
    except KeyboardInterrupt:
        _finish(store, run_id, "interrupted", {"kind": "discards"}, start)
        _err(f"interrupted (run {run_id})")
        return 130
    except AgentSpecError as exc:  # a strategy that broke on some hand
        _finish(store, run_id, "failed", {"error": str(exc)}, start)
        _err(str(exc))
        return 2
    except (AgentFailure, BackendError, TournamentError, OSError, RuntimeError) as exc:
        _finish(store, run_id, "failed", {"error": str(exc)}, start)
        _err(f"run {run_id} failed: {exc}")
        return 1
    nets = report.pop("_nets")
    report["kind"] = "discards"
    report["run"] = {
        "id": run_id,
        "db": str(store.path),
        "elapsed_s": round(time.perf_counter() - start, 3),
    }
    if not _finish(store, run_id, "complete", report, start):
        return 1
    return report, nets


def _plot(args: argparse.Namespace, report: dict, nets) -> int:
    """Write the plot ``--plot`` asks for (exit code 0, or 1 when it cannot be written)."""
    if args.plot is None:
        return 0
    try:
        path = write_plot(report, nets, args.plot)
    except ImportError:
        _err("--plot needs matplotlib: pip install 'cribbage-env[plot]'")
        return 1
    except OSError as exc:
        _err(f"cannot write the plot to {args.plot}: {exc}")
        return 1
    if not args.json:
        print(f"wrote {path}")
    return 0


def _measure(args: argparse.Namespace) -> dict:
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=args.deals, unit="deal", file=sys.stderr, mininterval=0.5)
    try:
        report = compare(
            args.strategies, args.deals, args.seed, progress=bar.update if bar is not None else None
        )
    finally:
        if bar is not None:
            bar.close()
    if args.games:
        report["games"] = whole_games(
            args.strategies,
            args.games,
            args.seed,
            agent_seed=args.agent_seed,
            backend=args.backend,
            workers=args.workers,
            rules=args.rules,
        )
    return report


def _finish(store: ResultsStore, run_id: int, status: str, summary: dict, start: float) -> bool:
    try:
        store.finish_run(run_id, status, summary, time.perf_counter() - start)
        return True
    except ResultsStoreError as exc:
        _err(str(exc))
        return False


def write_plot(report: dict, nets, directory: Path) -> Path:
    """Per-deal distributions of the net show points, dealer and pone side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    directory.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    bins = np.arange(-30, 50) - 0.5
    for ax, (role_i, role) in zip(axes, enumerate(("dealer", "pone")), strict=True):
        for i, s in enumerate(report["strategies"]):
            ax.hist(
                nets[i, role_i],
                bins=bins,
                histtype="step",
                density=True,
                label=f"{s['strategy']} (mean {s[role]['mean']:.2f})",
            )
        ax.set_title(f"as {role}: net show points per deal")
        ax.set_xlabel("own hand + own crib" if role == "dealer" else "own hand - dealer's crib")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("fraction of deals")
    fig.suptitle(f"Discard strategies on {report['deals']} paired deals (seed {report['seed']})")
    fig.tight_layout()
    path = directory / "discard_strategies.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
