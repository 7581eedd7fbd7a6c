"""What a state of :mod:`cribbage_env.openspiel` holds: the engine's game with its chance drawn
outside it (OpenSpiel's chance nodes), the deal so far, the information strings and the history,
kept in one object so a copy keeps them linked; and what a state reads of its game.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..rules.core import Rules
from ..rules.engine import GameState


class GameParams(Protocol):
    """What a state reads of its game (:class:`cribbage_env.openspiel.game.CribbageGame`): the
    rules and the returns mode, and a fresh start for resampling."""

    @property
    def rules(self) -> Rules: ...

    @property
    def returns_mode(self) -> str: ...

    def new_initial_state(self) -> Any: ...


class ScriptedChance:
    """The engine's chance source with draws made outside it (OpenSpiel's chance nodes).

    It answers the engine's question (a deal's deck: twelve dealt cards, then the starter) from
    the outcomes applied so far; ``fork`` copies it for a cloned state.
    """

    __slots__ = ("decks",)

    def __init__(self, decks: dict[int, list[int]] | None = None) -> None:
        self.decks: dict[int, list[int]] = decks if decks is not None else {}

    def deck(self, deal: int) -> list[int]:
        return self.decks[deal]

    def first_cut(self, attempt: int) -> tuple[int, int]:
        raise AssertionError("states start at a deal (the first dealer is a chance node)")

    def fork(self) -> ScriptedChance:
        return ScriptedChance({k: v[:] for k, v in self.decks.items()})


class Holdings:
    """Everything a state holds, in one object: OpenSpiel deep-copies a Python state attribute
    by attribute, so the engine and its chance source must travel together to stay linked."""

    __slots__ = ("chance", "g", "drawn", "pending", "trace", "hist", "start")

    def __init__(self) -> None:
        #: (dealer, scores, deal) of a state that began at a deal's start (:meth:`from_view`).
        self.start: tuple[int, tuple[int, int], int] | None = None
        self.chance = ScriptedChance()
        self.g: GameState | None = None  # made when the first dealer is drawn
        self.drawn: list[int] = []  # this deal's cards dealt so far (while dealing)
        self.pending: int | None = None  # the first discard pick of the player to act
        #: (seat that sees it or None for both, text): the perfect-recall information strings.
        self.trace: list[tuple[int | None, str]] = []
        #: (tag, action) of every action so far; tags name hidden items for resampling.
        self.hist: list[tuple[tuple, int]] = []

    def __deepcopy__(self, memo: dict) -> Holdings:
        t = Holdings.__new__(Holdings)
        t.chance = self.chance.fork()
        t.g = None if self.g is None else self.g.clone(chance=t.chance)
        t.drawn, t.pending = self.drawn[:], self.pending
        t.trace, t.hist, t.start = self.trace[:], self.hist[:], self.start
        return t
