"""The ladder: every built-in agent in one Bradley–Terry table, from duplicate games per pair.

Each pair of ``--agents`` plays ``--games`` duplicate games (``--pair-games A:B=N`` overrides
the count for a costly pair) as its own run in a results store, so a killed ladder resumes where
it stopped (run the same command again) and a pair can be extended by naming it again with a
larger count (a new run). ``--from-db STORE`` (repeatable) takes a pair's games from another
results store instead (its run of the pair, agents in the same order, with the most games), so
head-to-head runs already played count. The table:
Elo-scale Bradley–Terry ratings (:func:`agents.stats.elo_ratings`, anchored on ``--anchor``)
with 95% intervals from a bootstrap over each pair's duplicate pairs, and every pair's plain
and luck-adjusted win rate with its 95% interval (:class:`agents.tournament.luck_stats.LuckTally`).

Nothing is written to the repository unless ``--out`` names a file. Example (the figures in
benchmarks/RESULTS.md)::

    nice -n 10 python benchmarks/strength/ladder.py --games 4000 --db /tmp/ladder.sqlite \\
        --pair-games master:expert=2000 --out benchmarks/results/ladder.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.bench import resume_tournament, run_tournament  # noqa: E402
from agents.stats import elo_ratings, wilson_interval  # noqa: E402
from agents.store.atomic import atomic_write_json  # noqa: E402
from agents.store.results_store import ResultsStore  # noqa: E402
from agents.tournament.luck_stats import LuckTally  # noqa: E402

#: Strongest first: a pair is (stronger, weaker), as head-to-head runs are usually named.
DEFAULT_AGENTS = ("master", "expert", "neural", "expectimax", "greedy", "random")


def _pair_counts(args) -> dict[tuple[str, str], int]:
    counts = {p: args.games for p in itertools.combinations(args.agents, 2)}
    for item in args.pair_games:
        pair, _, n = item.partition("=")
        a, _, b = pair.partition(":")
        key = (a, b) if (a, b) in counts else (b, a)
        if key not in counts or not n.isdigit():
            raise ValueError(f"--pair-games {item!r}: not A:B=N for two of --agents")
        counts[key] = int(n)
    return counts


def _play_pair(db: ResultsStore, a: str, b: str, n: int, args) -> int | None:
    """The run id of pair (a, b) with n games: played, resumed, or found complete."""
    mine = [r for r in db.runs() if r.get("agents") == [a, b] and r.get("games") == n
            and r.get("seed") == args.seed]  # fmt: skip
    if args.report_only:
        return mine[0]["id"] if mine else None
    if mine and mine[0]["status"] == "complete":
        return mine[0]["id"]
    t0 = time.perf_counter()
    if mine:
        run = resume_tournament(mine[0]["id"], db, backend=args.backend, workers=args.workers)
    else:
        run = run_tournament([a, b], n, args.seed, agent_seed=args.seed, backend=args.backend,
                             workers=args.workers, store=db)  # fmt: skip
    print(f"{a} vs {b}: {n} games, {run.status}, {time.perf_counter() - t0:.0f} s", flush=True)
    return run.run_id


def _found(paths: list[Path], a: str, b: str) -> tuple[Path, int] | None:
    """(store, run id) of the run of ``a`` vs ``b`` with the most games in ``paths``."""
    best: tuple[int, Path, int] | None = None
    for path in paths:
        with ResultsStore(path) as db:
            for r in db.runs():
                if r.get("agents") == [a, b]:
                    n = len(db.games(r["id"]))
                    if best is None or n > best[0]:
                        best = (n, path, r["id"])
    return None if best is None else (best[1], best[2])


def _units(games) -> np.ndarray:
    """Agent A's wins per duplicate pair (0, 0.5 or 1), complete pairs only."""
    by: dict[int, list[float]] = {}
    for g in games:
        by.setdefault(g.index, []).append(float(g.a_won))
    return np.array([sum(v) / 2 for v in by.values() if len(v) == 2])


def _elo(pairs: dict[tuple[str, str], np.ndarray], anchor: str) -> dict[str, float]:
    wins = {}
    for (a, b), u in pairs.items():
        wins[(a, b)] = 2 * float(u.sum())
        wins[(b, a)] = 2 * float(len(u) - u.sum())
    return elo_ratings(wins, anchor=anchor)


def _table(runs: dict[tuple[str, str], tuple[Path, int]], args) -> dict:
    pairs, rows = {}, []
    for (a, b), (path, run_id) in runs.items():
        with ResultsStore(path) as db:
            games = db.games(run_id)
            status = db.run(run_id)["status"]
        u = _units(games)
        if not len(u):
            continue
        pairs[(a, b)] = u
        tally = LuckTally()
        for g in games:
            tally.add(g)
        luck = tally.summary()
        wins = int(sum(g.a_won for g in games))
        lo, hi = wilson_interval(wins, len(games))
        rows.append({
            "agents": [a, b], "games": len(games), "status": status, "store": str(path),
            "win": round(wins / len(games), 4), "win_ci": [round(lo, 4), round(hi, 4)],
            "luck_adjusted": None if luck is None else {
                k: luck[k] for k in ("win", "win_ci", "variance_ratio")},
        })  # fmt: skip
    elo = _elo(pairs, args.anchor)
    rng = np.random.default_rng(args.seed)
    boots = []
    for _ in range(args.bootstrap):
        sample = {k: u[rng.integers(0, len(u), len(u))] for k, u in pairs.items()}
        boots.append(_elo(sample, args.anchor))
    ratings = []
    for name in sorted(elo, key=elo.get, reverse=True):  # type: ignore[arg-type]
        xs = np.array([b[name] for b in boots])
        lo, hi = np.percentile(xs, [2.5, 97.5]) if len(xs) else (np.nan, np.nan)
        ratings.append({"agent": name, "elo": round(elo[name], 1),
                        "elo_ci": [round(float(lo), 1), round(float(hi), 1)]})  # fmt: skip
    return {"anchor": args.anchor, "bootstrap": args.bootstrap, "ratings": ratings, "pairs": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS))
    ap.add_argument("--games", type=int, default=400, help="duplicate games per pair (even)")
    ap.add_argument("--pair-games", nargs="*", default=[], metavar="A:B=N")
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--anchor", default="expectimax", help="the agent rated 0")
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--backend", default="pool")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--db", type=Path, default=Path("/tmp/ladder.sqlite"))
    ap.add_argument("--from-db", type=Path, nargs="*", default=[], metavar="STORE")
    ap.add_argument("--report-only", action="store_true", help="the games stored so far")
    ap.add_argument("--out", type=Path, default=None, help="JSON file for the table")
    args = ap.parse_args(argv)
    if args.anchor not in args.agents:
        ap.error(f"--anchor {args.anchor!r} is not among --agents")
    try:
        counts = _pair_counts(args)
    except ValueError as exc:
        ap.error(str(exc))
    runs: dict[tuple[str, str], tuple[Path, int]] = {}
    for (a, b), n in counts.items():
        found = _found(args.from_db, a, b)
        if found is not None:
            runs[(a, b)] = found
            continue
        with ResultsStore(args.db) as db:
            run_id = _play_pair(db, a, b, n, args)
        if run_id is not None:
            runs[(a, b)] = (args.db, run_id)
    fig = _table(runs, args)
    fig["command"] = "python benchmarks/strength/ladder.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    print(json.dumps(fig["ratings"]))
    if args.out is not None:
        atomic_write_json(args.out, fig)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
