"""Pegging evaluation from a PlayerView: points now, and a one-ply expectimax over the opponent's
replies drawn from the cards this seat has not seen.

Play points depend only on ranks and the running count (R7), so replies are grouped by rank:
13 groups at most, weighted by how many unseen cards of that rank remain. The opponent's hand is
modelled as ``opponent_cards_left`` cards drawn uniformly from the unseen cards (which also hold
the crib and the deck), and the opponent as playing the reply that scores most for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage_env.rules.cards import RANK, VALUE
from cribbage_env.rules.pegging import play_points_fast, score_play_breakdown
from cribbage_env.rules.views import PlayerView
from cribbage_env.unseen.determinize import none_in_hand

#: Rank r's representative card id (clubs) for rank-only play scoring.
_RANK_CARD = tuple(range(13))
#: Counting value of rank r (R1.2), read from the card table: ids 0..12 are the clubs A..K.
_RANK_VALUE = VALUE[:13]


def points_now(view: PlayerView, card: int) -> int:
    """Play points (R7) ``card`` scores if laid now, plus the last-card point (R8.3) when it is
    the last card of the whole play."""
    count = view.count + VALUE[card]
    pts = play_points_fast([*view.sequence, card], count)
    if len(view.hand) == 1 and view.opponent_cards_left == 0 and count != 31:
        pts += 1
    return pts


def greedy_card(view: PlayerView) -> int:
    """The legal card scoring most now; ties: lowest counting value, then lowest rank, then id."""
    return min(view.legal_actions, key=lambda c: (-points_now(view, c), VALUE[c], RANK[c], c))


def unseen_rank_counts(view: PlayerView) -> list[int]:
    counts = [0] * 13
    for c in view.unseen_cards():
        counts[RANK[c]] += 1
    return counts


@dataclass(frozen=True)
class PegEstimate:
    """What laying one card is expected to be worth (points, from this seat's side)."""

    card: int
    now: int  # points scored by laying it (R7, R8.3)
    given_up: float  # expected points of the opponent's best immediate reply
    counter: float  # expected points of our best answer to their reply (weighted)
    go_chance: float  # probability the opponent cannot reply (go, R8.1)
    heuristic: float  # tie-break adjustments (documented in ExpectimaxAgent)
    value: float  # the total used to rank cards
    wins: bool  # laying it reaches 121 now (R10.1)


def expectimax_estimates(
    view: PlayerView, counts: list[int] | None = None, counter_weight: float = 0.5
) -> list[PegEstimate]:
    """One-ply expectimax value of each legal card (no heuristics; ``heuristic`` is 0)."""
    if counts is None:
        counts = unseen_rank_counts(view)
    u = sum(counts)
    k = view.opponent_cards_left
    opp = 1 - view.seat
    opp_blocked = view.go_said[opp] or k == 0
    me = view.scores[view.seat]
    out = []
    for card in view.legal_actions:
        now = points_now(view, card)
        wins = me + now >= view.rules.target
        count = view.count + VALUE[card]
        seq = [*view.sequence, card]
        if count == 31:
            seq, count = [], 0
        rest = [c for c in view.hand if c != card]
        given_up = counter = 0.0
        go_chance = 1.0
        if not opp_blocked and u:
            lim = 31 - count
            replies = []  # (reply points, our best answer, cards of that rank)
            for r in range(13):
                n = counts[r]
                if not n or _RANK_VALUE[r] > lim:
                    continue
                c2 = count + _RANK_VALUE[r]
                s2 = [*seq, _RANK_CARD[r]]
                p = play_points_fast(s2, c2)
                best = 0
                if c2 < 31:
                    lim2 = 31 - c2
                    for mine in rest:
                        if VALUE[mine] <= lim2:
                            q = play_points_fast([*s2, mine], c2 + VALUE[mine])
                            if q > best:
                                best = q
                replies.append((p, best, n))
            playable = sum(n for _, _, n in replies)
            go_chance = none_in_hand(u, playable, k)
            if replies:
                # E[max reply points] = sum over thresholds t of P(the hand holds a card >= t).
                prev = 0
                for t in sorted({p for p, _, _ in replies if p > 0}):
                    m = sum(n for p, _, n in replies if p >= t)
                    given_up += (t - prev) * (1.0 - none_in_hand(u, m, k))
                    prev = t
                counter = (1.0 - go_chance) * sum(b * n for _, b, n in replies) / playable
        # A go (R8.1) leaves us the go point, unless 31 reset the count or the last-card point
        # (R8.3) is already in ``now``.
        go_point = 0.0 if (view.count + VALUE[card] == 31 or (k == 0 and not rest)) else go_chance
        value = now - given_up + counter_weight * counter + go_point
        out.append(PegEstimate(card, now, given_up, counter, go_point, 0.0, value, wins))
    return out


def describe_play(view: PlayerView, card: int) -> str:
    """ "fifteen for 2" etc. for the points ``card`` scores now, or "no points"."""
    items = score_play_breakdown([*view.sequence, card])
    if not items:
        return "no points now"
    return ", ".join(f"{i.kind.value} for {i.points}" for i in items)
