"""The options of the ``cribbage`` subcommands, declared once: an option that several commands
share is a function here (its name, type and help text in one place), and a command's other
options are rows of a table (:func:`add_options`) instead of one ``add_argument`` call each.

The docs' CLI reference is generated from the parsers, so what is declared here is what the
reference says (docs/_ext/cribbage_docs.py).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from . import argtypes

#: an option with a value: (flag, type, default, metavar, help); None for the type or metavar is
#: argparse's own default (the text as given; the destination's name in capitals).
Valued = tuple[str, "Callable[[str], Any] | None", Any, "str | None", str]
#: an on/off option (``store_true``): (flag, help).
Switch = tuple[str, str]


def add_options(p: argparse._ActionsContainer, *rows: Valued | Switch) -> None:
    """Add the options of ``rows`` to ``p`` (a parser or one of its groups), in order."""
    for row in rows:
        if len(row) == 2:
            p.add_argument(row[0], action="store_true", help=row[1])
        else:
            flag, kind, default, metavar, text = row
            typed: dict[str, Any] = {} if kind is None else {"type": kind}
            p.add_argument(flag, default=default, metavar=metavar, help=text, **typed)


def seed(default: int | None, text: str) -> Valued:
    """``--seed N``: the root seed of what a command deals or draws."""
    return ("--seed", argtypes.seed, default, None, text)


def rules(
    default: object,
    text: str = argtypes.RULES_HELP,
    metavar: str | None = None,
    table: bool = False,
) -> Valued:
    """``--rules RULES``: a variant name or rule fields (:func:`ui.cli.args.argtypes.rules`); with
    ``table``, only rules the table has a board for (:func:`ui.cli.args.argtypes.table_rules`)."""
    return ("--rules", argtypes.table_rules if table else argtypes.rules, default, metavar, text)


def delay(default: float, text: str) -> Valued:
    """``--delay SECONDS``: a pause on the table between moves (``play``, ``replay``)."""
    return ("--delay", argtypes.seconds, default, "SECONDS", text)


def screenshots(text: str) -> Valued:
    """``--screenshots DIR``: a headless run saves the table as PNGs (``play``, ``replay``)."""
    return ("--screenshots", argtypes.path, None, "DIR", text)


def isolate_options(p: argparse.ArgumentParser, limits: bool = False) -> None:
    """``--isolate`` and ``--decision-timeout`` (bench and play); with ``limits`` the seat's
    limits too (bench)."""
    from agents.arena.seat import DEFAULT_TIMEOUT, SeatLimits

    base = SeatLimits()
    # fmt: off
    add_options(
        p,
        ("--isolate", "run each agent as a sealed bot (bubblewrap: its own process that sees only its "
         "view, no network, no files of yours); a crash, hang, illegal move or breached limit "
         "loses that game, with the reason recorded"),
        ("--decision-timeout", argtypes.decision_timeout, None, "S",
         f"with --isolate: seconds an agent may think per decision (default {DEFAULT_TIMEOUT:g})"),
    )
    if limits:
        add_options(
            p,
            ("--game-budget", argtypes.game_budget, None, "S",
             f"with --isolate: seconds an agent may think in one game (default {base.game_budget:g})"),
            ("--seat-memory", int, None, "MB",
             f"with --isolate: MiB of memory (address space) per seat (default {base.memory_mb})"),
            ("--seat-cpu", int, None, "S",
             f"with --isolate: CPU seconds per seat process (default {base.cpu_s})"),
            ("--seat-procs", int, None, "N",
             f"with --isolate: processes and threads at once per seat (default {base.procs})"),
        )
    # fmt: on


def backend_options(p: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address``: where a command's parallel work runs (bench, train)."""
    from agents.tournament.backends import BACKENDS

    p.add_argument("--backend", choices=BACKENDS, default="pool",
                   help="serial, local process pool (default) or ray (extra 'ray')")  # fmt: skip
    p.add_argument(
        "--address",
        type=argtypes.address,
        default=None,
        help="Ray cluster to join (host:port, ray://host:port or auto)",
    )


def db_option(p: argparse.ArgumentParser, text: str | None = None) -> None:
    """``--db FILE``: the results database (``bench`` and ``discards`` write it, ``results``
    reads it); ``text`` is the help, by default the database's default path."""
    from agents.store.results_store import default_db_path

    text = text or f"results database (default {default_db_path()})"
    p.add_argument("--db", type=argtypes.db_file, default=None, help=text)


def lang_option(p: argparse.ArgumentParser) -> None:
    """``--lang``: the language of the table and its messages (``play``, ``replay``)."""
    from ...words.i18n import LANGUAGES

    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help="language (default: from the system locale, else English)")  # fmt: skip


def progress_options(p: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress`` (default: a bar when stderr is a terminal)."""
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None,
                      help="show a progress bar (default: when stderr is a terminal)")  # fmt: skip
    prog.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )


def remember_defaults(p: argparse.ArgumentParser) -> None:
    """Keep each option's flag and default on the parsed arguments, so a command can tell an
    option that was given from one left alone (:func:`unused`)."""
    flags = {a.dest: (a.option_strings[0], a.default) for a in p._actions if a.option_strings}
    p.set_defaults(_flags=flags)


def unused(args: argparse.Namespace, *dests: str) -> list[str]:
    """The flags among ``dests`` given a value other than their default: options the command
    will not use in this call, to be refused (exit 2) rather than ignored."""
    flags = getattr(args, "_flags", {})
    return [flags[d][0] for d in dests if d in flags and getattr(args, d) != flags[d][1]]
