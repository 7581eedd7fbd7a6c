"""Cards as small ints: id = 13 * suit + rank, suits C D H S, ranks A..K (same ids as OpenSpiel).

Ints keep the engine's hot path free of object churn; :class:`Card` is a thin, hashable view for
people and records.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .core import CribbageError

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = "♣♦♥♠"
JACK = 10
FIVE = 4

#: Counting value of each card id (R1.2): Ace 1, J/Q/K 10, other cards their rank.
VALUE: tuple[int, ...] = tuple(min(c % 13 + 1, 10) for c in range(52))
#: Rank index 0..12 of each card id (R1.3: Ace low, King high).
RANK: tuple[int, ...] = tuple(c % 13 for c in range(52))
#: Suit index 0..3 of each card id.
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))


class CardParseError(CribbageError, ValueError):
    """A card string could not be read; the message names the bad token and the accepted forms."""


def card_str(card_id: int) -> str:
    """Two-character name of a card id.

    >>> card_str(0), card_str(17), card_str(51)
    ('AC', '5D', 'KS')
    """
    if not 0 <= card_id < 52:
        raise ValueError(f"card id must be 0..51, got {card_id!r}")
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def parse_card(text: str) -> int:
    """Card id from a string such as ``"5H"``, ``"td"`` or ``"10D"``.

    >>> parse_card("5H"), parse_card("10d"), parse_card("Ts")
    (30, 22, 48)
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    cribbage_env.rules.cards.CardParseError: bad card '1X': expected rank A 2-9 T/10 J Q K followed by suit C D H S, e.g. '5H' or '10D'
    """
    if not isinstance(text, str):
        raise CardParseError(f"bad card {text!r}: expected a string such as '5H'")
    token = text.strip().upper()
    rank_text, suit_text = token[:-1], token[-1:]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS or not suit_text:
        raise CardParseError(
            f"bad card {text!r}: expected rank A 2-9 T/10 J Q K followed by suit C D H S, "
            "e.g. '5H' or '10D'"
        )
    return SUITS.index(suit_text) * 13 + RANKS.index(rank_text)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card ids from a space/comma separated string (or an iterable of card strings).

    >>> parse_cards("5H 5D 5C JS")
    [30, 17, 4, 49]
    >>> parse_cards("5h,10d")
    [30, 22]
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def cards_str(cards: Iterable[int]) -> str:
    """Space separated names.

    >>> cards_str([30, 17, 4, 49])
    '5H 5D 5C JS'
    """
    return " ".join(card_str(c) for c in cards)


@dataclass(frozen=True, order=True)
class Card:
    """A card as a value object; ``int(card)`` is its id.

    >>> Card.parse("QS"), str(Card.parse("QS")), Card(0).value
    (Card('QS'), 'QS', 1)
    """

    id: int

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or not 0 <= self.id < 52:
            raise ValueError(f"card id must be an int 0..51, got {self.id!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def rank(self) -> int:
        return self.id % 13

    @property
    def suit(self) -> int:
        return self.id // 13

    @property
    def value(self) -> int:
        return VALUE[self.id]

    def __int__(self) -> int:
        return self.id

    def __index__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return card_str(self.id)

    def __repr__(self) -> str:
        return f"Card({card_str(self.id)!r})"
