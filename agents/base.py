"""The agent protocol: a seat's policy sees a PlayerView (never the state) and a Generator.

Every agent answers :meth:`Agent.act`; agents that can explain themselves also answer
:meth:`Agent.hint`, returning ranked options with values and a reason (the GUI's hint and the
``cribbage analyze`` table read these).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from cribbage_env.rules.views import PlayerView

from .errors import AgentError


@dataclass(frozen=True)
class Option:
    """One candidate decision with its value and a short reason (for hints)."""

    action: int
    value: float
    reason: str = ""
    details: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Hint:
    """The suggested action and the ranked options behind it, best first."""

    action: int
    options: tuple[Option, ...]
    summary: str = ""


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view, rng) -> action``; ``name`` and ``spec`` identify it."""

    name: str

    def act(self, view: PlayerView, rng: np.random.Generator) -> int: ...


class AgentSpecError(AgentError, ValueError):
    """An agent spec that names no known agent or has bad parameters."""
