"""Isolated seats: an agent you do not trust plays as a sealed bot and sees only its view.

An agent run in the engine's process is trusted code: it can walk the call stack or the garbage
collector to the true :class:`~cribbage_env.rules.engine.GameState` (the opponent's hand, the deck).
An :class:`~agents.arena.seat.SealedSeat` runs the agent named by a spec as a protocol bot
(:mod:`agents.arena.protocol`): a ``cmd:`` spec is its own command, any other spec is served by
:mod:`agents.seat_server` in a fresh interpreter. Either way the process runs sealed
(:mod:`agents.arena.sandbox`: bubblewrap namespaces, a read-only view of the system and of the
import path, the results database hidden, rlimits) or the run is refused. An honest Python
agent makes exactly the decisions it makes in-process: its own generator's state travels with a
game's first request (that generator is a one-way hash of the run's agent seed, never the deal's).

Nothing that comes back is trusted (:class:`agents.arena.client.ProtocolBot`): a crash, a hang
past the per-decision timeout or the game's budget, an exception in the agent or an illegal or
malformed answer raises :class:`SeatForfeit`; the tournament records the game as lost by that
seat with the reason, kills the bot and starts a new one for the next game.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence

from ..arena import sandbox
from ..arena.client import SeatForfeit
from ..arena.seat import DEFAULT_TIMEOUT, SealedSeat, SeatLimits, check_timeout
from ..base import AgentSpecError
from .trust import trusted_spec

__all__ = ["check_isolation", "check_isolated", "isolated_seat"]

_SEATS: dict[tuple[str, int, float, SeatLimits, tuple[str, ...]], SealedSeat] = {}


def isolated_seat(
    spec: str, seat: int, timeout: float, limits: SeatLimits, hidden: tuple[str, ...] = ()
) -> SealedSeat:
    """The sealed seat of ``spec`` in ``seat`` for this process (one per spec, seat, limits
    and hidden files, reused across games, as in-process agents are)."""
    key = (spec, seat, timeout, limits, hidden)
    s = _SEATS.get(key)
    if s is None:
        s = _SEATS[key] = SealedSeat(spec, timeout, limits, hidden)
    return s


def isolated_players(
    specs: tuple, timeout: float, limits: SeatLimits, hidden: tuple[str, ...] = ()
) -> tuple[SealedSeat, SealedSeat]:
    """The isolated seats 0 and 1 of a game between ``specs`` (spec strings)."""
    return (
        isolated_seat(str(specs[0]), 0, timeout, limits, hidden),
        isolated_seat(str(specs[1]), 1, timeout, limits, hidden),
    )


def check_isolation(
    agents: Sequence[object], timeout: object, check: bool = True, hidden: tuple[str, ...] = ()
) -> float:
    """The timeout of isolated seats for ``agents`` (ValueError when it is not usable); every
    agent must be a spec string, and with ``check`` each builds in a worker (AgentSpecError)
    that may not read ``hidden`` (the results database) either."""
    t = check_timeout(timeout)
    for src in agents:
        if not isinstance(src, str):
            check_isolated(src, t)  # raises: an object cannot be rebuilt in another process
    if check:
        for spec in dict.fromkeys(agents):
            if isinstance(spec, str) and trusted_spec(spec) and spec not in _WARM:
                _WARM.add(spec)
                _warm_one(spec)
            check_isolated(spec, t, hidden)
    return t


#: The built-in specs this process has warmed.
_WARM: set[str] = set()


def _warm_one(spec: str) -> None:
    """Play one game of a built-in agent against itself here, so its compiled kernels are in
    the cache every seat copies (our own code: built here as in-process runs build it). A
    spec that names other code is never built here; its seat compiles on its own."""
    import numpy as np

    import cribbage_env as ce

    from ..registry import make_agent

    agent, rng = make_agent(spec), np.random.default_rng(0)
    g = ce.new_game(0)
    while not g.is_over:
        g.apply(agent.act(g.view(g.to_act), rng), g.to_act)


def check_isolated(
    spec: object, timeout: float = DEFAULT_TIMEOUT, hidden: tuple[str, ...] = ()
) -> None:
    """Build ``spec`` in a worker (never here: its import runs its code) and stop it again."""
    if not isinstance(spec, str):
        raise AgentSpecError(
            f"an isolated seat is built from a spec string in its own process, got "
            f"{type(spec).__name__}: name the agent by its spec ('module.path:Name')"
        )
    sandbox.bwrap_path()  # SandboxError (exit 2): no sealed seat on this machine
    seat = SealedSeat(spec, timeout, hidden=hidden)
    try:
        seat.start()
    except SeatForfeit as exc:
        raise AgentSpecError(f"{spec!r} did not start in its own process: {exc}") from None
    finally:
        seat.close()


@atexit.register
def close_all() -> None:
    """Stop every worker of this process."""
    for s in list(_SEATS.values()):
        s.close()
    _SEATS.clear()
