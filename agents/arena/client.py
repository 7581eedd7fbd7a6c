"""A bot in its own process, spoken to over the bot protocol: ``act(view, rng)`` like any agent.

:class:`ProtocolBot` starts a command, reads its hello, and sends one ``act`` request per
decision (:mod:`agents.arena.protocol`). Nothing that comes back is trusted: lines are read with
a size limit and a time budget per decision and per game, parsed as plain JSON and checked (the
action must be legal). Any breach raises :class:`SeatForfeit`: the tournament records the game as
lost by that seat, with the reason, kills the bot and starts a new one for the next game. The
bot's standard error goes to a log file, never the person's terminal. With ``sealed`` the
command runs under :mod:`agents.arena.sandbox` (bubblewrap and rlimits) or not at all.
"""

from __future__ import annotations

import dataclasses
import os
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence

import numpy as np

from cribbage_env.rules.views import PlayerView

from ..errors import AgentError
from . import pids, protocol, sandbox

#: Seconds a bot may take to start and say hello.
START_TIMEOUT = 60.0


class SeatForfeit(AgentError, RuntimeError):
    """A seat crashed, hung, ran out of time or answered illegally: it loses the game."""


def rng_state(rng: np.random.Generator) -> list[int]:
    """A PCG64 generator's state as four integers (the ``rng`` of a request)."""
    st = rng.bit_generator.state
    return [st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"]]


class ProtocolBot:
    """One bot command in one process, reused across games; ``act(view, rng)``."""

    def __init__(
        self,
        command: Sequence[str],
        timeout: float = 10.0,
        game_budget: float | None = None,
        sealed: sandbox.Limits | None = None,
        env: dict[str, str] | None = None,
        log: str | None = None,
    ) -> None:
        self.command, self.timeout, self.game_budget = list(command), timeout, game_budget
        self.sealed, self.env = sealed, dict(env or {})
        self.name = " ".join(self.command)[:100]
        self.spec = "cmd:" + " ".join(self.command)
        self.log = log
        self._own_log = log is None  # a temp file made here: removed at close when empty
        self._proc: subprocess.Popen | None = None
        self._buf = b""
        self._rng: np.random.Generator | None = None  # the game's generator the bot has seen
        self._group: str | None = None  # the sealed bot's pids cgroup
        self._spent = 0.0  # seconds of thinking this game

    # ----------------------------------------------------------------------- process
    def _argv(self) -> tuple[list[str], dict[str, str] | None]:
        if self.sealed is None:
            return self.command, {**os.environ, **self.env}
        pids.remove(self._group)
        self._group = pids.create(self.sealed.procs)
        nproc = None if self._group else pids.nproc_limit(self.sealed.procs)
        self.sealed = dataclasses.replace(self.sealed, group=self._group or "", nproc=nproc or 0)
        return sandbox.wrap(self.command, self.sealed, self.env), {}

    def _log_file(self) -> int:
        if self.log is None:
            fd, self.log = tempfile.mkstemp(prefix="cribbage-bot-", suffix=".log")
            return fd
        return os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def start(self) -> str:
        """Start the bot (if not running) and return its name from the hello; SeatForfeit when
        it dies, hangs or speaks another protocol."""
        if self._proc is not None:
            return self.name
        argv, env = self._argv()
        self._buf, err = b"", self._log_file()
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env,
                start_new_session=True,
                preexec_fn=None if self.sealed is None else sandbox.rlimits(self.sealed),
            )  # fmt: skip
        except OSError as exc:
            raise SeatForfeit(f"could not start {self.command[0]!r}: {exc.strerror}") from None
        finally:
            os.close(err)
        hello = self._read(max(START_TIMEOUT, self.timeout), "starting")
        if "error" in hello:
            raise self._fail(f"did not start: {str(hello['error'])[:300]}")
        try:
            self.name = protocol.check_hello(hello)
        except protocol.ProtocolError as exc:
            raise self._fail(str(exc)) from None
        return self.name

    def close(self) -> None:
        """Kill the bot and every process of its session (a new one starts when needed)."""
        proc, self._proc, self._rng = self._proc, None, None
        if proc is None:
            pids.remove(self._group)
            self._group = None
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
        pids.remove(self._group)  # and whatever of the bot's is left in its group
        self._group = None
        self._drop_empty_log()

    def _drop_empty_log(self) -> None:
        """A log the bot wrote nothing to is removed (every seat made one: thousands in the
        temp folder after a few runs); one with the bot's words in it stays."""
        if self._own_log and self.log is not None:
            try:
                if os.path.getsize(self.log) == 0:
                    os.unlink(self.log)
                    self.log = None
            except OSError:
                pass

    def _fail(self, reason: str) -> SeatForfeit:
        self.close()
        return SeatForfeit(reason)

    def _read(self, timeout: float, doing: str) -> dict:
        """One message line from the bot within ``timeout`` seconds."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            if len(self._buf) > protocol.MAX_LINE:
                raise self._fail(f"sent a line longer than {protocol.MAX_LINE} bytes {doing}")
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
        try:
            return protocol.decode(line)
        except protocol.ProtocolError as exc:
            raise self._fail(f"sent {exc} {doing}") from None

    # ----------------------------------------------------------------------- agent
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        new_game = rng is not self._rng
        if new_game:
            self._rng, self._spent = rng, 0.0
        data = protocol.encode(protocol.view_message(view, rng_state(rng) if new_game else None))
        try:
            while data:
                data = data[os.write(proc.stdin.fileno(), data) :]
        except OSError:
            raise self._fail("crashed (its input is closed)") from None
        limit = self.timeout
        if self.game_budget is not None:
            limit = min(limit, self.game_budget - self._spent)
            if limit <= 0:
                raise self._fail(f"used its {self.game_budget:g} s budget for the game")
        began = time.monotonic()
        msg = self._read(limit, "deciding")
        self._spent += time.monotonic() - began
        if "error" in msg:
            raise self._fail(f"raised {str(msg['error'])[:300]}")
        action = msg.get("action")
        if type(action) is not int or action not in view.legal_actions:
            raise self._fail(f"chose an illegal action {str(action)[:40]} in {view.phase.value}")
        return action
