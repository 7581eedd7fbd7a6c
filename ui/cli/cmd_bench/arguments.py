"""``cribbage bench``'s options and their checks: the agents, the games and seeds, the backend,
isolation and its limits, the stopping rules, and the outputs (database, JSON, CSV, plots, game
records), each refused in one line before anything is opened or played
(:func:`usage_problem`); the command that plays them is :mod:`ui.cli.cmd_bench.command`.
"""

from __future__ import annotations

import argparse
import math
import os

from agents.tournament.tournament import DEFAULT_BLOCK

from ..args import argtypes, options
from ..args.options import add_options

USAGE = (
    "usage: cribbage bench AGENT AGENT [AGENT ...] [--games N] [--seed S] [--workers W] "
    "[--backend {serial,pool,ray}] [--address ADDR] [--rules RULES] [--db PATH] [--json] [--csv FILE] [--plot DIR] "
    "[--records DIR [--record-every K]]\n       cribbage bench --resume RUN [AGENT ...] [--db PATH] [--workers W]"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    p.add_argument("agents", nargs="*", metavar="AGENT",
                   help="agent specs, e.g. random greedy expectimax 'name:key=value' (2 = head-to-head, 3+ = round robin)")
    add_options(
        p,
        ("--games", argtypes.positive_int, None, None, "games per pairing (even with duplicate deals; default 1000)"),
        options.seed(None, "root seed of the deals (default 0)"),
        ("--resume", argtypes.run_id, None, "RUN", "finish run RUN of the database (interrupted, failed or killed): replays only the "
         "blocks it has not saved, with its recorded seeds; agents it names by import path or "
         "file are built only when named again (cribbage bench --resume RUN AGENT ...)"),
        ("--agent-seed", argtypes.agent_seed, None, None, "seed of the agents' own randomness (default: fresh from the OS each run, "
         "recorded with the run; pin the recorded one to repeat a run exactly)"),
        ("--workers", argtypes.positive_int, None, None, f"worker processes (default: all cores, {os.cpu_count()})"),
    )
    options.backend_options(p)
    add_options(
        p,
        ("--block", argtypes.positive_int, DEFAULT_BLOCK, None, f"duplicate pairs per task (default {DEFAULT_BLOCK})"),
        options.rules(None),
    )
    p.add_argument("--no-duplicate", dest="duplicate", action="store_false",
                   help="play each seed once (seat 0 = first-listed agent) instead of twice with seats swapped")
    options.isolate_options(p, limits=True)
    add_options(
        p,
        ("--until-separated", "head-to-head: stop once the luck-adjusted interval excludes 50%% (looks at 200 "
         "games and each doubling, 99%% per look); --games is the cap (default 20000)"),
        ("--ci-width", argtypes.unit_interval, None, "W", "head-to-head: stop once the luck-adjusted 95%% interval is narrower than W "
         "(a win rate, e.g. 0.03); --games is the cap (default 20000)"),
    )
    # fmt: on
    _add_output_arguments(p)


def _add_output_arguments(p: argparse.ArgumentParser) -> None:
    options.db_option(p)
    # fmt: off
    add_options(
        p,
        ("--json", "print the summary as one JSON object"),
        ("--csv", argtypes.path, None, "FILE", "write one row per pairing to FILE"),
        ("--plot", argtypes.path, None, "DIR", "write PNG charts to DIR (matplotlib)"),
        ("--prior", float, 1.0, None, "virtual games per pairing in the ratings (default 1: keeps 100%% scores finite)"),
        ("--records", argtypes.path, None, "DIR", "keep the game record (docs/RECORD_FORMAT.md) of chosen games in DIR, "
         "with an index.json naming the agents in each seat (a folder without another run's records)"),
        ("--record-every", argtypes.positive_int, None, "K", "with --records: keep the games of every K-th seed (both seats of a "
         "duplicate pair; default 1: every game)"),
    )
    # fmt: on
    options.progress_options(p)


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line, found before anything is opened or played, or None."""
    if args.resume is not None:
        given = [
            f for f in ("games", "seed", "agent_seed", "rules") if getattr(args, f) is not None
        ]
        limits = (args.game_budget, args.seat_memory, args.seat_cpu, args.seat_procs)
        if (
            given
            or args.records is not None
            or not args.duplicate
            or args.isolate
            or any(v is not None for v in limits)
        ):
            return (
                "--resume RUN continues a saved run with its own games, seeds and isolation: "
                "give none of them"
            )
    elif len(args.agents) < 2:
        return "name at least two agents (two for a head-to-head, three or more for a round robin)"
    problem = argtypes.backend_problem(args)
    if problem:
        return problem
    if args.decision_timeout is not None and not args.isolate:
        return "--decision-timeout S is the time of an isolated agent: give --isolate too"
    for flag in ("game_budget", "seat_memory", "seat_cpu", "seat_procs"):
        if getattr(args, flag) is not None and not args.isolate:
            return f"--{flag.replace('_', '-')} limits an isolated agent: give --isolate too"
    if (args.until_separated or args.ci_width is not None) and (
        args.resume is not None or len(args.agents) != 2
    ):
        return "--until-separated and --ci-width stop a new head-to-head: name exactly two agents"
    if args.until_separated and args.ci_width is not None:
        return "--until-separated and --ci-width are two stopping rules: give one"
    if args.record_every is not None and args.records is None:
        return "--record-every K says which games --records DIR keeps: give --records too"
    if args.records is not None and os.path.lexists(args.records / "index.json"):
        return (
            f"{args.records} holds another run's game records (index.json): choose another folder"
        )
    problem = argtypes.output_folder_problem(args.plot)  # outputs checked before games are played
    if args.csv is not None:
        problem = problem or argtypes.output_file_problem(args.csv, None)
    if problem:
        return problem
    if not 0 <= args.prior < math.inf:
        return f"--prior is a finite number of virtual games >= 0, got {args.prior}"
    return None
