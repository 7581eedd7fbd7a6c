"""Luck-adjusted results: variance ratio, games needed, unbiasedness, CI coverage, cost.

Parts (``--part``, several allowed):

- ``ratio``: duplicate games per pairing (``--pairings a:b ...``, ``--games``); for each, the
  plain and luck-adjusted win rates with their 95% intervals over duplicate pairs, the variance
  ratio, the games needed for a 95% decision (the interval excluding 50%) by each, and whether
  the two estimates agree within their combined intervals. ``plugin:...`` names the user
  plug-in agent below (an agent object the library has never seen). Games are kept in a results
  store (``--db``), so a killed run resumes where it stopped (run the same command again).
- ``coverage``: ``--runs`` runs of ``--run-games`` games of ``--coverage-pairing`` (single
  games, not duplicate: a self-pairing's true rate is exactly 50% by symmetry); the share of
  runs whose 95% interval holds the true rate, plain and adjusted. Checkpointed in a JSON file
  next to the store (one line per run).
- ``speed``: games played (``--speed-games`` of expectimax vs greedy) then their luck measured
  in the same process: the luck's share of the wall time, and the post-pass rate (games/s of
  :func:`cribbage_env.analysis.luck.luck_of` from seed and moves, the replay included).

Nothing is written to the repository unless ``--out`` names a file. Example::

    nice -n 10 python benchmarks/tables/luck_bench.py --part ratio --pairings expert:expectimax \\
        --games 2000 --db /tmp/luck.sqlite --out benchmarks/results/luck_bench.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.bench import resume_tournament, run_tournament  # noqa: E402
from agents.stats import Z95  # noqa: E402
from agents.store.atomic import atomic_write_json  # noqa: E402
from agents.store.results_store import ResultsStore  # noqa: E402
from agents.tournament.luck_stats import LuckTally  # noqa: E402
from agents.tournament.play import play_game, result_of  # noqa: E402


class HighCardsAway:
    """A user plug-in written for this test: throws its two highest cards away, pegs its lowest
    card. Nothing in the library knows it."""

    name = "plugin-high-cards-away"

    def act(self, view, rng) -> int:
        legal = list(view.legal_actions)
        if view.phase.value == "discard":
            from cribbage_env.rules.actions import discard_cards

            return max(legal, key=lambda a: sum(c % 13 for c in discard_cards(a)))
        return min(legal, key=lambda c: c % 13)


def _source(spec: str):
    return HighCardsAway if spec == "plugin" else spec


def _need(sd_unit: float, edge: float, per_unit: float) -> float | None:
    """Games for a 95% interval that excludes 50% when the true rate is 50% + ``edge``."""
    if edge == 0 or not math.isfinite(sd_unit):
        return None
    return per_unit * (Z95 * sd_unit / abs(edge)) ** 2


_CACHE: dict = {}


def _luck(g, cache: Path | None = None, run_id: int = 0) -> tuple[float, float]:
    """The game's luck with this version's V: from ``cache`` (benchmarks/tables/luck_recompute.py,
    files named ``*_run{run_id}.jsonl``) when it has it, else measured now."""
    from cribbage_env.analysis.luck import luck_of

    path = None if cache is None else cache.with_name(f"{cache.stem}_run{run_id}.jsonl")
    if path is not None and path not in _CACHE:
        rows = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
        _CACHE[path] = {(r["index"], r["swapped"]): (r["win"], r["points"]) for r in rows}
    hit = _CACHE.get(path, {}).get((g.index, g.swapped))
    if hit is not None:
        return hit
    luck = luck_of(g.seed, g.moves)
    return luck.win, luck.points


def _pairing_figures(a: str, b: str, games: list) -> dict:
    t = LuckTally()
    for g in games:
        t.add(g)
    s = t.summary()
    assert s is not None
    n, per_unit = s["units"], s["games"] / s["units"]
    sd = [(hi - lo) / (2 * Z95) * math.sqrt(n) for lo, hi in (s["plain_win_ci"], s["win_ci"])]
    edge = s["win"] - 0.5
    plo, phi = s["plain_win_ci"]
    alo, ahi = s["win_ci"]
    combined = math.hypot((phi - plo) / 2, (ahi - alo) / 2)
    s.update(
        pairing=f"{a} vs {b}",
        games_needed_plain=_need(sd[0], edge, per_unit),
        games_needed_adjusted=_need(sd[1], edge, per_unit),
        agree_within_combined_ci=abs(s["plain_win"] - s["win"]) <= combined,
    )
    return s


def _ratio(args, db_path: Path) -> list[dict]:
    out = []
    for spec in args.pairings:
        a, _, b = spec.partition(":")
        agents = [_source(a), _source(b)]
        backend = "serial" if "plugin" in (a, b) else args.backend
        with ResultsStore(db_path) as db:
            mine = [
                r for r in db.runs()
                if r.get("agents") == [a if a != "plugin" else HighCardsAway.name,
                                       b if b != "plugin" else HighCardsAway.name]
                and r.get("games") == args.games and r.get("seed") == args.seed
            ]  # fmt: skip
            t0 = time.perf_counter()
            if args.report_only:
                if not mine:
                    continue
                run_id = mine[0]["id"]
            elif mine and mine[0]["status"] != "complete":
                run = resume_tournament(mine[0]["id"], db, agents=agents, backend=backend,
                                        workers=args.workers)  # fmt: skip
                run_id = run.run_id
            elif mine:
                run_id = mine[0]["id"]
            else:
                run = run_tournament(agents, args.games, args.seed, agent_seed=args.seed,
                                     backend=backend, workers=args.workers, store=db)  # fmt: skip
                run_id = run.run_id
            games = db.games(run_id)
            status = db.run(run_id)["status"]
        if args.recompute_luck:  # a post-pass with this version's V, from seeds and moves
            games = [dataclasses.replace(g, luck=_luck(g, args.luck_cache, run_id)) for g in games]
        fig = _pairing_figures(a, b, games)
        fig.update(status=status, run_id=run_id, wall_s=round(time.perf_counter() - t0, 1))
        print(json.dumps(fig), flush=True)
        out.append(fig)
    return out


def _coverage_run(a: str, b: str, seed: int, n: int) -> tuple[float, float, float, float]:
    """(plain mean, plain half-width, adjusted mean, adjusted half-width) of ``n`` single games."""
    t = LuckTally()
    seeds = np.random.SeedSequence(seed).generate_state(n, np.uint64) >> np.uint64(1)
    for i, s in enumerate(seeds.tolist()):
        sw = bool(i % 2)
        g = (
            play_game(_source(b), _source(a), s, seed)
            if sw
            else play_game(_source(a), _source(b), s, seed)
        )
        t.add(result_of(g, 0, i, sw))
    s_ = t.summary()
    assert s_ is not None
    return (
        s_["plain_win"], (s_["plain_win_ci"][1] - s_["plain_win_ci"][0]) / 2,
        s_["win"], (s_["win_ci"][1] - s_["win_ci"][0]) / 2,
    )  # fmt: skip


def _coverage(args, ckpt: Path) -> dict:
    a, _, b = args.coverage_pairing.partition(":")
    done = {}
    if ckpt.exists():
        for line in ckpt.read_text().splitlines():
            row = json.loads(line)
            done[row["run"]] = row
    for k in range(args.runs):
        if k in done or args.report_only:
            continue
        pm, ph, am, ah = _coverage_run(a, b, 10_000_019 * (k + 1), args.run_games)
        row = {"run": k, "plain": pm, "plain_half": ph, "adjusted": am, "adjusted_half": ah}
        with ckpt.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        done[k] = row
    rows = [done[k] for k in range(args.runs) if k in done]
    truth = args.true_rate
    cover = {
        kind: float(np.mean([abs(r[kind] - truth) <= r[f"{kind}_half"] for r in rows]))
        for kind in ("plain", "adjusted")
    }
    return {
        "pairing": f"{a} vs {b} (single games, seats alternating)",
        "true_rate": truth,
        "runs": len(rows),
        "games_per_run": args.run_games,
        "coverage_plain": cover["plain"],
        "coverage_adjusted": cover["adjusted"],
        "mean_half_width_plain": float(np.mean([r["plain_half"] for r in rows])),
        "mean_half_width_adjusted": float(np.mean([r["adjusted_half"] for r in rows])),
    }


def _speed(args) -> dict:
    from cribbage_env.analysis.luck import game_luck, luck_of

    game_luck(play_game("greedy", "greedy", 1, 1))  # compile / load the kernels first
    t0 = time.perf_counter()
    played = [play_game("expectimax", "greedy", 1000 + i, 1) for i in range(args.speed_games)]
    t_play = time.perf_counter() - t0
    t0 = time.perf_counter()
    for g in played:
        game_luck(g)
    t_luck = time.perf_counter() - t0
    t0 = time.perf_counter()
    for g in played:
        luck_of(g.seed, g.decisions)
    t_post = time.perf_counter() - t0
    n = args.speed_games
    return {
        "games": n,
        "play_s": round(t_play, 3),
        "luck_s": round(t_luck, 3),
        "luck_share_of_play": round(t_luck / t_play, 3),
        "post_pass_games_per_s": round(n / t_post, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", choices=("ratio", "coverage", "speed"), default=["ratio"])
    ap.add_argument("--pairings", nargs="+", default=["expectimax:greedy"])
    ap.add_argument("--games", type=int, default=200, help="per pairing (even)")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--backend", default="serial")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--db", type=Path, default=Path(tempfile.gettempdir()) / "luck_bench.sqlite")
    ap.add_argument("--coverage-pairing", default="greedy:greedy")
    ap.add_argument("--true-rate", type=float, default=0.5)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--run-games", type=int, default=200)
    ap.add_argument("--speed-games", type=int, default=100)
    ap.add_argument(
        "--recompute-luck", action="store_true", help="measure the stored games' luck again"
    )
    ap.add_argument("--luck-cache", type=Path, default=None, help="with --recompute-luck")
    ap.add_argument("--report-only", action="store_true", help="report the games stored so far")
    ap.add_argument("--out", type=Path, default=None, help="JSON file for the figures")
    args = ap.parse_args(argv)
    fig: dict = {"command": "python benchmarks/tables/luck_bench.py " + " ".join(sys.argv[1:])}
    if "speed" in args.part:
        fig["speed"] = _speed(args)
        print(json.dumps(fig["speed"]), flush=True)
    if "ratio" in args.part:
        fig["pairings"] = _ratio(args, args.db)
    if "coverage" in args.part:
        ckpt = args.db.with_name(
            args.db.stem
            + f"_coverage_{args.coverage_pairing.replace(':', '_')}_{args.run_games}.jsonl"
        )
        fig["coverage"] = _coverage(args, ckpt)
        print(json.dumps(fig["coverage"]), flush=True)
    if args.out is not None:
        atomic_write_json(args.out, fig)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
