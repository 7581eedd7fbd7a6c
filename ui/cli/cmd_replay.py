"""``cribbage replay FILE``: watch a game record on the table, or read it deal by deal (--text).

A bad record (unreadable, not JSON, wrong format or version, decisions that do not replay) is
refused with a clear message and a non-zero exit; the file is only ever read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cribbage_env as ce
from agents.store.files import UnreadableFile, parse_json, read_text
from cribbage_env.equity import EquityError, state_target, win_probability

from ..table.board import BoardShape
from ..words import narration
from ..words.i18n import Catalog, system_language
from .args import argtypes, options
from .args.options import add_options


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=argtypes.path, metavar="FILE", help="a game record (JSON)")
    add_options(p, ("--text", "print the game deal by deal instead"))
    options.lang_option(p)
    # fmt: off
    add_options(
        p,
        options.delay(0.8, "pause between decisions on the table (default 0.8)"),
        options.screenshots("replay headless and save the table as PNGs in DIR (no display needed)"),
        ("--every", argtypes.positive_int, 1, "N", "with --screenshots: keep one decision in N (default 1)"),
    )
    # fmt: on


def load(path: Path) -> ce.GameState:
    """The game of a record file; raises ValueError with a message for anything wrong.

    Only a regular file of at most :data:`agents.store.files.MAX_BYTES` is read (``/dev/zero``, a FIFO or
    a 100 MB file is refused without reading it whole)."""
    try:
        text = read_text(path, what="game record")
    except UnreadableFile as exc:
        raise ValueError(str(exc)) from None
    try:
        data = parse_json(text)
    except UnreadableFile as exc:
        raise ValueError(f"{path} is not a valid game record: record is {exc}") from None
    try:
        return ce.GameState.from_record(_record_of_history_file(data))  # type: ignore[arg-type]
    except ce.RecordError as exc:
        raise ValueError(f"{path} is not a valid game record: {exc}") from None


def _record_of_history_file(data: object) -> object:
    """A finished game in the table's ``history/`` folder holds its record under ``"record"``:
    replay that; anything else is handed to the record loader unchanged."""
    if (
        isinstance(data, dict)
        and data.get("format") == "cribbage-env/autosave"
        and isinstance(data.get("record"), dict)
    ):
        return data["record"]
    return data


def _dealer(e: ce.Event) -> int:
    """The dealer of a DEAL event."""
    assert e.player is not None
    return e.player


def _chance_lines(scores: tuple[int, int], dealer: int, cat: Catalog, target: int) -> list[str]:
    """Both players' winning chances as a deal starts, from the equity table (none for a
    target without a table)."""
    try:
        p0 = win_probability(scores[0], scores[1], dealer=dealer == 0, target=target)
    except EquityError:
        return []
    a = round(p0, 2)  # whole per cents that add up to 100
    return [
        "  " + cat.tr("Winning chance: {a} – {b}", a=cat.percent(a, 0), b=cat.percent(1 - a, 0))
    ]


def game_text(g: ce.GameState, cat: Catalog) -> str:
    """Deal-by-deal account of a game with every score explained (see :mod:`ui.words.narration`),
    with both players' winning chances as each deal starts."""
    target = state_target(g)
    return narration.game_text(
        g,
        cat,
        g.rules.game_points(g.scores),
        deal_notes=lambda e: _chance_lines(e.scores, _dealer(e), cat, target),
    )


def _unused_problem(args: argparse.Namespace) -> str | None:
    """An option this call will not use: the table's options with --text, --every without
    --screenshots."""
    if args.text and (given := options.unused(args, "delay", "screenshots", "every")):
        return f"{', '.join(given)} set the table's replay; --text prints it instead: give one"
    if args.screenshots is None and (given := options.unused(args, "every")):
        return "--every N keeps one decision in N of --screenshots DIR: give --screenshots too"
    return None


def run(args: argparse.Namespace) -> int:
    lang = args.lang or system_language()
    problem = _unused_problem(args)
    if problem:
        print(f"cribbage replay: {problem}", file=sys.stderr)
        return 2
    try:
        g = load(args.file)
    except ValueError as exc:  # a bad record is bad input, as for `cribbage review`
        print(f"cribbage replay: {exc}", file=sys.stderr)
        return 2
    if args.text:
        print(game_text(g, Catalog(lang)))
        return 0
    try:
        BoardShape.of(g.rules)
    except ValueError as exc:
        print(f"cribbage replay: {exc}; --text replays it as text", file=sys.stderr)
        return 2
    from ..gui import DisplayUnavailable, prepare

    problem = argtypes.output_folder_problem(args.screenshots)
    if problem:
        print(f"cribbage replay: --screenshots {problem}", file=sys.stderr)
        return 2
    try:
        prepare(headless=args.screenshots is not None)
    except DisplayUnavailable as exc:
        print(f"cribbage replay: {exc} (or use --text)", file=sys.stderr)
        return 1
    import arcade

    from ..gui.app import GameWindow, Settings
    from ..table.controller import Mode, TableController

    ctl = TableController(
        g.seed,
        mode=Mode.WATCH,
        agents=("record", "record"),
        lang=lang,
        interactive_cuts=g.interactive_cuts,
        script=list(g.decisions),
        rules=g.rules,
    )
    try:
        window = GameWindow(settings=Settings(computer_delay=args.delay, threaded=False))
    except Exception as exc:  # noqa: BLE001 - no GL: say so, no traceback
        print(f"cribbage replay: cannot open a window: {exc}", file=sys.stderr)
        return 1
    window.start_table(ctl)
    if args.screenshots is not None:
        from ..gui.autoplay import autoplay

        shots = autoplay(window, len(g.decisions), args.screenshots, every=args.every)
        window.close()
        print(
            f"replayed {len(ctl.decisions)} decisions; saved {len(shots)} screenshots in "
            f"{args.screenshots}"
        )
        return 0
    arcade.run()
    return 0
