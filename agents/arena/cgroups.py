"""A sealed seat's control groups: its processes, memory and CPU counted and bounded by the kernel.

Each seat gets a group of its own in every hierarchy that offers one of :data:`CONTROLLERS`
(cgroup v2: the unified folder of this process; v1: one folder per controller hierarchy), made
before the seat starts; its first process joins them before ``bwrap`` starts, and everything the
bot starts stays in them (a new session or a double fork does not leave a cgroup):

- ``pids``: ``pids.max`` bounds the tasks (processes and threads) at once: a fork bomb stops at
  the seat;
- ``memory``: the limit (v1 ``memory.limit_in_bytes``, v2 ``memory.max``, no swap) bounds every
  byte the seat holds, its memory file systems (``/tmp``, ``/dev/shm``) included: the kernel
  charges a tmpfs page to the group of the process that wrote it;
- ``cpu``: a group per seat gets the same share of a busy machine as any other group (v1
  ``cpu.shares``, v2 ``cpu.weight``, left at the default): a bot's spinning children take its
  own share, not its neighbour's;
- ``cpuacct`` (v1) or ``cpu.stat`` (v2): the seat's CPU time, all its processes together: the
  time limits count it (:meth:`SeatGroup.cpu_seconds`).

The groups are removed when the seat ends, and those of a host that died first are removed by
the next one (:func:`sweep`). Where a controller has no writable hierarchy the seat runs without
that group: :func:`missing` names what is missing, and the seat falls back (``RLIMIT_NPROC`` for
the processes, the memory file systems' own sizes and ``RLIMIT_AS`` for memory, the CPU time of
its processes read from ``/proc`` for time).
"""

from __future__ import annotations

import functools
import itertools
import os
import signal
import time
from dataclasses import dataclass, field

#: Where the cgroup hierarchies are mounted.
CGROUP_ROOT = "/sys/fs/cgroup"
#: The controllers a seat's groups use, each with a file its group must have to be usable.
CONTROLLERS = {
    "pids": "pids.max",
    "memory": "memory.max|memory.limit_in_bytes",
    "cpu": "cpu.weight|cpu.shares",
    "cpuacct": "cpu.stat|cpuacct.usage",
}
_count = itertools.count()


def _own_groups() -> list[tuple[str, str]]:
    """(controllers, folder) of this process's own cgroup in each mounted hierarchy."""
    out: list[tuple[str, str]] = []
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
                    out.append(("", os.path.join(mount, path.lstrip("/"))))
                    break
        else:
            for name in controllers.split(","):
                if name in CONTROLLERS:
                    out.append((name, os.path.join(CGROUP_ROOT, name, path.lstrip("/"))))
    return out


def _usable(folder: str, controller: str) -> bool:
    return any(os.path.exists(os.path.join(folder, f)) for f in CONTROLLERS[controller].split("|"))


@functools.cache
def parents() -> dict[str, str]:
    """For each controller a seat can have, the folder where this process makes its groups
    (probed once: a child made, looked at and removed; old seat groups swept)."""
    found: dict[str, str] = {}
    groups = _own_groups()
    v1 = [g for g in groups if g[0]]
    for name, parent in [*v1, *(g for g in groups if not g[0])]:
        wanted = [name] if name else [c for c in CONTROLLERS if c not in found]
        probe = os.path.join(parent, f"cribbage-probe-{os.getpid()}")
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            for c in wanted:
                if c not in found and _usable(probe, c):
                    found[c] = parent
        finally:
            os.rmdir(probe)
    for parent in set(found.values()):
        sweep(parent)
    return found


def missing() -> tuple[str, ...]:
    """The controllers a seat cannot have on this machine."""
    return tuple(c for c in CONTROLLERS if c not in parents())


@dataclass
class SeatGroup:
    """One seat's groups: a folder per hierarchy (several controllers may share one)."""

    folders: dict[str, str] = field(default_factory=dict)  # controller -> folder

    def has(self, controller: str) -> bool:
        return controller in self.folders

    def paths(self) -> tuple[str, ...]:
        """Its folders, each once."""
        return tuple(dict.fromkeys(self.folders.values()))

    def cpu_seconds(self) -> float | None:
        """CPU seconds the group's processes have used (None without a CPU-counting group)."""
        folder = self.folders.get("cpuacct")
        if folder is None:
            return None
        try:
            if os.path.exists(os.path.join(folder, "cpuacct.usage")):
                return int(_read(folder, "cpuacct.usage")) / 1e9
            for line in _read(folder, "cpu.stat").splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
        except (OSError, ValueError):
            return None
        return None

    def members(self) -> list[int]:
        """The processes in the seat's groups now."""
        return sorted({p for f in self.paths() for p in _members(f)})

    def memory_broken(self) -> bool:
        """Did the group reach its memory limit (an allocation refused or a process killed)?"""
        folder = self.folders.get("memory")
        if folder is None:
            return False
        try:
            if os.path.exists(os.path.join(folder, "memory.failcnt")):  # v1
                oom = dict(x.split() for x in _read(folder, "memory.oom_control").splitlines())
                used = int(_read(folder, "memory.max_usage_in_bytes"))
                limit = int(_read(folder, "memory.limit_in_bytes"))
                fails = int(_read(folder, "memory.failcnt"))
                return fails > 0 or int(oom.get("oom_kill", 0)) > 0 or used >= limit
            events = dict(line.split() for line in _read(folder, "memory.events").splitlines())
            return int(events.get("max", 0)) > 0 or int(events.get("oom_kill", 0)) > 0
        except (OSError, ValueError):
            return False

    def remove(self) -> None:
        for folder in dict.fromkeys(self.folders.values()):
            remove(folder)
        self.folders = {}


def join(folders: tuple[str, ...]) -> None:
    """Move the calling process into the groups (a ``preexec_fn``: before ``bwrap`` starts)."""
    for folder in folders:
        with open(os.path.join(folder, "cgroup.procs"), "w", encoding="ascii") as f:
            f.write(str(os.getpid()))


def _read(folder: str, name: str) -> str:
    with open(os.path.join(folder, name), encoding="ascii") as f:
        return f.read()


def _write(folder: str, name: str, value: str) -> bool:
    try:
        with open(os.path.join(folder, name), "w", encoding="ascii") as f:
            f.write(value)
        return True
    except OSError:
        return False


def _limit(folder: str, controller: str, procs: int, memory: int) -> bool:
    """Set the limit of ``controller`` in its new group (False when the kernel refuses)."""
    if controller == "pids":
        return _write(folder, "pids.max", str(procs))
    if controller == "memory":
        if os.path.exists(os.path.join(folder, "memory.max")):
            ok = _write(folder, "memory.max", str(memory))
            _write(folder, "memory.swap.max", "0")
            return ok
        ok = _write(folder, "memory.limit_in_bytes", str(memory))
        _write(folder, "memory.memsw.limit_in_bytes", str(memory))  # no swap, where counted
        return ok
    return True  # cpu, cpuacct: a group of its own is the share and the count


def create(procs: int, memory_mb: int) -> SeatGroup:
    """A seat's new groups: at most ``procs`` tasks and ``memory_mb`` MiB, its CPU counted."""
    group = SeatGroup()
    name = f"cribbage-seat-{os.getpid()}-{next(_count)}"
    for controller, parent in parents().items():
        folder = os.path.join(parent, name)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        group.folders[controller] = folder
        if not _limit(folder, controller, procs, memory_mb << 20):
            del group.folders[controller]
    for folder in set(os.path.join(p, name) for p in parents().values()):
        if folder not in group.folders.values():
            remove(folder)
    return group


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


def _members(path: str) -> list[int]:
    try:
        return [int(x) for x in _read(path, "cgroup.procs").split()]
    except (OSError, ValueError):
        return []


def remove(path: str) -> None:
    """Kill whatever is left in the group and remove it."""
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


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it (their own time and that of the
    children they reaped), from ``/proc``: each process's ``children`` list where the kernel
    offers it (cheap: only the tree is read), else a scan of every process; 0.0 without
    ``/proc``."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / tick
            kids = _children(p)
        except (OSError, IndexError, ValueError):
            continue
        if kids is None:
            return _scan_cpu_seconds(pid, tick)
        todo.extend(kids)
    return total


def tree(pid: int) -> list[int]:
    """``pid`` and the processes below it (from ``/proc``'s children lists; ``pid`` alone
    where the kernel has none)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        if p not in out:
            out.append(p)
            todo.extend(_children(p) or [])
    return out


def any_running(pids: list[int]) -> bool:
    """Is one of ``pids`` running or waiting for a CPU (state R)? A seat that has none is
    neither computing nor starved: asleep, blocked, or stopped."""
    for p in pids:
        try:
            with open(f"/proc/{p}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"R":
                    return True
        except (OSError, IndexError):
            continue
    return False


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` from ``/proc/PID/task/*/children`` (None where the kernel has
    no such file)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children", "rb") as f:
                out.extend(int(x) for x in f.read().split())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            continue
    return out


def _scan_cpu_seconds(pid: int, tick: int) -> float:
    stats: dict[int, tuple[int, float]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                stats[int(d)] = (int(fields[1]), sum(int(x) for x in fields[11:15]) / tick)
            except (OSError, IndexError, ValueError):
                continue
    kids: dict[int, list[int]] = {}
    for p, (ppid, _) in stats.items():
        kids.setdefault(ppid, []).append(p)
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, (0, 0.0))[1]
        todo.extend(kids.get(p, []))
    return total
