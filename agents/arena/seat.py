"""A sealed seat: any agent spec played as a protocol bot inside the sandbox, or refused.

A ``cmd:`` spec is its own command; any other spec (a built-in, ``module.path:Name``) is served by
``python -m agents.seat_server SPEC`` in a fresh interpreter. Either way the process
runs under :mod:`agents.arena.sandbox` (bubblewrap namespaces, a read-only view of the system and
of the import path, results databases hidden, rlimits). An honest Python agent makes exactly the
decisions it makes in-process: its own generator's state travels with a game's first request.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass

from cribbage_env.seeding import keyed_seed, new_deal_key

from ..base import AgentSpecError
from . import sandbox, seat_caches
from .client import ProtocolBot, SeatForfeit, log_folder

#: Seconds a sealed agent may think per decision by default.
DEFAULT_TIMEOUT = 10.0
#: Seconds a sealed agent may think in one game by default (its breach forfeits the game).
GAME_BUDGET = 300.0
#: Longest timeout one may ask for (an hour).
MAX_TIMEOUT = 3600.0
#: A Python seat's numeric libraries use one thread (a seat is one player; and the threads of
#: a many-core machine would count against its process limit).
ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                               "NUMBA_NUM_THREADS")}  # fmt: skip


@dataclass(frozen=True)
class SeatLimits:
    """What one sealed seat may use: MiB of memory (its control group's limit, its memory file
    systems included, and its address space), CPU seconds of the run (all its processes, every
    restart included), CPU seconds of thinking per game (start-up included) and tasks
    (processes and threads) at once. Breaching any forfeits the game."""

    memory_mb: int = 2048
    cpu_s: int = 3600
    game_budget: float = GAME_BUDGET
    procs: int = 256

    def __post_init__(self) -> None:
        bounds = (("memory_mb", 64, 1 << 20), ("cpu_s", 1, 1 << 20), ("procs", 16, 1 << 16))
        for key, low, high in bounds:
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise ValueError(f"the seat's {key} must be an integer in {low}..{high}, got {v!r}")
        check_timeout(self.game_budget, "game budget")

    def to_json(self) -> dict:
        """The limits as a run's parameters store them.

        >>> SeatLimits.from_json(SeatLimits(512).to_json()) == SeatLimits(512)
        True
        """
        return {"memory_mb": self.memory_mb, "cpu_s": self.cpu_s, "game_budget": self.game_budget,
                "procs": self.procs}  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> SeatLimits:
        """Limits from a run's parameters (ValueError when they are not limits)."""
        if not isinstance(data, dict) or set(data) - {"memory_mb", "cpu_s", "game_budget", "procs"}:
            raise ValueError(f"not seat limits: {str(data)[:80]}")
        return cls(**data)


def check_timeout(value: object, what: str = "decision timeout") -> float:
    """A usable per-decision timeout in seconds (``0 < t <= MAX_TIMEOUT``), else ValueError.

    >>> check_timeout(2)
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"the {what} is a number of seconds, got {value!r}")
    t = float(value)
    if not 0.0 < t <= MAX_TIMEOUT:
        raise ValueError(f"the {what} must be > 0 and <= {MAX_TIMEOUT:g} s, got {value!r}")
    return t


#: The limits of a seat when none are given.
DEFAULT_LIMITS = SeatLimits()


def secret_seed(seed: int) -> int:
    """The engine seed of a game with a sealed seat: ``seed`` and a fresh secret key from the
    OS (:func:`cribbage_env.seeding.keyed_seed`), so a seat that knows or guesses ``seed``
    still cannot replay the deal.

    >>> a, b = secret_seed(5), secret_seed(5)
    >>> a != b and 0 <= a < 2**63
    True
    """
    return keyed_seed(seed, new_deal_key())


def database_files(path: str | os.PathLike) -> tuple[str, ...]:
    """A SQLite database and its side files: what a sealed seat must not read.

    >>> database_files("/data/r.sqlite")[1]
    '/data/r.sqlite-wal'
    """
    real = os.path.realpath(path)
    return tuple(real + end for end in ("", "-wal", "-shm", "-journal"))


def seat_command(spec: str) -> tuple[list[str], tuple[str, ...]]:
    """The command that plays ``spec`` and the folders it must read: for ``cmd:`` the
    program's folder (found on ``PATH`` when it is a bare name, as a shell would) and, for a
    ``bin`` folder outside the system folders, the one above it (an interpreter's own library:
    ``/opt/node/bin/node`` reads ``/opt/node``), and the folder of every argument that names a file (``node bot.js``,
    ``java -jar bot.jar``)."""
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[4:])
        if not argv:
            raise AgentSpecError(f"bad agent spec {spec!r}: no command after 'cmd:'")
        found = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
        if found is None:
            raise AgentSpecError(f"bad agent spec {spec!r}: no program {argv[0]!r} on the PATH")
        exe = os.path.realpath(found)
        folders = [os.path.dirname(exe)]
        if sandbox.inside(exe, sandbox.SYSTEM_RO) is None and folders[0].endswith("/bin"):
            folders.append(os.path.dirname(os.path.dirname(exe)))
        for arg in argv[1:]:
            if os.path.isfile(arg):
                folders.append(os.path.dirname(os.path.realpath(arg)))
        args = [os.path.realpath(a) if os.path.isfile(a) else a for a in argv[1:]]
        return [exe, *args], tuple(dict.fromkeys(f for f in folders if f != "/"))
    argv = [sys.executable, "-m", "agents.seat_server", spec]
    return argv, (*sandbox.python_folders(), *sandbox.project_packages())


class SealedSeat(ProtocolBot):
    """One agent spec as a sealed protocol bot; ``act(view, rng)`` like any agent."""

    def __init__(
        self,
        spec: str,
        timeout: float = DEFAULT_TIMEOUT,
        limits: SeatLimits = DEFAULT_LIMITS,
        hidden: tuple[str, ...] = (),
    ) -> None:
        command, ro = seat_command(spec)
        self.unreadable = sandbox.unreadable(ro)
        ro = tuple(d for d in ro if d not in self.unreadable)
        path = os.pathsep.join(dict.fromkeys(p for p in [*sandbox.project_roots(), *sys.path,
                                                         os.getcwd()] if p and os.path.isdir(p)))  # fmt: skip
        found = [*sandbox.sqlite_files(ro), *sandbox.person_folders(), log_folder(),
                 *sandbox.hidden_from_seats()]  # fmt: skip
        hide = tuple(dict.fromkeys([*hidden, *found]))
        sealed = sandbox.Limits(
            limits.memory_mb, limits.cpu_s, ro=ro, hide=hide, procs=limits.procs
        )
        env = {} if spec.startswith("cmd:") else {"PYTHONPATH": path, **ONE_THREAD,
                                                  "NUMBA_CACHE_DIR": sandbox.SEAT_NUMBA_CACHE}  # fmt: skip
        super().__init__(command, check_timeout(timeout), limits.game_budget, sealed, env,
                         run_budget=float(limits.cpu_s))  # fmt: skip
        self.spec = spec
        self.name = spec
        self._python = not spec.startswith("cmd:")
        self._ro = ro

    def start(self) -> str:
        """As :meth:`ProtocolBot.start`; a failure says which folders the seat could not read."""
        try:
            return super().start()
        except SeatForfeit as exc:
            if not self.unreadable:
                raise
            hidden = ", ".join(self.unreadable[:4])
            raise SeatForfeit(
                f"{exc}; as root, a sealed seat runs as the user 'nobody', which cannot read "
                f"{hidden}: make them readable by others (chmod o+rX) or run as another user"
            ) from None

    def _argv(self) -> tuple[list[str], dict[str, str] | None]:
        """A Python seat reads the host's compiled kernels and copies them into its own
        scratch before its agent is built (:func:`.seat_caches.copy_seat_caches`)."""
        if self._python and self.sealed is not None:
            found = seat_caches.kernel_caches(sandbox.project_packages())
            self.sealed = dataclasses.replace(self.sealed, ro=(*self._ro, *(h for h, _ in found)))
            self.env[seat_caches.SEAT_CACHES] = json.dumps(found)
        return super()._argv()
