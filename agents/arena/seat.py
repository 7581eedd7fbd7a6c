"""A sealed seat: any agent spec played as a protocol bot inside the sandbox, or refused.

A ``cmd:`` spec is its own command; any other spec (a built-in, ``module.path:Name``) is served by
``python -m agents.tournament.seat_worker SPEC`` in a fresh interpreter. Either way the process
runs under :mod:`agents.arena.sandbox` (bubblewrap namespaces, a read-only view of the system and
of the import path, results databases hidden, rlimits). An honest Python agent makes exactly the
decisions it makes in-process: its own generator's state travels with a game's first request.
"""

from __future__ import annotations

import os
import shlex
import sys

from ..base import AgentSpecError
from . import sandbox
from .client import ProtocolBot

#: Seconds a sealed agent may think per decision by default.
DEFAULT_TIMEOUT = 10.0
#: Seconds a sealed agent may think in one game by default (its breach forfeits the game).
GAME_BUDGET = 300.0
#: Longest timeout one may ask for (an hour).
MAX_TIMEOUT = 3600.0


def check_timeout(value: object) -> float:
    """A usable per-decision timeout in seconds (``0 < t <= MAX_TIMEOUT``), else ValueError.

    >>> check_timeout(2)
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"the decision timeout is a number of seconds, got {value!r}")
    t = float(value)
    if not 0.0 < t <= MAX_TIMEOUT:
        raise ValueError(
            f"the decision timeout must be > 0 and <= {MAX_TIMEOUT:g} s, got {value!r}"
        )
    return t


def database_files(path: str | os.PathLike) -> tuple[str, ...]:
    """A SQLite database and its side files: what a sealed seat must not read.

    >>> database_files("/data/r.sqlite")[1]
    '/data/r.sqlite-wal'
    """
    real = os.path.realpath(path)
    return tuple(real + end for end in ("", "-wal", "-shm", "-journal"))


def seat_command(spec: str) -> tuple[list[str], tuple[str, ...]]:
    """The command that plays ``spec`` and the folders it must read."""
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[4:])
        if not argv:
            raise AgentSpecError(f"bad agent spec {spec!r}: no command after 'cmd:'")
        exe = os.path.realpath(argv[0])
        return [exe, *argv[1:]], (os.path.dirname(exe),)
    argv = [sys.executable, "-m", "agents.tournament.seat_worker", spec]
    return argv, sandbox.python_folders()


class SealedSeat(ProtocolBot):
    """One agent spec as a sealed protocol bot; ``act(view, rng)`` like any agent."""

    def __init__(
        self,
        spec: str,
        timeout: float = DEFAULT_TIMEOUT,
        budget: float = GAME_BUDGET,
        limits: sandbox.Limits | None = None,
        hidden: tuple[str, ...] = (),
    ) -> None:
        command, ro = seat_command(spec)
        path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
        base = limits or sandbox.Limits()
        sealed = sandbox.Limits(base.memory_mb, base.cpu_s, base.files, ro, hidden)
        env = {} if spec.startswith("cmd:") else {"PYTHONPATH": path}
        super().__init__(command, check_timeout(timeout), budget, sealed, env)
        self.spec = spec
        self.name = spec
