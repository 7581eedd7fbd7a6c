"""How well the ``master`` agent's worlds guess the opponent's hidden cards.

Plays ``--games`` games of ``--opponent`` against itself and, at every play decision with a
choice, draws ``--worlds`` guesses at the opponent's unplayed cards from each inference variant
(uniform, the discard model alone, discard model plus play likelihood at several temperatures);
scores each by the mean share of the opponent's unplayed cards whose **rank** a guess gets right
(ranks are what pegging depends on), against the true cards, which only this benchmark sees.
Prints the means with 95% intervals (paired: every variant sees the same positions); JSON only
with ``--out``::

    python benchmarks/speed/master_inference.py --games 40
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.store.atomic import atomic_write_json  # noqa: E402

#: (label, tau, play_tau); tau 0 = uniform guesses.
VARIANTS = (
    ("uniform", 0.0, 0.0),
    ("discard model (tau 0.5)", 0.5, 0.0),
    ("+ plays, play_tau 2", 0.5, 2.0),
    ("+ plays, play_tau 1 (default)", 0.5, 1.0),
    ("+ plays, play_tau 0.5", 0.5, 0.5),
)


def _rank_hits(guess: list[int], truth: list[int]) -> float:
    g, t = Counter(c % 13 for c in guess), Counter(c % 13 for c in truth)
    return sum((g & t).values()) / len(truth)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--games", type=int, default=40, help="games of self-play to take positions from"
    )
    ap.add_argument("--opponent", default="expert", help="the agent whose cards are guessed")
    ap.add_argument("--worlds", type=int, default=150, help="guesses per position and variant")
    ap.add_argument("--seed", type=int, default=3, help="seed of the games and the guesses")
    ap.add_argument("--out", default="", help="write the figures as JSON here")
    args = ap.parse_args(argv)
    import cribbage_env as ce
    from agents import make_agent
    from agents.search.opponent_model import sample_modelled_arrays
    from cribbage_env.rules.core import Phase
    from cribbage_env.unseen.determinize import uniform_guesses

    agent = make_agent(args.opponent)
    rng = np.random.default_rng(args.seed)
    scores: list[list[float]] = [[] for _ in VARIANTS]
    for i in range(args.games):
        g = ce.new_game(args.seed * 100_000 + i)
        while not g.is_over:
            p = g.current_player
            v = g.view(p)
            if v.phase is Phase.PLAY and len(v.legal_actions) > 1 and v.opponent_cards_left:
                truth = list(g.hands[1 - p])
                for k, (_, tau, ptau) in enumerate(VARIANTS):
                    r = np.random.default_rng([args.seed, i, len(v.played), k])
                    if tau > 0:
                        arr = sample_modelled_arrays(v, r, args.worlds, tau, play_tau=ptau)
                        hands = arr[0].tolist() if arr is not None else []
                    else:
                        hands = [h for h, _ in uniform_guesses(v, r, args.worlds)]
                    scores[k].append(float(np.mean([_rank_hits(h, truth) for h in hands])))
            g.apply(agent.act(v, rng))
    base = np.array(scores[0])
    out: dict = {"opponent": args.opponent, "games": args.games, "positions": len(base)}
    out["variants"] = []
    for (label, tau, ptau), s in zip(VARIANTS, scores, strict=True):
        a = np.array(s)
        d = a - base
        row = {
            "variant": label, "tau": tau, "play_tau": ptau,
            "rank_hit_rate": round(float(a.mean()), 4),
            "vs_uniform": round(float(d.mean()), 4),
            "vs_uniform_ci95": round(float(1.96 * d.std(ddof=1) / np.sqrt(len(d))), 4),
        }  # fmt: skip
        out["variants"].append(row)
        print(
            f"{label:>32}: ranks guessed {row['rank_hit_rate']:.1%}, vs uniform "
            f"{row['vs_uniform']:+.2%} ± {row['vs_uniform_ci95']:.2%}"
        )
    print(f"{len(base)} positions from {args.games} games of {args.opponent}")
    if args.out:
        atomic_write_json(Path(args.out), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
