"""``cribbage stats [--dir DIR | --data-dir DIR | --records DIR [--agent SPEC]] [--json]``: your
record from the game history, or an agent's from ``cribbage bench --records`` games.

Reads the finished games of the table's history folder (``history/`` under the data folder,
see :mod:`ui.table.saves`; ``--data-dir`` names another data folder as ``cribbage play --data-dir``
does, ``--dir`` another history folder), or with ``--records`` the games of a bench records folder
seen from ``--agent``'s seat (default: the first pairing's agent A), and prints
games, wins, skunks, wins by opponent, your average pegging / hand / crib points per deal as
dealer and as pone beside the averages of expectimax self-play, and your error rate game by
game (the mean winning chance lost per decision, from ``cribbage review``; reviews are cached,
``--no-review`` skips them).
"""

from __future__ import annotations

import argparse
import json
import sys

from agents.coaching.judge import DEFAULT_SAMPLES

from ..reports.player_stats import (
    CACHE_NAME,
    HistoryError,
    error_rates,
    load_history,
    player_stats,
)
from ..saved.autosave import data_dir
from .args.argtypes import limited, path
from .args.options import add_options


def add_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    # fmt: off
    add_options(where, ("--records", path, None, "DIR", "a cribbage bench --records folder: one agent's games (see --agent)"))
    add_options(p, ("--agent", None, None, "SPEC", "with --records: whose games (default: agent A of the first pairing)"))
    add_options(where, ("--dir", path, None, "DIR", "history folder (default: history/ in the data folder)"))
    add_options(where, ("--data-dir", path, None, "DIR", "the data folder of `cribbage play --data-dir DIR`: reads DIR/history"))
    add_options(
        p,
        ("--json", "print JSON"),
        ("--no-review", "skip the error rates (faster)"),
        ("--samples", limited("samples"), DEFAULT_SAMPLES, "N", f"guesses per decision for the reviews (default {DEFAULT_SAMPLES}, the Review's: the same figures)"),
    )
    # fmt: on


def run(args: argparse.Namespace) -> int:
    if args.agent is not None and args.records is None:
        print("cribbage stats: --agent goes with --records DIR", file=sys.stderr)
        return 2
    folder = args.dir if args.dir is not None else (args.data_dir or data_dir()) / "history"
    try:
        if args.records is not None:
            from ..reports.record_stats import load_records

            folder = args.records
            games, skipped, agent = load_records(folder, args.agent)
            if not games:
                raise HistoryError(f"no finished games of {agent!r} in {folder}")
        else:
            games, skipped = load_history(folder)
    except HistoryError as exc:
        print(f"cribbage stats: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a folder the system will not look at (a name too long, no access)
        print(f"cribbage stats: cannot read {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for note in skipped:
        print(f"cribbage stats: skipped {note}", file=sys.stderr)
    rates = None
    if not args.no_review and games:
        own = args.dir is None and args.records is None  # the cache lives beside the history
        rates = error_rates(games, folder.parent / CACHE_NAME if own else None, args.samples)
    stats = player_stats(games, rates)
    if args.records is not None:
        stats = {"agent": agent, **stats}  # whose games ("you" in the text)
    if args.json:
        print(json.dumps(stats))
        return 0
    if args.records is not None:
        print(f"{agent} in {folder}:")
    print(stats_text(stats))
    return 0


def _fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.2f}"


def stats_text(s: dict) -> str:
    if not s["games"]:
        return "No finished games in the history yet."
    sk = s["skunks"]
    lines = [
        f"Games {s['games']}: {s['wins']} won, {s['losses']} lost ({100 * s['win_rate']:.1f}%)",
        f"Skunks: {sk['given']} given ({sk['double_given']} double), "
        f"{sk['taken']} taken ({sk['double_taken']} double)",
    ]
    if len(s.get("by_target", {})) > 1:  # games to 61 and to 121: each on its own
        for t, r in s["by_target"].items():
            lines.append(
                f"  games to {t}: {r['games']}, {r['wins']} won, {r['losses']} lost; skunks "
                f"{r['skunks']['given']} given, {r['skunks']['taken']} taken"
            )
    for opp, r in s["by_opponent"].items():
        lines.append(f"  against {opp}: {r['wins']}-{r['losses']}")
    lines.append("")
    lines.append("Points per deal     you   expected")
    for role in ("dealer", "pone"):
        t = s["points_per_deal"][role]
        lines.append(f"as {role} ({t['deals']} deals)")
        for part in ("pegging", "hand", "crib") if role == "dealer" else ("pegging", "hand"):
            lines.append(f"  {part:<12} {_fmt(t[part])}   {_fmt(t['expected'][part])}")
    if "error_rate" in s:
        lines.append("")
        lines.append("Error rate (thousandths of a game lost per decision), oldest first:")
        lines.append("  " + " ".join(f"{1000 * g['error_rate']:.1f}" for g in s["error_rate"]))
        if "error_rate_first_half" in s:
            lines.append(
                f"  first half {1000 * s['error_rate_first_half']:.1f}, "
                f"second half {1000 * s['error_rate_second_half']:.1f}"
            )
    return "\n".join(lines)
