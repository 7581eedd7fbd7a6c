"""Show scoring (R9): fast totals from precomputed tables, plus breakdowns that say which cards
scored what, so people and the GUI can read the count (and say it: :func:`narrate`). The kinds
of score (:class:`ScoreKind`, :class:`ScoreItem`) are shared with pegging
(:mod:`cribbage_env.rules.pegging`, R7 and R8).

Totals for fifteens, pairs and runs depend only on the multiset of ranks, so they are looked up in
a table keyed by rank counts; flush and nobs are added from suits. The breakdown functions
enumerate combinations and are the readable (slower) path; tests check both agree.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from itertools import combinations

from .cards import JACK, RANK, SUIT, VALUE, card_str, cards_str


class ScoreKind(str, Enum):
    """Why points were scored; the value is a stable string used in records."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    PAIR_ROYAL = "pair royal"  # three of a kind while pegging (R7.2)
    DOUBLE_PAIR_ROYAL = "double pair royal"  # four of a kind while pegging (R7.2)
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    THIRTY_ONE = "thirty-one"
    GO = "go"
    LAST_CARD = "last card"
    HIS_HEELS = "his heels"


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it and its points."""

    kind: ScoreKind
    cards: tuple[int, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind.value} {cards_str(self.cards)} for {self.points}"

    def to_json(self) -> dict:
        return {
            "kind": self.kind.value,
            "cards": [card_str(c) for c in self.cards],
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: dict) -> ScoreItem:
        from .cards import parse_card

        return cls(
            ScoreKind(data["kind"]),
            tuple(parse_card(c) for c in data["cards"]),
            int(data["points"]),
        )


# ---------------------------------------------------------------------------------------------
# Rank-multiset table: key = sum of 5**rank over the cards (counts never exceed 4, so the key is
# unique). Computed from the combinatorial definition (R9.2-R9.4) by build_rank_table and shipped
# as data (building it at import took longer than importing gymnasium).

_POW5 = tuple(5**r for r in range(13))
#: Key contribution of each card id.
KEY: tuple[int, ...] = tuple(_POW5[RANK[c]] for c in range(52))


def _rank_points(ranks: Sequence[int]) -> int:
    """Fifteens + pairs + runs of a rank multiset, by enumerating subsets (the definition)."""
    values = [min(r + 1, 10) for r in ranks]
    n = len(ranks)
    pts = 0
    for k in range(2, n + 1):
        for idx in combinations(range(n), k):
            if sum(values[i] for i in idx) == 15:
                pts += 2
    for i, j in combinations(range(n), 2):
        if ranks[i] == ranks[j]:
            pts += 2
    # Runs: the longest stretch of consecutive distinct ranks (>= 3); each way to pick one card
    # per rank is a distinct run, so it scores length x product of the counts.
    counts = [ranks.count(r) for r in range(13)]
    r = 0
    while r < 13:
        if counts[r]:
            end = r
            while end + 1 < 13 and counts[end + 1]:
                end += 1
            length = end - r + 1
            if length >= 3:
                ways = 1
                for q in range(r, end + 1):
                    ways *= counts[q]
                pts += length * ways
            r = end + 1
        else:
            r += 1
    return pts


def _rank_multisets(n: int, start: int = 0) -> Iterable[tuple[int, ...]]:
    if n == 0:
        yield ()
        return
    for r in range(start, 13):
        for rest in _rank_multisets(n - 1, r):
            ms = (r, *rest)
            if ms.count(r) <= 4:
                yield ms


def build_rank_table() -> dict[int, int]:
    """The rank table from the definition (what ``data/rank_points.json`` holds)."""
    table: dict[int, int] = {}
    for n in (4, 5):
        for ms in _rank_multisets(n):
            table[sum(_POW5[r] for r in ms)] = _rank_points(ms)
    return table


def rank_table_json(table: dict[int, int]) -> str:
    """The shipped file's text: sorted keys and their points, as two lists."""
    keys = sorted(table)
    return json.dumps({"keys": keys, "points": [table[k] for k in keys]}, separators=(",", ":"))


def _load_rank_table() -> dict[int, int]:
    """The shipped table (written by ``benchmarks/tables/rank_points_table.py``; a test rebuilds it)."""
    data = json.loads(resources.files("cribbage_env").joinpath("data/rank_points.json").read_text())
    return dict(zip(data["keys"], data["points"], strict=True))


#: Fifteens + pairs + runs keyed by the rank key of 4 or 5 cards.
RANK_POINTS: dict[int, int] = _load_rank_table()

#: Flush points (R9.5) indexed ``[crib][state]``; state 0: no four-card flush, 1: four of a suit
#: but the starter differs, 2: all five of one suit. Shared by :func:`score_fast` and the batch
#: scorer (``cribbage_env.unseen.batch``) so the rule lives once.
FLUSH_POINTS: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 4, 5), (0, 0, 5))
#: Nobs (R9.6): a Jack in hand or crib of the starter's suit.
NOBS_POINTS = 1
#: His heels (R5.2): a jack turned as the starter.
HEELS_POINTS = 2


def heels_points(starter: int) -> int:
    """His heels (R5.2): what the dealer pegs when ``starter`` is turned. The one definition:
    the engine calls it and the compiled kernels compile it as is (``simkernel.heels_points``).

    >>> heels_points(10), heels_points(11)  # the jack and the queen of clubs
    (2, 0)
    """
    return HEELS_POINTS if RANK[starter] == JACK else 0


def _check_show_cards(hand: Sequence[int], starter: int | None) -> None:
    if len(hand) != 4:
        raise ValueError(f"a show hand has 4 cards, got {len(hand)}: {list(hand)!r}")
    cards = [*hand] if starter is None else [*hand, starter]
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 52:
            raise ValueError(f"card ids must be ints 0..51, got {cards!r}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate cards in {cards_str(cards)}")


def score_hand(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Show points of four cards with the starter (R9). ``crib=True`` applies the crib flush rule.

    >>> from cribbage_env.rules.cards import parse_cards
    >>> score_hand(parse_cards("5H 5D 5C JS"), parse_cards("5S")[0])
    29
    >>> score_hand(parse_cards("2H 4H 7H 9H"), parse_cards("TC")[0])  # fifteen 2 + flush 4
    6
    >>> score_hand(parse_cards("2H 4H 7H 9H"), parse_cards("TC")[0], crib=True)  # no crib flush
    2
    """
    if len(hand) == 4:  # fast path: four distinct plain ints 0..51 with the starter
        a, b, c, d = hand
        five = {a, b, c, d, starter}
        if (
            len(five) == 5
            and five <= _CARD_IDS
            and type(a) is int
            and type(b) is int
            and type(c) is int
            and type(d) is int
            and type(starter) is int
        ):
            return score_fast(a, b, c, d, starter, crib)
    _check_show_cards(hand, starter)
    return score_fast(hand[0], hand[1], hand[2], hand[3], starter, crib)


_CARD_IDS = frozenset(range(52))


def score_fast(a: int, b: int, c: int, d: int, s: int, crib: bool) -> int:
    """Unchecked show score (the engine's hot path)."""
    pts = RANK_POINTS[KEY[a] + KEY[b] + KEY[c] + KEY[d] + KEY[s]]
    su = SUIT[a]
    if SUIT[b] == su and SUIT[c] == su and SUIT[d] == su:
        pts += FLUSH_POINTS[crib][2 if SUIT[s] == su else 1]
    nob = SUIT[s] * 13 + JACK
    if a == nob or b == nob or c == nob or d == nob:
        pts += NOBS_POINTS
    return pts


def score_hand_breakdown(hand: Sequence[int], starter: int, crib: bool = False) -> list[ScoreItem]:
    """Every scoring combination of a show, in the order people count: fifteens, pairs, runs,
    flush, nobs.

    >>> from cribbage_env.rules.cards import parse_cards
    >>> items = score_hand_breakdown(parse_cards("5H 5D 4C 6S"), parse_cards("KD")[0])
    >>> [(i.kind.value, i.points) for i in items]  # doctest: +NORMALIZE_WHITESPACE
    [('fifteen', 2), ('fifteen', 2), ('fifteen', 2), ('fifteen', 2), ('pair', 2), ('run', 3),
     ('run', 3)]
    >>> narrate(items)
    'fifteen 2, fifteen 4, fifteen 6, fifteen 8, a pair is 10, a run of 3 is 13, a run of 3 is 16'
    """
    _check_show_cards(hand, starter)
    cards = list(hand) + [starter]
    items: list[ScoreItem] = []
    for k in range(2, 6):
        for combo in combinations(cards, k):
            if sum(VALUE[c] for c in combo) == 15:
                items.append(ScoreItem(ScoreKind.FIFTEEN, combo, 2))
    for x, y in combinations(cards, 2):
        if RANK[x] == RANK[y]:
            items.append(ScoreItem(ScoreKind.PAIR, (x, y), 2))
    for k in (5, 4, 3):
        runs = []
        for combo in combinations(cards, k):
            rs = sorted(RANK[c] for c in combo)
            if all(rs[t + 1] == rs[t] + 1 for t in range(k - 1)):
                runs.append(ScoreItem(ScoreKind.RUN, tuple(sorted(combo, key=RANK.__getitem__)), k))
        if runs:
            items.extend(runs)
            break
    suits = {SUIT[c] for c in hand}
    if len(suits) == 1:
        if SUIT[starter] in suits:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(cards), 5))
        elif not crib:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(hand), 4))
    nob = SUIT[starter] * 13 + JACK
    if nob in hand:
        items.append(ScoreItem(ScoreKind.NOBS, (nob,), 1))
    return items


#: How each combination of a show is said, with the running total (R9). The one table of these
#: phrases: English here (:func:`narrate`), message ids the game translates (``ui.words.narration``).
COUNT_PHRASES: dict[ScoreKind, str] = {
    ScoreKind.FIFTEEN: "fifteen {total}",
    ScoreKind.PAIR: "a pair is {total}",
    ScoreKind.RUN: "a run of {n} is {total}",
    ScoreKind.FLUSH: "a flush of {n} is {total}",
    ScoreKind.NOBS: "his nobs is {total}",
}
#: What a show with no points is called.
NOTHING_COUNTED = "nineteen (nothing)"
_OTHER_POINTS = "{points} points"


def _english(phrase: str, **values: object) -> str:
    return phrase.format(**values)


def count_lines(items: Iterable[ScoreItem], say: Callable[..., str] = _english) -> list[str]:
    """Each combination as said aloud with the running total; ``say(phrase, **values)`` fills
    (and may translate) a phrase of :data:`COUNT_PHRASES`.

    >>> from cribbage_env.rules.cards import parse_cards
    >>> count_lines(score_hand_breakdown(parse_cards("JH 2C 3C 9S"), parse_cards("4H")[0]))
    ['fifteen 2', 'fifteen 4', 'a run of 3 is 7', 'his nobs is 8']
    """
    lines = []
    running = 0
    for item in items:
        running += item.points
        phrase = COUNT_PHRASES.get(item.kind, _OTHER_POINTS)
        lines.append(say(phrase, total=running, n=len(item.cards), points=item.points))
    return lines


def narrate(items: Iterable[ScoreItem]) -> str:
    """The count as a player says it, with running totals (English; the game says it in the
    player's language with the same phrases, :data:`COUNT_PHRASES`).

    >>> from cribbage_env.rules.cards import parse_cards
    >>> narrate(score_hand_breakdown(parse_cards("5H 5D 5C JS"), parse_cards("5S")[0]))[:40]
    'fifteen 2, fifteen 4, fifteen 6, fifteen'
    """
    lines = count_lines(items)
    return ", ".join(lines) if lines else NOTHING_COUNTED
