"""``cribbage bench A B [C...]``: a self-play tournament, saved to the results database.

Two agents play a head-to-head, three or more a round robin. Duplicate deals are on by default
(every seed is played twice with the seats swapped). Exit codes: 0 done, 1 a run-time failure
(database, backend, agent), 2 bad usage, 130 interrupted (finished games are saved).
``cribbage bench --resume RUN`` finishes an interrupted, failed or killed run. The work is done
by :func:`agents.bench.run_tournament`; this module starts it and prints (its options and their
checks: :mod:`ui.cli.cmd_bench.arguments`).

``--records DIR [--record-every K]`` also keeps the JSON game record (docs/RECORD_FORMAT.md) of
the games of every K-th seed, one file each, written atomically, so any game of a tournament can
be read or watched again with ``cribbage replay FILE [--text]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys

from agents.base import AgentSpecError
from agents.bench import TournamentRun, play_plan, resume_tournament
from agents.seats.trust import UntrustedSpec
from agents.store.bench_records import RecordWriter
from agents.store.db_errors import NamedNothing, ResultsStoreError
from agents.store.results_store import ResultsStore, default_db_path
from agents.tournament.backends import BackendError
from agents.tournament.game_result import GameResult
from agents.tournament.luck_stats import StopRule
from agents.tournament.tournament import TournamentError, TournamentPlan, make_plan
from cribbage_env import STANDARD

from ...reports.bench_report import format_summary, pairing_rows, rules_spec, to_csv
from ..args import argtypes, options
from .arguments import USAGE, usage_problem


def _err(msg: str) -> None:
    print(f"cribbage bench: {msg}", file=sys.stderr)


def _usage(msg: str) -> int:
    print(USAGE, file=sys.stderr)
    _err(f"error: {msg}")
    return 2


class _Hook:
    """Per saved block: the game records (--records), the first game (for --plot) and the
    stopping rule (--until-separated, --ci-width)."""

    def __init__(self, writer: RecordWriter | None, rule: StopRule | None = None) -> None:
        self.writer, self.rule = writer, rule
        self.first: GameResult | None = None  # the first game's result (for --plot)
        self.error: Exception | None = None  # the record writer failed (the run goes on)

    def __call__(self, block) -> bool | None:
        if self.first is None and block:
            self.first = min(block, key=lambda r: r.key)
        if self.writer is not None and self.error is None:
            try:
                self.writer.add(block)
            except (OSError, ValueError) as exc:
                self.error = exc
        return None if self.rule is None else self.rule(block)


def _start(
    args: argparse.Namespace, plan: TournamentPlan | None, store: ResultsStore, hook: _Hook,
    progress: bool,
) -> TournamentRun:  # fmt: skip
    common = dict(backend=args.backend, workers=args.workers, address=args.address, store=store,
                  progress=progress, on_block=hook, prior=args.prior)  # fmt: skip
    if plan is None:  # --resume
        agents = args.agents or None  # named again: the run's stored specs are trusted
        return resume_tournament(args.resume, agents=agents, **common)
    return play_plan(plan, **common)


def run(args: argparse.Namespace) -> int:
    from agents.arena.seat import database_files

    problem = usage_problem(args)
    if problem:
        return _usage(problem)
    writer, plan = None, None
    if args.resume is None:
        try:  # bad agents or sizes are usage errors, found before anything is opened or written
            plan = make_plan(args.agents, _games(args), args.seed or 0,
                             duplicate=args.duplicate, block=args.block, agent_seed=args.agent_seed,
                             rules=args.rules or STANDARD, isolate=argtypes.isolation(args),
                             seat_limits=argtypes.seat_limits(args),
                             hidden=database_files(args.db or default_db_path()))  # fmt: skip
        except (AgentSpecError, TournamentError, ValueError) as exc:
            return _usage(str(exc))
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _err("--plot needs matplotlib: pip install 'cribbage-env[plot]'")
            return 1
    if args.records is not None and plan is not None:  # --resume keeps no records
        try:
            writer = RecordWriter(plan, args.records, args.record_every or 1)
        except OSError as exc:
            _err(f"cannot create the records folder {args.records}: {exc}")
            return 2  # a folder that cannot be made: bad input, before any game
    try:
        store = ResultsStore(
            args.db if args.db is not None else default_db_path(), create=args.resume is None
        )
    except ResultsStoreError as exc:
        _err(str(exc))
        return 2 if isinstance(exc, NamedNothing) else 1
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    with store:
        refused = _resume_problem(args, store) if args.resume is not None else None
        if refused:
            _err(refused)
            return 2
        rule = None
        if args.until_separated or args.ci_width is not None:
            rule = StopRule(separated=args.until_separated, ci_width=args.ci_width)
        hook = _Hook(writer, rule)
        # --json: stdout holds the JSON alone (Ray prints a lost node's notice to stdout)
        quiet = contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext()
        try:
            with quiet:
                out = _start(args, plan, store, hook, progress)
        except UntrustedSpec as exc:
            _err(str(exc))
            return 2
        except (AgentSpecError, TournamentError) as exc:  # a resume refused: bad input too
            return _usage(str(exc)) if args.resume is None else _refuse(str(exc))
        except (BackendError, ResultsStoreError) as exc:
            return _fail(str(exc))
    return _report(args, _stopped_by_rule(out, hook), hook)


def _games(args: argparse.Namespace) -> int:
    if args.games is not None:
        return args.games
    return 20_000 if args.until_separated or args.ci_width is not None else 1000


def _stopped_by_rule(out: TournamentRun, hook: _Hook) -> TournamentRun:
    """A run the stopping rule ended is complete (its cap was a cap, not a goal)."""
    if hook.rule is None or hook.rule.reason is None or out.status != "interrupted":
        return out
    out.summary["run"]["status"] = "complete"
    out.summary["run"]["stopped"] = hook.rule.reason
    with ResultsStore(out.db) as db:
        db.finish_run(out.run_id, "complete", out.summary, out.elapsed)  # type: ignore[arg-type]
    return dataclasses.replace(out, status="complete")


def _refuse(msg: str) -> int:
    _err(msg)
    return 2


def _resume_problem(args: argparse.Namespace, store: ResultsStore) -> str | None:
    """Why ``--resume RUN`` cannot go on with what was typed (no such run, another block size),
    or None. The run's other refusals (complete, other agents) come from the resume itself."""
    try:
        params = store.run(args.resume)["params"]
    except NamedNothing as exc:
        return str(exc)
    except ResultsStoreError:
        return None  # a damaged row: the resume says so
    if options.unused(args, "block") and params.get("block") != args.block:
        return (f"--block {args.block}: run {args.resume} plays blocks of {params.get('block')} "
                "pairs (a resume keeps the run's blocks): leave --block out")  # fmt: skip
    return None


def _fail(msg: str) -> int:
    _err(msg)
    return 1


def _report(args: argparse.Namespace, out: TournamentRun, hook: _Hook) -> int:
    summary, r = out.summary, out.summary["run"]
    code = {"complete": 0, "interrupted": 130}.get(out.status, 1)
    if hook.writer is not None:
        hook.writer.run_id = out.run_id
        try:
            hook.writer.close()
        except OSError as exc:
            hook.error = hook.error or exc
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"run {r['id']} ({r['status']}): {summary['games_played']} games, rules "
              f"{rules_spec(summary['params'])}, in {r['elapsed_s']:.1f} s "
              f"({r['games_per_s']:.1f} games/s, {r['backend']} x{r['workers']}), saved to {r['db']}")  # fmt: skip
        if r.get("stopped"):
            print(f"stopped: {r['stopped']}")
        print(format_summary(summary))
        print(out.repeat_hint)
    for w in out.warnings:
        _err(f"warning: {w}")
    if out.status == "failed":
        _err(f"run {out.run_id} failed: {out.error}")
        if out.recovery_file:
            _err(f"the block that could not be saved was written to {out.recovery_file}")
        _err(f"{summary['games_played']} finished games are saved in {out.db} (run {out.run_id}); "
             f"`cribbage bench --resume {out.run_id}` finishes it")  # fmt: skip
    if out.interrupted:
        _err(f"interrupted: {summary['games_played']} finished games kept (run {out.run_id}); "
             f"`cribbage bench --resume {out.run_id}` finishes it")  # fmt: skip
    return _write_files(args, summary, hook) or code


def _write_files(args: argparse.Namespace, summary: dict, hook: _Hook) -> int:
    """The optional outputs (records index, CSV, plots): 1 if one could not be written."""
    code = 0
    if hook.error is not None:
        _err(f"cannot write game records to {args.records}: {hook.error}")
        code = 1
    elif hook.writer is not None and not args.json:
        print(f"wrote {len(hook.writer.entries)} game records to {args.records}")
    if args.csv is not None:
        try:
            args.csv.write_text(to_csv(pairing_rows(summary)))
        except OSError as exc:
            _err(f"cannot write {args.csv}: {exc}")
            code = 1
    if args.plot is not None and hook.first is not None:
        from ...reports.bench_plots import write_plots

        try:
            for path in write_plots(summary, [hook.first], args.plot):
                if not args.json:
                    print(f"wrote {path}")
        except OSError as exc:
            _err(f"cannot write plots to {args.plot}: {exc}")
            code = 1
    return code
