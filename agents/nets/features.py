"""(state, action) features for a Q network: one row per candidate decision.

A discard has exactly 15 candidates (keep 4 of 6, in :data:`DISCARD_INDEX` order); a play at most
four. Each row holds the seat's public situation (role, scores, count, what it has seen) and the
candidate itself: the cards it keeps or lays, and the exact quantities our analyzer computes for
it (hand expected value over the 46 starters, the crib table's value, the one-ply pegging
expectimax terms). Encoding the action as features lets similar actions share what is learned
(Deep Monte-Carlo, Zha et al. 2021). Everything comes from the :class:`PlayerView` alone.
"""

from __future__ import annotations

import numpy as np

from cribbage_env.analysis.discard import DISCARD_INDEX, discard_values
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.views import PlayerView

_RANKS = np.array(RANK[:52], dtype=np.intp)
_VALUES = np.array(VALUE[:52], dtype=np.float32)
_SUITS = np.arange(52, dtype=np.intp) // 13
#: (15, 4) positions of the kept cards for each of the 15 discards, same order as DISCARD_INDEX.
KEEP_INDEX = np.array(
    [[i for i in range(6) if i not in pair] for pair in DISCARD_INDEX], dtype=np.intp
)

STATE_DIM = 6
DISCARD_DIM = STATE_DIM + 13 + 13 + 13 + 14
PLAY_DIM = STATE_DIM + 13 + 1 + 32 + 8 + 9 + 13 + 13 + 13 + 13 + 13 + 1


def state_features(view: PlayerView) -> np.ndarray:
    """Role and board position, scaled by the game's target (121 in the standard game, R10.1)."""
    me, opp = view.scores[view.seat], view.scores[1 - view.seat]
    target = view.rules.target
    near = target - 15
    return np.array(
        [
            float(view.is_dealer),
            me / target,
            opp / target,
            float(me >= near),
            float(opp >= near),
            (me - opp) / 60.0,
        ],
        dtype=np.float32,
    )


def _hist(ranks: np.ndarray, n: int) -> np.ndarray:
    """(n, k) rank ids -> (n, 13) counts."""
    out = np.zeros((n, 13), dtype=np.float32)
    np.add.at(out, (np.repeat(np.arange(n), ranks.shape[1]), ranks.ravel()), 1.0)
    return out


def discard_candidates(view: PlayerView, table) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The 15 discard actions, their feature rows (15, DISCARD_DIM) and the analyzer's net value
    (hand EV + signed crib EV) of each, which is what ``expectimax`` maximises."""
    hand = np.array(view.hand, dtype=np.intp)
    ev, lo, hi, crib = discard_values(hand, view.is_dealer, table)
    keep = hand[KEEP_INDEX]
    disc = hand[DISCARD_INDEX]
    kr, dr = _RANKS[keep], _RANKS[disc]
    net = ev + crib
    kval = _VALUES[keep]
    six = np.broadcast_to(_hist(_RANKS[hand][None, :], 1), (15, 13))
    extra = np.stack(
        [
            ev / 10,
            lo / 10,
            hi / 10,
            crib / 5,
            net / 10,
            (net - net.max()),
            (ev - ev.max()),
            kval.sum(axis=1) / 40,
            (kval <= 4).sum(axis=1) / 4,
            (kval < 10).sum(axis=1) / 4,
            (_SUITS[disc[:, 0]] == _SUITS[disc[:, 1]]).astype(np.float32),
            (_SUITS[keep] == _SUITS[keep[:, :1]]).all(axis=1).astype(np.float32),
            _VALUES[disc].sum(axis=1) / 20,
            (np.abs(dr[:, 0] - dr[:, 1]) <= 2).astype(np.float32),
        ],
        axis=1,
    ).astype(np.float32)
    x = np.concatenate(
        [
            np.broadcast_to(state_features(view), (15, STATE_DIM)),
            _hist(kr, 15),
            _hist(dr, 15) * 1.5,
            six,
            extra,
        ],
        axis=1,
    )
    actions = [discard_action(int(min(a, b)), int(max(a, b))) for a, b in disc]
    return actions, x, net


def _play_context(view: PlayerView) -> tuple[np.ndarray, ...]:
    """The parts of a play row shared by every card: the sequence's last two ranks, the unseen
    and the opponent's played ranks, and the count/turn context."""
    seq = view.sequence
    last = np.zeros(13, dtype=np.float32)
    prev = np.zeros(13, dtype=np.float32)
    if seq:
        last[RANK[seq[-1]]] = 1.0
    if len(seq) > 1:
        prev[RANK[seq[-2]]] = 1.0
    unseen = np.zeros(13, dtype=np.float32)
    for c in view.unseen_cards():
        unseen[RANK[c]] += 0.25
    opp_played = np.zeros(13, dtype=np.float32)
    for p, c in view.played:
        if p != view.seat:
            opp_played[RANK[c]] += 1.0
    ctx = np.array(
        [
            view.count / 31,
            len(seq) / 8,
            view.opponent_cards_left / 4,
            len(view.hand) / 4,
            float(view.go_said[1 - view.seat]),
            float(view.go_said[view.seat]),
            float(view.count == 0),
            len(view.played) / 8,
            float(view.opponent_cards_left == 0),
        ],
        dtype=np.float32,
    )
    return last, prev, unseen, opp_played, ctx


def play_candidates(view: PlayerView, ranked) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Feature rows (n, PLAY_DIM) of the legal cards; ``ranked`` are expectimax's estimates
    (:meth:`ExpectimaxAgent._rank_cards`), whose ``value`` is what expectimax maximises."""
    n = len(ranked)
    s = state_features(view)
    last, prev, unseen, opp_played, ctx = _play_context(view)
    best = max(e.value for e in ranked)
    rows = np.zeros((n, PLAY_DIM), dtype=np.float32)
    values = np.zeros(n, dtype=np.float64)
    actions = []
    for i, e in enumerate(ranked):
        card = e.card
        actions.append(card)
        values[i] = e.value
        onehot = np.zeros(13, dtype=np.float32)
        onehot[RANK[card]] = 1.0
        count = view.count + VALUE[card]
        cnt = np.zeros(32, dtype=np.float32)
        cnt[count if count < 31 else 0] = 1.0
        est = np.array(
            [
                e.now / 4,
                e.given_up / 4,
                e.counter / 4,
                e.go_chance,
                e.heuristic * 4,
                np.clip(e.value, -10, 10) / 4,
                np.clip(e.value - best, -10, 0) / 2,
                float(e.wins),
            ],
            dtype=np.float32,
        )
        rest = np.zeros(13, dtype=np.float32)
        fits = 0
        for c in view.hand:
            if c != card:
                rest[RANK[c]] += 1.0
                fits += VALUE[c] + count <= 31
        rows[i] = np.concatenate(
            [
                s,
                onehot,
                [VALUE[card] / 10],
                cnt,
                est,
                ctx,
                last,
                prev,
                unseen,
                opp_played,
                rest,
                [fits / 3],
            ]
        )
    return actions, rows, values
