"""A bot in its own process, spoken to over the bot protocol: ``act(view, rng)`` like any agent.

:class:`ProtocolBot` starts a command, reads its hello, and sends one ``act`` request per
decision (:mod:`agents.arena.protocol`). Nothing that comes back is trusted: lines are read with
a size limit and a time budget per decision, per game and per run, parsed as plain JSON and
checked (the action must be legal). Any breach raises :class:`SeatForfeit`: the tournament
records the game as lost by that seat, with the reason naming the limit it broke, kills the bot
and starts a new one for the next game. With ``sealed`` the command runs under
:mod:`agents.arena.sandbox` (bubblewrap, control groups and rlimits) or not at all.

The bot's three standard streams are pipes this process holds: no file of the host is handed
to it. What it writes on standard error is read here and written to a log of the host's own
(``cribbage-bot-*.log`` in :func:`log_folder`, made at the bot's first word, at most
:data:`LOG_BYTES`: a bot that says nothing leaves no log); its last lines are quoted when it fails to start.

Time is the seat's own: a decision's limit counts the CPU time of the bot's processes (its
control group's, else theirs from ``/proc``), so a neighbour that loads the machine cannot make
it forfeit; a bot that neither answers nor computes (asleep, blocked) forfeits after
:data:`WALL_FACTOR` times the limit in wall time. Start-up counts against the game's budget and
every second of the bot's processes against the run's (``cpu_s``).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import select
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Sequence

import numpy as np

from cribbage_env.rules.views import PlayerView

from ..errors import AgentError
from . import cgroups, protocol, sandbox

#: Seconds a bot may take to start and say hello (CPU time; wall time: WALL_FACTOR times).
START_TIMEOUT = 60.0
#: A bot that has not answered after this many times its limit in wall time forfeits.
WALL_FACTOR = 3.0
#: The most of a bot's standard error kept in its log.
LOG_BYTES = 64 << 20
_POLL = 0.05  # seconds between looks at a deciding bot's CPU time


class SeatForfeit(AgentError, RuntimeError):
    """A seat crashed, hung, ran out of time or answered illegally: it loses the game."""


def rng_state(rng: np.random.Generator) -> list[int]:
    """A PCG64 generator's state as four integers (the ``rng`` of a request)."""
    st = rng.bit_generator.state
    return [st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"]]


@functools.cache
def log_folder() -> str:
    """The folder of this user's bot logs, ``cribbage-logs-UID`` in the temp folder (made
    private to the user, hidden from every seat); one that is not a private folder of this
    user's (made by someone else, a link) is never used: a fresh one is made instead."""
    path = os.path.join(tempfile.gettempdir(), f"cribbage-logs-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return tempfile.mkdtemp(prefix="cribbage-logs-")
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return tempfile.mkdtemp(prefix="cribbage-logs-")
    return path


@dataclasses.dataclass
class _Clock:
    """CPU seconds of one bot's processes: its group's count, or the sum over its tree."""

    group: cgroups.SeatGroup
    pid: int = 0

    def now(self) -> float:
        t = self.group.cpu_seconds()
        return t if t is not None else cgroups.tree_cpu_seconds(self.pid)

    def busy(self) -> bool:
        """Is one of its processes computing or waiting for a CPU (not asleep)?"""
        members = self.group.members() if self.group.folders else cgroups.tree(self.pid)
        return cgroups.any_running(members)


class ProtocolBot:
    """One bot command in one process, reused across games; ``act(view, rng)``."""

    #: It plays outside this process and may know how deals derive from a seed: a game with it
    #: is dealt from a secret (:func:`cribbage_env.seeding.deals_from_secret`).
    secret_deals = True

    def __init__(
        self,
        command: Sequence[str],
        timeout: float = 10.0,
        game_budget: float | None = None,
        sealed: sandbox.Limits | None = None,
        env: dict[str, str] | None = None,
        run_budget: float | None = None,
    ) -> None:
        self.command, self.timeout, self.game_budget = list(command), timeout, game_budget
        self.run_budget = run_budget
        self.sealed, self.env = sealed, dict(env or {})
        self.name = " ".join(self.command)[:100]
        self.spec = "cmd:" + " ".join(self.command)
        self.log: str | None = None  # made at the bot's first word on standard error
        self._log_size = 0
        self._tail = b""  # the last of its standard error, quoted when it fails to start
        self._proc: subprocess.Popen | None = None
        self._buf = b""
        self._rng: np.random.Generator | None = None  # the game's generator the bot has seen
        self._group = cgroups.SeatGroup()
        self._clock = _Clock(self._group)
        self._spent = 0.0  # CPU seconds of thinking this game (start-up included)
        self._waited = 0.0  # wall seconds of the same
        self._used = 0.0  # CPU seconds of the bot's processes before this one, this run

    # ----------------------------------------------------------------------- process
    def _argv(self) -> tuple[list[str], dict[str, str] | None]:
        if self.sealed is None:
            return self.command, {**os.environ, **self.env}
        self._group.remove()
        self._group = cgroups.create(self.sealed.procs, self.sealed.memory_mb)
        self._clock = _Clock(self._group)
        nproc = 0 if self._group.has("pids") else sandbox.nproc_limit(self.sealed.procs)
        self.sealed = dataclasses.replace(self.sealed, groups=self._group.paths(), nproc=nproc)
        return sandbox.wrap(self.command, self.sealed, self.env), {}

    def start(self) -> str:
        """Start the bot (if not running) and return its name from the hello; SeatForfeit when
        it dies, hangs or speaks another protocol."""
        if self._proc is not None:
            return self.name
        argv, env = self._argv()
        self._buf, self._tail = b"", b""
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, start_new_session=True,
                preexec_fn=None if self.sealed is None else sandbox.rlimits(self.sealed),
            )  # fmt: skip
        except OSError as exc:
            raise SeatForfeit(f"could not start {self.command[0]!r}: {exc.strerror}") from None
        self._clock.pid = self._proc.pid
        began, waited = self._clock.now(), time.monotonic()
        hello = self._read(START_TIMEOUT, "starting", "the start-up limit", began=began)
        self._spent += self._clock.now() - began
        self._waited += time.monotonic() - waited
        if "error" in hello:
            raise self._fail(f"did not start: {protocol.quote(hello['error'])}")
        try:
            self.name = protocol.check_hello(hello)
        except protocol.ProtocolError as exc:
            raise self._fail(str(exc)) from None
        return self.name

    def close(self) -> None:
        """Kill the bot and every process of its session (a new one starts when needed)."""
        proc, self._proc, self._rng = self._proc, None, None
        if proc is not None:
            self._used += self._clock.now()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._group.remove()  # and whatever of the bot's is left in its group
        if proc is None:
            return
        proc.wait()
        self._drain(proc, final=True)
        for f in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass

    # ----------------------------------------------------------------------- its words
    def _drain(self, proc: subprocess.Popen, final: bool = False) -> None:
        """Move what the bot wrote on standard error to its log (all of it when ``final``)."""
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        while select.select([fd], [], [], 0)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._note(chunk)
            if not final:
                return

    def _note(self, chunk: bytes) -> None:
        self._tail = (self._tail + chunk)[-4096:]
        room = LOG_BYTES - self._log_size
        if room <= 0:
            return
        if self.log is None:
            fd, self.log = tempfile.mkstemp(prefix="cribbage-bot-", suffix=".log",
                                            dir=log_folder())  # fmt: skip
        else:
            fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        try:
            data = chunk[:room]
            while data:
                data = data[os.write(fd, data) :]
            self._log_size += min(len(chunk), room)
        finally:
            os.close(fd)

    def last_words(self) -> str:
        """The last line the bot wrote on standard error, quoted (empty when it wrote none)."""
        lines = [x for x in self._tail.decode(errors="replace").splitlines() if x.strip()]
        return protocol.quote(lines[-1].strip()) if lines else ""

    def _fail(self, reason: str) -> SeatForfeit:
        self.close()
        return SeatForfeit(reason)

    # ----------------------------------------------------------------------- reading
    def _read(
        self, limit: float, doing: str, what: str, wall: float | None = None, began: float = 0.0
    ) -> dict:
        """One message line from the bot before its processes use ``limit`` CPU seconds since
        ``began`` (its clock; ``what`` names the limit), or before ``wall`` seconds (WALL_FACTOR
        times ``limit``) pass while none of them computes or waits for a CPU. Its CPU time is
        read only once it has taken ``limit`` in wall time."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.fileno(), proc.stderr.fileno()
        wall = WALL_FACTOR * limit if wall is None else wall
        start = time.monotonic()
        while b"\n" not in self._buf:
            if len(self._buf) > protocol.MAX_LINE:
                raise self._fail(f"sent a line longer than {protocol.MAX_LINE} bytes {doing}")
            waited = time.monotonic() - start
            if waited > limit and self._clock.now() - began > limit:
                raise self._fail(f"used more than {limit:.3g} s of CPU time {doing}: past {what}")
            if waited >= wall and not self._clock.busy():  # a starved seat is not idle
                raise self._fail(f"gave no answer in {waited:.3g} s of wall time {doing} and is "
                                 f"not computing: past {WALL_FACTOR:g} times {what}")  # fmt: skip
            pause = _POLL if waited > min(limit, wall) else min(limit, wall) - waited + 1e-3
            ready = select.select([out, err], [], [], pause)[0]
            if err in ready:
                self._drain(proc)
            if out in ready:
                chunk = os.read(out, 65536)
                if not chunk:
                    raise self._crashed(proc, doing)
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        try:
            return protocol.decode(line)
        except protocol.ProtocolError as exc:
            raise self._fail(f"sent {exc} {doing}") from None

    def _crashed(self, proc: subprocess.Popen, doing: str) -> SeatForfeit:
        code = proc.poll()
        if code is None:
            try:
                code = proc.wait(1.0)
            except subprocess.TimeoutExpired:
                code = None
        memory = self.sealed is not None and self._group.memory_broken()
        self._drain(proc, final=True)
        words = self.last_words()
        why = f" at its memory limit ({self.sealed.memory_mb} MiB)" if memory else ""  # type: ignore[union-attr]
        where = f" (its log: {self.log})" if self.log else ""
        return self._fail(f"crashed {doing}{why} (exit code {code})"
                          f"{': ' + words if words else ''}{where}")  # fmt: skip

    # ----------------------------------------------------------------------- agent
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        new_game = rng is not self._rng  # or a new process: it needs the generator's state
        if new_game:
            self._spent = self._waited = 0.0  # the game's budget starts now, a start-up included
        self.start()
        self._rng = rng
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        if self.run_budget is not None and self._used + self._clock.now() > self.run_budget:
            raise self._fail(f"used its run budget of {self.run_budget:g} s of CPU time")
        data = protocol.encode(protocol.view_message(view, rng_state(rng) if new_game else None))
        try:
            while data:
                data = data[os.write(proc.stdin.fileno(), data) :]
        except OSError:
            raise self._fail("crashed (its input is closed)") from None
        limit, wall, what = self.timeout, WALL_FACTOR * self.timeout, "the decision timeout"
        if self.game_budget is not None:
            budget = f"its game budget of {self.game_budget:g} s"
            if self.game_budget - self._spent < limit:
                limit, what = self.game_budget - self._spent, budget
            if WALL_FACTOR * self.game_budget - self._waited < wall:
                wall, what = max(0.0, WALL_FACTOR * self.game_budget - self._waited), budget
            if limit <= 0:
                raise self._fail(f"used {budget} (CPU time)")
        began, waited = self._clock.now(), time.monotonic()
        msg = self._read(limit, "deciding", what, wall, began)
        self._spent += self._clock.now() - began
        self._waited += time.monotonic() - waited
        try:
            return protocol.read_action(msg, view.legal_actions, view.phase.value)
        except protocol.ProtocolError as exc:
            raise self._fail(str(exc)) from None
