"""Checks for set-up positions: cards, scores and plays that some deal could actually reach.

:meth:`cribbage_env.rules.state.State.in_play` (puzzles, tests, the search's guesses at hidden cards)
builds states through :func:`check_in_play`, so an impossible position is refused with a clear
:class:`~cribbage_env.rules.core.PositionError` instead of being played on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cards import VALUE, cards_str
from .core import PositionError, Rules


@dataclass
class Position:
    """The fields of a checked play-phase position, as fresh lists the state may own."""

    hands: list[list[int]]
    kept: list[list[int]]
    discards: list[tuple[int, ...]]
    crib: list[int]
    scores: list[int]
    sequence: list[int]
    count: int
    last_player: int
    goes: list[tuple[int, int]]
    played: list[tuple[int, int]]


def is_card_int(x: Any) -> bool:
    """An int (numpy ints too), not a bool."""
    return not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, np.integer))


def _cards(what: str, cards: Sequence[Any], n: int) -> list[int]:
    cards = list(cards)
    if len(cards) != n:
        raise PositionError(f"{what} must be {n} cards, got {len(cards)}")
    if not all(is_card_int(c) and 0 <= c < 52 for c in cards):
        raise PositionError(f"card ids must be ints 0..51, got {cards!r}")
    return [int(c) for c in cards]


def _check_played(
    kept: list[list[int]], played: Sequence[tuple[int, int]], sequence: Sequence[int]
) -> tuple[list[tuple[int, int]], list[int]]:
    out: list[tuple[int, int]] = []
    for item in played:
        if len(item) != 2 or item[0] not in (0, 1) or not is_card_int(item[1]):
            raise PositionError(f"played entries are (seat, card) pairs, got {item!r}")
        p, c = int(item[0]), int(item[1])
        if c not in kept[p]:
            raise PositionError(f"seat {p} played {cards_str([c])}, which it did not keep")
        out.append((p, c))
    cards = [c for _, c in out]
    if len(set(cards)) != len(cards):
        raise PositionError(f"a card was played twice: {cards_str(cards)}")
    seq = [int(c) for c in sequence]
    if seq != cards[len(cards) - len(seq) :] or len(seq) > len(cards):
        raise PositionError(
            f"the sequence {cards_str(seq)} is not the end of the cards played {cards_str(cards)}"
        )
    if sum(VALUE[c] for c in seq) > 31:
        raise PositionError(f"the count of {cards_str(seq)} is over 31")
    return out, seq


def check_scores(scores: Sequence[Any], rules: Rules) -> None:
    """Two ints below the target (a position where nobody has won yet)."""
    if len(scores) != 2 or not all(is_card_int(s) and 0 <= s < rules.target for s in scores):
        raise PositionError(f"scores must be two ints 0..{rules.target - 1}, got {scores!r}")


def check_seat(name: str, value: Any) -> None:
    """A seat (a dealer, the player to act) is 0 or 1 (numpy ints too, bools not)."""
    if value not in (0, 1) or isinstance(value, bool):
        raise PositionError(f"{name} must be 0 or 1, got {value!r}")


def check_deal_start(dealer: Any, scores: Sequence[Any], deal: Any, rules: Rules) -> None:
    """The start of a deal: its dealer, the scores before it and its number (from 0)."""
    check_seat("dealer", dealer)
    check_scores(scores, rules)
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
        raise PositionError(f"deal must be a non-negative int, got {deal!r}")


def check_in_play(
    dealer: Any,
    kept: Sequence[Sequence[int]],
    discards: Sequence[Sequence[int]],
    starter: Any,
    scores: Sequence[Any],
    played: Sequence[tuple[int, int]],
    sequence: Sequence[int],
    goes: Sequence[tuple[int, int]],
    rules: Rules,
) -> Position:
    """The position's fields, or :class:`PositionError` saying what no deal could reach.

    >>> from cribbage_env.rules.cards import parse_cards as p
    >>> from cribbage_env.rules.core import STANDARD
    >>> check_in_play(0, [p("5H 5D 5C JS"), p("2C 3C 4C 6C")], [p("KH KD"), p("5H QC")],
    ...               p("5S")[0], (0, 0), (), (), (), STANDARD)
    Traceback (most recent call last):
    cribbage_env.rules.core.PositionError: a position needs 13 different cards, got 5H 5D 5C JS 2C 3C 4C 6C KH KD 5H QC 5S
    """
    check_seat("dealer", dealer)
    if len(kept) != 2 or len(discards) != 2:
        raise PositionError("a position needs two hands of four cards and a crib of four")
    keeps = [_cards(f"seat {p}'s kept hand", kept[p], 4) for p in (0, 1)]
    disc = [tuple(_cards(f"seat {p}'s discards", discards[p], 2)) for p in (0, 1)]
    if not is_card_int(starter) or not 0 <= starter < 52:
        raise PositionError(f"card ids must be ints 0..51, got starter {starter!r}")
    cards = [*keeps[0], *keeps[1], *disc[0], *disc[1], int(starter)]
    if len(set(cards)) != 13:
        raise PositionError(f"a position needs 13 different cards, got {cards_str(cards)}")
    check_scores(scores, rules)
    played_, seq = _check_played(keeps, played, sequence)
    hands = [[c for c in keeps[p] if (p, c) not in played_] for p in (0, 1)]
    pone = 1 - dealer
    return Position(
        hands=hands,
        kept=keeps,
        discards=[disc[0], disc[1]],
        crib=[*disc[pone], *disc[dealer]],
        scores=[int(scores[0]), int(scores[1])],
        sequence=seq,
        count=sum(VALUE[c] for c in seq),
        last_player=played_[-1][0] if played_ else -1,
        goes=[(int(p), int(c)) for p, c in goes],
        played=played_,
    )
