"""Reading the small files a command is handed (records, saves, run configs) without trusting them.

A path on the command line or in the data folder may be anything: ``/dev/zero`` (endless), a
FIFO (blocks until someone writes), a 100 MB file, a folder. :func:`read_text` opens without
blocking, reads only regular files, refuses anything over a size cap while streaming (memory
stays bounded whatever the file claims), and says in words what was wrong.
:func:`parse_json` turns every way JSON text can fail (including Python's cap on the digits of an
integer, a ``ValueError`` that is not a ``JSONDecodeError``) into one error.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import stat
from pathlib import Path

from ..errors import AgentError

#: A game record or save is a few KB (a long game has ~300 decisions); 4 MB is far beyond it.
MAX_BYTES = 4 * 1024 * 1024
_CHUNK = 1 << 16


class UnreadableFile(AgentError, ValueError):
    """A file that is not a small regular text file of the expected kind."""


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words ("a folder", "a device", ...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def path_problem(path: Path | str, what: str = "file") -> str | None:
    """Why ``path`` cannot be a regular file of ours (it is a folder, a FIFO, a device, or a
    folder on its way is a file), or None (it is a regular file, or could be made).

    >>> path_problem("/dev/zero", "database")
    '/dev/zero is a device, not a database file'
    >>> path_problem("/dev/null/x.sqlite", "database")
    '/dev/null/x.sqlite cannot be made: /dev/null is not a folder'
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        mode = None
    except OSError:
        return None  # e.g. a permission: said by whoever opens it
    if mode is not None:
        return None if stat.S_ISREG(mode) else f"{path} is {file_kind(mode)}, not a {what} file"
    for parent in Path(path).parents:
        try:
            parent_mode = os.stat(parent).st_mode
        except OSError:
            continue
        if not stat.S_ISDIR(parent_mode):
            return f"{path} cannot be made: {parent} is not a folder"
        break
    return None


def _too_big(path: Path | str, what: str, limit: int) -> str:
    return f"{path} is too big for a {what} (over {limit / (1024 * 1024):g} MB)"


def read_text(path: Path | str, *, limit: int = MAX_BYTES, what: str = "file") -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes, else :class:`UnreadableFile`.

    >>> read_text("/dev/null")
    Traceback (most recent call last):
    ...
    agents.store.files.UnreadableFile: /dev/null is a device, not a file
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        mode = st.st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise UnreadableFile(
                f"{path} is {kind}, not a file" if kind[0] == "a" else f"{path} is {kind}"
            )
        if st.st_size > limit:  # refused before reading; the loop below caps files that grow
            raise UnreadableFile(_too_big(path, what, limit))
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise UnreadableFile(_too_big(path, what, limit))
            chunks.append(chunk)
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile(f"cannot read {path}: it is not UTF-8 text") from None


#: The deepest nesting of arrays and objects a file of ours may have (records, saves and run
#: files are a few levels deep); deeper text is refused before it is parsed.
MAX_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (strings skipped), in one pass
    at C speed whatever the text.

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("3")
    (3, 0)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def parse_json(text: str, max_depth: int = MAX_DEPTH) -> object:
    """The JSON value of ``text``, or :class:`UnreadableFile` saying why not (nested deeper
    than ``max_depth`` included: refused before parsing, which would recurse that deep).

    >>> parse_json('{"seed": ' + "9" * 5000 + "}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agents.store.files.UnreadableFile: not valid JSON: ...digits...
    >>> parse_json("[" * 2000 + "]" * 2000)
    Traceback (most recent call last):
    ...
    agents.store.files.UnreadableFile: not valid JSON: nested too deeply (2000 levels, at most 64)
    """
    depth = json_depth(text)
    if depth > max_depth:
        raise UnreadableFile(
            f"not valid JSON: nested too deeply ({depth} levels, at most {max_depth})"
        )
    try:
        return json.loads(text)
    except RecursionError:
        raise UnreadableFile("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and int() refusing thousands of digits
        raise UnreadableFile(f"not valid JSON: {exc}") from None
