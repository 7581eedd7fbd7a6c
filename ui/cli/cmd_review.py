"""``cribbage review RECORD [--json] [--plot FILE]``: rate every decision of a game.

Each discard and pegging decision of both seats is rated from that seat's view by the winning
chance it gave away against the best option (see :mod:`agents.review`); decisions are flagged
doubtful / bad / blunder from 1 / 3 / 6 points of winning chance lost. The text report lists
the flagged decisions and each seat's error rate (mean winning chance lost per decision with a
choice). ``--json`` prints ``{"rows": [...], "seats": [...], "curve": [...]}``, one row per
decision with ``seat``, ``deal``, ``phase``, ``action``, ``best``, ``loss`` (0..1, 0 for the
best option), ``points_loss``, ``chance``, ``options`` and ``flag``, and ``"luck"``: each deal's
luck (seat 0's, of the cards and of the starter, beside each seat's winning chance lost) and each
seat's split of how its winning chance went, from 50% to the result, into luck and both seats'
decisions, in parts that add up (``docs/guide/luck.md``). ``--plot FILE``
draws seat 0's winning chance over the game as a PNG (extra ``plot``: matplotlib). Seats and deals
count from 0 in the text as in the JSON (and in records and the envs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.coaching.judge import DEFAULT_CANDIDATES, DEFAULT_SAMPLES
from agents.review import THRESHOLDS, Review, review_game
from agents.store.atomic import atomic_write
from cribbage_env.rules.cards import card_str
from cribbage_env.rules.core import Rules

from .args import options
from .args.argtypes import limited, output_file_problem, path
from .args.options import add_options
from .cmd_replay import load


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=path, metavar="RECORD", help="a game record (JSON)")
    # fmt: off
    add_options(
        p,
        ("--json", "print the review as JSON"),
        ("--plot", path, None, "FILE", "save the winning-chance chart as a PNG at exactly FILE (ending in .png)"),
        ("--samples", limited("samples"), DEFAULT_SAMPLES, "N", f"guesses of the hidden cards per decision (default {DEFAULT_SAMPLES})"),
        ("--candidates", limited("candidates"), DEFAULT_CANDIDATES, "N", f"discard splits rated: the analyzer's N best discard splits, plus the one taken (default {DEFAULT_CANDIDATES}: all)"),
        options.seed(0, "seed of the guesses (default 0)"),
    )
    # fmt: on


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
        print(review_text(review, game.rules))
    return 0


def _count(n: int, word: str) -> str:
    """``1 blunder``, ``2 blunders``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _points(x: float) -> str:
    """``1 point``, ``2.5 points`` (one decimal, a whole number without it)."""
    text = f"{x:.1f}".removesuffix(".0")
    return f"{text} point{'' if text == '1' else 's'}"


def review_text(review: Review, rules: Rules) -> str:
    """The text report of a game played by ``rules``. Seats and deals count from 0, as in
    ``--json``, records and the envs."""
    final = [rules.counted(v) for v in review.scores]  # the points past the target do not count
    lines = [
        f"Review: final score {final[0]}-{final[1]}, "
        + (f"seat {review.winner} won" if review.winner is not None else "unfinished")
    ] + ([review.notice] if review.notice else [])
    limits = ", ".join(f"{name} >= {100 * v:g}" for name, v in THRESHOLDS)
    lines.append(f"Flags by winning chance lost (points of %): {limits}")
    lines.append("")
    lines.append(
        f"{'deal':>4} {'seat':>4} {'phase':<7} {'played':<7} {'best':<7} "
        f"{'lost %':>7} {'points':>6}  flag"
    )
    for r in review.ratings:
        if r.flag:
            lines.append(
                f"{r.deal:>4} {r.seat:>4} {r.phase:<7} {r.action:<7} "
                f"{r.best:<7} {100 * r.loss:7.1f} {r.points_loss:6.1f}  {r.flag}"
            )
    lines.append("")
    for seat in (0, 1):
        s = review.seat_summary(seat)
        lines.append(
            f"Seat {seat}: {_count(s['decisions'], 'decision')} with a choice, error rate "
            f"{1000 * s['error_rate']:.1f} (thousandths of a game per decision), "
            f"{_points(100 * s['total_loss'])} of winning chance and "
            f"{_points(s['points_lost'])} lost; {_count(s['blunder'], 'blunder')}, "
            f"{s['bad']} bad, {s['doubtful']} doubtful"
        )
    lines.extend(luck_text(review))
    return "\n".join(lines)


def luck_text(review: Review) -> list[str]:
    """Luck beside skill: each deal's luck (cards, starter) for seat 0 and the winning chance
    each seat's decisions lost; then each seat's luck, luck rate and adjusted result."""
    if review.luck is None:
        return []
    lines = [
        "",
        "Luck and skill (points of winning chance; luck is seat 0's, seat 1's is the opposite)",
    ]
    lines.append(
        f"{'deal':>4} {'dealer':>6} {'cards':>7} {'starter':>8} {'':<4} {'lost S0':>8} {'lost S1':>8}"
    )
    for d in review.deal_rows():
        lines.append(
            f"{d['deal']:>4} {d['dealer']:>6} {100 * d['cards']:+7.1f} {100 * d['starter']:+8.1f} "
            f"{card_str(d['starter_card']) if d['starter_card'] >= 0 else '-':<4} "
            f"{100 * d['skill_lost'][0]:8.1f} {100 * d['skill_lost'][1]:8.1f}"
        )
    lines.append(f"cut for first deal: {100 * review.luck.cut:+.1f}")
    for seat in (0, 1):
        sp = review.split(seat)
        assert sp is not None
        change, luck, own, other, rest = sp.points()
        lines.append(
            f"Seat {seat}: from {100 * sp.start:.0f}% to {100 * sp.end:.0f}%, {change:+.1f} "
            f"points = luck {luck:+.1f}, decisions: seat {seat} {own:+.1f}, seat {1 - seat} "
            f"{other:+.1f}, unexplained {rest:+.1f}"
        )
    s0 = review.luck_summary(0)
    assert s0 is not None
    lines.append(
        f"Luck is the chance events' (mean zero whoever plays; what tournaments subtract): "
        f"seat 0 {100 * s0['events_luck_per_deal']:+.1f} points of winning chance per deal, "
        f"{s0['events_luck_points']:+.1f} points margin"
    )
    if s0["scale"] < 1:
        lines.append(f"(luck and decisions scaled by {s0['scale']:.2f} to fit one game)")
    return lines


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
    ax.set_ylabel("seat 0's winning chance (%)")
    ax.set_title(
        "Winning chance over the game (markers: flagged decisions; v seat 0, ^ seat 1)",
        fontsize=9,
    )
    fig.tight_layout()
    try:  # exactly at ``path`` (no extension added), atomically, never through a link
        atomic_write(path, lambda f: fig.savefig(f, dpi=110, format="png"))
    finally:
        plt.close(fig)
    return path
