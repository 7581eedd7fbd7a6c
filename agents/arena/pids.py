"""How many processes a sealed seat may run: a ``pids`` cgroup per seat, or ``RLIMIT_NPROC``.

A fork bomb must stop at the seat, not at the machine. The kernel bounds the tasks (processes
and threads) of a control group with the ``pids`` controller: each seat gets its own group
(cgroup v2, or the v1 ``pids`` hierarchy) with ``pids.max`` set, the seat's first process joins
it before ``bwrap`` starts, and every process the bot makes stays in it (a new session or a
double fork does not leave a cgroup). The group is removed when the seat ends, and the groups
of a host that died first are removed by the next one (:func:`sweep`).

Where no ``pids`` group can be made (no controller, or the hierarchy is not writable by this
user), a host that is not root falls back to ``RLIMIT_NPROC``: the kernel counts every process
of the user, so the seat may start ``procs`` more than the user runs now. Root ignores
``RLIMIT_NPROC``, so a root host without a writable ``pids`` group runs seats with no process
limit, and says so once on standard error (:func:`warn_unlimited`).
"""

from __future__ import annotations

import functools
import itertools
import os
import signal
import sys
import time

#: Where the cgroup hierarchies are mounted.
CGROUP_ROOT = "/sys/fs/cgroup"
_count = itertools.count()
_warned = False


def _candidates() -> list[str]:
    """This process's own cgroup in each hierarchy that may hold a ``pids`` group."""
    out: list[str] = []
    try:
        with open("/proc/self/cgroup", encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "":  # cgroup v2 (unified); mounted at the root or at unified/
            for mount in (CGROUP_ROOT, os.path.join(CGROUP_ROOT, "unified")):
                if os.path.exists(os.path.join(mount, "cgroup.controllers")):
                    out.append(os.path.join(mount, path.lstrip("/")))
                    break
        elif "pids" in controllers.split(","):
            out.append(os.path.join(CGROUP_ROOT, "pids", path.lstrip("/")))
    return out


@functools.cache
def pids_parent() -> str | None:
    """A cgroup where this process can make a child with ``pids.max``, or None."""
    for parent in _candidates():
        probe = os.path.join(parent, f"cribbage-probe-{os.getpid()}")
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            ok = os.path.exists(os.path.join(probe, "pids.max"))
        finally:
            os.rmdir(probe)
        if ok:
            sweep(parent)
            return parent
    return None


def sweep(parent: str) -> None:
    """Remove the seat groups of hosts that are gone (a pool worker killed before it closed
    its seats leaves theirs behind), killing anything still in them."""
    try:
        names = [n for n in os.listdir(parent) if n.startswith("cribbage-seat-")]
    except OSError:
        return
    for name in names:
        try:
            os.kill(int(name.split("-")[2]), 0)
        except ProcessLookupError:
            remove(os.path.join(parent, name))
        except (ValueError, IndexError, OSError):
            continue


def create(procs: int) -> str | None:
    """A new group allowing ``procs`` tasks (its path), or None where none can be made."""
    parent = pids_parent()
    if parent is None:
        return None
    path = os.path.join(parent, f"cribbage-seat-{os.getpid()}-{next(_count)}")
    try:
        os.mkdir(path)
        with open(os.path.join(path, "pids.max"), "w", encoding="ascii") as f:
            f.write(str(procs))
    except OSError:
        remove(path)
        return None
    return path


def join(path: str) -> None:
    """Move the calling process into the group (a ``preexec_fn``: before ``bwrap`` starts)."""
    with open(os.path.join(path, "cgroup.procs"), "w", encoding="ascii") as f:
        f.write(str(os.getpid()))


def _members(path: str) -> list[int]:
    try:
        with open(os.path.join(path, "cgroup.procs"), encoding="ascii") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


def remove(path: str | None) -> None:
    """Kill whatever is left in the group and remove it."""
    if path is None:
        return
    deadline = time.monotonic() + 5.0
    while True:
        for pid in _members(path):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # a process that will not die: the empty group is left behind
            time.sleep(0.02)


def user_processes() -> int:
    """How many processes this user runs now (what ``RLIMIT_NPROC`` counts)."""
    uid, n = os.getuid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                n += os.stat(f"/proc/{name}").st_uid == uid
            except OSError:
                pass
    return n


def nproc_limit(procs: int) -> int | None:
    """The ``RLIMIT_NPROC`` a seat gets when no group can be made (None for root)."""
    if os.geteuid() == 0:
        warn_unlimited()
        return None
    return user_processes() + procs


def warn_unlimited() -> None:
    """Say once that seats run without a process limit here, and why."""
    global _warned
    if not _warned:
        _warned = True
        print("cribbage-env: warning: sealed seats have no process limit on this machine "
              "(no writable 'pids' cgroup, and root ignores RLIMIT_NPROC): a bot's fork bomb "
              "is stopped only by the machine's own limits", file=sys.stderr, flush=True)  # fmt: skip
