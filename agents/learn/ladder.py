"""Evaluation of a learner against a fixed ladder through the tournament runner.

Duplicate deals and Wilson intervals come from :mod:`agents.tournament.tournament`; each row also carries
the luck-adjusted win rate and interval (:mod:`agents.tournament.luck_stats`), which the curve plots;
every evaluation is a run in the results store (``cribbage results`` lists it), and a point of the run's learning curve
(``curve.json``, plotted to ``curve.png``).
"""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

from ..store.atomic import atomic_write, atomic_write_text
from ..tournament.limits import check_limit

LADDER = ("random", "greedy", "expectimax", "expert")


def evaluate(
    spec: str,
    opponents,
    games: int,
    *,
    seed: int = 2026,
    workers: int = 1,
    db: Path | None = None,
    label: str = "",
    rules: str = "standard",
    backend: str = "pool",
    address: str | None = None,
) -> list[dict]:
    """``spec`` against each opponent over ``games`` duplicate games of ``rules``; saved in the
    results store (unless ``db`` is ``False``). Returns one row per opponent; an interrupted
    evaluation (Ctrl-C) is saved as interrupted and raises ``KeyboardInterrupt``. On Ray the learner
    travels as an agent object (its weights file stays here), so a node needs only the project."""
    from ..store.results_store import ResultsStore
    from ..tournament.runner import run_plan
    from ..tournament.tournament import make_plan

    learner: object = spec
    if backend == "ray":
        from ..registry import make_agent

        learner = make_agent(spec)  # labelled by its spec (make_agent sets it)
    rows = []
    for opp in opponents:
        plan = make_plan([learner, opp], games, seed, rules=rules)
        workers = min(check_limit("workers", workers), len(plan.tasks()))  # never more than tasks
        where = backend if backend == "ray" else ("pool" if workers > 1 else "serial")
        store = ResultsStore(db) if db is not False else None
        run_id = None
        on_block = None
        if store is not None:
            params = {**plan.params(), "label": label}
            run_id = store.start_run(params, backend=where, workers=workers)
            on_block = partial(store.add_games, run_id)
        outcome = run_plan(plan, backend=where, workers=workers, address=address, on_block=on_block)
        summary = outcome.summary()
        pair = summary["pairings"][0]
        if store is not None:
            store.finish_run(
                run_id, "interrupted" if outcome.interrupted else "done", summary, outcome.elapsed
            )
            store.close()
        if outcome.interrupted:  # a part of the games is no figure: the stage is evaluated again
            raise KeyboardInterrupt
        la = pair.get("luck_adjusted") or {}
        rows.append(
            {
                "opponent": opp,
                "games": pair["games"],
                "win_rate": pair["win_rate"],
                "ci": pair["win_rate_ci"],
                # the luck-adjusted estimate (unbiased, narrower): what the curve plots
                "adjusted_win_rate": la.get("win"),
                "adjusted_ci": la.get("win_ci"),
                "variance_ratio": la.get("variance_ratio"),
                "mean_margin": pair["mean_margin"],
                "run_id": run_id,
                "seconds": round(outcome.elapsed, 1),
            }
        )
    return rows


def log_line(run_dir: Path, msg: str) -> None:
    """A timestamped line on stdout (the progress a run shows off a terminal) and in the run's
    ``train.log``."""
    import time

    from ..store.atomic import append_line

    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    try:
        append_line(run_dir / "train.log", line)
    except OSError:  # a log that is a link, or a full disk: the line was printed
        pass


def log_results(run_dir: Path, stage: str, rows: list[dict]) -> None:
    """One line per ladder opponent of an evaluation, luck-adjusted where measured."""
    for r in rows:
        lo, hi = r["ci"]
        adj = ""
        if _adjusted(r):
            alo, ahi = r["adjusted_ci"]
            adj = f"; luck-adjusted {r['adjusted_win_rate']:.3f} ({alo:.3f}-{ahi:.3f})"
        log_line(
            run_dir,
            f"{stage} vs {r['opponent']}: {r['win_rate']:.3f} ({lo:.3f}-{hi:.3f}) "
            f"over {r['games']} games{adj}",
        )


def _adjusted(row: dict) -> bool:
    """Has the row a luck-adjusted rate with a whole interval (none over a handful of games)?"""
    ci = row.get("adjusted_ci") or []
    return row.get("adjusted_win_rate") is not None and bool(ci) and None not in ci


def _rate(row: dict) -> tuple[float, list[float]]:
    """The row's luck-adjusted win rate and interval (the plain ones for older points)."""
    if _adjusted(row):
        return row["adjusted_win_rate"], row["adjusted_ci"]
    return row["win_rate"], row["ci"]


def read_curve(run_dir: Path) -> list[dict]:
    """The points of ``curve.json`` (checked reader); a damaged curve counts as none, so its
    evaluations are run again."""
    from ..store.files import UnreadableFile, parse_json, read_text

    path = run_dir / "curve.json"
    if not os.path.lexists(path):
        return []
    try:
        curve = parse_json(read_text(path, what="learning curve"))
    except UnreadableFile:
        return []
    ok = isinstance(curve, list) and all(
        isinstance(p, dict) and isinstance(p.get("stage"), str) and isinstance(p.get("steps"), int)
        and isinstance(p.get("results"), list) for p in curve
    )  # fmt: skip
    return curve if ok else []  # type: ignore[return-value]


def append_curve(run_dir: Path, point: dict) -> list[dict]:
    curve = [*read_curve(run_dir), point]
    atomic_write_text(run_dir / "curve.json", json.dumps(curve, indent=1) + "\n")
    return curve


def plot_curve(curve: list[dict], out: Path) -> Path | None:
    """Win rate (with its 95% interval) per opponent against training steps."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    steps = [p["steps"] for p in curve]
    # Stages trained on the same data (warm start, then DMC) share a step count: one slot each.
    staged = len(set(steps)) < len(steps)
    where = {p["stage"]: (i if staged else p["steps"]) for i, p in enumerate(curve)}
    for opp in dict.fromkeys(r["opponent"] for p in curve for r in p["results"]):
        pts = [(where[p["stage"]], r) for p in curve for r in p["results"] if r["opponent"] == opp]
        xs = [s for s, _ in pts]
        ys = [_rate(r)[0] for _, r in pts]
        lo = [_rate(r)[1][0] for _, r in pts]
        hi = [_rate(r)[1][1] for _, r in pts]
        ax.plot(xs, ys, marker="o", label=f"vs {opp}")
        ax.fill_between(xs, lo, hi, alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    if staged:
        ax.set_xticks(range(len(curve)), [f"{p['stage']}\n{p['steps']:,}" for p in curve])
    ax.set_xlabel("stage and learner decisions trained on" if staged else "training steps")
    ax.set_ylabel("win rate (duplicate games, luck-adjusted where measured; 95% CI)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    atomic_write(out, lambda f: fig.savefig(f, dpi=110, format="png"))
    plt.close(fig)
    return out
