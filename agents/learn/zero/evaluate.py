"""Evaluation in the batched env: the greedy policy (most likely / best legal card) against
each kernel opponent (they decide as the agents of the same name do) on duplicate deals, every
deal played from both seats, with Wilson intervals. Fast enough to run inside training and to
draw dense curves; the tournament runner's ladder (``eval_games``) plays the same agents in
Python."""

from __future__ import annotations

import numpy as np

from ...stats import wilson_interval
from .collect import act
from .games import Games
from .net import NumpyNet

#: Deals of the quick evaluation start here (apart from every training deal's seed).
EVAL_SEED = 1 << 40


def quick_eval(net: NumpyNet, names: list[str], games: int, rules: str) -> dict[str, dict]:
    """Win rate against each opponent over ``games`` games: ``games // 2`` deals (a game's
    seeded deals), each played once from each seat."""
    out = {}
    rng = np.random.default_rng(0)  # unused by the greedy policy; act() takes one
    deals = max(games // 2, 1)
    for name in names:
        wins = 0
        for seat in (0, 1):
            g = Games(((name, 1.0),), deals, agent_seed=EVAL_SEED, rules=rules, seat=seat)
            g.reset(EVAL_SEED)
            result = np.full(deals, -1, np.int8)
            while (result < 0).any():
                a, _, _ = act(net, g.floats(), g.mask, rng, sample=False)
                g.step(a)
                first = g.done & (result < 0)
                result[first] = g.won[first]
            wins += int(result.sum())
        lo, hi = wilson_interval(wins, 2 * deals)
        out[name] = {"games": 2 * deals, "win_rate": wins / (2 * deals), "ci": [lo, hi]}
    return out
