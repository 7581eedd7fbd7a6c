"""The sealed seat: a bot's command run under bubblewrap with rlimits, or refused.

bubblewrap (``bwrap``) puts the bot in new namespaces (``--unshare-all``: user, PID, network,
IPC, UTS, cgroup), so it sees no other process (not its host's ``/proc``), has no network, a
private ``/tmp`` and a read-only view of the system folders and of the folders it needs
(:attr:`Limits`' ``ro``); ``--die-with-parent`` and the PID namespace end every process the bot
made when the seat ends (new sessions and double forks included); ``--new-session`` keeps it off
the person's terminal. Its environment is cleared. rlimits set before ``bwrap`` starts bound its
memory (address space), CPU time and open files. Without a working ``bwrap`` a sealed seat is
refused (:class:`SandboxError`), never run weaker.

Numba keeps compiled kernels beside their sources (``__pycache__``, or under ``NUMBA_CACHE_DIR``)
and uses a cache only where it may write, so a read-only view would make every Python seat
compile the kernels again (tens of seconds). A Python seat reads the host's kernel cache folders
read-only (:func:`kernel_caches`) and copies them, before its agent is built, into its own cache
folder in its private ``/tmp`` (``NUMBA_CACHE_DIR`` there): it loads the host's warm kernels, and
whatever it writes stays in its ``/tmp``, a memory file system of ``Limits.scratch_mb`` MiB that
ends with the seat. The host writes nothing for a seat.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..base import AgentSpecError
from . import pids

#: Folders of the system a bot may read (those that exist).
SYSTEM_RO = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc/alternatives")


#: Where a seat's private scratch (a memory file system) is mounted inside its sandbox.
SEAT_SCRATCH = "/tmp"
#: A Python seat's numba cache folder, in its scratch.
SEAT_NUMBA_CACHE = f"{SEAT_SCRATCH}/numba-cache"


class SandboxError(AgentSpecError):
    """No working sandbox on this machine (bubblewrap missing or refused by the kernel): no
    agent can be isolated here, so the run is refused as a bad spec would be."""


@dataclass(frozen=True)
class Limits:
    """What a sealed seat may use: memory (MiB of address space), CPU seconds of the seat's
    life, open files, the extra folders it may read, files in them it may not, MiB of its
    private ``/tmp`` (memory, not counted in ``memory_mb``), MiB of any file it writes (its
    log, on the host's disk, included), and its tasks."""

    memory_mb: int = 2048
    cpu_s: int = 3600
    files: int = 64
    ro: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()
    scratch_mb: int = 256
    file_mb: int = 64  # the largest file it may write: its log on the host's disk included
    procs: int = 256  # tasks at once (:mod:`.pids`)
    group: str = ""  # the seat's pids cgroup, joined before bwrap starts
    nproc: int = 0  # RLIMIT_NPROC where there is no group (0: none)


@functools.cache
def bwrap_path() -> str:
    """The working ``bwrap`` (SandboxError with the reason when there is none)."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxError(
            "isolated seats need bubblewrap (bwrap), which is not installed: "
            "install the 'bubblewrap' package or play without --isolate"
        )
    probe = subprocess.run(
        [path, *_namespaces(), "--ro-bind", "/", "/", "--size", "1048576", "--tmpfs",
         SEAT_SCRATCH, "true"], capture_output=True, timeout=30,
    )  # fmt: skip
    if probe.returncode != 0:
        why = probe.stderr.decode(errors="replace").strip()[:200]
        raise SandboxError(f"bubblewrap does not run here ({why}): play without --isolate")
    return path


def _namespaces() -> list[str]:
    return ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]


def wrap(command: Sequence[str], limits: Limits, env: dict[str, str]) -> list[str]:
    """``command`` inside bubblewrap: system folders and ``limits.ro`` read-only, a private
    ``/tmp`` (the bot's scratch), its own ``/proc`` and ``/dev``, only ``env`` set.

    >>> argv = wrap(["/bin/true"], Limits(), {"A": "1"})  # doctest: +SKIP
    """
    argv = [bwrap_path(), *_namespaces()]
    for d in SYSTEM_RO:
        if os.path.islink(d):  # merged /usr: /bin -> usr/bin
            argv += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            argv += ["--ro-bind", d, d]
    scratch = str(limits.scratch_mb << 20)
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", scratch, "--tmpfs", SEAT_SCRATCH]
    for d in limits.ro:  # after the private /tmp, so a folder under /tmp stays visible
        argv += ["--ro-bind", d, d]
    argv += ["--chdir", SEAT_SCRATCH]
    for f in limits.hide:  # a results database inside a readable folder reads as empty
        if os.path.isdir(f):  # a folder (the person's saves): empty, if the seat could see it
            if inside(f, limits.ro):
                argv += ["--tmpfs", f]
        elif os.path.exists(f):
            argv += ["--ro-bind", "/dev/null", f]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    return [*argv, "--", *command]


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


def person_folders() -> tuple[str, ...]:
    """The person's cribbage data folders (saves, history, the default results database):
    hidden from every seat, since a save's seed is its deal."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")  # fmt: skip
    found = [os.path.join(base, "cribbage-env"), os.environ.get("CRIBBAGE_DATA_DIR", "")]
    return tuple(os.path.realpath(f) for f in found if f and os.path.isdir(f))


def rlimits(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` that sets the seat's rlimits (inherited by bwrap and the bot) and joins
    its process group (:mod:`.pids`)."""

    def apply() -> None:
        if limits.group:
            pids.join(limits.group)
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
    """The folders of this project's packages (where its compiled kernels are cached)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # agents/
    import cribbage_env

    return (os.path.dirname(os.path.abspath(cribbage_env.__file__)), here)


#: The seat's environment variable naming the (host folder, seat folder) pairs to copy, as JSON.
SEAT_CACHES = "CRIBBAGE_SEAT_CACHES"


def kernel_caches(roots: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The host's folders that hold the numba kernels (``.nbi`` files) of the sources under
    ``roots``, each with the folder under :data:`SEAT_NUMBA_CACHE` where a seat's numba looks
    for them (numba names a source folder's cache ``<name>_<sha1 of its path>`` there); the
    host's are ``__pycache__`` beside the sources or those names under its ``NUMBA_CACHE_DIR``."""
    configured = os.environ.get("NUMBA_CACHE_DIR", "")
    out = []
    for root in roots:
        for path, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            if not any(f.endswith(".py") for f in files):
                continue
            here = os.path.abspath(path)
            name = f"{os.path.basename(here)}_{hashlib.sha1(here.encode()).hexdigest()}"
            host = (
                os.path.join(configured, name) if configured else os.path.join(here, "__pycache__")
            )
            if any(f.endswith(".nbi") for f in _files(host)):
                out.append((os.path.realpath(host), os.path.join(SEAT_NUMBA_CACHE, name)))
    return tuple(sorted(set(out)))


def _files(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def copy_seat_caches(environ: Mapping[str, str] = os.environ) -> int:
    """In a Python seat, before its agent is built: the host's kernel caches (read-only there)
    copied, file by file, never linked, to where the seat's numba looks; returns the files
    copied. A full scratch stops the copy: the seat compiles what is missing."""
    copied = 0
    for host, seat in json.loads(environ.get(SEAT_CACHES, "[]")):
        if not str(seat).startswith(SEAT_NUMBA_CACHE + "/"):
            continue
        try:
            os.makedirs(seat, exist_ok=True)
            for name in os.listdir(host):
                src = os.path.join(host, name)
                if os.path.isfile(src) and not os.path.islink(src):
                    shutil.copyfile(src, os.path.join(seat, name))
                    copied += 1
        except OSError:
            break
    return copied
