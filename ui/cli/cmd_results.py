"""``cribbage results``: list saved tournament runs, show one, or compare two.

``cribbage results`` lists runs; ``cribbage results 3`` shows run 3; ``cribbage results 3 5``
compares the pairings the two runs share. ``--json`` prints JSON, ``--csv FILE`` writes a table
(runs, the run's pairings or, with ``--per-game``, its games, or the comparison).
"""

from __future__ import annotations

import argparse
import json
import sys

from agents.store.atomic import atomic_write_text
from agents.store.db_errors import ResultsStoreError
from agents.store.results_schema import game_row
from agents.store.results_store import ResultsStore, default_db_path
from agents.stored_runs.resuming import summary_so_far
from agents.stored_runs.run_check import verify_run
from agents.tournament.game_result import SEAT_FIELDS

from ..reports.bench_report import format_summary, pairing_rows, rules_spec, to_csv
from .args import argtypes, options
from .args.options import add_options


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="*", type=argtypes.run_id, metavar="RUN",
                   help="none: list runs; one: show it; two: compare them")  # fmt: skip
    options.db_option(p)
    add_options(
        p,
        ("--json", "print JSON"),
        ("--csv", argtypes.path, None, "FILE", "write the table to FILE as CSV"),
        ("--per-game", "with one RUN: export one row per game"),
    )


def _err(msg: str) -> None:
    print(f"cribbage results: {msg}", file=sys.stderr)


def _is_finished_discards(r: dict) -> bool:
    return r["params"].get("kind") == "discards" and r["status"] == "complete"


def _list_row(r: dict) -> dict:
    return {
        "id": r["id"],
        "created": r["created"],
        "status": r["status"],
        "agents": ("discards: " if r["params"].get("kind") == "discards" else "")
        + " ".join(r["agents"]),
        "games_per_pairing": r["games"],
        # a `cribbage discards` run saves deals, not games: all of them once it is complete
        "games_done": r["games"] if _is_finished_discards(r) else r["games_done"],
        "games_planned": r["games"] * len(r["params"].get("pairings", [None])),
        "seed": r["seed"],
        "duplicate": r["duplicate"],
        "rules": rules_spec(r["params"]),
        "backend": r["backend"],
        "workers": r["workers"],
        "elapsed_s": None if r["elapsed"] is None else round(r["elapsed"], 2),
    }


def compare(run1: dict, run2: dict) -> list[dict]:
    """Pairings (same agents, either order) in both runs, with the change in A's figures."""

    def index(run: dict) -> dict:
        out = {}
        for p in (run.get("summary") or {}).get("pairings", []):
            out[tuple(p["agents"])] = p
        return out

    one, two = index(run1), index(run2)
    rows = []
    for key, p in one.items():
        q = two.get(key)
        flip = False
        if q is None and key[::-1] in two:
            q, flip = two[key[::-1]], True
        if q is None or not p["games"] or not q["games"]:
            continue
        wr2 = 1 - q["win_rate"] if flip else q["win_rate"]
        lo2, hi2 = (1 - q["win_rate_ci"][1], 1 - q["win_rate_ci"][0]) if flip else q["win_rate_ci"]
        mm2 = -q["mean_margin"] if flip else q["mean_margin"]
        rows.append(
            {
                "agent_a": key[0],
                "agent_b": key[1],
                "games_1": p["games"],
                "win_rate_1": p["win_rate"],
                "ci_1": p["win_rate_ci"],
                "games_2": q["games"],
                "win_rate_2": round(wr2, 4),
                "ci_2": [round(lo2, 4), round(hi2, 4)],
                "win_rate_change": round(wr2 - p["win_rate"], 4),
                "overlapping_ci": not (hi2 < p["win_rate_ci"][0] or lo2 > p["win_rate_ci"][1]),
                "mean_margin_1": p["mean_margin"],
                "mean_margin_2": mm2,
            }
        )
    return rows


def _missing_run(store: ResultsStore, runs: list[int]) -> bool:
    """Says so (True) when a run asked for is not in ``store``: bad input, like a missing file."""
    known = {r["id"] for r in store.runs()}
    missing = [n for n in runs if n not in known]
    if missing:
        _err(f"no run {missing[0]} in {store.path}; runs there: "
             f"{', '.join(map(str, sorted(known))) or 'none'}")  # fmt: skip
    return bool(missing)


def _game_table(store: ResultsStore, run_id: int) -> list[dict]:
    """One row per game of the run (``--per-game``)."""
    games = store.games(run_id)
    cols = (
        [
            "pairing",
            "index",
            "swapped",
            "seed",
            "winner",
            "score0",
            "score1",
            "first_dealer",
            "deals",
        ]
        + [f"s{s}_{f}" for s in (0, 1) for f in SEAT_FIELDS]
        + ["moves", "forfeit", "luck_win", "luck_points"]  # luck: seat 0's
    )
    return [dict(zip(cols, game_row(g), strict=True)) for g in games]


def _usage_problem(args: argparse.Namespace) -> str | None:
    """Options this call cannot use, or an output file that cannot be written (checked first)."""
    if args.per_game and len(args.runs) != 1:
        return "--per-game exports the games of exactly one run"
    if args.per_game and not (args.csv or args.json):
        return "--per-game exports the games: give --csv FILE or --json"
    return argtypes.output_file_problem(args.csv, None) if args.csv is not None else None


def _one_run(store: ResultsStore, args: argparse.Namespace) -> tuple[dict, list[dict], str]:
    """``cribbage results RUN``: the run's JSON, its table (the pairings, or the games with
    ``--per-game``) and its text; a forged game or summary raises (damaged, nothing shown)."""
    run_ = _with_summary(store, store.run(args.runs[0]))
    payload = {k: run_[k] for k in run_ if k != "summary"} | {"summary": run_["summary"]}
    if args.per_game:
        table = _game_table(store, run_["id"])
        payload["games"] = table
    else:
        pairings = (run_.get("summary") or {}).get("pairings")
        table = pairing_rows(run_["summary"]) if pairings else []
    text = _format_run(run_)
    verify_run(store, run_["id"])
    return payload, table, text


def run(args: argparse.Namespace) -> int:
    if len(args.runs) > 2:
        print(
            "usage: cribbage results [RUN [RUN2]] [--db PATH] [--json] [--csv FILE]",
            file=sys.stderr,
        )
        _err("error: give no run (list), one (show) or two (compare)")
        return 2
    problem = _usage_problem(args)
    if problem:
        print("usage: cribbage results RUN --per-game --csv FILE", file=sys.stderr)
        _err(f"error: {problem}")
        return 2
    db = args.db if args.db is not None else default_db_path()
    if not db.exists():  # nothing named there: bad input, nothing created
        _err(f"results database {db} does not exist (run `cribbage bench` first or pass --db)")
        return 2
    try:
        with ResultsStore(db, create=False) as store:
            if _missing_run(store, args.runs):
                return 2
            if not args.runs:
                runs = [_list_row(r) for r in store.runs()]
                payload, table = {"db": str(store.path), "runs": runs}, runs
                text = _format_list(runs, store.path)
            elif len(args.runs) == 1:
                payload, table, text = _one_run(store, args)
            else:
                r1, r2 = store.run(args.runs[0]), store.run(args.runs[1])
                table = compare(r1, r2)
                rules = [rules_spec(r1["params"]), rules_spec(r2["params"])]
                payload = {"runs": [r1["id"], r2["id"]], "rules": rules, "pairings": table}
                text = _format_compare(r1, r2, table)
    except ResultsStoreError as exc:
        _err(str(exc))
        return 1
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # A summary edited by hand (or by another program) that no longer has our shape.
        _err(f"the saved summary of run {' / '.join(map(str, args.runs)) or '?'} is damaged "
             f"({type(exc).__name__}: {exc}); `cribbage results RUN --per-game` still exports its games")  # fmt: skip
        return 1
    if args.json:
        print(json.dumps(payload))
    else:
        print(text)
    if args.csv is not None:
        flat = [
            {k: (" ".join(map(str, v)) if isinstance(v, list) else v) for k, v in row.items()}
            for row in table
        ]
        try:
            atomic_write_text(args.csv, to_csv(flat), durable=False)
        except OSError as exc:
            _err(f"cannot write {args.csv}: {exc}")
            return 1
    return 0


def _format_list(runs: list[dict], path) -> str:
    if not runs:
        return f"no runs in {path}"
    lines = [
        f"runs in {path}",
        f"{'id':>4} {'created (UTC)':<25} {'status':<11} {'games':>11} {'seed':>6} {'backend':<8} agents",
    ]
    for r in runs:
        lines.append(
            f"{r['id']:>4} {r['created']:<25} {r['status']:<11} "
            f"{str(r['games_done']) + '/' + str(r['games_planned']):>11} {r['seed']:>6} "
            f"{r['backend'] + ' x' + str(r['workers']):<8} {r['agents']}"
            + ("" if r["rules"] == "standard" else f"  (rules {r['rules']})")
        )
    return "\n".join(lines)


def _with_summary(store: ResultsStore, run_: dict) -> dict:
    """``run_`` with, when it has no saved summary (still running, or stopped before its end),
    the report of the games it has saved so far (``summary["so_far"]`` is then true)."""
    if run_.get("summary") is not None or run_["params"].get("kind", "tournament") != "tournament":
        return run_
    if not run_.get("games_done"):
        return run_
    return run_ | {"summary": summary_so_far(store, run_["id"]) | {"so_far": True}}


def _format_run(r: dict) -> str:
    if r["params"].get("kind") == "discards" and (r.get("summary") or {}).get("strategies"):
        from agents.discard_bench import format_report

        head = f"run {r['id']} ({r['status']}), {r['created']}: cribbage discards\n"
        return head + format_report(r["summary"])
    head = (
        f"run {r['id']} ({r['status']}), {r['created']}: {' '.join(r['agents'])}; {r['games']} games per "
        f"pairing, seed {r['seed']}, {'duplicate' if r['duplicate'] else 'single'} deals, "
        f"rules {rules_spec(r['params'])}, "
        f"{r['backend']} x{r['workers']}; versions {r['versions'].get('cribbage_env')} "
        f"{r['versions'].get('git_commit', '')[:10]}"
    )
    summary = r.get("summary")
    if not summary or "pairings" not in summary:
        extra = (summary or {}).get("error", "no summary (the run did not finish)")
        return f"{head}\n{r['games_done']} games saved; {extra}"
    if summary.get("so_far") and r["status"] != "running":
        head += f"\nstopped before its end: `cribbage bench --resume {r['id']} --db DB` finishes it"
    return f"{head}\n{format_summary(summary)}"


def _format_compare(r1: dict, r2: dict, rows: list[dict]) -> str:
    """The comparison table; the name column widens to the longest pairing (never cut: specs
    such as ``module.path:Name`` differ only at their end)."""
    if not rows:
        return f"runs {r1['id']} and {r2['id']} share no pairing"
    rules = rules_spec(r1["params"]), rules_spec(r2["params"])
    lines = (
        []
        if rules[0] == rules[1]
        else [
            f"note: the runs were played by different rules (run {r1['id']}: {rules[0]}, run "
            f"{r2['id']}: {rules[1]}): a change below is the rules' as much as the agents'"
        ]
    )
    pw = max([34] + [len(row["agent_a"] + " vs " + row["agent_b"]) for row in rows])
    lines += [
        f"{'pairing (A vs B)':<{pw}} {'run ' + str(r1['id']) + ' win% A':>16} {'run ' + str(r2['id']) + ' win% A':>16}"
        f" {'change':>7} {'CIs overlap':>11} {'margin 1':>9} {'margin 2':>9}"
    ]
    for row in rows:
        c1 = (
            f"{100 * row['win_rate_1']:.1f} [{100 * row['ci_1'][0]:.0f},{100 * row['ci_1'][1]:.0f}]"
        )
        c2 = (
            f"{100 * row['win_rate_2']:.1f} [{100 * row['ci_2'][0]:.0f},{100 * row['ci_2'][1]:.0f}]"
        )
        lines.append(
            f"{row['agent_a'] + ' vs ' + row['agent_b']:<{pw}} {c1:>16} {c2:>16} "
            f"{100 * row['win_rate_change']:>+7.1f} {'yes' if row['overlapping_ci'] else 'NO':>11} "
            f"{row['mean_margin_1']:>+9.2f} {row['mean_margin_2']:>+9.2f}"
        )
    return "\n".join(lines)
