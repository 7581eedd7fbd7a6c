"""Who sits at the table: a person, or an agent built from its spec (in this process, or in its
own process with a time limit per decision, ``--isolate``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.base import Agent


@dataclass
class Seat:
    """One seat: a person (``spec`` None) or the agent of ``spec``."""

    human: bool
    spec: str | None = None
    agent: Agent | None = field(default=None, repr=False)


def seats(specs: list[str | None], *, build: bool, isolate: float | None) -> list[Seat]:
    """The two seats of ``specs`` (None: a person); agents are built only when ``build`` (a
    replayed record makes the computers' decisions itself)."""
    out = [Seat(human=s is None, spec=s) for s in specs]
    for seat in out:
        if seat.spec is not None and build:
            seat.agent = (
                _make_agent(seat.spec) if isolate is None else _isolated(seat.spec, isolate)
            )
    return out


def _make_agent(spec: str) -> Agent:
    from agents import make_agent

    return make_agent(spec)


def _isolated(spec: str, timeout: float) -> Agent:
    """The agent of a spec in its own process, ``timeout`` s per decision (``--isolate``)."""
    from agents.arena.seat import SealedSeat

    return SealedSeat(spec, timeout)
