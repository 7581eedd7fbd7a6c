"""An independent brute-force show scorer for tests (R9), written from the rules text only:
it shares no code or tables with cribbage_env.scoring."""

from __future__ import annotations

from itertools import combinations


def _rank(c: int) -> int:
    return c % 13


def _suit(c: int) -> int:
    return c // 13


def _value(c: int) -> int:
    return min(c % 13 + 1, 10)


def brute_show(hand: list[int], starter: int, crib: bool) -> int:
    """R9.2-R9.6 by enumerating every subset of the five cards."""
    cards = list(hand) + [starter]
    pts = 0
    for k in range(2, 6):  # R9.2 fifteens
        pts += 2 * sum(1 for combo in combinations(cards, k) if sum(map(_value, combo)) == 15)
    pts += 2 * sum(1 for a, b in combinations(cards, 2) if _rank(a) == _rank(b))  # R9.3
    for k in (5, 4, 3):  # R9.4: every distinct combination forming the longest run
        n = 0
        for combo in combinations(cards, k):
            rs = sorted(map(_rank, combo))
            if all(rs[i + 1] - rs[i] == 1 for i in range(k - 1)):
                n += 1
        if n:
            pts += n * k
            break
    if len({_suit(c) for c in hand}) == 1:  # R9.5
        if _suit(starter) == _suit(hand[0]):
            pts += 5
        elif not crib:
            pts += 4
    pts += sum(1 for c in hand if _rank(c) == 10 and _suit(c) == _suit(starter))  # R9.6 nobs
    return pts
