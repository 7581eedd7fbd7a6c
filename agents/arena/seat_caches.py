"""The compiled kernels a Python seat loads instead of compiling them again.

Numba keeps compiled kernels beside their sources (``__pycache__``, or under ``NUMBA_CACHE_DIR``)
and uses a cache only where it may write, so a read-only view would make every Python seat
compile the kernels again (tens of seconds). A Python seat reads the host's kernel cache folders
read-only (:func:`kernel_caches`) and copies them, before its agent is built, into its own cache
folder in its private ``/tmp`` (``NUMBA_CACHE_DIR`` there): it loads the host's warm kernels, and
whatever it writes stays in its ``/tmp``. The host writes nothing for a seat.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from collections.abc import Mapping, Sequence

from .sandbox import SEAT_NUMBA_CACHE

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
    """In a Python seat, before its agent is built: the host's compiled kernels (``.nbi`` and
    ``.nbc`` files, read-only there) copied, file by file, never linked, to where the seat's
    numba looks; returns the files copied. A file the seat may not read is skipped (a root
    host's seat reads only what others may); a full scratch stops the copy: the seat compiles
    what is missing."""
    copied = 0
    for host, seat in json.loads(environ.get(SEAT_CACHES, "[]")):
        if not str(seat).startswith(SEAT_NUMBA_CACHE + "/"):
            continue
        try:
            os.makedirs(seat, exist_ok=True)
            names = os.listdir(host)
        except OSError:
            continue
        for name in names:
            src = os.path.join(host, name)
            if not name.endswith((".nbi", ".nbc")) or os.path.islink(src):
                continue
            try:
                shutil.copyfile(src, os.path.join(seat, name))
                copied += 1
            except OSError as exc:
                if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
                    return copied
    return copied
