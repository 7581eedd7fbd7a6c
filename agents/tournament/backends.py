"""Where parallel work runs: in this process, a local process pool, or a Ray cluster.

One helper for every job that outgrows a process: ``backend.map(fn, items)`` runs a pure,
module-level function on each item and yields the results as they finish. Tournaments map
:func:`agents.tournament.play.play_task` over their blocks (``backend.run``); training maps its data
shards (:mod:`agents.learn.generate`). A tournament backend runs the same function on the same
tasks and yields each block's games as it finishes (and ``None`` now and then while waiting, so
the runner can react to Ctrl-C without an exception landing inside the pool's locks); the runner
sorts them by their keys, so the results never depend on the backend, the number of workers or
the order blocks finish in. Tasks are read lazily and only a few per worker are in flight, so
memory does not grow with the number of games. Pool workers watch their parent and exit when
it dies (a killed ``cribbage bench`` leaves no worker behind holding its output).
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import pickle
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import AgentError
from .game_result import GameResult
from .limits import max_workers
from .play import TaskStopped, play_task
from .procs import pid_alive
from .shipping import stage, user_modules
from .tournament import Task, TournamentError, TournamentPlan

BACKENDS = ("serial", "pool", "ray")
#: times Ray runs a task again after its worker or node died (then the run fails).
RETRIES = 3
T = TypeVar("T")
R = TypeVar("R")
_END: Any = object()  # end of the items (an item may be None)
#: seconds a backend waits for a block before yielding ``None`` so the runner can check for Ctrl-C.
HEARTBEAT = 0.25
#: blocks in flight per worker (enough to keep workers busy, few enough to stop fast).
WINDOW = 2


@dataclass(frozen=True)
class Where:
    """Where a job's parallel work runs: a backend name and, for Ray, a cluster to join. Not part
    of any run's configuration: every backend gives the same results."""

    backend: str = "pool"
    address: str | None = None


#: local processes (the default of every job)
LOCAL = Where()


class BackendError(AgentError, RuntimeError):
    """A backend that cannot start (Ray missing, cluster unreachable, pool broken)."""


class SerialBackend:
    """Runs blocks one after another in this process (debugging, tiny runs, the reference)."""

    name = "serial"
    workers = 1

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R | None]:
        """``fn(item)`` for each item, in order (``None`` never comes: there is no waiting)."""
        for item in items:
            yield fn(item)

    def run(self, tasks: Iterable[Task], stop=None) -> Iterator[list[GameResult] | None]:
        for task in tasks:
            try:
                yield play_task(task, stop)
            except TaskStopped:
                return

    def close(self) -> None:
        pass


def _watch_parent(parent: int, ppid: int) -> None:
    while pid_alive(parent) and os.getppid() == ppid:
        time.sleep(0.5)
    os._exit(1)  # the run that wanted these games is gone


def _worker_init(parent: int) -> None:
    # Ctrl-C reaches the whole process group; the parent decides what stops, workers carry on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Killed parents run no clean-up: a worker that outlives its run exits by itself.
    threading.Thread(target=_watch_parent, args=(parent, os.getppid()), daemon=True).start()


def _start_forkserver_ignoring_sigint() -> None:
    """Start the fork server with SIGINT ignored: it inherits that, so a Ctrl-C during its
    imports prints no traceback, and the workers it forks ignore Ctrl-C from birth (the parent
    decides what stops)."""
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def check_sendable(plan: TournamentPlan, backend: str) -> None:
    """Agent objects of ``plan`` must pickle to reach pool workers (specs always travel)."""
    if backend == "serial" or not plan.has_objects:
        return
    for label in plan.agents:
        src = plan.source(label)
        if src is None:
            continue
        module = getattr(src, "__module__", None) or type(src).__module__
        how = (
            "define it at module level in an importable file (not in __main__ or a notebook), "
            "pass a spec string, or use the serial backend (workers=1)"
        )
        if backend == "pool" and module == "__main__":
            raise TournamentError(
                f"agent {label!r} comes from __main__, which pool workers cannot import: {how}"
            )
        try:
            pickle.dumps(src)
        except Exception as exc:
            raise TournamentError(
                f"agent {label!r} cannot be sent to {backend} workers ({exc}): {how}"
            ) from None


def default_start_method() -> str:
    """``forkserver`` where the platform has it (fast, no inherited state), else ``spawn``."""
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


class PoolBackend:
    """A local process pool (``forkserver`` or ``spawn``, never ``fork``)."""

    name = "pool"

    def __init__(self, workers: int | None = None, start_method: str | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        method = start_method or default_start_method()
        if method not in ("forkserver", "spawn"):
            raise TournamentError(f"start method must be 'forkserver' or 'spawn', got {method!r}")
        ctx = mp.get_context(method)
        if method == "forkserver":
            # Import the engine (its scoring tables take ~0.3 s) once in the fork server, so each
            # worker starts as a fork of a warm process instead of importing it all again.
            ctx.set_forkserver_preload(["agents.tournament.play"])
            _start_forkserver_ignoring_sigint()
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        self._pending: set[Future] = set()

    def run(self, tasks: Iterable[Task], stop=None) -> Iterator[list[GameResult] | None]:
        return self.map(play_task, tasks)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R | None]:
        """``fn(item)`` for each item in the workers, as they finish (``None`` while waiting)."""
        todo = iter(items)
        self._pending = set()
        while True:
            while len(self._pending) < WINDOW * self.workers:
                item = next(todo, _END)
                if item is _END:
                    break
                self._pending.add(self._executor.submit(fn, item))
            if not self._pending:
                return
            done, self._pending = wait(
                self._pending, timeout=HEARTBEAT, return_when=FIRST_COMPLETED
            )
            if not done:
                yield None
            for fut in done:
                yield fut.result()

    def close(self) -> None:
        for fut in self._pending:
            fut.cancel()
        processes = list(getattr(self._executor, "_processes", {}).values())
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._pending:
            # Interrupted: the blocks still running would be thrown away anyway; stop our workers.
            for proc in processes:
                if proc.is_alive():
                    proc.terminate()
        for proc in processes:
            proc.join(timeout=5)
        self._pending = set()


def _is_loopback(address: str) -> bool:
    host = address.split("://", 1)[-1].rpartition(":")[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _check_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast and clearly when a ``host:port`` cluster address does not answer."""
    if address in ("auto", "local"):
        return
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise BackendError(
            f"Ray address must be 'auto' or host:port (optionally ray://host:port), got {address!r}"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {exc}") from None


class RayBackend:
    """Blocks as Ray tasks: joins ``address`` if given, else starts a local Ray with ``workers`` CPUs."""

    name = "ray"

    def __init__(
        self, workers: int | None = None, address: str | None = None, ship: Sequence[str] = ()
    ) -> None:
        if address:
            _check_address(address)
        if "ray" not in sys.modules and (not address or _is_loopback(address)):
            # A one-machine Ray (ours, or a head started on 127.0.0.1) must use the loopback
            # address: otherwise Ray advertises the machine's network address, listens on it, and
            # a driver joining a 127.0.0.1 head waits forever for a node it cannot match.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the Ray backend needs Ray: pip install 'cribbage-env[ray]'"
            ) from None
        self._ray = ray
        tree = Path(__file__).resolve().parents[2]
        root = str(tree)
        pkgs = [str(tree / "agents"), str(tree / "cribbage_env")]
        self._owns = not ray.is_initialized()
        if self._owns:
            if address:
                # Ship this checkout's packages so every node runs exactly the driver's code, and
                # the user's modules that ``ship`` names (agents.tournament.shipping) as the working folder.
                env: dict[str, Any] = {"py_modules": pkgs}
                staged = stage(user_modules(ship))
                if staged is not None:
                    env["working_dir"] = str(staged)
                try:
                    ray.init(
                        address=address,
                        runtime_env=env,
                        logging_level=logging.ERROR,
                        log_to_driver=False,
                    )
                except Exception as exc:  # ConnectionError, RuntimeError... all mean "cannot join"
                    raise BackendError(f"cannot join the Ray cluster at {address}: {exc}") from None
            else:
                pythonpath = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
                ray.init(
                    address="local",  # a new one-machine Ray, even if a `ray start` cluster exists
                    num_cpus=workers or os.cpu_count() or 1,
                    include_dashboard=False,
                    runtime_env={"env_vars": {"PYTHONPATH": pythonpath}},
                    logging_level=logging.ERROR,
                    log_to_driver=False,
                )
        self.workers = int(ray.cluster_resources().get("CPU", workers or 1))
        self._remotes: dict[Callable, Any] = {}
        self._pending: list = []

    def run(self, tasks: Iterable[Task], stop=None) -> Iterator[list[GameResult] | None]:
        return self.map(play_task, tasks)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R | None]:
        """``fn(item)`` for each item as a Ray task (retried on a lost node), as they finish."""
        ray = self._ray
        remote = self._remotes.get(fn)
        if remote is None:
            remote = self._remotes[fn] = ray.remote(num_cpus=1, max_retries=RETRIES)(fn)
        todo = iter(items)
        self._pending = []
        while True:
            while len(self._pending) < WINDOW * max(1, self.workers):
                item = next(todo, _END)
                if item is _END:
                    break
                self._pending.append(remote.remote(item))
            if not self._pending:
                return
            done, self._pending = ray.wait(self._pending, num_returns=1, timeout=HEARTBEAT)
            if not done:
                yield None
            for ref in done:
                yield ray.get(ref)

    def close(self) -> None:
        ray = self._ray
        for ref in self._pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # already finished or gone
                pass
        self._pending = []
        if self._owns and ray.is_initialized():
            ray.shutdown()


def make_backend(
    name: str = "pool",
    workers: int | None = None,
    address: str | None = None,
    ship: Sequence[str] = (),
):
    """A backend by name: ``serial``, ``pool`` (default) or ``ray``; ``ship`` lists the agent
    specs whose user modules a remote Ray cluster needs (see :mod:`agents.tournament.shipping`)."""
    if name not in BACKENDS:
        raise TournamentError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise TournamentError(f"workers must be a positive integer, got {workers!r}")
    if workers is not None and workers > max_workers() and not address:
        raise TournamentError(
            f"workers must be at most {max_workers()} on this machine ({os.cpu_count()} cores), "
            f"got {workers}"
        )
    if address and name != "ray":
        raise TournamentError("--address joins a Ray cluster: use it with --backend ray")
    if name == "serial":
        return SerialBackend()
    if name == "pool":
        if workers == 1:
            return SerialBackend()
        return PoolBackend(workers)
    return RayBackend(workers, address, ship)
