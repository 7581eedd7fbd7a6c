"""The computer's moves at the table: from its own PlayerView and its own generator only.

A move is computed as a job (so a worker thread can run it while the window draws) and applied
only if the game has not changed since (a ticket: undo, redo or restart make it stale). The
generator is :func:`cribbage_env.seeding.agent_rng` of the table's agent seed, the game, the stream and
the decision index: undo/redo and restart replay the computer exactly, and nothing reachable from
it gives the game's seed away. Held by :class:`~ui.table.controller.TableController`
as ``ctl.computer``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from cribbage_env.rules.core import Phase

from .history import History
from .seats import Seat
from .selection import CUT_SPREAD, TurnHost
from .show import ShowSequence


class ComputerHost(TurnHost, Protocol):
    """What the computer reads of its table besides the turn: the seeds, the seats, the script
    being replayed, the decisions so far and the show it waits for."""

    seed: int
    agent_seed: int
    epoch: int
    history: History
    seats: list[Seat]
    script: list[int] | None
    show: ShowSequence

    @property
    def decisions(self) -> tuple[int, ...]: ...

    def is_human(self, seat: int) -> bool: ...
    def name(self, seat: int) -> str: ...


class Computer:
    """The agents' side of the table."""

    def __init__(self, ctl: ComputerHost) -> None:
        self._ctl = ctl
        #: (seat, reason) once an isolated computer crashed, hung or answered illegally: it lost.
        self.forfeit: tuple[int, str] | None = None
        self._cut_read_at = -1  # the number of decisions when the person read the first cut

    @property
    def waits_for_the_cut(self) -> bool:
        """The person won the cut for the first deal: the computer cuts the deck (R3.1) only once
        the person has read the two cut cards and pressed Continue."""
        ctl = self._ctl
        first = ctl.game.phase is Phase.DEAL_CUT and ctl.game.deal_no <= 0
        watched = not (ctl.is_human(0) or ctl.is_human(1))  # two computers: nobody to wait for
        return first and not watched and self.to_act and len(ctl.decisions) != self._cut_read_at

    def read_the_cut(self) -> None:
        """The person has read the first cut: the computer may cut the deck."""
        self._cut_read_at = len(self._ctl.decisions)

    @property
    def to_act(self) -> bool:
        """An agent (or the record being replayed) decides now."""
        ctl = self._ctl
        p = ctl.to_act
        if p is None or ctl.is_human(p):
            return False
        return ctl.script is None or ctl.history.cursor < len(ctl.script)

    def forfeit_game(self, reason: str) -> None:
        """The computer to act loses the game (an isolated seat failed): no more moves."""
        ctl = self._ctl
        p = ctl.to_act
        if p is None or self.forfeit is not None:
            return
        self.forfeit = (p, reason)
        ctl.say(ctl.tr("{name} forfeits the game: {error}", name=ctl.name(p), error=reason))

    def rng(self, stream: int) -> np.random.Generator:
        """Agent randomness: a function of the agent seed, the game, the stream and the decision
        index, so undo/redo and restart replay the computer's choices exactly. It is a one-way
        hash with the independent agent seed (:mod:`cribbage_env.seeding`): nothing an agent can read
        from its generator gives away the game seed, hence the deck."""
        from cribbage_env.seeding import agent_rng

        ctl = self._ctl
        return agent_rng(ctl.agent_seed, ctl.seed, stream, ctl.history.cursor)

    def job(self) -> tuple[int, Callable[[], int]]:
        """(ticket, job): the job computes the computer's decision from a frozen PlayerView and
        its own generator, so it may run in a worker thread while the window keeps drawing."""
        ctl = self._ctl
        p = ctl.to_act
        if p is None or ctl.is_human(p):
            raise RuntimeError("it is not the computer's turn")
        if ctl.script is not None:
            if ctl.history.cursor >= len(ctl.script):
                raise RuntimeError("the record has no more decisions")
            action = ctl.script[ctl.history.cursor]
            return self.ticket, lambda: action
        rng = self.rng(1000 + p)
        view = ctl.game.view(p)
        if ctl.phase in CUT_SPREAD:  # where an agent cuts does not matter (R11.1)
            legal = view.legal_actions
            return self.ticket, lambda: int(legal[int(rng.integers(len(legal)))])
        agent = ctl.seats[p].agent
        assert agent is not None
        return self.ticket, lambda: int(agent.act(view, rng))

    def action(self) -> int:
        """The computer's decision for the current state (from its PlayerView only)."""
        return self.job()[1]()

    @property
    def should_move(self) -> bool:
        """The computer's turn and nothing on screen (the show) to wait for."""
        return (
            self.to_act
            and not self._ctl.show.running
            and self.forfeit is None
            and not self.waits_for_the_cut
        )

    @property
    def ticket(self) -> int:
        """Identifies the state a computer move was computed for (stale after undo etc.)."""
        return self._ctl.epoch

    def apply(self, action: int, ticket: int | None = None) -> bool:
        """Apply a computer move unless the game changed since it was computed."""
        if ticket is not None and ticket != self.ticket:
            return False
        if not self.to_act or not self._ctl.game.is_legal(action):
            return False
        self._ctl.decide(action)
        return True

    def step(self) -> bool:
        """Compute and apply one computer move now (tests, autoplay); an isolated seat that
        fails forfeits the game."""
        from agents.arena.client import SeatForfeit

        if not self.to_act or self.forfeit is not None:
            return False
        try:
            action = self.action()
        except SeatForfeit as exc:
            self.forfeit_game(str(exc))
            return False
        self._ctl.decide(action)
        return True
