"""Does the table's Hint agree with the Review? (one judge)

Plays games between two agents (seeds from ``--seed``), reviews each with
:func:`agents.review.review_game` (the table's review, seed 0), and asks the table's hint
(:func:`ui.table.teaching.hints.hint_for` with :func:`ui.table.teaching.hints.hint_rng`) at every decision the review rated
with a choice. Agreement: the hint's option is the review's best option (in the play, a card of
the same rank: they are interchangeable). A tie is a disagreement where the review rates the
hint's option exactly as high as its best. Target: >= 99% agreement, ties aside.

    nice -n 10 python benchmarks/strength/hint_agreement.py --decisions 1000
    nice -n 10 python benchmarks/strength/hint_agreement.py --decisions 1000 --out benchmarks/results/hint_agreement.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cribbage_env as ce
from agents.review import review_game
from agents.tournament.play import play_game
from cribbage_env.rules.actions import parse_action
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase
from ui.table.teaching.hints import hint_for, hint_rng


def _same(a: int, b: int, play: bool) -> bool:
    return RANK[a] == RANK[b] if play else a == b


def run(decisions: int, seed: int, agents: tuple[str, str], rules: str) -> dict:
    agree = ties = differ = games = 0
    examples: list[dict] = []
    t0 = time.perf_counter()
    while agree + ties + differ < decisions:
        g = play_game(agents[0], agents[1], seed + games, agent_seed=seed + games)
        if rules != "standard":  # replay the same decisions where the short game allows
            g = _short(seed + games, agents)
        games += 1
        rev = review_game(g)
        replay = ce.new_game(g.seed, interactive_cuts=g.interactive_cuts, rules=g.rules)
        ratings = {r.index: r for r in rev.ratings}
        for i, a in enumerate(g.decisions):
            r = ratings.get(i)
            if r is not None and r.options > 1 and agree + ties + differ < decisions:
                view = replay.view(r.seat)
                play = replay.phase is Phase.PLAY
                opts = hint_for(view, hint_rng(view))
                best = parse_action(r.best)
                if _same(opts[0].action, best, play):
                    agree += 1
                elif abs(opts[0].chance - r.best_chance) < 1e-12:
                    ties += 1
                else:
                    differ += 1
                    examples.append({"seed": g.seed, "decision": i, "hint": opts[0].action,
                                     "review_best": r.best})  # fmt: skip
            replay.apply(a)
    n = agree + ties + differ
    return {
        "decisions": n,
        "games": games,
        "agents": list(agents),
        "rules": rules,
        "agree": agree,
        "ties": ties,
        "differ": differ,
        "agreement_ties_aside": round(agree / max(n - ties, 1), 5),
        "seconds": round(time.perf_counter() - t0, 1),
        "examples": examples[:10],
    }


def _short(seed: int, agents: tuple[str, str]) -> ce.GameState:
    """A game to 61 between the same agents."""
    from agents import make_agent
    from cribbage_env.seeding import agent_rng

    players = [make_agent(a) for a in agents]
    rngs = [agent_rng(seed, seed, s) for s in (0, 1)]
    g = ce.new_game(seed, rules="short")
    while not g.is_over:
        p = g.to_act
        g.apply(players[p].act(g.view(p), rngs[p]))
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agents", nargs=2, default=("greedy", "random"))
    ap.add_argument("--rules", choices=("standard", "short"), default="standard")
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = ap.parse_args()
    res = run(args.decisions, args.seed, tuple(args.agents), args.rules)
    text = json.dumps(res, indent=1)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
