"""``cribbage analyze "5H 5D JS QC 2C 3D" --dealer|--pone [--json]``: rank the 15 discards.

Prints each split with the kept four's exact expected show score over the 46 unseen starters
(with min and max), the expected crib term from the shipped crib table (+ own crib, - the
opponent's) and the net, best first. ``--json`` prints the same as a JSON list.
"""

from __future__ import annotations

import argparse
import json
import sys

from cribbage_env.analysis.discard import DiscardInputError, analyze_discards
from cribbage_env.rules.cards import cards_str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hand", help='six cards, e.g. "5H 5D JS QC 2C 3D" (ranks A 2-9 T/10 J Q K, suits C D H S)'
    )
    seat = parser.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", action="store_true", help="the crib is yours")
    seat.add_argument("--pone", action="store_true", help="the crib is your opponent's")
    parser.add_argument("--json", action="store_true", help="print a JSON list, best first")
    parser.add_argument(
        "--top",
        type=int,
        default=15,
        metavar="N",
        help="show only the best N splits (default: all 15)",
    )


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.top <= 15:
        print(f"cribbage analyze: --top must be 1..15, got {args.top}", file=sys.stderr)
        return 2
    try:
        options = analyze_discards(args.hand, dealer=bool(args.dealer))
    except DiscardInputError as exc:
        print(f"cribbage analyze: {exc}", file=sys.stderr)
        print(
            'usage: cribbage analyze "5H 5D JS QC 2C 3D" --dealer|--pone [--json]', file=sys.stderr
        )
        return 2
    options = options[: args.top]
    if args.json:
        print(json.dumps([o.to_json() for o in options], indent=1))
        return 0
    whose = "your crib (dealer)" if args.dealer else "opponent's crib (pone)"
    print(f"Hand {cards_str(options[0].keep + options[0].discard)} - {whose}")
    print(
        f"{'#':>2}  {'keep':<12} {'discard':<6} {'hand EV':>8} {'min':>4} {'max':>4} "
        f"{'crib EV':>8} {'net':>7}"
    )
    for i, o in enumerate(options, 1):
        print(
            f"{i:>2}  {cards_str(o.keep):<12} {cards_str(o.discard):<6} {o.hand_ev:8.3f} "
            f"{o.hand_min:4d} {o.hand_max:4d} {o.crib_ev:+8.3f} {o.net:7.3f}"
        )
    return 0
