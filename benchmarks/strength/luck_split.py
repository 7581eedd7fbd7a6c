"""Is the review's luck split right on average? A player who follows every hint (``coach``) meets
``greedy`` and ``expectimax`` in duplicate games (each deal played from both seats); every game is
reviewed as the table reviews it, and the game's change of winning chance is split into the
chance events' luck, each player's decisions and the rest (:meth:`agents.review.Review.split`).

Reported per opponent, over duplicate pairs (the unit of the standard errors): the hint
follower's mean luck (target: within two standard errors of zero), each player's mean decision
loss, the decisions' edge beside the win-rate edge (their difference is the mean rest: target
within two standard errors of zero), and the largest part of any game (target: within 100
points). Games are appended to a checkpoint (``--games-file``) as they finish, so an interrupted
run resumes where it stopped; the summary is written from every game in it.

    nice -n 10 python benchmarks/strength/luck_split.py --pairs 100 \\
        --out benchmarks/results/luck_split.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from provenance import provenance  # noqa: E402

from agents.review import review_game  # noqa: E402
from agents.tournament.play import play_game  # noqa: E402
from agents.tournament.tournament import game_seeds  # noqa: E402

OPPONENTS = ("greedy", "expectimax")


def one_game(opponent: str, seed: int, hint_seat: int) -> dict:
    specs = ("coach", opponent) if hint_seat == 0 else (opponent, "coach")
    t0 = time.process_time()
    g = play_game(specs[0], specs[1], seed, agent_seed=seed)
    t1 = time.process_time()
    rev = review_game(g)
    t2 = time.process_time()
    sp = rev.split(hint_seat)
    assert sp is not None
    return {
        "opponent": opponent,
        "seed": seed,
        "hint_seat": hint_seat,
        "result": float(g.winner == hint_seat),
        "deals": g.deal_no + 1,
        "luck": sp.luck,
        "own": sp.own,
        "other": sp.other,
        "rest": sp.rest,
        "scale": sp.scale,
        "events_luck": (1 if hint_seat == 0 else -1) * rev.luck.win,  # type: ignore[union-attr]
        "hint_lost": rev._lost(hint_seat),
        "opponent_lost": rev._lost(1 - hint_seat),
        "play_cpu_s": round(t1 - t0, 2),
        "review_cpu_s": round(t2 - t1, 2),
    }


def _mean_se(x: list[float]) -> list[float]:
    a = np.asarray(x, dtype=np.float64)
    se = float(a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else math.nan
    return [round(100 * float(a.mean()), 2), round(100 * se, 2)]


def summarize(rows: list[dict], opponent: str) -> dict | None:
    """Figures over complete duplicate pairs, in points of winning chance (mean, SE)."""
    by_seed: dict[int, list[dict]] = {}
    for r in rows:
        if r["opponent"] == opponent:
            by_seed.setdefault(r["seed"], []).append(r)
    pairs = [v for v in by_seed.values() if len(v) == 2]
    if len(pairs) < 2:
        return None

    def unit(key) -> list[float]:
        return [sum(key(r) for r in p) / 2 for p in pairs]

    games = [r for p in pairs for r in p]
    parts = [abs(100 * r[k]) for r in games for k in ("luck", "own", "other", "rest")]
    return {
        "pairs": len(pairs),
        "games": len(games),
        "hint_win_rate": _mean_se(unit(lambda r: r["result"])),
        "win_rate_edge": _mean_se(unit(lambda r: r["result"] - 0.5)),
        "luck_adjusted_edge": _mean_se(unit(lambda r: r["result"] - 0.5 - r["events_luck"])),
        "hint_luck": _mean_se(unit(lambda r: r["luck"])),
        "hint_decision_loss": _mean_se(unit(lambda r: r["hint_lost"])),
        "opponent_decision_loss": _mean_se(unit(lambda r: r["opponent_lost"])),
        "decisions_edge": _mean_se(unit(lambda r: r["opponent_lost"] - r["hint_lost"])),
        "rest": _mean_se(unit(lambda r: r["rest"])),
        "max_abs_part": round(max(parts), 1),
        "games_scaled": sum(1 for r in games if r["scale"] < 1),
        "mean_deals": round(float(np.mean([r["deals"] for r in games])), 2),
        "play_cpu_s_per_game": round(float(np.mean([r["play_cpu_s"] for r in games])), 2),
        "review_cpu_s_per_game": round(float(np.mean([r["review_cpu_s"] for r in games])), 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--pairs", type=int, default=100, help="duplicate pairs per opponent")
    ap.add_argument("--seed", type=int, default=52)
    ap.add_argument("--opponents", default=",".join(OPPONENTS))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--games-file", type=Path, help="checkpoint (default: OUT with .games.jsonl)")
    args = ap.parse_args(argv)
    if args.pairs < 2:
        ap.error("--pairs must be at least 2")
    opponents = args.opponents.split(",")
    ckpt = args.games_file or args.out.with_suffix(".games.jsonl")
    rows = [json.loads(x) for x in ckpt.read_text().splitlines()] if ckpt.exists() else []
    done = {(r["opponent"], r["seed"], r["hint_seat"]) for r in rows}
    seeds = game_seeds(args.seed, args.pairs)
    try:
        for seed in seeds:  # the opponents interleaved: a run stopped early has both
            for opp in opponents:
                for seat in (0, 1):
                    if (opp, seed, seat) in done:
                        continue
                    row = one_game(opp, seed, seat)
                    rows.append(row)
                    with ckpt.open("a") as f:
                        f.write(json.dumps(row) + "\n")
            print(f"{len([r for r in rows if r['seed'] == seed])} games of seed {seed}; "
                  f"{len(rows)} in all", flush=True)  # fmt: skip
    except KeyboardInterrupt:
        print("interrupted: the games so far are in the checkpoint", flush=True)
        write(args, rows, opponents, ckpt)
        return 130
    write(args, rows, opponents, ckpt)
    return 0


def write(args, rows: list[dict], opponents: list[str], ckpt: Path) -> None:
    out = {
        **provenance(),
        "what": "hint follower vs each opponent, duplicate pairs, each game reviewed; points "
        "of winning chance [mean, standard error] per game, over pairs",
        "pairs_planned": args.pairs,
        "games_file": ckpt.name,
        "opponents": {o: summarize(rows, o) for o in opponents},
    }
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(out, indent=2) + "\n")
    tmp.replace(args.out)
    print(json.dumps(out["opponents"], indent=1), flush=True)


if __name__ == "__main__":
    sys.exit(main())
