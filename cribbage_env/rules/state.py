"""The game state's fields, set-up positions and readers (events, copies, equality).

:class:`State` is the base of :class:`cribbage_env.rules.engine.GameState`: it defines what a state is
(once) and how to read it; the engine adds the rules that change it. Set-up positions
(:meth:`State.in_play`) are the one public way to build a state that was not reached by play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from .chance import ChanceSource, check_seed, shared_chance
from .core import STANDARD, EventKind, Phase, PositionError, Rules
from .events import Event
from .positions import check_deal_start, check_in_play, check_seat
from .scoring import ScoreKind

_S = TypeVar("_S", bound="State")
_new = object.__new__
_new_event = tuple.__new__


class State:
    """The fields of a game state, defined once, everything that only reads or copies them, and
    the one way events are logged (:meth:`_event`).

    The annotated fields below are the whole state; :meth:`_fill` is the one place that assigns
    them (the engine's constructor, :meth:`in_play` and :meth:`clone` all go through it). The
    rules that change them are :class:`cribbage_env.rules.engine.GameState`.
    """

    __slots__ = (
        "rules", "seed", "interactive_cuts", "_chance", "phase", "dealer", "deal_no", "hands",
        "kept", "discards", "crib", "starter", "scores_", "to_act", "seq", "count", "last_player",
        "go_said", "goes", "played", "decisions", "_log", "winner", "_cut_attempt", "_cut_cards",
        "set_up",
    )  # fmt: skip

    rules: Rules
    seed: int
    interactive_cuts: bool
    _chance: ChanceSource
    phase: Phase
    dealer: int
    deal_no: int
    hands: list[list[int]]
    kept: list[list[int]]
    discards: list[tuple[int, ...]]
    crib: list[int]
    starter: int | None
    scores_: list[int]
    to_act: int
    seq: list[int]
    count: int
    last_player: int
    go_said: list[bool]
    goes: list[tuple[int, int]]
    played: list[tuple[int, int]]
    decisions: list[int]
    _log: list[Event]  # the typed events, appended by the engine; read with events_since
    winner: int | None
    _cut_attempt: int
    _cut_cards: list[int]
    #: True for a position made by :meth:`in_play` / :meth:`from_position` (no replayable record).
    set_up: bool

    def _fill(
        self,
        seed: int,
        interactive_cuts: bool,
        rules: Rules,
        chance: ChanceSource,
        phase: Phase = Phase.CUT_FOR_DEAL,
        dealer: int = 0,
        deal_no: int = -1,
        hands: list[list[int]] | None = None,
        kept: list[list[int]] | None = None,
        discards: list[tuple[int, ...]] | None = None,
        crib: list[int] | None = None,
        starter: int | None = None,
        scores: list[int] | None = None,
        to_act: int = 0,
        seq: list[int] | None = None,
        count: int = 0,
        last_player: int = -1,
        go_said: list[bool] | None = None,
        goes: list[tuple[int, int]] | None = None,
        played: list[tuple[int, int]] | None = None,
        decisions: list[int] | None = None,
        log: list[Event] | None = None,
        winner: int | None = None,
        cut_attempt: int = 0,
        cut_cards: list[int] | None = None,
        set_up: bool = False,
    ) -> None:
        """Assign every field (lists are taken as given: callers pass fresh ones)."""
        self.rules = rules
        self.seed = seed
        self.interactive_cuts = interactive_cuts
        self._chance = chance
        self.phase = phase
        self.dealer = dealer
        self.deal_no = deal_no
        self.hands = [[], []] if hands is None else hands
        self.kept = [[], []] if kept is None else kept
        self.discards = [(), ()] if discards is None else discards
        self.crib = [] if crib is None else crib
        self.starter = starter
        self.scores_ = [0, 0] if scores is None else scores
        self.to_act = to_act
        self.seq = [] if seq is None else seq
        self.count = count
        self.last_player = last_player
        self.go_said = [False, False] if go_said is None else go_said
        self.goes = [] if goes is None else goes
        self.played = [] if played is None else played
        self.decisions = [] if decisions is None else decisions
        self._log = [] if log is None else log
        self.winner = winner
        self._cut_attempt = cut_attempt
        self._cut_cards = [] if cut_cards is None else cut_cards
        self.set_up = set_up

    # ----------------------------------------------------------------------------- properties
    @property
    def scores(self) -> tuple[int, int]:
        return (self.scores_[0], self.scores_[1])

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current_player(self) -> int | None:
        """Seat whose decision it is, or ``None`` when the game is over."""
        return None if self.winner is not None else self.to_act

    @property
    def pone(self) -> int:
        return 1 - self.dealer

    # ----------------------------------------------------------------------------- set-up positions
    @classmethod
    def in_play(
        cls: type[_S],
        *,
        dealer: int,
        kept: Sequence[Sequence[int]],
        discards: Sequence[Sequence[int]],
        starter: int,
        scores: Sequence[int] = (0, 0),
        played: Sequence[tuple[int, int]] = (),
        sequence: Sequence[int] = (),
        go_said: Sequence[bool] = (False, False),
        goes: Sequence[tuple[int, int]] = (),
        to_act: int | None = None,
        deal: int = 0,
        seed: int = 0,
        rules: Rules | str = STANDARD,
    ) -> _S:
        """A state in the play of a deal, from the cards each seat kept and discarded.

        The one public way to make a state that was not reached by play (puzzles, tests and
        the search's guesses at hidden cards). ``kept[p]`` are the four cards seat ``p`` kept,
        ``discards[p]`` its two crib cards, ``played`` the ``(seat, card)`` pairs laid so far this
        deal, ``sequence`` the cards since the last reset, ``to_act`` whose turn it is (default:
        the pone, who leads). Raises :class:`PositionError` for anything no deal could reach.
        Later deals come from ``seed``; the state is :attr:`set_up` and has no history.

        >>> from cribbage_env.rules.cards import parse_cards as p
        >>> from cribbage_env.rules.engine import GameState
        >>> g = GameState.in_play(dealer=0, kept=[p("5H 5D 5C JS"), p("2C 3C 4C 6C")],
        ...                       discards=[p("KH KD"), p("QS QC")], starter=p("5S")[0])
        >>> g.phase.value, g.current_player, g.legal_actions() == g.hands[1]
        ('play', 1, True)
        """
        rules = Rules.named(rules)
        pos = check_in_play(dealer, kept, discards, starter, scores, played, sequence, goes, rules)
        if to_act is None:
            to_act = 1 - dealer
        check_seat("to_act", to_act)
        if len(go_said) != 2:
            raise PositionError(f"go_said needs two flags, got {go_said!r}")
        check_seed(seed)
        g = cls.__new__(cls)
        g._fill(
            int(seed), False, rules, shared_chance(int(seed)), Phase.PLAY, dealer, int(deal),
            hands=pos.hands, kept=pos.kept, discards=pos.discards, crib=pos.crib,
            starter=int(starter), scores=pos.scores, to_act=int(to_act), seq=pos.sequence,
            count=pos.count, last_player=pos.last_player, go_said=[bool(x) for x in go_said],
            goes=pos.goes, played=pos.played, set_up=True,
        )  # fmt: skip
        return g

    @classmethod
    def at_deal_start(
        cls: type[_S],
        chance: ChanceSource,
        *,
        dealer: int,
        scores: Sequence[int] = (0, 0),
        deal: int = 0,
        rules: Rules | str = STANDARD,
    ) -> _S:
        """A state before the cut of deal ``deal``, its cards to come from ``chance``.

        For drivers that draw the cards themselves (OpenSpiel's chance nodes): ``chance`` answers
        ``deck(deal)`` with that deal's order (twelve dealt cards, then the starter) when the
        engine needs it. Cuts are interactive, so the state waits at the pone's cut before each
        deal and before the starter. The state is :attr:`set_up` and has no history.

        >>> from cribbage_env.rules.engine import GameState
        >>> class Ordered:
        ...     def deck(self, deal):
        ...         return list(range(52))
        >>> g = GameState.at_deal_start(Ordered(), dealer=1, scores=(100, 7))
        >>> g.phase.value, g.current_player, g.scores
        ('deal cut', 0, (100, 7))
        >>> g.apply(g.legal_actions()[0]); g.hands[0][:3], g.phase.value
        ([0, 2, 4], 'discard')
        """
        rules = Rules.named(rules)
        check_deal_start(dealer, scores, deal, rules)
        g = cls.__new__(cls)
        g._fill(
            0, True, rules, chance, Phase.DEAL_CUT, dealer, deal,
            scores=[int(scores[0]), int(scores[1])], to_act=1 - dealer, set_up=True,
        )  # fmt: skip
        return g

    @classmethod
    def from_position(
        cls: type[_S],
        hands: Sequence[Sequence[int]],
        crib: Sequence[int],
        starter: int,
        *,
        dealer: int = 0,
        scores: Sequence[int] = (0, 0),
        seed: int = 0,
        rules: Rules | str = STANDARD,
    ) -> _S:
        """A game set up at the start of the play with chosen cards (R6.1: the pone leads).

        For tests, puzzles and analysis of particular positions: ``hands[p]`` are the four cards
        seat ``p`` kept, ``crib`` the four discards (the pone's two, then the dealer's), ``starter``
        the cut card. His heels is not scored (the position starts after the cut). Later deals
        come from ``seed`` as usual. Such a state is marked :attr:`set_up` and has no record.
        Built by :meth:`in_play`, with the deal, discards and cut in its event history.

        >>> from cribbage_env.rules.cards import parse_cards
        >>> from cribbage_env.rules.engine import GameState
        >>> g = GameState.from_position([parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
        ...                             parse_cards("KH KD QS QC"), parse_cards("5S")[0])
        >>> g.phase.value, g.current_player, g.scores
        ('play', 1, (0, 0))
        """
        check_seat("dealer", dealer)
        if len(crib) != 4:
            raise PositionError("a position needs two hands of four cards and a crib of four")
        pone = 1 - dealer
        discards: list[Sequence[int]] = [(), ()]
        discards[pone], discards[dealer] = crib[:2], crib[2:]
        g = cls.in_play(
            dealer=dealer, kept=hands, discards=discards, starter=starter, scores=scores,
            seed=seed, rules=rules,
        )  # fmt: skip
        d = g.discards
        six = (*g.kept[pone], *d[pone], *g.kept[dealer], *d[dealer])
        g._event(EventKind.DEAL, dealer, six)
        for p in (pone, dealer):
            g._event(EventKind.DISCARD, p, d[p])
        g._event(EventKind.STARTER, None, (int(starter),))
        return g

    # ----------------------------------------------------------------------------- copies & views
    def clone(self: _S, chance: ChanceSource | None = None) -> _S:
        """An independent copy (chance is shared: it is fixed by the seed; a driver that draws
        the cards itself passes its own copy as ``chance``). The copy is made field by field
        from the annotations (:func:`_copy_fields`), so a new field needs no edit here."""
        g = _new(type(self))
        _copy_fields(self, g)
        if chance is not None:
            g._chance = chance
        return g

    def fingerprint(self) -> tuple:
        """Everything that defines the state, for equality checks (undo/redo, replay)."""
        return tuple(_frozen(getattr(self, name)) for name in State.__slots__ if name != "_chance")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.fingerprint() == other.fingerprint()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(seed={self.seed}, deal={self.deal_no}, phase={self.phase.value}, "
            f"scores={self.scores}, to_act={self.current_player})"
        )

    # ----------------------------------------------------------------------------- events
    @property
    def event_count(self) -> int:
        """How many events have happened (the index the next one will have)."""
        return len(self._log)

    @property
    def events(self) -> list[Event]:
        """The typed event history (a new list; reasons are worked out when read)."""
        return self.events_since(0)

    def events_since(self, start: int) -> list[Event]:
        """The typed events from index ``start`` on (reasons are worked out only when read).

        >>> from cribbage_env.rules.engine import new_game
        >>> g = new_game(2)
        >>> n = g.event_count
        >>> g.apply(g.legal_actions()[0])
        >>> [e.kind.value for e in g.events_since(n)]
        ['discard']
        """
        return self._log[max(0, start) :]

    def _event(
        self,
        kind: EventKind,
        player: int | None,
        cards: tuple[int, ...] = (),
        points: int = 0,
        what: str = "",
        score_kind: ScoreKind | None = None,
    ) -> None:
        """Log an event with the scores after its points (which the caller then pegs): the one
        writer of the log besides the engine's play of a card (its hot path)."""
        sc = self.scores_
        if points and player is not None:
            after = (sc[0] + points, sc[1]) if player == 0 else (sc[0], sc[1] + points)
        else:
            after = (sc[0], sc[1])
        deal = self.deal_no if self.deal_no > 0 else 0
        self._log.append(
            _new_event(Event, (kind, deal, player, cards, points, None, after, what, score_kind))
        )


def _copy_expression(name: str, annotation: str) -> str:
    """How a field of this annotation is copied: lists of lists two deep, other lists one deep
    (their items are ints, tuples or frozen events), anything else is immutable and shared."""
    if annotation.startswith("list[list["):
        return f"[row[:] for row in a.{name}]"
    return f"a.{name}[:]" if annotation.startswith("list[") else f"a.{name}"


def _fields_copier() -> Callable[[State, State], None]:
    """One function that copies every field of a state into another, written from the
    annotations once at import (as :mod:`dataclasses` writes ``__init__``): a clone is a hot
    step of the searches, and a loop over the fields costs it four times as much."""
    body = "".join(
        f"    b.{name} = {_copy_expression(name, State.__annotations__[name])}\n"
        for name in State.__slots__
    )
    space: dict[str, Any] = {}
    exec(f"def copy_fields(a, b):\n{body}", space)  # noqa: S102 - source built from the annotations
    return cast(Callable[[State, State], None], space["copy_fields"])


_copy_fields = _fields_copier()


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value
