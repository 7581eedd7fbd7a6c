"""The quick evaluation run inside training: the greedy policy (most likely / best legal card)
against each kernel opponent on fixed deals in the batched env, with Wilson intervals. Not
duplicate games: the tournament runner's ladder (``eval_games``) gives the reported figures."""

from __future__ import annotations

import numpy as np

from ...stats import wilson_interval
from .collect import act
from .games import Games
from .net import NumpyNet

#: Deals of the quick evaluation start here (apart from every training deal's seed).
EVAL_SEED = 1 << 40


def quick_eval(net: NumpyNet, names: list[str], games: int, rules: str) -> dict[str, dict]:
    """Win rate of each opponent's first ``games`` games (seats alternate by game)."""
    out = {}
    rng = np.random.default_rng(0)  # unused by the greedy policy; act() takes one
    for name in names:
        g = Games(((name, 1.0),), games, agent_seed=EVAL_SEED, rules=rules)
        g.reset(EVAL_SEED)
        result = np.full(games, -1, np.int8)
        while (result < 0).any():
            a, _, _ = act(net, g.floats(), g.mask, rng, sample=False)
            g.step(a)
            first = g.done & (result < 0)
            result[first] = g.won[first]
        wins = int(result.sum())
        lo, hi = wilson_interval(wins, games)
        out[name] = {"games": games, "win_rate": wins / games, "ci": [lo, hi]}
    return out
