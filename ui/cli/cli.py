"""The ``cribbage`` command line. Each subcommand lives in its own module ``ui.cli.cmd_<name>``
(or a folder of that name) with ``add_arguments(parser)`` and ``run(args) -> int``; modules are
imported only when used, so ``cribbage analyze`` never loads Arcade.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .args import options

#: subcommand -> one-line help. The module ui.cli.cmd_<name> implements it.
COMMANDS: dict[str, str] = {
    "play": "open the Arcade game (extra 'gui')",
    "analyze": "rank the 15 discards of a six-card hand",
    "bench": "run a self-play tournament between agents",
    "results": "list and compare saved tournament runs",
    "replay": "replay a game record on the table or as text",
    "equity": "the chance of winning from a board position",
    "review": "rate every decision of a game by the winning chance it lost",
    "stats": "your record from the game history (wins, skunks, points, error rate)",
    "agents": "list the agents (built-in, plug-in) and their parameters",
    "discards": "compare discard strategies on the same deals",
    "exploit": "how much an opponent that knows an agent's policy wins from it",
    "train": "train a learned agent (MaskablePPO or Deep Monte-Carlo) against a league",
    "warmup": "compile the simulators now (once per install) so nothing waits for it later",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or with ``only`` named, the full options of that one
    alone (the others listed, not imported): ``cribbage play`` opens its window without
    importing what ``review`` or ``bench`` need."""
    parser = argparse.ArgumentParser(
        prog="cribbage",
        description="Two-player six-card cribbage to 121: play, analyze, benchmark.",
    )
    from cribbage_env import __version__

    parser.add_argument("--version", action="version", version=f"cribbage-env {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(f"ui.cli.cmd_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ui.cli.cmd_{name}":
                raise
            p.set_defaults(_module=None)
            continue
        module.add_arguments(p)
        options.remember_defaults(p)
        p.set_defaults(_module=module)
    return parser


def _caused_by_interrupt(exc: BaseException) -> bool:
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


def main(argv: list[str] | None = None) -> int:
    try:  # Ctrl-C while the subcommands import (a second or so) is an interruption too
        args_ = sys.argv[1:] if argv is None else argv
        named = next((a for a in args_ if not a.startswith("-")), None)
        parser = build_parser(only=named if named in COMMANDS else None)
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return 2
        if args._module is None:
            print(f"cribbage: '{args.command}' is not available in this build", file=sys.stderr)
            return 2
        return int(args._module.run(args) or 0)
    except KeyboardInterrupt:
        print("cribbage: interrupted", file=sys.stderr)
        return 130
    except ImportError as exc:
        if not _caused_by_interrupt(exc):  # e.g. numpy turns a Ctrl-C mid-import into this
            raise
        print("cribbage: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `cribbage analyze ... | head`: the reader left, not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
