"""Writing a file so that readers see the old or the new one, never a part, never through a link.

Every output of a run folder, a model, a curve or a save goes through :func:`atomic_write`: the
bytes go to a fresh ``mkstemp`` name in the same folder (so nothing planted there, a symlink
included, is written through), are flushed and fsynced, and ``os.replace`` puts the file in
place (replacing a link itself, never its target); the folder is fsynced after.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO


def atomic_write(
    path: str | os.PathLike, write: Callable[[IO[bytes]], object], *, durable: bool = True
) -> Path:
    """Call ``write(f)`` on a temporary file next to ``path``, then put it at ``path``.

    ``durable=False`` skips the fsyncs (atomic against crashes of the process, not of the
    machine). On any error the temporary file is removed and ``path`` is left as it was.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "target").write_text("old")
    3
    >>> (d / "link").symlink_to(d / "target")
    >>> _ = atomic_write(d / "link", lambda f: f.write(b"new"))
    >>> (d / "target").read_text(), (d / "link").is_symlink(), (d / "link").read_text()
    ('old', False, 'new')
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        fsync_dir(path.parent)
    return path


def atomic_write_text(path: str | os.PathLike, text: str, *, durable: bool = True) -> Path:
    """:func:`atomic_write` of UTF-8 text."""
    return atomic_write(path, lambda f: f.write(text.encode("utf-8")), durable=durable)


def atomic_write_json(path: Path, data: dict, *, durable: bool = True) -> None:
    """Write JSON so that readers see the old or the new file, never a partial one.

    ``durable=False`` skips the fsyncs (still atomic against crashes of the process, not of the
    machine); only tests that hammer the save use it."""

    def write(f: IO[bytes]) -> None:
        text = io.StringIO()
        json.dump(data, text, ensure_ascii=False, indent=1)
        f.write(text.getvalue().encode("utf-8"))

    atomic_write(path, write, durable=durable)


def append_line(path: str | os.PathLike, line: str) -> None:
    """Append one line to a log, never through a symlink (``O_NOFOLLOW``)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (best effort: not every system allows it)."""
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def try_lock(path: str | os.PathLike, *, folder: bool = False) -> int | None:
    """A held exclusive lock on ``path`` (its file descriptor, kept open while it is held), or
    None if another process holds it. ``folder``: lock an existing folder itself (nothing is
    created in it). Never follows a symlink (OSError); where POSIX locks are missing (Windows)
    the file is opened and nothing is enforced."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if folder:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow)
    else:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | nofollow, 0o644)
    try:
        import fcntl
    except ImportError:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd
