"""PlayerView: exactly what one seat may know. Agents, observations and the GUI read only this.

A view is built from the state but holds no reference to it, so nothing hidden (the opponent's
hand, the crib before the show, the deck order, the seed) can be reached through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from .cards import cards_str
from .core import STANDARD, EventKind, Phase, Rules
from .events import Event

if TYPE_CHECKING:  # views read a state through its fields; they import no engine code
    from .state import State


@dataclass(frozen=True)
class PlayerView:
    """One seat's knowledge of the game at this moment."""

    seat: int
    phase: Phase
    to_act: int | None  # whose decision it is (None when the game is over)
    legal_actions: tuple[int, ...]  # this seat's legal actions (empty when not its turn)
    dealer: int
    deal: int  # deal number, 0-based
    scores: tuple[int, int]
    hand: tuple[int, ...]  # cards held now (six before the discard, then the unplayed ones)
    kept: tuple[int, ...]  # the four kept for the show (after the discard)
    discards: tuple[int, ...]  # own two crib cards (after the discard)
    opponent_discarded: bool
    starter: int | None
    count: int  # running total of the current play sequence
    sequence: tuple[int, ...]  # cards since the last reset
    played: tuple[tuple[int, int], ...]  # (player, card) laid this deal, in order
    go_said: tuple[bool, bool]  # who has said go in the current sequence
    goes: tuple[tuple[int, int], ...]  # (player, count when they said go) this deal
    opponent_cards_left: int  # cards the opponent still holds
    winner: int | None
    rules: Rules = STANDARD  # the target score and skunk lines of this game

    @classmethod
    def at_deal(
        cls,
        seat: int,
        dealer: int,
        hand: Sequence[int],
        *,
        phase: Phase = Phase.DISCARD,
        deal: int = 0,
        scores: tuple[int, int] = (0, 0),
        rules: Rules = STANDARD,
        **fields: Any,
    ) -> PlayerView:
        """``seat``'s view at the start of a stage of a deal dealt by ``dealer``: holding
        ``hand``, nothing laid, no count, no go, nobody to act; ``fields`` set the others
        (``starter``, ``kept``, ``legal_actions``...). For views no game reached (a discard
        asked on its own, a search's imagined play).

        >>> v = PlayerView.at_deal(0, 1, range(6))
        >>> v.phase.value, v.hand, v.opponent_cards_left, v.to_act, v.is_dealer
        ('discard', (0, 1, 2, 3, 4, 5), 6, None, False)
        """
        base: dict[str, Any] = dict(
            seat=seat, phase=phase, to_act=None, legal_actions=(), dealer=dealer, deal=deal,
            scores=scores, hand=tuple(hand), kept=(), discards=(), opponent_discarded=False,
            starter=None, count=0, sequence=(), played=(), go_said=(False, False), goes=(),
            opponent_cards_left=6, winner=None, rules=rules,
        )  # fmt: skip
        return cls(**{**base, **fields})

    @property
    def is_dealer(self) -> bool:
        return self.dealer == self.seat

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def own_cards_this_deal(self) -> tuple[int, ...]:
        """The six cards this seat was dealt (hand before discard, or kept + discards)."""
        if self.phase is Phase.DISCARD and not self.discards:
            return self.hand
        return self.kept + self.discards

    def unseen_cards(self) -> list[int]:
        """Cards this seat has not seen this deal: the opponent's hand, crib and deck are among them."""
        seen = set(self.own_cards_this_deal())
        if self.starter is not None:
            seen.add(self.starter)
        seen.update(c for _, c in self.played)
        return [c for c in range(52) if c not in seen]

    def __str__(self) -> str:
        star = cards_str([self.starter]) if self.starter is not None else "--"
        return (
            f"P{self.seat} {self.phase.value} deal {self.deal} dealer P{self.dealer} "
            f"scores {self.scores} hand [{cards_str(self.hand)}] starter {star} "
            f"count {self.count} seq [{cards_str(self.sequence)}]"
        )


def make_view(state: State, seat: int, legal: Sequence[int]) -> PlayerView:
    """The view of ``seat`` (what :meth:`GameState.view` returns); ``legal`` is the state's legal
    actions, which the engine knows (views read a state's fields and no rules)."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    to_act = state.current_player
    disc = state.discards
    return PlayerView(
        seat=seat,
        phase=state.phase,
        to_act=to_act,
        legal_actions=tuple(legal) if to_act == seat else (),
        dealer=state.dealer,
        deal=max(state.deal_no, 0),
        scores=state.scores,
        hand=tuple(state.hands[seat]),
        kept=tuple(state.kept[seat]) if disc[seat] else (),
        discards=tuple(disc[seat]),
        opponent_discarded=bool(disc[1 - seat]),
        starter=state.starter,
        count=state.count,
        sequence=tuple(state.seq),
        played=tuple(state.played),
        go_said=(state.go_said[0], state.go_said[1]),
        goes=tuple(state.goes),
        opponent_cards_left=len(state.hands[1 - seat]),
        winner=state.winner,
        rules=state.rules,
    )


def visible_events(state: State, seat: int | None) -> list[Event]:
    """The event history as ``seat`` saw it (``None``: a spectator who sees only public events).

    Hidden cards are removed: the opponent's deal and discards; the crib stays hidden until
    its show event.
    """
    out = []
    for e in state.events:
        if e.kind is EventKind.DEAL:
            pone = 1 - cast(int, e.player)  # a DEAL event's player is the dealer
            own = () if seat is None else (e.cards[:6] if seat == pone else e.cards[6:])
            e = Event(e.kind, e.deal, e.player, own, 0, (), e.scores)
        elif e.kind is EventKind.DISCARD and e.player != seat:
            e = Event(e.kind, e.deal, e.player, (), 0, (), e.scores)
        out.append(e)
    return out


def view_to_data(view: PlayerView) -> dict[str, Any]:
    """``view`` as plain JSON data (lists, ints, strings), for a seat in another process: one
    entry a field, written from the dataclass fields, so a new field needs no edit here.

    >>> from cribbage_env.rules.engine import new_game
    >>> v = new_game(3).view(1)
    >>> view_from_data(view_to_data(v)) == v
    True
    """
    return {f.name: _plain(getattr(view, f.name)) for f in fields(PlayerView)}


def view_from_data(data: dict[str, Any]) -> PlayerView:
    """The view :func:`view_to_data` wrote (from a trusted writer: the engine's process)."""
    return PlayerView(**{name: read(data[name]) for name, read in _READERS.items()})


def _plain(value: Any) -> Any:
    if isinstance(value, Phase):
        return value.value
    if isinstance(value, Rules):
        return value.to_json()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _rules(data: dict[str, Any]) -> Rules:
    return _rules_of(tuple(sorted(data.items())))


@lru_cache(maxsize=16)
def _rules_of(items: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_json(dict(items))


def _reader(annotation: str) -> Callable[[Any], Any]:
    """How a field of this annotation comes back from JSON data."""
    if annotation == "Phase":
        return Phase
    if annotation.startswith("Rules"):
        return _rules
    return _tuples if annotation.startswith("tuple[") else lambda value: value


#: Each field of a view with the way it is read back, from the annotations.
_READERS: dict[str, Callable[[Any], Any]] = {
    f.name: _reader(str(f.type)) for f in fields(PlayerView)
}
