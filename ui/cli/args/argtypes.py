"""Argument types shared by the ``cribbage`` subcommands: each refuses bad text with a message
that says what is allowed (argparse turns it into a usage error, exit 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cribbage_env import VARIANTS, Rules, RulesError

from ...table.board import BoardShape

if TYPE_CHECKING:
    from agents.arena.seat import SeatLimits


def whole_number(minimum: int, what: str, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for integers ``>= minimum`` (and ``<= maximum``); ``what`` names them.

    >>> whole_number(1, "a positive integer")("3")
    3
    >>> whole_number(1, "a positive integer")("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive integer, got '0'
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # also Python's cap on digits in int(str)
            value = minimum - 1
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


#: the largest integer SQLite stores (results database, run ids, seeds).
INT64_MAX = 2**63 - 1

positive_int = whole_number(1, "a positive integer")


def limited(name: str) -> Callable[[str], int]:
    """An argparse type for 1..the cap of ``name`` in :data:`agents.tournament.limits.LIMITS` (or
    ``"workers"``: :func:`agents.tournament.limits.max_workers`), the caps the library checks too.

    >>> limited("epochs")("1001")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer from 1 to 1000, got '1001'
    """
    from agents.tournament.limits import LIMITS, max_workers

    top = max_workers() if name == "workers" else LIMITS[name]
    return whole_number(1, f"an integer from 1 to {top}", top)


seed = whole_number(0, f"an integer seed from 0 to 2**63 - 1 ({INT64_MAX})", INT64_MAX)
agent_seed = whole_number(0, "an integer agent seed from 0 to 2**128 - 1", 2**128 - 1)
run_id = whole_number(1, "a run id (a positive integer)", INT64_MAX)


#: the help text of every ``--rules`` option.
RULES_HELP = (
    f"a variant ({', '.join(f'{k}: to {v.target}' for k, v in VARIANTS.items())}) or rule "
    "fields over the standard game, e.g. target=91 or target=91,skunk=70 (the skunk lines are 30 and "
    "60 points under the target unless given; default: standard)"
)


def rules(text: str) -> Rules:
    """The ``--rules`` of every command: a variant name or ``field=value,...`` (see
    :meth:`cribbage_env.Rules.named`).

    >>> rules("short").target, rules("target=91").target
    (61, 91)
    """
    try:
        return Rules.named(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def table_rules(text: str) -> Rules:
    """The ``--rules`` of ``play``: rules the table has a board for (games to 61, 91 and 121).

    >>> table_rules("target=91").target
    91
    """
    parsed = rules(text)
    try:
        BoardShape.of(parsed)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return parsed


#: The longest path and path component the system takes (POSIX minimums where it cannot say).
_PATH_MAX, _NAME_MAX = 4096, 255


def path(text: str) -> Path:
    """A file or folder name: any text but an empty one, one with a NUL byte or one longer than
    the system takes (no system call takes them).

    >>> path("runs/a")
    PosixPath('runs/a')
    >>> path("a" * 300)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a file or folder name, got one of 300 bytes (at most 255 between slashes, 4096 in all)
    """
    if not text or "\x00" in text:
        raise argparse.ArgumentTypeError(f"expected a file or folder name, got {text!r}")
    size = len(text.encode("utf-8", "surrogateescape"))
    longest = max(len(part.encode("utf-8", "surrogateescape")) for part in text.split("/"))
    if longest > _NAME_MAX or size > _PATH_MAX:
        raise argparse.ArgumentTypeError(
            f"expected a file or folder name, got one of {size} bytes (at most {_NAME_MAX} "
            f"between slashes, {_PATH_MAX} in all)"
        )
    return Path(text)


def address(text: str) -> str:
    """A Ray cluster's address (``--address``): any text but an empty or blank one.

    >>> address("")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a Ray address (host:port, ray://host:port or auto), got ''
    """
    if not text.strip() or "\x00" in text:
        raise argparse.ArgumentTypeError(
            f"expected a Ray address (host:port, ray://host:port or auto), got {text!r}"
        )
    return text


def db_file(text: str) -> Path:
    """A results database's name: a :func:`path` that is a regular file or can be made one
    (not a folder, a FIFO, a device, nor under a file).

    >>> db_file("/dev/zero")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: /dev/zero is a device, not a database file
    """
    from agents.store.files import path_problem

    name = path(text)
    problem = path_problem(name, "database")
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return name


def real_number(ok: Callable[[float], bool], what: str) -> Callable[[str], float]:
    """An argparse type for the numbers ``ok`` accepts (NaN is never one); ``what`` names them.

    >>> seconds("0.5"), unit_interval("0.03")
    (0.5, 0.03)
    >>> seconds("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number of seconds >= 0, got 'inf'
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not ok(value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


#: a finite number of seconds, zero or more.
seconds = real_number(lambda v: 0 <= v < math.inf, "a number of seconds >= 0")
#: a number strictly between 0 and 1 (a win rate's interval width).
unit_interval = real_number(lambda v: 0 < v < 1, "a number between 0 and 1")
#: a weight from 0 to 1.
weight = real_number(lambda v: 0 <= v <= 1, "a weight from 0 to 1")


def output_folder_problem(path: Path | None) -> str | None:
    """Why ``path`` cannot take output files (``--screenshots DIR``), or None; it is created.

    >>> output_folder_problem(Path("/dev/null"))
    '/dev/null is a file, not a folder'
    """
    if path is None:
        return None
    if path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the folder {path}: {exc.strerror or exc}"
    return None


def decision_timeout(text: str) -> float:
    """``--decision-timeout``: seconds, > 0 and at most an hour."""
    from agents.arena.seat import check_timeout

    try:
        return check_timeout(float(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def game_budget(text: str) -> float:
    """``--game-budget``: seconds, > 0 and at most an hour."""
    from agents.arena.seat import check_timeout

    try:
        return check_timeout(float(text), "game budget")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def isolation(args: argparse.Namespace) -> float | None:
    """The per-decision timeout of isolated seats, or None (agents run in-process)."""
    from agents.arena.seat import DEFAULT_TIMEOUT

    if not args.isolate:
        return None
    return DEFAULT_TIMEOUT if args.decision_timeout is None else args.decision_timeout


def seat_limits(args: argparse.Namespace) -> SeatLimits:
    """The limits of isolated seats from ``--game-budget``, ``--seat-memory``, ``--seat-cpu``
    and ``--seat-procs`` (ValueError when one is out of range)."""
    from agents.arena.seat import SeatLimits

    base = SeatLimits()
    return SeatLimits(
        base.memory_mb if args.seat_memory is None else args.seat_memory,
        base.cpu_s if args.seat_cpu is None else args.seat_cpu,
        base.game_budget if args.game_budget is None else args.game_budget,
        base.procs if args.seat_procs is None else args.seat_procs,
    )


#: Folders of the system's devices and processes: no output file of ours goes there.
_SYSTEM_FOLDERS = (Path("/dev"), Path("/proc"), Path("/sys"))


def output_file_problem(path: Path, suffixes: tuple[str, ...] | None = (".png",)) -> str | None:
    """Why ``path`` cannot take an output file (``--plot FILE``, ``--csv FILE``; ``suffixes``
    None: any name), or None. The file is written at exactly that path: never a folder, a
    device or a name without its extension.

    >>> output_file_problem(Path("/tmp"))
    '/tmp: expected a file name ending in .png'
    >>> output_file_problem(Path("/dev/chart.png"))
    '/dev/chart.png is in a system folder (/dev), not a place for files'
    """
    import os
    import stat

    from agents.store.files import file_kind

    if suffixes is not None and path.suffix.lower() not in suffixes:
        return f"{path}: expected a file name ending in {' or '.join(suffixes)}"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    if st is not None and not stat.S_ISREG(st.st_mode):
        return f"{path} is {file_kind(st.st_mode)}, not a file"
    parent = path.absolute().parent
    if not parent.is_dir():
        return f"cannot write {path}: no folder {parent}"
    real = parent.resolve()
    for system in _SYSTEM_FOLDERS:
        if real == system or system in real.parents:
            return f"{path} is in a system folder ({system}), not a place for files"
    return _unwritable(path, parent)


def _unwritable(path: Path, parent: Path) -> str | None:
    """Why no file can be written in ``parent`` (read-only, no space for a name), found by
    writing and removing an empty temporary file there, before any work is done."""
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".cribbage-check-"):
            pass
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    return None


def backend_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--backend``/``--address`` together, if anything."""
    if args.address and args.backend != "ray":
        return "--address joins a Ray cluster: use it with --backend ray"
    return None
