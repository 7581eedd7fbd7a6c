"""Isolated seats: an agent you do not trust plays from its own process and sees only its view.

An agent run in the engine's process is trusted code: it can walk the call stack or the garbage
collector to the true :class:`~cribbage_env.rules.engine.GameState` (the opponent's hand, the deck).
An :class:`IsolatedSeat` runs the agent named by a spec in a persistent worker process
(:mod:`agents.tournament.seat_worker`, a fresh interpreter started with its spec only). Each decision sends
the seat's :class:`~cribbage_env.rules.views.PlayerView` as one JSON line (and its generator's state,
the first time a generator is used) and reads back an action; the worker keeps drawing from that
generator for the next decisions with the same one (a game's), so an honest agent makes exactly
the decisions it makes in-process (same seeds, same games). The caller's generator object is
not advanced: the worker's copy is the stream.

Nothing that comes back is trusted: the answer is read with a size limit and a per-decision
timeout, parsed as plain JSON (never pickle) and checked: the action must be one of the view's
legal actions. A crash, a hang past the timeout, an exception
in the agent or an illegal or malformed answer raises :class:`SeatForfeit`; the tournament
records the game as lost by that seat with the reason, kills the worker and starts a new one
for the next game. The worker dies with its parent (end of input, and ``PR_SET_PDEATHSIG``).

What isolation does not do: it is not an operating-system sandbox. The worker runs as the same
user, so it can read files (a results database, the command line of its parent in ``/proc``).
It keeps an agent from reading the game it is playing through the interpreter.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import numpy as np

from cribbage_env.rules.views import PlayerView, view_to_data

from ..base import AgentSpecError
from ..errors import AgentError
from .seat_worker import rng_state

#: Seconds an isolated agent may think per decision by default.
DEFAULT_TIMEOUT = 10.0
#: Longest timeout one may ask for (an hour).
MAX_TIMEOUT = 3600.0
#: Seconds a worker may take to start (import its agent) before it counts as hung.
START_TIMEOUT = 60.0
#: Longest answer line read from a worker.
MAX_ANSWER = 4096


class SeatForfeit(AgentError, RuntimeError):
    """An isolated seat crashed, hung, raised or answered illegally: it loses the game."""


def check_timeout(value: object) -> float:
    """A usable per-decision timeout in seconds (``0 < t <= MAX_TIMEOUT``), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"the decision timeout is a number of seconds, got {value!r}")
    t = float(value)
    if not 0.0 < t <= MAX_TIMEOUT:
        raise ValueError(
            f"the decision timeout must be > 0 and <= {MAX_TIMEOUT:g} s, got {value!r}"
        )
    return t


def _worker_env() -> dict[str, str]:
    """The parent's import path, so the worker resolves ``module:Name`` specs the same way."""
    path = [p for p in sys.path if p and os.path.isdir(p)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


class IsolatedSeat:
    """One agent spec in one worker process; ``act(view, rng)`` like any agent."""

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.spec, self.timeout = spec, check_timeout(timeout)
        self.name = spec
        self._proc: subprocess.Popen | None = None
        self._buf = b""
        self._rng: np.random.Generator | None = None  # the generator the worker holds a copy of

    # ----------------------------------------------------------------------- process
    def start(self) -> str:
        """Start the worker (if not running) and return the agent's name; AgentSpecError when
        the spec does not build there, SeatForfeit when the worker dies or hangs starting."""
        if self._proc is not None:
            return self.name
        self._buf = b""
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "agents.tournament.seat_worker", self.spec],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=_worker_env(),
            start_new_session=True,
        )  # fmt: skip
        hello = self._read(max(START_TIMEOUT, self.timeout), "starting")
        if "ok" not in hello:
            self.close()
            raise AgentSpecError(str(hello.get("e", "the isolated agent did not start"))[:500])
        return self.name

    def close(self) -> None:
        """Kill the worker (a new one starts at the next decision)."""
        proc, self._proc, self._rng = self._proc, None, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for f in (proc.stdin, proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        proc.wait()

    def _fail(self, reason: str) -> SeatForfeit:
        self.close()
        return SeatForfeit(reason)

    def _read(self, timeout: float, doing: str) -> dict:
        """One JSON object line from the worker within ``timeout`` seconds."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            if len(self._buf) > MAX_ANSWER:
                raise self._fail(f"sent an answer longer than {MAX_ANSWER} bytes {doing}")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise self._fail(f"timed out after {timeout:g} s {doing}")
            chunk = os.read(fd, 65536)
            if not chunk:
                code = proc.poll()
                if code is None:
                    try:
                        code = proc.wait(1.0)
                    except subprocess.TimeoutExpired:
                        code = None
                raise self._fail(f"crashed {doing} (exit code {code})")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        if len(line) > MAX_ANSWER:
            raise self._fail(f"sent an answer longer than {MAX_ANSWER} bytes {doing}")
        try:
            msg = json.loads(line)
        except ValueError:
            raise self._fail(f"sent a malformed answer {doing}") from None
        if not isinstance(msg, dict):
            raise self._fail(f"sent a malformed answer {doing}")
        return msg

    # ----------------------------------------------------------------------- agent
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        try:
            self.start()
        except AgentSpecError as exc:
            raise SeatForfeit(f"could not start: {exc}") from None
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        request = {"v": view_to_data(view), "s": None if rng is self._rng else rng_state(rng)}
        self._rng = rng
        data = json.dumps(request, separators=(",", ":")).encode() + b"\n"
        try:
            while data:
                data = data[os.write(proc.stdin.fileno(), data) :]
        except OSError:
            raise self._fail("crashed (its input is closed)") from None
        msg = self._read(self.timeout, "deciding")
        if "e" in msg:
            raise self._fail(f"raised {str(msg['e'])[:300]}")
        action = msg.get("a")
        if type(action) is not int or action not in view.legal_actions:
            raise self._fail(f"chose an illegal action {str(action)[:40]} in {view.phase.value}")
        return action


_SEATS: dict[tuple[str, int, float], IsolatedSeat] = {}


def isolated_seat(spec: str, seat: int, timeout: float) -> IsolatedSeat:
    """The worker of ``spec`` in ``seat`` for this process (one per spec, seat and timeout,
    reused across games, as in-process agents are)."""
    key = (spec, seat, timeout)
    s = _SEATS.get(key)
    if s is None:
        s = _SEATS[key] = IsolatedSeat(spec, timeout)
    return s


def isolated_players(specs: tuple, timeout: float) -> tuple[IsolatedSeat, IsolatedSeat]:
    """The isolated seats 0 and 1 of a game between ``specs`` (spec strings)."""
    return (isolated_seat(str(specs[0]), 0, timeout), isolated_seat(str(specs[1]), 1, timeout))


def check_isolation(agents: Sequence[object], timeout: object, check: bool = True) -> float:
    """The timeout of isolated seats for ``agents`` (ValueError when it is not usable); every
    agent must be a spec string, and with ``check`` each builds in a worker (AgentSpecError)."""
    t = check_timeout(timeout)
    for src in agents:
        if not isinstance(src, str):
            check_isolated(src, t)  # raises: an object cannot be rebuilt in another process
    if check:
        for spec in dict.fromkeys(agents):
            check_isolated(spec, t)
    return t


def check_isolated(spec: object, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Build ``spec`` in a worker (never here: its import runs its code) and stop it again."""
    if not isinstance(spec, str):
        raise AgentSpecError(
            f"an isolated seat is built from a spec string in its own process, got "
            f"{type(spec).__name__}: name the agent by its spec ('module.path:Name')"
        )
    seat = IsolatedSeat(spec, timeout)
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
