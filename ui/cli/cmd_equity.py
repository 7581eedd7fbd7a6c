"""``cribbage equity A B --dealer me|opponent [--json]``: the chance of winning from a score.

``A`` is your score, ``B`` the opponent's, at the start of a deal; ``--dealer`` says who deals
it. ``--json`` prints ``{"win": p}``. ``cribbage equity --table --json`` prints both tables,
``{"dealer": [[...]], "pone": [[...]]}``: ``dealer[a][b]`` is the dealer's chance with the dealer
at ``a`` and the pone at ``b``, ``pone[a][b]`` the pone's chance with the pone at ``a`` and the
dealer at ``b`` (121 rows of 121). The tables come from simulated self-play deals
(``benchmarks/tables/equity_table.py``); ``--rules short`` reads the table of the game to 61.
"""

from __future__ import annotations

import argparse
import json
import sys

from cribbage_env import STANDARD
from cribbage_env.equity import (
    TARGETS,
    EquityError,
    dealer_table,
    pone_table,
    table_error,
    win_probability,
)

from .args import argtypes, options
from .args.argtypes import whole_number
from .args.options import add_options

_score = whole_number(0, "a score (a non-negative integer)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("me", nargs="?", type=_score, metavar="A", help="your score")
    parser.add_argument("opponent", nargs="?", type=_score, metavar="B", help="opponent's score")
    parser.add_argument(
        "--dealer", choices=("me", "opponent"), help="who deals the deal that starts now"
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="print the dealer's table (--json: both tables, every score)",
    )
    add_options(
        parser,
        options.rules(STANDARD, f"the game's rules (its target decides; tables to {TARGETS[0]} at most): "
                      + argtypes.RULES_HELP),
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print JSON")


def _usage(msg: str) -> int:
    print(f"cribbage equity: {msg}", file=sys.stderr)
    print(
        "usage: cribbage equity A B --dealer me|opponent [--json]  |  "
        "cribbage equity --table [--json]",
        file=sys.stderr,
    )
    return 2


def run(args: argparse.Namespace) -> int:
    target = args.rules.target
    if target > TARGETS[0]:
        return _usage(f"the winning-chance tables go up to a target of {TARGETS[0]}, not {target}")
    if args.table:
        if args.me is not None or args.dealer is not None:
            return _usage("--table takes no scores and no --dealer")
        return _print_table(target, args.json)
    if args.me is None or args.opponent is None:
        return _usage("give both scores, A (yours) and B (the opponent's)")
    if args.dealer is None:
        return _usage("say who deals: --dealer me or --dealer opponent")
    if max(args.me, args.opponent) >= target:
        return _usage(f"scores are under the target {target} (a player with {target} has won)")
    try:
        p = win_probability(args.me, args.opponent, dealer=args.dealer == "me", target=target)
    except EquityError as exc:
        return _usage(str(exc))
    if args.json:
        print(json.dumps({"win": round(p, 6)}))
        return 0
    se = 0.0
    if max(args.me, args.opponent) < target:
        err = table_error(target)
        se = float(
            err[args.me, args.opponent] if args.dealer == "me" else err[args.opponent, args.me]
        )
    who = "you deal" if args.dealer == "me" else "the opponent deals"
    print(
        f"You {args.me}, opponent {args.opponent}, {who}: winning chance {100 * p:.1f}% "
        f"(table error +/- {100 * se:.2f} percentage points)"
    )
    return 0


def _print_table(target: int, as_json: bool) -> int:
    dealer, pone = dealer_table(target), pone_table(target)
    if as_json:
        print(
            json.dumps(
                {
                    "dealer": [[round(float(v), 5) for v in row] for row in dealer],
                    "pone": [[round(float(v), 5) for v in row] for row in pone],
                }
            )
        )
        return 0
    step = 10 if target > 61 else 5
    marks = list(range(0, target, step))
    print(
        f"Dealer's winning chance (%) at the start of a deal, game to {target}: "
        "rows dealer's score, columns pone's"
    )
    print("      " + "".join(f"{b:>5}" for b in marks))
    for a in marks:
        print(f"{a:>5} " + "".join(f"{100 * dealer[a, b]:5.0f}" for b in marks))
    return 0
