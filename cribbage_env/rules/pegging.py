"""Pegging scoring (R7, R8): what the card just laid scores, given the cards since the last reset.

Two paths over one rule: :func:`score_play_breakdown` says which cards scored what (the readable
path, checked), and :func:`play_points_at` totals it unchecked in one backward scan, the engine's
hot path and, compiled as is, the kernels' (:data:`cribbage_env.kernels.simkernel.play_points`).
Tests check both agree. Show scoring is :mod:`cribbage_env.rules.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import RANK, VALUE, cards_str
from .scoring import ScoreItem, ScoreKind


def score_play(sequence: Sequence[int]) -> int:
    """Points for the last card of a play sequence (cards since the last reset, R7).

    >>> from cribbage_env.rules.cards import parse_cards
    >>> score_play(parse_cards("5H 5D 4C 6S"))  # run of three in the tail 5-4-6 (R7.3)
    3
    >>> score_play(parse_cards("7H 8D 7C"))  # no pair, no run, 22
    0
    >>> score_play(parse_cards("TH 5D"))  # fifteen
    2
    """
    return sum(item.points for item in score_play_breakdown(sequence))


def score_play_breakdown(sequence: Sequence[int]) -> list[ScoreItem]:
    """What the last card of a play sequence scores: fifteen / thirty-one, pairs, the one run.

    >>> from cribbage_env.rules.cards import parse_cards
    >>> [str(i) for i in score_play_breakdown(parse_cards("4H 6D 5C"))]
    ['fifteen 4H 6D 5C for 2', 'run 4H 5C 6D for 3']
    """
    n = len(sequence)
    if n == 0:
        raise ValueError("an empty play sequence has no last card to score")
    if len(set(sequence)) != n or any(not 0 <= c < 52 for c in sequence):
        raise ValueError(f"a play sequence holds distinct card ids 0..51, got {list(sequence)!r}")
    total = sum(VALUE[c] for c in sequence)
    if total > 31:
        raise ValueError(f"play sequence {cards_str(sequence)} totals {total}, over 31 (R6.2)")
    items: list[ScoreItem] = []
    seq = tuple(sequence)
    if total == 15:
        items.append(ScoreItem(ScoreKind.FIFTEEN, seq, 2))
    elif total == 31:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, seq, 2))
    last = RANK[seq[-1]]
    same = 1
    while same < n and RANK[seq[-1 - same]] == last:
        same += 1
    if same >= 2:
        kind = {2: ScoreKind.PAIR, 3: ScoreKind.PAIR_ROYAL, 4: ScoreKind.DOUBLE_PAIR_ROYAL}[same]
        items.append(ScoreItem(kind, seq[-same:], {2: 2, 3: 6, 4: 12}[same]))
    run = play_run_length(seq)
    if run:
        items.append(ScoreItem(ScoreKind.RUN, tuple(sorted(seq[-run:], key=RANK.__getitem__)), run))
    return items


def play_run_length(seq: Sequence[int]) -> int:
    """Length of the longest run (>= 3) ending at the last card, or 0 (R7.3)."""
    n = len(seq)
    for k in range(n, 2, -1):
        ranks = [RANK[c] for c in seq[n - k :]]
        if max(ranks) - min(ranks) == k - 1 and len(set(ranks)) == k:
            return k
    return 0


def play_points_fast(seq: list[int], total: int) -> int:
    """Unchecked :func:`score_play` for the engine's hot path; ``total`` is the running count."""
    return play_points_at(seq, 0, len(seq), total)


def play_points_at(cards, off: int, n: int, total: int) -> int:
    """Points for the last of the ``n`` cards ``cards[off:off + n]`` at running count ``total``
    (R7), unchecked. The compiled kernels compile this very function
    (:data:`cribbage_env.kernels.simkernel.play_points`): one implementation of the pegging rules.

    Runs are found in one backward scan: tails grow one card at a time until a rank repeats
    (every longer tail then repeats it too); the longest tail spanning exactly its length in
    ranks is the run (R7.3).

    >>> play_points_at([99, 4, 5, 3], 1, 3, 15)  # 5, 6, 4 at fifteen: a run of 3 and 2
    5
    """
    pts = 2 if total == 15 or total == 31 else 0
    if n < 2:
        return pts
    last = RANK[cards[off + n - 1]]
    prev = RANK[cards[off + n - 2]]
    if prev == last:
        if n >= 3 and RANK[cards[off + n - 3]] == last:
            if n >= 4 and RANK[cards[off + n - 4]] == last:
                return pts + 12
            return pts + 6
        return pts + 2
    if n < 3:
        return pts
    third = RANK[cards[off + n - 3]]
    if third == last or third == prev:
        return pts  # the last three repeat a rank: no run ends here
    lo = min(last, min(prev, third))
    hi = max(last, max(prev, third))
    run = 3 if hi - lo == 2 else 0
    seen = (1 << last) | (1 << prev) | (1 << third)
    for i in range(n - 4, -1, -1):
        r = RANK[cards[off + i]]
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        if r < lo:
            lo = r
        elif r > hi:
            hi = r
        if hi - lo == n - 1 - i:
            run = n - i
    return pts + run
