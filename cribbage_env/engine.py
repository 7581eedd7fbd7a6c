"""The rules engine: one two-player game of six-card cribbage to 121 (RULES R1-R10, R11.1, R11.6).

A game is a pure function of ``(seed, decisions)``. Only players' decisions are actions; chance
(shuffles, cut cards) is drawn inside the engine from ``numpy`` generators derived from the seed
per deal, so replay, undo (rebuild from a prefix of the decisions) and restart reproduce it
exactly. Forced moves ("go"), counting and dealing happen automatically between decisions.

State is kept in plain lists of ints for speed; events are logged as tuples and turned into
typed :class:`Event` values only when asked for.

>>> g = new_game(7)
>>> g.phase, len(g.legal_actions())
(<Phase.DISCARD: 'discard'>, 15)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> g.winner in (0, 1) and max(g.scores) >= 121
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from .actions import (
    CUT_BASE,
    CUT_MARGIN,
    DISCARD_BASE,
    action_str,
    is_discard,
)
from .cards import JACK, RANK, VALUE, cards_str
from .scoring import (
    ScoreItem,
    ScoreKind,
    _score_fast,
    play_points_fast,
    score_hand_breakdown,
    score_play_breakdown,
)

if TYPE_CHECKING:
    from .views import PlayerView

WINNING_SCORE = 121
#: Deals whose shuffles are drawn from one derived generator (cheap: one generator per block).
_DEALS_PER_BLOCK = 16
_STREAM_DEALS = 1
_STREAM_FIRST_CUT = 2
_PAIR_INDEXES = tuple(combinations(range(6), 2))
#: Discard action id of every ordered card pair, flat by ``52 * a + b`` (a == b: unused).
_DISCARD_ID = tuple(DISCARD_BASE + 52 * min(a, b) + max(a, b) for a in range(52) for b in range(52))


class Phase(str, Enum):
    """Where the game is. Only DISCARD, PLAY and the cut phases ask a player for a decision."""

    CUT_FOR_DEAL = "cut for deal"  # R2 (decision only with interactive cuts)
    DEAL_CUT = "deal cut"  # R3.1 pone cuts before the deal (interactive cuts only)
    DISCARD = "discard"  # R4
    STARTER_CUT = "starter cut"  # R5.1 (interactive cuts only)
    PLAY = "play"  # R6-R8
    GAME_OVER = "game over"  # R10


class EventKind(str, Enum):
    CUT_FOR_DEAL = "cut for deal"  # player, cards=(card,)
    CUT_TIE = "cut tie"  # both cut the same rank: recut (R2.2)
    FIRST_DEALER = "first dealer"  # player
    DEAL = "deal"  # player = dealer, cards = both hands (pone's six then dealer's six)
    DISCARD = "discard"  # player, cards = the two discards
    STARTER = "starter"  # cards = (starter,)
    PLAY = "play"  # player, cards = sequence since reset ending with the card laid, points
    GO = "go"  # player says go (cannot play)
    RESET = "reset"  # count back to zero
    SCORE = "score"  # go / last card / his heels points; reasons say which
    SHOW = "show"  # player, cards = 4 cards + starter, points; crib flag in `what`
    GAME_OVER = "game over"  # player = winner


# Module-level aliases keep the hot path to one global lookup per name.
_PLAY, _DISCARD, _GAME_OVER = Phase.PLAY, Phase.DISCARD, Phase.GAME_OVER
_EV_PLAY, _EV_GO, _EV_RESET, _EV_SCORE, _EV_SHOW = (
    EventKind.PLAY,
    EventKind.GO,
    EventKind.RESET,
    EventKind.SCORE,
    EventKind.SHOW,
)


class IllegalActionError(ValueError):
    """An action that is not legal now; the message lists what is allowed."""


class RecordError(ValueError):
    """A game record that is malformed or does not replay to what it claims."""


@dataclass(frozen=True)
class Event:
    """Something that happened, with the points and their reasons and the scores after it."""

    kind: EventKind
    deal: int
    player: int | None = None
    cards: tuple[int, ...] = ()
    points: int = 0
    reasons: tuple[ScoreItem, ...] = ()
    scores: tuple[int, int] = (0, 0)
    what: str = ""  # "hand" / "crib" for SHOW

    @property
    def count(self) -> int:
        """The running total after a PLAY event (its cards are the sequence since the reset)."""
        return sum(VALUE[c] for c in self.cards) if self.kind is EventKind.PLAY else 0

    def __str__(self) -> str:
        who = "" if self.player is None else f"P{self.player} "
        pts = f" +{self.points}" if self.points else ""
        return f"[deal {self.deal}] {who}{self.kind.value} {self.what} {cards_str(self.cards)}{pts}"


def skunk_level(scores: Sequence[int]) -> int:
    """Game points for the winner: 1, 2 if the loser is under 91 (skunk), 3 under 61 (double).

    >>> skunk_level((121, 95)), skunk_level((121, 80)), skunk_level((50, 121))
    (1, 2, 3)
    """
    loser = min(scores)
    return 3 if loser < 61 else 2 if loser < 91 else 1


def _generator(seed: int, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


class _Chance:
    """Every random draw of one game, derived from its seed; shared by clones (read-only)."""

    __slots__ = ("seed", "_blocks", "_first_cuts")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._blocks: dict[int, list[list[int]]] = {}
        self._first_cuts: list[tuple[int, int]] = []

    def deck(self, deal: int) -> list[int]:
        """Shuffled deck of deal ``deal``: a function of (seed, deal) only."""
        block, row = divmod(deal, _DEALS_PER_BLOCK)
        decks = self._blocks.get(block)
        if decks is None:
            rng = _generator(self.seed, _STREAM_DEALS, block)
            decks = np.argsort(rng.random((_DEALS_PER_BLOCK, 52)), axis=1).tolist()
            self._blocks[block] = decks
        return decks[row]

    def first_cut(self, attempt: int) -> tuple[int, int]:
        """The two cards cut for first deal at attempt ``attempt`` (player 0's, player 1's)."""
        while len(self._first_cuts) <= attempt:
            rng = _generator(self.seed, _STREAM_FIRST_CUT, len(self._first_cuts))
            a, b = rng.choice(52, 2, replace=False).tolist()
            self._first_cuts.append((a, b))
        return self._first_cuts[attempt]


class GameState:
    """A game in progress. Mutable: :meth:`apply` changes it; :meth:`clone` copies it."""

    __slots__ = (
        "seed",
        "interactive_cuts",
        "_chance",
        "phase",
        "dealer",
        "deal_no",
        "hands",
        "kept",
        "discards",
        "crib",
        "starter",
        "scores_",
        "to_act",
        "seq",
        "count",
        "last_player",
        "go_said",
        "goes",
        "played",
        "decisions",
        "log",
        "winner",
        "_cut_attempt",
        "_cut_cards",
        "set_up",
    )

    def __init__(self, seed: int = 0, *, interactive_cuts: bool = False) -> None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        self.seed = int(seed)
        self.interactive_cuts = bool(interactive_cuts)
        self._chance = _Chance(self.seed)
        self.phase = Phase.CUT_FOR_DEAL
        self.dealer = 0
        self.deal_no = -1
        self.hands: list[list[int]] = [[], []]
        self.kept: list[list[int]] = [[], []]
        self.discards: list[tuple[int, ...]] = [(), ()]
        self.crib: list[int] = []
        self.starter: int | None = None
        self.scores_ = [0, 0]
        self.to_act = 0
        self.seq: list[int] = []
        self.count = 0
        self.last_player = -1
        self.go_said = [False, False]
        self.goes: list[tuple[int, int]] = []
        self.played: list[tuple[int, int]] = []
        self.decisions: list[int] = []
        self.log: list[tuple] = []
        self.winner: int | None = None
        self._cut_attempt = 0
        self._cut_cards: list[int] = []
        #: True for a position made by :meth:`from_position` (it has no replayable record).
        self.set_up = False
        if not self.interactive_cuts:
            while self.phase is Phase.CUT_FOR_DEAL:
                self._cut_for_deal(0)
                self._cut_for_deal(1)

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

    # ----------------------------------------------------------------------------- actions
    def legal_actions(self) -> list[int]:
        """The current player's legal decisions (never chance, never a forced go)."""
        phase = self.phase
        if phase is _PLAY:
            hand = self.hands[self.to_act]
            lim = 31 - self.count
            if lim >= 10:  # every card fits (values are at most 10)
                return hand[:]
            return [c for c in hand if VALUE[c] <= lim]
        if phase is _DISCARD:
            h = self.hands[self.to_act]
            return [_DISCARD_ID[52 * h[i] + h[j]] for i, j in _PAIR_INDEXES]
        if phase is Phase.GAME_OVER:
            return []
        n = 52 if phase is not Phase.STARTER_CUT else 40
        return list(range(CUT_BASE + CUT_MARGIN, CUT_BASE + n - CUT_MARGIN + 1))

    def is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase is Phase.PLAY:
            return action in self.hands[self.to_act] and VALUE[action] <= 31 - self.count
        return action in self.legal_actions()

    def apply(self, action: int, player: int | None = None) -> None:
        """Take the current player's decision ``action`` and run the game on to the next decision.

        ``player``, if given, must be the player to act. Raises :class:`IllegalActionError`
        (leaving the state unchanged) for anything not legal now.
        """
        if self.winner is not None:
            raise IllegalActionError(
                f"the game is over (winner: player {self.winner}); no action is legal"
            )
        if player is not None and (player != self.to_act or isinstance(player, (bool, float))):
            raise IllegalActionError(
                f"it is player {self.to_act}'s turn, not player {player!r}'s ({self.phase.value})"
            )
        if type(action) is not int:
            action = self._coerce(action)
        phase = self.phase
        p = self.to_act
        if phase is _PLAY:
            hand = self.hands[p]
            if action not in hand:
                self._illegal(action)
            count = self.count + VALUE[action]
            if count > 31:
                self._illegal(action)
            self.decisions.append(action)
            hand.remove(action)
            seq = self.seq
            seq.append(action)
            self.count = count
            self.played.append((p, action))
            self.last_player = p
            pts = play_points_fast(seq, count)
            self.log.append((_EV_PLAY, p, tuple(seq), pts))
            if pts and self._add(p, pts):
                return
            if count == 31:
                self._reset()
            q = 1 - p
            self.to_act = q
            # Fast exit of the common case: the other player holds a card that fits (R6.3).
            lim = 31 - self.count
            for c in self.hands[q]:
                if VALUE[c] <= lim:
                    return
            self._advance_play()
        elif phase is _DISCARD:
            hand = self.hands[p]
            if not is_discard(action):
                self._illegal(action)
            a, b = divmod(action - DISCARD_BASE, 52)
            if a >= b or a not in hand or b not in hand:  # ids are canonical: a < b
                self._illegal(action)
            self.decisions.append(action)
            hand.remove(a)
            hand.remove(b)
            self.discards[p] = (a, b)
            self.kept[p] = list(hand)
            self.crib.append(a)
            self.crib.append(b)
            self.log.append((EventKind.DISCARD, p, (a, b), 0))
            if p == self.pone:
                self.to_act = self.dealer
            elif self.interactive_cuts:
                self.phase = Phase.STARTER_CUT
                self.to_act = self.pone
            else:
                self._cut_starter()
        else:
            if not self.is_legal(action):
                self._illegal(action)
            self.decisions.append(action)
            if phase is Phase.CUT_FOR_DEAL:
                self._cut_for_deal(p)
            elif phase is Phase.DEAL_CUT:
                self._deal()
            else:
                self._cut_starter()

    def _coerce(self, action: Any) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"an action is an int id, got {action!r} ({type(action).__name__}); "
                f"legal now: {self._legal_text()}"
            )
        return int(action)

    def _legal_text(self) -> str:
        return ", ".join(f"{a} ({action_str(a)})" for a in self.legal_actions()[:20]) or "none"

    def _illegal(self, action: int) -> None:
        try:
            what = action_str(action)
        except ValueError:
            what = "not an action id"
        raise IllegalActionError(
            f"illegal action {action} ({what}) for player {self.to_act} in phase "
            f"{self.phase.value}; legal: {self._legal_text()}"
        )

    # ----------------------------------------------------------------------------- flow
    def _add(self, p: int, pts: int) -> bool:
        """Peg points; True (and the game ends, R10) when they reach 121."""
        s = self.scores_[p] + pts
        self.scores_[p] = s
        if s >= WINNING_SCORE:
            self.winner = p
            self.phase = Phase.GAME_OVER
            self.log.append((EventKind.GAME_OVER, p, (), 0))
            return True
        return False

    def _cut_for_deal(self, p: int) -> None:
        """R2: player ``p`` cuts; after both, the lower rank deals, a tie recuts."""
        cards = self._chance.first_cut(self._cut_attempt)
        card = cards[p]
        self._cut_cards.append(card)
        self.log.append((EventKind.CUT_FOR_DEAL, p, (card,), 0))
        if p == 0:
            self.to_act = 1
            return
        a, b = self._cut_cards
        self._cut_cards = []
        self._cut_attempt += 1
        if RANK[a] == RANK[b]:
            self.log.append((EventKind.CUT_TIE, None, (a, b), 0))
            self.to_act = 0
            return
        first = 0 if RANK[a] < RANK[b] else 1
        self.log.append((EventKind.FIRST_DEALER, first, (), 0))
        self.dealer = 1 - first  # _start_deal alternates
        self._start_deal()

    def _start_deal(self) -> None:
        self.dealer = 1 - self.dealer
        self.deal_no += 1
        if self.interactive_cuts:
            self.phase = Phase.DEAL_CUT
            self.to_act = 1 - self.dealer
        else:
            self._deal()

    def _deal(self) -> None:
        """R3.2: six cards each, alternately, from the pone."""
        deck = self._chance.deck(self.deal_no)
        pone = 1 - self.dealer
        self.hands[pone] = deck[0:12:2]
        self.hands[self.dealer] = deck[1:12:2]
        self.kept = [[], []]
        self.discards = [(), ()]
        self.crib = []
        self.starter = None
        self.seq = []
        self.count = 0
        self.last_player = -1
        self.go_said = [False, False]
        self.goes = []
        self.played = []
        self.log.append((EventKind.DEAL, self.dealer, tuple(deck[0:12:2]) + tuple(deck[1:12:2]), 0))
        self.phase = Phase.DISCARD
        self.to_act = pone

    def _cut_starter(self) -> None:
        """R5: the starter is the 13th card of the shuffle, whatever the cut depth (R11.1)."""
        starter = self._chance.deck(self.deal_no)[12]
        self.starter = starter
        self.log.append((EventKind.STARTER, None, (starter,), 0))
        if RANK[starter] == JACK:
            self.log.append((EventKind.SCORE, self.dealer, (starter,), 2, ScoreKind.HIS_HEELS))
            if self._add(self.dealer, 2):
                return
        self.phase = Phase.PLAY
        self.to_act = 1 - self.dealer
        # The pone holds four cards at count 0, so the first decision is theirs (R6.1).

    def _reset(self) -> None:
        self.seq = []
        self.count = 0
        self.go_said = [False, False]
        self.log.append((_EV_RESET, None, (), 0))

    def _advance_play(self) -> None:
        """Resolve go's, go points, resets and the last card until someone must decide (R6-R8)."""
        hands = self.hands
        log = self.log
        while True:
            if not hands[0] and not hands[1]:
                if self.seq:  # R8.3: last card scores 1 unless it made 31 (then seq was reset)
                    lp = self.last_player
                    log.append((_EV_SCORE, lp, (self.seq[-1],), 1, ScoreKind.LAST_CARD))
                    if self._add(lp, 1):
                        return
                self._show()
                return
            q = self.to_act
            lim = 31 - self.count
            if _fits(hands[q], lim):
                return
            if hands[q] and not self.go_said[q]:
                self.go_said[q] = True
                self.goes.append((q, self.count))
                log.append((_EV_GO, q, (), 0))
            o = 1 - q
            if _fits(hands[o], lim):
                self.to_act = o
                return
            # R8.1: neither can play: the last to lay a card scores 1 and the other leads.
            lp = self.last_player
            log.append((_EV_SCORE, lp, (self.seq[-1],), 1, ScoreKind.GO))
            if self._add(lp, 1):
                return
            self._reset()
            self.to_act = 1 - lp

    def _show(self) -> None:
        """R9: pone's hand, dealer's hand, then the crib, each stopping at 121 (R10)."""
        s = self.starter
        dealer = self.dealer
        log = self.log
        for p, (a, b, c, d), crib, what in (
            (1 - dealer, self.kept[1 - dealer], False, "hand"),
            (dealer, self.kept[dealer], False, "hand"),
            (dealer, self.crib, True, "crib"),
        ):
            pts = _score_fast(a, b, c, d, s, crib)
            log.append((_EV_SHOW, p, (a, b, c, d, s), pts, what))
            if pts and self._add(p, pts):
                return
        self._start_deal()

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[int]],
        crib: Sequence[int],
        starter: int,
        *,
        dealer: int = 0,
        scores: Sequence[int] = (0, 0),
        seed: int = 0,
    ) -> GameState:
        """A game set up at the start of the play with chosen cards (R6.1: the pone leads).

        For tests, puzzles and analysis of particular positions: ``hands[p]`` are the four cards
        seat ``p`` kept, ``crib`` the four discards (the pone's two, then the dealer's), ``starter``
        the cut card. His heels is not scored (the position starts after the cut). Later deals
        come from ``seed`` as usual. Such a state is marked :attr:`set_up` and has no record.

        >>> from cribbage_env.cards import parse_cards
        >>> g = GameState.from_position([parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
        ...                             parse_cards("KH KD QS QC"), parse_cards("5S")[0])
        >>> g.phase.value, g.current_player, g.scores
        ('play', 1, (0, 0))
        """
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ValueError(f"dealer must be 0 or 1, got {dealer!r}")
        if len(hands) != 2 or any(len(h) != 4 for h in hands) or len(crib) != 4:
            raise ValueError("a position needs two hands of four cards and a crib of four")
        cards = [*hands[0], *hands[1], *crib, starter]
        if any(
            isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < 52
            for c in cards
        ):
            raise ValueError(f"card ids must be ints 0..51, got {cards!r}")
        if len(set(cards)) != 13:
            raise ValueError(f"a position needs 13 different cards, got {cards_str(cards)}")
        if len(scores) != 2 or any(
            isinstance(s, bool)
            or not isinstance(s, (int, np.integer))
            or not 0 <= s < WINNING_SCORE
            for s in scores
        ):
            raise ValueError(f"scores must be two ints 0..{WINNING_SCORE - 1}, got {scores!r}")
        g = cls(seed)
        pone = 1 - dealer
        kept = [[int(c) for c in hands[0]], [int(c) for c in hands[1]]]
        crib_ = [int(c) for c in crib]
        discards = [(), ()]
        discards[pone] = (crib_[0], crib_[1])
        discards[dealer] = (crib_[2], crib_[3])
        g.log = []
        g.dealer = dealer
        g.deal_no = 0
        g.hands = [kept[0][:], kept[1][:]]
        g.kept = kept
        g.discards = discards
        g.crib = crib_
        g.starter = int(starter)
        g.scores_ = [int(scores[0]), int(scores[1])]
        g.seq, g.count, g.last_player, g.go_said, g.goes, g.played = (
            [],
            0,
            -1,
            [False, False],
            [],
            [],
        )
        six = (*kept[pone], *discards[pone], *kept[dealer], *discards[dealer])
        g.log.append((EventKind.DEAL, dealer, six, 0))
        for p in (pone, dealer):
            g.log.append((EventKind.DISCARD, p, discards[p], 0))
        g.log.append((EventKind.STARTER, None, (g.starter,), 0))
        g.phase = Phase.PLAY
        g.to_act = pone
        g.set_up = True
        return g

    # ----------------------------------------------------------------------------- copies & views
    def clone(self) -> GameState:
        """An independent copy (chance is shared: it is fixed by the seed)."""
        g = GameState.__new__(GameState)
        g.seed = self.seed
        g.interactive_cuts = self.interactive_cuts
        g._chance = self._chance
        g.phase = self.phase
        g.dealer = self.dealer
        g.deal_no = self.deal_no
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.kept = [self.kept[0][:], self.kept[1][:]]
        g.discards = self.discards[:]
        g.crib = self.crib[:]
        g.starter = self.starter
        g.scores_ = self.scores_[:]
        g.to_act = self.to_act
        g.seq = self.seq[:]
        g.count = self.count
        g.last_player = self.last_player
        g.go_said = self.go_said[:]
        g.goes = self.goes[:]
        g.played = self.played[:]
        g.decisions = self.decisions[:]
        g.log = self.log[:]
        g.winner = self.winner
        g._cut_attempt = self._cut_attempt
        g._cut_cards = self._cut_cards[:]
        g.set_up = self.set_up
        return g

    def view(self, seat: int) -> PlayerView:
        """What seat ``seat`` may see (see :mod:`cribbage_env.views`)."""
        from .views import make_view

        return make_view(self, seat)

    def fingerprint(self) -> tuple:
        """Everything that defines the state, for equality checks (undo/redo, replay)."""
        return (
            self.seed,
            self.interactive_cuts,
            self.phase,
            self.dealer,
            self.deal_no,
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.kept)),
            tuple(self.discards),
            tuple(self.crib),
            self.starter,
            tuple(self.scores_),
            self.to_act,
            tuple(self.seq),
            self.count,
            self.last_player,
            tuple(self.go_said),
            tuple(self.goes),
            tuple(self.played),
            tuple(self.decisions),
            tuple(self.log),
            self.winner,
            self._cut_attempt,
            tuple(self._cut_cards),
            self.set_up,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.fingerprint() == other.fingerprint()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"GameState(seed={self.seed}, deal={self.deal_no}, phase={self.phase.value}, "
            f"scores={self.scores}, to_act={self.current_player})"
        )

    # ----------------------------------------------------------------------------- events
    @property
    def events(self) -> list[Event]:
        """The typed event history, with reasons and running scores (built on demand)."""
        return list(self._typed_events())

    def _typed_events(self):
        scores = self.scores_[:]  # running scores start from what preceded the log (set-ups)
        for entry in self.log:
            if entry[3]:
                scores[entry[1]] -= entry[3]
        deal = -1
        for entry in self.log:
            kind, player, cards, pts = entry[0], entry[1], entry[2], entry[3]
            what = entry[4] if len(entry) > 4 and kind is EventKind.SHOW else ""
            reasons: tuple[ScoreItem, ...] = ()
            if kind is EventKind.DEAL:
                deal += 1
            if pts:
                scores[player] += pts
                if kind is EventKind.PLAY:
                    reasons = tuple(score_play_breakdown(cards))
                elif kind is EventKind.SHOW:
                    reasons = tuple(score_hand_breakdown(cards[:4], cards[4], crib=what == "crib"))
                elif kind is EventKind.SCORE:
                    reasons = (ScoreItem(entry[4], cards, pts),)
            yield Event(
                kind, max(deal, 0), player, tuple(cards), pts, reasons, (scores[0], scores[1]), what
            )

    # ----------------------------------------------------------------------------- records
    def to_record(self) -> dict:
        """The JSON game record (format documented in docs/RECORD_FORMAT.md)."""
        from .records import build_record

        if self.set_up:
            raise RecordError(
                "a position made by GameState.from_position is not a function of "
                "(seed, decisions), so it has no replayable record"
            )

        return build_record(self)

    @classmethod
    def from_record(cls, record: dict | str) -> GameState:
        """Rebuild a game from a record, checking it replays to exactly what it says."""
        from .records import load_record

        return load_record(record)


def _fits(hand: list[int], limit: int) -> bool:
    """Whether any card of ``hand`` can be laid on a count leaving ``limit`` (R6.2)."""
    for c in hand:
        if VALUE[c] <= limit:
            return True
    return False


def new_game(seed: int = 0, *, interactive_cuts: bool = False) -> GameState:
    """A new game from a seed; with ``interactive_cuts`` the cuts are the players' decisions.

    >>> new_game(3) == new_game(3), new_game(3) == new_game(4)
    (True, False)
    """
    return GameState(seed, interactive_cuts=interactive_cuts)


def replay(seed: int, decisions: Sequence[int], *, interactive_cuts: bool = False) -> GameState:
    """The state reached from ``seed`` by ``decisions`` (raises IllegalActionError on a bad one)."""
    g = GameState(seed, interactive_cuts=interactive_cuts)
    for i, a in enumerate(decisions):
        try:
            g.apply(a)
        except IllegalActionError as exc:
            raise IllegalActionError(f"decision {i}: {exc}") from None
    return g
