"""The sealed seat: a bot's command run under bubblewrap with rlimits, or refused.

bubblewrap (``bwrap``) puts the bot in new PID, network, IPC, UTS and cgroup namespaces, so it
sees no other process (not its host's ``/proc``), has no network, a private ``/tmp`` and
``/dev/shm`` and a read-only view of the system folders and of the folders it needs
(:attr:`Limits`' ``ro``); ``--die-with-parent`` and the PID namespace end every process the bot
made when the seat ends (new sessions and double forks included); ``--new-session`` keeps it off
the person's terminal. Its environment is cleared. Its control groups (:mod:`.cgroups`) and the
rlimits set before ``bwrap`` starts bound its tasks, memory, CPU time and open files. Without a
working ``bwrap`` a sealed seat is refused (:class:`SandboxError`), never run weaker.

Nothing of the host is the seat's to change: its standard input, output and error are pipes the
host holds (the host writes the bot's error text to a log of its own); every host folder it sees
is a read-only mount, and its root, ``/dev`` and the hidden folders are read-only too; the only
writable places are its ``/tmp`` (``Limits.scratch_mb`` MiB) and ``/dev/shm`` (``Limits.shm_mb``
MiB), memory that its memory group counts. It has no capability and no new privileges. A root
host's bwrap does not make a user namespace (it would map the bot to root, the owner of every
root-owned file it can reach, a device node or a descriptor's file, whose mode it could then
change): after bwrap has made the mounts, ``setpriv`` makes the bot the host's unprivileged user
:data:`SEAT_UID` (``nobody``). Another host's seat gets a user namespace of its own, with its
capabilities dropped and, where bwrap offers ``--disable-userns``, no further user namespaces.

A Python seat loads the host's compiled kernels from copies in its own scratch
(:mod:`.seat_caches`).
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..base import AgentSpecError
from . import cgroups

#: Folders of the system a bot may read (those that exist).
SYSTEM_RO = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc/alternatives")


#: The host user (and group) a seat runs as when the host is root: ``nobody``.
SEAT_UID = 65534
#: MiB of a seat's ``/dev/shm`` (a memory file system of its own).
SHM_MB = 64
#: Bytes of the read-only memory file system shown in place of a hidden folder.
HIDDEN_BYTES = 16384

#: Where a seat's private scratch (a memory file system) is mounted inside its sandbox.
SEAT_SCRATCH = "/tmp"
#: A Python seat's numba cache folder, in its scratch.
SEAT_NUMBA_CACHE = f"{SEAT_SCRATCH}/numba-cache"


class SandboxError(AgentSpecError):
    """No working sandbox on this machine (bubblewrap missing or refused by the kernel): no
    agent can be isolated here, so the run is refused as a bad spec would be."""


@dataclass(frozen=True)
class Limits:
    """What a sealed seat may use: memory (MiB: its group's limit, which counts its memory file
    systems, and its address space), CPU seconds of each process, open files, the extra folders
    it may read, files in them it may not, MiB of its private ``/tmp`` and ``/dev/shm``, MiB of
    any file it writes, and its tasks."""

    memory_mb: int = 2048
    cpu_s: int = 3600
    files: int = 64
    ro: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()
    scratch_mb: int = 256
    file_mb: int = 64  # the largest file it may write (in its memory file systems)
    procs: int = 256  # tasks at once (:mod:`.cgroups`)
    groups: tuple[str, ...] = ()  # the seat's cgroup folders, joined before bwrap starts
    nproc: int = 0  # RLIMIT_NPROC where there is no pids group (0: none)
    shm_mb: int = SHM_MB


@functools.cache
def bwrap_path() -> str:
    """The working ``bwrap`` (SandboxError with the reason when there is none): probed as a
    seat runs it, under the seat's identity."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxError(
            "isolated seats need bubblewrap (bwrap), which is not installed: install it "
            "(Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; "
            "Arch: pacman -S bubblewrap) or play without --isolate"
        )
    probe = subprocess.run(
        [path, *_namespaces(path), "--ro-bind", "/", "/", "--size", "1048576", "--tmpfs",
         SEAT_SCRATCH, "--remount-ro", "/", "--", *_identity(), "true"],
        capture_output=True, timeout=30,
    )  # fmt: skip
    if probe.returncode != 0:
        why = probe.stderr.decode(errors="replace").strip()[:200]
        raise SandboxError(f"bubblewrap does not run here ({why}): play without --isolate")
    return path


@functools.cache
def _disable_userns(path: str) -> bool:
    """Does this bwrap offer ``--disable-userns`` (0.8 and later)?"""
    out = subprocess.run([path, "--help"], capture_output=True, timeout=30)
    return b"--disable-userns" in out.stdout + out.stderr


def _namespaces(path: str) -> list[str]:
    """bwrap's namespaces: for a root host all but the user namespace (the seat then becomes
    :data:`SEAT_UID` of the host, :func:`_identity`); else all of them, the user's own with no
    capability and, where bwrap can, no further user namespaces."""
    common = ["--die-with-parent", "--new-session", "--clearenv"]
    if os.geteuid() == 0:
        return ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                "--unshare-cgroup-try", *common]  # fmt: skip
    more = ["--disable-userns"] if _disable_userns(path) else []
    return ["--unshare-all", "--unshare-user", *more, "--cap-drop", "ALL", *common]


def _identity() -> list[str]:
    """The command that makes a root host's seat :data:`SEAT_UID` with no capability and no
    new privileges before the bot runs (``setpriv``); nothing for another host."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None or inside(setpriv, SYSTEM_RO) is None:
        raise SandboxError(
            "as root, a sealed seat runs as the user 'nobody' through setpriv (util-linux), "
            "which is not installed: install util-linux or play without --isolate"
        )
    return [setpriv, f"--reuid={SEAT_UID}", f"--regid={SEAT_UID}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]  # fmt: skip


def seat_uid() -> int:
    """The host user a seat runs as: :data:`SEAT_UID` for a root host, else the person's."""
    return SEAT_UID if os.geteuid() == 0 else os.getuid()


def unreadable(folders: Sequence[str]) -> tuple[str, ...]:
    """Those of ``folders`` the seat's user cannot list and enter (a root host's seat runs as
    :data:`SEAT_UID`, which reads only what others may): they are not shown to it.

    >>> unreadable(["/usr"])
    ()
    """
    if seat_uid() == os.getuid():
        return ()
    out = []
    for d in folders:
        try:
            st = os.stat(d)
        except OSError:
            continue
        if st.st_uid != SEAT_UID and st.st_mode & 0o005 != 0o005:
            out.append(d)
    return tuple(out)


def _open_parents(paths: Sequence[str]) -> list[str]:
    """``--dir`` (mode 0755) for each folder above ``paths`` that bwrap makes itself (it would
    copy a private parent's mode, and the seat could not reach the folder inside)."""
    out: list[str] = []
    bound = [*SYSTEM_RO, *paths]
    tops = sorted({os.path.dirname(p) for p in paths})
    made: set[str] = set()
    for top in tops:
        chain = []
        while top not in ("/", "") and not inside(top, bound):
            chain.append(top)
            top = os.path.dirname(top)
        for d in reversed(chain):
            if d not in made:
                made.add(d)
                out += ["--perms", "0755", "--dir", d]
    return out


def wrap(command: Sequence[str], limits: Limits, env: dict[str, str]) -> list[str]:
    """``command`` inside bubblewrap: system folders and ``limits.ro`` read-only, a private
    ``/tmp`` and ``/dev/shm`` (sized memory), its own ``/proc`` and read-only ``/dev`` and root,
    only ``env`` set, as the seat's identity.

    >>> argv = wrap(["/bin/true"], Limits(), {"A": "1"})  # doctest: +SKIP
    """
    path = bwrap_path()
    argv = [path, *_namespaces(path)]
    for d in SYSTEM_RO:
        if os.path.islink(d):  # merged /usr: /bin -> usr/bin
            argv += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            argv += ["--ro-bind", d, d]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for size, where in ((limits.shm_mb, "/dev/shm"), (limits.scratch_mb, SEAT_SCRATCH)):
        argv += ["--perms", "1777", "--size", str(size << 20), "--tmpfs", where]
    ro = [d for d in limits.ro if not inside(SEAT_SCRATCH, [d])]  # never over its scratch
    argv += _open_parents(ro)
    for d in ro:  # after the private /tmp, so a folder under /tmp stays visible
        argv += ["--ro-bind", d, d]
    argv += ["--chdir", SEAT_SCRATCH]
    for f in limits.hide:  # a results database inside a readable folder reads as empty
        if os.path.isdir(f):  # a folder (the person's saves, the logs): empty, if visible
            if inside(f, limits.ro):
                argv += ["--size", str(HIDDEN_BYTES), "--tmpfs", f, "--remount-ro", f]
        elif os.path.exists(f):
            argv += ["--ro-bind", "/dev/null", f]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    return [*argv, "--remount-ro", "/dev", "--remount-ro", "/", "--", *_identity(), *command]


def inside(path: str, folders: Sequence[str]) -> str | None:
    """The first of ``folders`` that holds ``path`` (both resolved), or None.

    >>> inside("/usr/lib/x", ["/opt", "/usr"]), inside("/usrx", ["/usr"])
    ('/usr', None)
    """
    real = os.path.realpath(path)
    for folder in folders:
        top = os.path.realpath(folder)
        if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
            return folder
    return None


#: Files no seat of this process may read (results databases in use), whoever built it.
_HIDDEN: dict[str, None] = {}


def hide_from_seats(paths: Sequence[str]) -> None:
    """Hide ``paths`` from every seat this process starts from now on."""
    _HIDDEN.update(dict.fromkeys(paths))


def hidden_from_seats() -> tuple[str, ...]:
    """What :func:`hide_from_seats` was given."""
    return tuple(_HIDDEN)


def person_folders() -> tuple[str, ...]:
    """The person's cribbage data folders (saves, history, the default results database):
    hidden from every seat, since a save's seed is its deal."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")  # fmt: skip
    found = [os.path.join(base, "cribbage-env"), os.environ.get("CRIBBAGE_DATA_DIR", "")]
    return tuple(os.path.realpath(f) for f in found if f and os.path.isdir(f))


def rlimits(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` that joins the seat's groups (:mod:`.cgroups`) and sets its rlimits
    (inherited by bwrap and the bot)."""

    def apply() -> None:
        cgroups.join(limits.groups)
        if limits.nproc:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.nproc, limits.nproc))
        mem = limits.memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.files, limits.files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        size = limits.file_mb * 2**20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


def nproc_limit(procs: int) -> int:
    """The ``RLIMIT_NPROC`` a seat gets where it has no ``pids`` group: what its user runs now
    plus ``procs`` (the kernel counts per user)."""
    uid, n = seat_uid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                n += os.stat(f"/proc/{name}").st_uid == uid
            except OSError:
                pass
    return n + procs


def python_folders() -> tuple[str, ...]:
    """The folders a Python bot of this interpreter reads: its prefix, the import path and the
    current folder (where ``module:Name`` specs are found)."""
    dirs = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    dirs.update(p for p in [*sys.path, os.getcwd()] if p and os.path.isdir(p))
    return tuple(sorted(os.path.realpath(d) for d in dirs))


def sqlite_files(folders: Sequence[str]) -> tuple[str, ...]:
    """The SQLite files (and their journals) at the top of ``folders`` outside the system and
    the interpreter: results databases a seat must not read, whoever named them."""
    prefixes = tuple(os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, "/usr"))
    out = []
    for folder in folders:
        if (folder + os.sep).startswith(prefixes):
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as f:
                    head = f.read(16) if os.path.isfile(path) else b""
            except OSError:
                continue
            if head == b"SQLite format 3\x00" or name.endswith("-journal"):
                out.append(os.path.realpath(path))
    return tuple(out)


def project_packages() -> tuple[str, ...]:
    """The folders of this project's packages (where its compiled kernels are cached), as
    this process imported them: a Python seat reads them (an editable install's import hook
    finds them outside the import path)."""
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # agents/
    import cribbage_env

    return (os.path.dirname(os.path.realpath(cribbage_env.__file__)), here)


def project_roots() -> tuple[str, ...]:
    """The folders above :func:`project_packages`: first on a Python seat's import path, so
    it imports the very code this process runs, however it was installed."""
    return tuple(dict.fromkeys(os.path.dirname(p) for p in project_packages()))
