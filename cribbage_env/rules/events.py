"""Typed events: what happened in a game, with its points, the reasons for them and the scores after.

The engine logs an :class:`Event` for everything that happens: a light immutable tuple of the
facts and the scores after it. It works out the scoring reasons (a breakdown by the show and
pegging scorers) only when ``reasons`` is read, so the engine's hot path and readers that only
tally points (tournaments, the board's pegs) pay nothing for them.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import VALUE, cards_str
from .core import EventKind
from .pegging import score_play_breakdown
from .scoring import ScoreItem, ScoreKind, score_hand_breakdown

_PLAY, _SHOW, _SCORE = EventKind.PLAY, EventKind.SHOW, EventKind.SCORE


class _EventFields(NamedTuple):
    kind: EventKind
    deal: int
    player: int | None
    cards: tuple[int, ...]
    points: int
    given_reasons: tuple[ScoreItem, ...] | None  # None: worked out from the cards when read
    scores: tuple[int, int]
    what: str  # "hand" / "crib" for SHOW
    score_kind: ScoreKind | None  # which score a SCORE event is (go, last card, his heels)


class Event(_EventFields):
    """Something that happened, with the points and their reasons and the scores after it.

    Immutable. ``reasons`` is worked out when read unless given. ``what`` is "hand" or "crib"
    for a SHOW event; ``score_kind`` says which score a SCORE event is.

    >>> e = Event(EventKind.GO, 0, 1)
    >>> e.kind.value, e.player, e.points, e.reasons
    ('go', 1, 0, ())
    """

    __slots__ = ()

    def __new__(
        cls,
        kind: EventKind,
        deal: int,
        player: int | None = None,
        cards: tuple[int, ...] = (),
        points: int = 0,
        reasons: tuple[ScoreItem, ...] | None = None,
        scores: tuple[int, int] = (0, 0),
        what: str = "",
        score_kind: ScoreKind | None = None,
    ) -> Event:
        if score_kind is None and kind is _SCORE and reasons:
            score_kind = reasons[0].kind
        given = None if reasons is None else tuple(reasons)
        fields = (kind, deal, player, tuple(cards), points, given, scores, what, score_kind)
        return tuple.__new__(cls, fields)

    @property
    def reasons(self) -> tuple[ScoreItem, ...]:
        """The scoring items that add up to ``points`` (empty when it scored nothing)."""
        given = self.given_reasons
        if given is not None:
            return given
        if not self.points:
            return ()
        kind = self.kind
        if kind is _PLAY:
            return tuple(score_play_breakdown(self.cards))
        if kind is _SHOW:
            return tuple(
                score_hand_breakdown(self.cards[:4], self.cards[4], crib=self.what == "crib")
            )
        if kind is _SCORE and self.score_kind is not None:
            return (ScoreItem(self.score_kind, self.cards, self.points),)
        return ()

    @property
    def count(self) -> int:  # type: ignore[override]  # the running total, not tuple.count
        """The running total after a PLAY event (its cards are the sequence since the reset)."""
        return sum(VALUE[c] for c in self.cards) if self.kind is _PLAY else 0

    def _key(self) -> tuple:
        return (
            self.kind,
            self.deal,
            self.player,
            self.cards,
            self.points,
            self.reasons,
            self.scores,
            self.what,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return False
        if self.given_reasons is None and other.given_reasons is None:
            return tuple.__eq__(self, other)  # reasons follow from the other fields
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, deal={self.deal}, player={self.player}, cards={self.cards}, "
            f"points={self.points}, reasons={self.reasons!r}, scores={self.scores}, what={self.what!r})"
        )

    def __str__(self) -> str:
        who = "" if self.player is None else f"P{self.player} "
        pts = f" +{self.points}" if self.points else ""
        return f"[deal {self.deal}] {who}{self.kind.value} {self.what} {cards_str(self.cards)}{pts}"
