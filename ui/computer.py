"""The computer's moves at the table: from its own PlayerView and its own generator only.

A move is computed as a job (so a worker thread can run it while the window draws) and applied
only if the game has not changed since (a ticket: undo, redo or restart make it stale). The
generator is :func:`cribbage_env.seeding.agent_rng` of the table's agent seed, the game, the stream and
the decision index: undo/redo and restart replay the computer exactly, and nothing reachable from
it gives the game's seed away (issue 15, leak 1). Mixed into :class:`~ui.controller.TableController`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .selection import CUT_SPREAD


class ComputerMixin:
    """The agents' side of the table."""

    #: (seat, reason) once an isolated computer crashed, hung or answered illegally: it lost.
    forfeit: tuple[int, str] | None = None

    def forfeit_game(self, reason: str) -> None:
        """The computer to act loses the game (an isolated seat failed): no more moves."""
        p = self.to_act  # type: ignore[attr-defined]
        if p is None or self.forfeit is not None:
            return
        self.forfeit = (p, reason)
        name = self.name(p)  # type: ignore[attr-defined]
        self.notice(self.tr("{name} forfeits the game: {error}", name=name, error=reason))  # type: ignore[attr-defined]

    def _rng(self, stream: int) -> np.random.Generator:
        """Agent randomness: a function of the agent seed, the game, the stream and the decision
        index, so undo/redo and restart replay the computer's choices exactly. It is a one-way
        hash with the independent agent seed (:mod:`cribbage_env.seeding`): nothing an agent can read
        from its generator gives away the game seed, hence the deck (issue 15, leak 1)."""
        from cribbage_env.seeding import agent_rng

        return agent_rng(self.agent_seed, self.seed, stream, self.history.cursor)

    def computer_job(self) -> tuple[int, Callable[[], int]]:
        """(ticket, job): the job computes the computer's decision from a frozen PlayerView and
        its own generator, so it may run in a worker thread while the window keeps drawing."""
        p = self.to_act
        if p is None or self.is_human(p):
            raise RuntimeError("it is not the computer's turn")
        if self.script is not None:
            if self.history.cursor >= len(self.script):
                raise RuntimeError("the record has no more decisions")
            action = self.script[self.history.cursor]
            return self._epoch, lambda: action
        rng = self._rng(1000 + p)
        view = self.game.view(p)
        if self.phase in CUT_SPREAD:  # where an agent cuts does not matter (R11.1)
            legal = view.legal_actions
            return self._epoch, lambda: int(legal[int(rng.integers(len(legal)))])
        agent = self.seats[p].agent
        return self._epoch, lambda: int(agent.act(view, rng))  # type: ignore[union-attr]

    def computer_action(self) -> int:
        """The computer's decision for the current state (from its PlayerView only)."""
        return self.computer_job()[1]()

    @property
    def computer_should_move(self) -> bool:
        """The computer's turn and nothing on screen (the show) to wait for."""
        return self.computer_to_act and not self.show_running and self.forfeit is None

    def computer_ticket(self) -> int:
        """Identifies the state a computer move was computed for (stale after undo etc.)."""
        return self._epoch

    def apply_computer(self, action: int, ticket: int | None = None) -> bool:
        """Apply a computer move unless the game changed since it was computed."""
        if ticket is not None and ticket != self._epoch:
            return False
        if not self.computer_to_act or not self.game.is_legal(action):
            return False
        self._decide(action)
        return True

    def step_computer(self) -> bool:
        """Compute and apply one computer move now (tests, autoplay); an isolated seat that
        fails forfeits the game."""
        from agents.isolate import SeatForfeit

        if not self.computer_to_act or self.forfeit is not None:
            return False
        try:
            action = self.computer_action()
        except SeatForfeit as exc:
            self.forfeit_game(str(exc))
            return False
        self._decide(action)
        return True
