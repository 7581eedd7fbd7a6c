"""Oracle features: what the opponent holds, for a critic used only while training.

A DMC critic that also sees the opponent's hand and its crib cards (PerfectDou; Suphx's oracle
guiding) fits the rollout returns with less noise than a blind one; the blind play-time net is
then fitted to its (cross-fitted) estimates. These features come from the true game state, so
nothing here may reach an agent: :mod:`agents.players.neural` and :mod:`agents.nets.features` never
import this module, and the rows a play-time net scores are :mod:`.features`' alone.
"""

from __future__ import annotations

import numpy as np

from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.engine import GameState

#: opponent's hand by rank (13), its crib cards by rank (13), its hand size, the crib known,
#: the opponent's pegging cards (value <= 4 and below 10) and the hand's total value.
ORACLE_DIM = 13 + 13 + 5


def oracle_features(g: GameState, seat: int) -> np.ndarray:
    """(ORACLE_DIM,) features of the cards ``seat`` cannot see in the true state ``g``: the
    opponent's current hand and the two cards it laid away (zeros before it discards)."""
    opp = 1 - seat
    hand = list(g.hands[opp])
    crib = list(g.discards[opp])
    out = np.zeros(ORACLE_DIM, dtype=np.float32)
    for c in hand:
        out[RANK[c]] += 1.0
    for c in crib:
        out[13 + RANK[c]] += 1.0
    values = [VALUE[c] for c in hand]
    out[26] = len(hand) / 6
    out[27] = float(bool(crib))
    out[28] = sum(v <= 4 for v in values) / 4
    out[29] = sum(v < 10 for v in values) / 4
    out[30] = sum(values) / 40
    return out
