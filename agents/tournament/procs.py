"""Is a process alive? (Dead-run detection in the results store; pool workers watching the run;
tests and benchmarks that kill a run and look for what outlived it.)"""

from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """True while process ``pid`` exists and is not a zombie (killed but not yet reaped: a
    killed ``cribbage bench`` whose parent shell has not waited for it is dead all the same).

    >>> pid_alive(os.getpid())
    True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, not ours
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc (macOS): existence is all we know
        return True


def process_token(pid: int) -> str | None:
    """Who ``pid`` is: this boot's id and the process's start time (Linux), so a pid reused by
    another process after a reboot or a long while is not taken for the one that was recorded.

    >>> process_token(os.getpid()) == process_token(os.getpid())
    True
    """
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
        with open(f"/proc/{pid}/stat", "rb") as g:
            start = g.read().rsplit(b")", 1)[-1].split()[19].decode()
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return f"{boot}:{start}"


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, theirs...), from ``/proc`` (empty without it).

    >>> os.getpid() in descendants(os.getppid())
    True
    """
    kids: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return set()
    for d in names:
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out
