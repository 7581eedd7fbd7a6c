"""The single-learner env's opponent: what may stand in for it (an agent, a callable or an
agent's name), the agent made from it when first needed and closed when the env made it, and
its turns, played until the learner must decide.

Apart from :mod:`cribbage_env.envs.single` so the env reads as the Gymnasium API over an
episode. Names are resolved through :func:`agents.make_agent` at call time: ``cribbage_env``
imports ``agents`` only when an opponent is named (the package's one upward import, made lazily).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..rules.core import EnvError, IllegalActionError
from ..rules.views import PlayerView
from .episode import Episode

Policy = Callable[[PlayerView, np.random.Generator], int]


class OpponentError(EnvError, IllegalActionError):
    """The opponent agent returned an action the engine rejects."""


class CallablePolicy:
    """Adapts a plain ``f(view, rng) -> action`` to the agent protocol."""

    def __init__(self, fn: Policy) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        return self.fn(view, rng)


def resolve_opponent(opponent: Any) -> Any:
    """An object with ``act(view, rng)`` from an agent, a callable or a spec string like "random".

    Names are resolved through :func:`agents.make_agent` at call time, so ``cribbage_env`` does not
    import ``agents`` until an opponent is named.
    """
    if isinstance(opponent, str):
        from agents import make_agent  # lazy: agents depends on cribbage_env, not the reverse

        return make_agent(opponent)
    if hasattr(opponent, "act"):
        return opponent
    if callable(opponent):
        return CallablePolicy(opponent)
    raise EnvError(
        f"opponent must be an agent name (e.g. 'random'), an object with act(view, rng) or a "
        f"callable f(view, rng) -> action; got {opponent!r}"
    )


def check_opponent(opponent: Any) -> None:
    """Refuse, with :func:`resolve_opponent`'s error, what can stand for no opponent; a name is
    left to be resolved when the opponent first plays."""
    if not isinstance(opponent, str) and not hasattr(opponent, "act") and not callable(opponent):
        resolve_opponent(opponent)  # raises the explanatory EnvError


class OpponentSeat:
    """The agent playing against the learner, and the spec it was made from (which says who
    owns it: one made from a name is the env's to close, an object passed in its owner's)."""

    def __init__(self) -> None:
        self.agent: Any = None
        self._key: Any = None

    def agent_for(self, spec: Any) -> Any:
        """The agent of ``spec``, made from it unless the one held already is."""
        if self.agent is None or self._key is not spec:
            self.drop()
            self.agent = resolve_opponent(spec)
            self._key = spec
        return self.agent

    def swap(self, spec: Any) -> None:
        """Hold the agent of ``spec`` from now on; resolved first, so a bad spec raises and
        leaves the seat as it was."""
        agent = resolve_opponent(spec)
        self.drop()
        self.agent, self._key = agent, spec

    def drop(self) -> None:
        """Forget the agent; one made from a spec string is closed (a protocol or sealed bot's
        process ends)."""
        agent, key = self.agent, self._key
        self.agent = self._key = None
        if isinstance(key, str) and callable(getattr(agent, "close", None)):
            agent.close()

    def play(
        self, ep: Episode, seat: int, rng: np.random.Generator | None, deal_only: bool
    ) -> None:
        """Let the agent decide until it is ``seat``'s turn or the episode is over."""
        g = ep.game
        opp = 1 - seat
        agent = self.agent
        while g.winner is None and g.to_act != seat:
            if deal_only and g.deal_no > 0:
                return
            action = agent.act(g.view(opp), rng)
            try:
                ep.apply(action)
            except IllegalActionError as exc:
                name = getattr(agent, "name", type(agent).__name__)
                raise OpponentError(f"opponent {name!r} chose an illegal action: {exc}") from None
