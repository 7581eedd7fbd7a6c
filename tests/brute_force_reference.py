"""Independent brute-force scorers for the tests (R7, R9).

They share no code with ``cribbage_env.rules.scoring`` or ``.pegging``: they work from card ids with their own
value/rank/suit arithmetic and enumerate subsets by bitmask, the slow obvious way.
"""

from __future__ import annotations


def _rank(c: int) -> int:
    return c % 13


def _value(c: int) -> int:
    return 10 if c % 13 >= 9 else c % 13 + 1


def brute_show(hand: list[int], starter: int, crib: bool) -> int:
    """Show points by the definitions of R9.2-R9.6, enumerating all 31 subsets of the five cards."""
    five = [*hand, starter]
    pts = 0
    run_counts = {3: 0, 4: 0, 5: 0}
    for mask in range(1, 32):
        sub = [five[i] for i in range(5) if mask >> i & 1]
        if sum(_value(c) for c in sub) == 15:
            pts += 2
        if len(sub) == 2 and _rank(sub[0]) == _rank(sub[1]):
            pts += 2
        if len(sub) >= 3:
            ranks = sorted(_rank(c) for c in sub)
            if ranks == list(range(ranks[0], ranks[0] + len(sub))):
                run_counts[len(sub)] += 1
    for length in (5, 4, 3):  # only the longest runs count (R9.4)
        if run_counts[length]:
            pts += length * run_counts[length]
            break
    suits = {c // 13 for c in hand}
    if len(suits) == 1:
        if starter // 13 in suits:
            pts += 5
        elif not crib:
            pts += 4
    if any(c % 13 == 10 and c // 13 == starter // 13 for c in hand):
        pts += 1
    return pts


def brute_peg(seq: list[int]) -> int:
    """Points for the last card laid (R7): 15/31, the run of equal ranks at the end, the one run."""
    total = sum(_value(c) for c in seq)
    pts = 2 if total in (15, 31) else 0
    same = 1
    while same < len(seq) and _rank(seq[-1 - same]) == _rank(seq[-1]):
        same += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(seq), 2, -1):
        tail = sorted(_rank(c) for c in seq[-k:])
        if tail == list(range(tail[0], tail[0] + k)):
            pts += k
            break
    return pts
