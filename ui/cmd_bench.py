"""``cribbage bench A B [C...]``: a self-play tournament, saved to the results database.

Two agents play a head-to-head, three or more a round robin. Duplicate deals are on by default
(every seed is played twice with the seats swapped). Exit codes: 0 done, 1 a run-time failure
(database, backend, agent), 2 bad usage, 130 interrupted (finished games are saved).

``--records DIR [--record-every K]`` also keeps the JSON game record (docs/RECORD_FORMAT.md) of
the games of every K-th seed, one file each, written atomically, so any game of a tournament can
be read or watched again with ``cribbage replay FILE [--text]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from agents.backends import BACKENDS, BackendError
from agents.base import AgentSpecError
from agents.results_store import ResultsStore, ResultsStoreError, default_db_path
from agents.runner import run_plan
from agents.tournament import (
    DEFAULT_BLOCK,
    AgentFailure,
    TournamentError,
    make_plan,
    result_to_dict,
)

from . import argtypes
from .bench_report import format_summary, pairing_rows, to_csv


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent specs, e.g. random greedy expectimax 'name:key=value' (2 = head-to-head, 3+ = round robin)",
    )
    p.add_argument(
        "--games",
        type=argtypes.positive_int,
        default=1000,
        help="games per pairing (even with duplicate deals; default 1000)",
    )
    p.add_argument(
        "--seed", type=argtypes.seed, default=0, help="root seed of the deals (default 0)"
    )
    p.add_argument(
        "--agent-seed",
        type=argtypes.agent_seed,
        default=None,
        help="seed of the agents' own randomness (default: fresh from the OS each run, "
        "recorded with the run; pin the recorded one to repeat a run exactly)",
    )
    p.add_argument(
        "--workers",
        type=argtypes.positive_int,
        default=None,
        help=f"worker processes (default: all cores, {os.cpu_count()})",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="pool",
        help="serial, local process pool (default) or ray (extra 'ray')",
    )
    p.add_argument(
        "--address", default=None, help="Ray cluster to join (host:port, ray://host:port or auto)"
    )
    p.add_argument(
        "--block",
        type=argtypes.positive_int,
        default=DEFAULT_BLOCK,
        help=f"duplicate pairs per task (default {DEFAULT_BLOCK})",
    )
    p.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="play each seed once (seat 0 = first-listed agent) instead of twice with seats swapped",
    )
    p.add_argument(
        "--db", type=Path, default=None, help=f"results database (default {default_db_path()})"
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument(
        "--csv", type=Path, default=None, metavar="FILE", help="write one row per pairing to FILE"
    )
    p.add_argument(
        "--plot",
        type=Path,
        default=None,
        metavar="DIR",
        help="write PNG charts to DIR (matplotlib)",
    )
    p.add_argument(
        "--prior",
        type=float,
        default=1.0,
        help="virtual games per pairing in the ratings (default 1: keeps 100%% scores finite)",
    )
    p.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the game record (docs/RECORD_FORMAT.md) of chosen games in DIR, "
        "with an index.json naming the agents in each seat",
    )
    p.add_argument(
        "--record-every",
        type=argtypes.positive_int,
        default=None,
        metavar="K",
        help="with --records: keep the games of every K-th seed (both seats of a "
        "duplicate pair; default 1: every game)",
    )
    prog = p.add_mutually_exclusive_group()
    prog.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar (default: when stderr is a terminal)",
    )
    prog.add_argument("--no-progress", dest="progress", action="store_false")


def _err(msg: str) -> None:
    print(f"cribbage bench: {msg}", file=sys.stderr)


def _usage(msg: str) -> int:
    print(
        "usage: cribbage bench AGENT AGENT [AGENT ...] [--games N] [--seed S] [--workers W] "
        "[--backend {serial,pool,ray}] [--address ADDR] [--db PATH] [--json] [--csv FILE] [--plot DIR] "
        "[--records DIR [--record-every K]]",
        file=sys.stderr,
    )
    _err(f"error: {msg}")
    return 2


def _recovery_path(db: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder in (db.parent, Path.cwd(), Path(tempfile.gettempdir())):
        if os.access(folder, os.W_OK):
            return folder / f"cribbage-bench-recovery-{stamp}-{os.getpid()}.json"
    return Path(tempfile.gettempdir()) / f"cribbage-bench-recovery-{stamp}.json"


class _Saver:
    """Writes finished blocks to the store; after a failure keeps them for a recovery file."""

    def __init__(self, store: ResultsStore, run_id: int) -> None:
        self.store, self.run_id = store, run_id
        self.saved: set = set()
        self.error: ResultsStoreError | None = None

    def __call__(self, block) -> None:
        if self.error is not None:
            return
        try:
            self.store.add_games(self.run_id, block)
            self.saved.update(g.key for g in block)
        except ResultsStoreError as exc:
            self.error = exc

    def flush(self, results) -> None:
        missing = [g for g in results if g.key not in self.saved]
        if missing and self.error is None:
            self(missing)


def _slug(spec: str) -> str:
    """An agent spec as a file-name part: ``expectimax:counter=0`` -> ``expectimax_counter-0``."""
    out = "".join(ch if ch.isalnum() or ch in "-." else "_" if ch in ":," else "-" for ch in spec)
    return out.strip("_-") or "agent"


def write_records(
    plan, results, directory: Path, every: int = 1, *, run_id: int | None = None
) -> list[Path]:
    """Write the JSON game record of every game whose duplicate-pair index is a multiple of
    ``every`` (the same games whatever the backend), each file atomically, plus ``index.json``
    (file, seats' agents, seed, winner, scores). A replay that disagrees with the tournament's
    result raises ValueError (a tournament bug, never written as a record).
    """
    import cribbage_env as ce

    from .saves import atomic_write_json

    directory.mkdir(parents=True, exist_ok=True)
    entries, written = [], []
    for r in results:
        if r.index % every:
            continue
        pairing = plan.pairings[r.pairing]
        seats = (pairing.b, pairing.a) if r.swapped else (pairing.a, pairing.b)
        g = ce.replay(r.seed, r.moves)  # tournaments deal with automatic cuts (ce.new_game)
        if g.winner != r.winner or g.scores != tuple(r.scores):
            raise ValueError(f"game seed {r.seed} does not replay to its result {r.scores}")
        name = (
            f"p{r.pairing}-g{r.index:05d}{'b' if r.swapped else 'a'}-"
            f"{_slug(seats[0])}-vs-{_slug(seats[1])}.json"
        )
        atomic_write_json(directory / name, g.to_record())
        written.append(directory / name)
        entries.append(
            {
                "file": name,
                "pairing": r.pairing,
                "index": r.index,
                "swapped": r.swapped,
                "seats": list(seats),
                "seed": r.seed,
                "winner": r.winner,
                "scores": list(r.scores),
            }
        )
    atomic_write_json(
        directory / "index.json",
        {
            "format": "cribbage-env/bench-records",
            "run": run_id,
            "params": plan.params(),
            "record_every": every,
            "games": entries,
        },
    )
    return written


def run(args: argparse.Namespace) -> int:
    if len(args.agents) < 2:
        return _usage(
            "name at least two agents (two for a head-to-head, three or more for a round robin)"
        )
    if args.address and args.backend != "ray":
        return _usage("--address joins a Ray cluster: use it with --backend ray")
    if args.record_every is not None and args.records is None:
        return _usage("--record-every K says which games --records DIR keeps: give --records too")
    if not args.prior >= 0:
        return _usage(f"--prior is a number of virtual games >= 0, got {args.prior}")
    try:
        plan = make_plan(
            args.agents,
            args.games,
            args.seed,
            duplicate=args.duplicate,
            block=args.block,
            agent_seed=args.agent_seed,
        )
    except (AgentSpecError, TournamentError) as exc:
        return _usage(str(exc))
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _err("--plot needs matplotlib: pip install 'cribbage-env[plot]'")
            return 1
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _err(f"cannot create the records folder {args.records}: {exc}")
            return 1
    db_path = args.db if args.db is not None else default_db_path()
    try:
        store = ResultsStore(db_path)
    except ResultsStoreError as exc:
        _err(str(exc))
        return 1
    with store:
        from agents.backends import make_backend

        try:
            backend = make_backend(args.backend, args.workers, args.address)
        except (BackendError, TournamentError) as exc:
            _err(str(exc))
            return 1
        try:
            run_id = store.start_run(plan.params(), backend=backend.name, workers=backend.workers)
        except ResultsStoreError as exc:
            backend.close()
            _err(str(exc))
            return 1
        saver = _Saver(store, run_id)
        progress = sys.stderr.isatty() if args.progress is None else args.progress
        failure: Exception | None = None
        try:
            outcome = run_plan(plan, backend=backend, on_block=saver, progress=progress)
        except (AgentFailure, BackendError, OSError, RuntimeError) as exc:
            failure = exc
            outcome = None
        if outcome is None:  # the run died: keep what was saved, mark it failed
            try:
                store.finish_run(run_id, "failed", {"error": str(failure)}, 0.0)
            except ResultsStoreError:
                pass
            _err(f"run {run_id} failed: {failure}")
            _err(f"{len(saver.saved)} finished games are saved in {store.path} (run {run_id})")
            return 1
        summary = outcome.summary(prior=args.prior)
        summary["run"] = {
            "id": run_id,
            "db": str(store.path),
            "backend": outcome.backend,
            "workers": outcome.workers,
            "elapsed_s": round(outcome.elapsed, 3),
            "games_per_s": round(outcome.games_per_second, 2),
            "status": "interrupted" if outcome.interrupted else "complete",
        }
        saver.flush(outcome.results)
        if saver.error is None:
            try:
                store.finish_run(run_id, summary["run"]["status"], summary, outcome.elapsed)
            except ResultsStoreError as exc:
                saver.error = exc
    code = 130 if outcome.interrupted else 0
    if saver.error is not None:
        rec = _recovery_path(Path(store.path))
        rec.write_text(
            json.dumps({"summary": summary, "games": [result_to_dict(g) for g in outcome.results]})
        )
        _err(str(saver.error))
        _err(f"the {len(outcome.results)} games of this run were written to {rec} instead")
        summary["run"]["recovery_file"] = str(rec)
        code = 1
    if args.json:
        print(json.dumps(summary))
    else:
        r = summary["run"]
        print(
            f"run {r['id']} ({r['status']}): {summary['games_played']} games in {r['elapsed_s']:.1f} s "
            f"({r['games_per_s']:.1f} games/s, {r['backend']} x{r['workers']}), saved to {r['db']}"
        )
        print(format_summary(summary))
    if outcome.interrupted:
        _err(f"interrupted: {len(outcome.results)} finished games kept (run {run_id})")
    if args.records is not None and outcome.results:
        try:
            written = write_records(
                plan, outcome.results, args.records, args.record_every or 1, run_id=run_id
            )
            if not args.json:
                print(f"wrote {len(written)} game records to {args.records}")
        except (OSError, ValueError) as exc:
            _err(f"cannot write game records to {args.records}: {exc}")
            code = code or 1
    if args.csv is not None:
        try:
            args.csv.write_text(to_csv(pairing_rows(summary)))
        except OSError as exc:
            _err(f"cannot write {args.csv}: {exc}")
            code = code or 1
    if args.plot is not None and outcome.results:
        from .bench_plots import write_plots

        try:
            for path in write_plots(summary, outcome.results, args.plot):
                if not args.json:
                    print(f"wrote {path}")
        except OSError as exc:
            _err(f"cannot write plots to {args.plot}: {exc}")
            code = code or 1
    return code
