"""The rules engine: one two-player game of six-card cribbage (RULES R1-R10, R11.1, R11.6).

A game is a pure function of ``(seed, decisions)`` under its :class:`~cribbage_env.rules.core.Rules`
(121 points by default). Only players' decisions are actions; chance (shuffles, cut cards) is
drawn inside the engine from generators derived from the seed per deal (:mod:`.chance`), so
replay, undo (rebuild from a prefix of the decisions) and restart reproduce it exactly. Forced
moves ("go"), counting and dealing happen automatically between decisions.

State is kept in plain lists of ints for speed; events are logged as tuples and turned into
typed :class:`~cribbage_env.rules.events.Event` values only when asked for (:meth:`GameState.events_since`).
Views (:mod:`.views`) and records (:mod:`.records`) are read from the state's public attributes;
the moves the game makes by itself between decisions are :mod:`.flow`.

>>> g = new_game(7)
>>> g.phase, len(g.legal_actions())
(<Phase.DISCARD: 'discard'>, 15)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> g.winner in (0, 1) and max(g.scores) >= g.rules.target == 121
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from . import records as _records
from .actions import CUT_BASE, CUT_MARGIN, DISCARD_BASE, action_str, is_discard
from .cards import VALUE
from .chance import Chance, check_seed
from .core import (
    STANDARD,
    EventKind,
    IllegalActionError,
    Phase,
    RecordError,
    Rules,
    implements,
)
from .events import Event
from .flow import DealFlow
from .pegging import play_points_fast
from .views import PlayerView, make_view

__all__ = ["GameState", "new_game", "replay", "skunk_level"]

_new = tuple.__new__
_PAIR_INDEXES = tuple(combinations(range(6), 2))
#: Discard action id of every ordered card pair, flat by ``52 * a + b`` (a == b: unused).
_DISCARD_ID = tuple(DISCARD_BASE + 52 * min(a, b) + max(a, b) for a in range(52) for b in range(52))

# Module-level aliases keep the hot path to one global lookup per name.
_PLAY, _DISCARD, _EV_PLAY = Phase.PLAY, Phase.DISCARD, EventKind.PLAY

#: The engine implements every rule field (a new one is added here once the engine plays it).
ENGINE = implements("the engine", "target", "skunk", "double_skunk")


def skunk_level(scores: Sequence[int], rules: Rules) -> int:
    """Game points for the winner under ``rules`` (see :meth:`Rules.game_points`); the rules are
    required because the skunk lines follow the target.

    >>> skunk_level((121, 95), STANDARD), skunk_level((121, 80), STANDARD), skunk_level((61, 40), Rules(target=61))
    (1, 2, 1)
    """
    return rules.game_points(scores)


class GameState(DealFlow):
    """A game in progress: the rules that change a :class:`~cribbage_env.rules.state.State`.

    Mutable: :meth:`apply` changes it; :meth:`clone` copies it. Its fields, set-up positions
    (:meth:`in_play`, :meth:`from_position`) and readers (:meth:`view`, :meth:`events_since`)
    are defined in :mod:`cribbage_env.rules.state`; what the game does by itself between two
    decisions (deals, go's, the show) in :mod:`cribbage_env.rules.flow`.
    """

    __slots__ = ()

    def __init__(
        self, seed: int = 0, *, interactive_cuts: bool = False, rules: Rules | str = STANDARD
    ) -> None:
        check_seed(seed)
        rules = ENGINE.check(Rules.named(rules))
        self._fill(int(seed), bool(interactive_cuts), rules, Chance(int(seed)))
        if not self.interactive_cuts:
            while self.phase is Phase.CUT_FOR_DEAL:
                self._cut_for_deal(0)
                self._cut_for_deal(1)

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
        if phase is not _PLAY:
            if phase is _DISCARD:
                self._discard(p, action)
            else:
                self._cut(phase, p, action)
            return
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
        sc = self.scores_
        after = (
            (sc[0], sc[1]) if not pts else (sc[0] + pts, sc[1]) if p == 0 else (sc[0], sc[1] + pts)
        )
        d = self.deal_no
        self._log.append(_new(Event, (_EV_PLAY, d, p, tuple(seq), pts, None, after, "", None)))
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

    def _discard(self, p: int, action: int) -> None:
        """R4: seat ``p`` lays two cards away to the crib (the pone first)."""
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
        self._event(EventKind.DISCARD, p, (a, b))
        if p == self.pone:
            self.to_act = self.dealer
        elif self.interactive_cuts:
            self.phase = Phase.STARTER_CUT
            self.to_act = self.pone
        else:
            self._cut_starter()

    def _cut(self, phase: Phase, p: int, action: int) -> None:
        """An interactive cut (R2, R3.1, R5.1): the depth is the player's, the card the seed's."""
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

    def view(self, seat: int) -> PlayerView:
        """What seat ``seat`` may see (see :mod:`cribbage_env.rules.views`)."""
        return make_view(self, seat, self.legal_actions() if self.current_player == seat else ())

    # ----------------------------------------------------------------------------- records
    def to_record(self) -> dict:
        """The JSON game record (format documented in docs/RECORD_FORMAT.md)."""
        if self.set_up:
            raise RecordError(
                "a position made by GameState.from_position is not a function of "
                "(seed, decisions), so it has no replayable record"
            )
        return _records.build_record(self)

    @classmethod
    def from_record(cls, record: dict | str) -> GameState:
        """Rebuild a game from a record, checking it replays to exactly what it says."""
        rec = _records.parse_record(record)
        state = cls(rec.seed, interactive_cuts=rec.interactive_cuts, rules=rec.rules)
        for i, action in enumerate(rec.decisions):
            try:
                state.apply(_records.record_action(i, action))
            except ValueError as exc:  # IllegalActionError and its kin
                raise RecordError(f"decision {i} ({action!r}) cannot be replayed: {exc}") from None
        _records.check_replay(rec.data, state)
        return state


def new_game(
    seed: int = 0, *, interactive_cuts: bool = False, rules: Rules | str = STANDARD
) -> GameState:
    """A new game from a seed; with ``interactive_cuts`` the cuts are the players' decisions.

    >>> new_game(3) == new_game(3), new_game(3) == new_game(4), new_game(3, rules="short").rules.target
    (True, False, 61)
    """
    return GameState(seed, interactive_cuts=interactive_cuts, rules=rules)


def replay(
    seed: int,
    decisions: Sequence[int],
    *,
    interactive_cuts: bool = False,
    rules: Rules | str = STANDARD,
) -> GameState:
    """The state reached from ``seed`` by ``decisions`` (raises IllegalActionError on a bad one)."""
    g = GameState(seed, interactive_cuts=interactive_cuts, rules=rules)
    for i, a in enumerate(decisions):
        try:
            g.apply(a)
        except IllegalActionError as exc:
            raise IllegalActionError(f"decision {i}: {exc}") from None
    return g
