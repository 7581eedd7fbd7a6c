"""Deal-level A/B tests of the expert's parts against expectimax: cheap, low-variance
checks of one idea at a time before whole games.

Each seed's first deal is played twice with seats swapped (duplicate); everything is expectimax
except the part under test, played by ``--spec`` for seat A:

- ``--part pegging``: A's pegging decisions (with a choice); the figure is A's pegging points
  minus B's per deal (his heels excluded: it is not a decision).
- ``--part discard``: A's discard; the figure is A's margin per deal (pegging, hands and crib)
  minus A's luck in points of the deal's cards and starter (:mod:`cribbage_env.analysis.luck`: an
  unbiased, lower-variance estimate of the same mean).

Prints the mean per deal with a 95% interval (normal approximation over the seeds) and writes it
as JSON. Example::

    python benchmarks/strength/expert_ab.py --part pegging --spec expert:sims=60 --deals 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cribbage_env as ce  # noqa: E402
from agents import make_agent  # noqa: E402
from cribbage_env.rules.core import EventKind, Phase  # noqa: E402


def _pegging_points(g: ce.GameState) -> list[int]:
    peg = [0, 0]
    for e in g.events:
        if (
            e.kind in (EventKind.PLAY, EventKind.SCORE)
            and e.points
            and e.reasons[0].kind.value != "his heels"
        ):
            peg[e.player] += e.points
    return peg


def play_deal(seed: int, a_seat: int, part: str, a, b) -> tuple[float, float]:
    """The first deal of ``seed`` with agent ``a`` making seat ``a_seat``'s ``part`` decisions;
    A's pegging margin (``pegging``) or point margin (``discard``), and that minus A's luck
    (the discard part; the pegging part is left as it is)."""
    g = ce.new_game(seed)
    rng = np.random.default_rng(seed)
    while g.deal_no == 0 and not g.is_over:
        p = g.current_player
        v = g.view(p)
        mine = (
            p == a_seat
            and len(v.legal_actions) > 1
            and g.phase is (Phase.PLAY if part == "pegging" else Phase.DISCARD)
        )
        g.apply((a if mine else b).act(v, rng))
    if part == "pegging":
        peg = _pegging_points(g)
        x = float(peg[a_seat] - peg[1 - a_seat])
        return x, x
    x = float(g.scores[a_seat] - g.scores[1 - a_seat])
    return x, x - _deal_luck_points(g, a_seat)


def _deal_luck_points(g: ce.GameState, seat: int) -> float:
    """``seat``'s luck in points of the first deal's cards and starter (cribbage_env.analysis.luck):
    subtracted from the discard part's margin it leaves the same mean with less variance."""
    from cribbage_env.analysis.luck import game_luck

    d = game_luck(g).deals[0]
    return (1.0 if seat == 0 else -1.0) * (d.cards_points + d.starter_points)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("pegging", "discard"), required=True)
    ap.add_argument("--spec", default="expert", help="agent spec playing the part for seat A")
    ap.add_argument("--base", default="expectimax", help="agent spec for everything else")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--offset", type=int, default=0, help="first seed")
    ap.add_argument("--out", type=Path, default=None, help="JSON file for the figures")
    args = ap.parse_args(argv)
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    a, b = make_agent(args.spec), make_agent(args.base)
    t = time.time()
    both = np.array(
        [
            (np.add(play_deal(s, 0, args.part, a, b), play_deal(s, 1, args.part, a, b))) / 2
            for s in range(args.offset, args.offset + args.deals)
        ]
    )
    d, adj = both[:, 0], both[:, 1]
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    ahalf = 1.96 * adj.std(ddof=1) / np.sqrt(len(adj))
    res = {
        "part": args.part,
        "spec": args.spec,
        "base": args.base,
        "deals": args.deals,
        "offset": args.offset,
        "mean_per_deal": round(float(d.mean()), 4),
        "ci95": [round(float(d.mean() - half), 4), round(float(d.mean() + half), 4)],
        "mean_per_deal_luck_adjusted": round(float(adj.mean()), 4),
        "ci95_luck_adjusted": [
            round(float(adj.mean() - ahalf), 4),
            round(float(adj.mean() + ahalf), 4),
        ],
        "seconds": round(time.time() - t, 1),
    }
    what = "pegging margin" if args.part == "pegging" else "point margin"
    print(
        f"{args.spec} ({args.part}) vs {args.base}: {what} per deal {d.mean():+.3f} "
        f"± {half:.3f}, luck-adjusted {adj.mean():+.3f} ± {ahalf:.3f}, over {args.deals} "
        f"duplicate deals ({res['seconds']} s)"
    )
    if args.out is not None:
        args.out.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
