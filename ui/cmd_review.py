"""``cribbage review RECORD [--json] [--plot FILE]``: rate every decision of a game.

Each discard and pegging decision of both seats is rated from that seat's view by the winning
chance it gave away against the best option (see :mod:`agents.review`); decisions are flagged
doubtful / bad / blunder from 1 / 3 / 6 points of winning chance lost. The text report lists
the flagged decisions and each seat's error rate (mean winning chance lost per decision with a
choice). ``--json`` prints ``{"rows": [...], "seats": [...], "curve": [...]}``, one row per
decision with ``seat``, ``deal``, ``phase``, ``action``, ``best``, ``loss`` (0..1, 0 for the
best option), ``points_loss``, ``chance``, ``options`` and ``flag``. ``--plot FILE`` draws seat
0's winning chance over the game as a PNG (extra ``plot``: matplotlib).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.atomic import atomic_write
from agents.review import DEFAULT_CANDIDATES, DEFAULT_SAMPLES, THRESHOLDS, Review, review_game

from .argtypes import limited, output_file_problem, path, seed
from .cmd_replay import load


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=path, metavar="RECORD", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument(
        "--plot",
        type=path,
        default=None,
        metavar="FILE",
        help="save the winning-chance chart as a PNG at exactly FILE (ending in .png)",
    )
    p.add_argument(
        "--samples",
        type=limited("samples"),
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"guesses of the hidden cards per decision (default {DEFAULT_SAMPLES})",
    )
    p.add_argument(
        "--candidates",
        type=limited("candidates"),
        default=DEFAULT_CANDIDATES,
        metavar="N",
        help=f"discard splits rated besides the one taken (default {DEFAULT_CANDIDATES})",
    )
    p.add_argument("--seed", type=seed, default=0, help="seed of the guesses (default 0)")


def run(args: argparse.Namespace) -> int:
    problem = output_file_problem(args.plot) if args.plot is not None else None
    if problem:
        print(f"cribbage review: {problem}", file=sys.stderr)
        return 2
    try:
        game = load(args.file)
        review = review_game(game, samples=args.samples, candidates=args.candidates, seed=args.seed)
    except ValueError as exc:
        print(f"cribbage review: {exc}", file=sys.stderr)
        return 2
    if args.plot is not None:
        try:
            plot_review(review, args.plot)
        except ModuleNotFoundError:
            print(
                "cribbage review: --plot needs matplotlib (pip install 'cribbage-env[plot]')",
                file=sys.stderr,
            )
            return 2
        except OSError as exc:
            print(f"cribbage review: cannot write {args.plot}: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(review.to_json()))
    else:
        print(review_text(review))
    return 0


def review_text(review: Review) -> str:
    lines = [
        f"Review: final score {review.scores[0]}-{review.scores[1]}, "
        + (f"player {review.winner + 1} won" if review.winner is not None else "unfinished")
    ]
    limits = ", ".join(f"{name} >= {100 * v:g}" for name, v in THRESHOLDS)
    lines.append(f"Flags by winning chance lost (points of %): {limits}")
    lines.append("")
    lines.append(
        f"{'deal':>4} {'player':>6} {'phase':<7} {'played':<7} {'best':<7} "
        f"{'lost %':>7} {'points':>6}  flag"
    )
    for r in review.ratings:
        if r.flag:
            lines.append(
                f"{r.deal + 1:>4} {r.seat + 1:>6} {r.phase:<7} {r.action:<7} "
                f"{r.best:<7} {100 * r.loss:7.1f} {r.points_loss:6.1f}  {r.flag}"
            )
    lines.append("")
    for seat in (0, 1):
        s = review.seat_summary(seat)
        lines.append(
            f"Player {seat + 1}: {s['decisions']} decisions with a choice, error rate "
            f"{1000 * s['error_rate']:.1f} (thousandths of a game per decision), "
            f"{100 * s['total_loss']:.1f} points of winning chance and {s['points_lost']:.1f} "
            f"points lost; {s['blunder']} blunders, {s['bad']} bad, {s['doubtful']} doubtful"
        )
    return "\n".join(lines)


def plot_review(review: Review, path: Path) -> Path:
    """Seat 0's winning chance before each decision; flagged decisions marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 3.2))
    xs = list(range(len(review.curve)))
    ax.plot(xs, [100 * c for c in review.curve], color="#4C72B0", lw=1.6)
    ax.axhline(50, color="grey", lw=0.6, ls="--")
    colours = {"blunder": "#C44E52", "bad": "#DD8452", "doubtful": "#CCB974"}
    for i, r in enumerate(review.ratings):
        if r.flag:
            ax.scatter(
                [i],
                [100 * review.curve[i]],
                color=colours[r.flag],
                zorder=3,
                marker="v" if r.seat == 0 else "^",
                s=28,
            )
    deals = [
        i for i, r in enumerate(review.ratings) if i == 0 or r.deal != review.ratings[i - 1].deal
    ]
    for d in deals:
        ax.axvline(d, color="#dddddd", lw=0.5, zorder=0)
    ax.set_ylim(0, 100)
    ax.set_xlabel("decision")
    ax.set_ylabel("player 1's winning chance (%)")
    ax.set_title(
        "Winning chance over the game (markers: flagged decisions; v player 1, ^ player 2)",
        fontsize=9,
    )
    fig.tight_layout()
    try:  # exactly at ``path`` (no extension added), atomically, never through a link
        atomic_write(path, lambda f: fig.savefig(f, dpi=110, format="png"))
    finally:
        plt.close(fig)
    return path
