"""``cribbage replay FILE``: watch a game record on the table, or read it deal by deal (--text).

A bad record (unreadable, not JSON, wrong format or version, decisions that do not replay) is
refused with a clear message and a non-zero exit; the file is only ever read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cribbage_env as ce
from cribbage_env.engine import EventKind

from .controller import PLAY_REASONS, SHOW_LINES, card_label
from .i18n import LANGUAGES, N_, Catalog, system_language


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, metavar="FILE", help="a game record (JSON)")
    p.add_argument("--text", action="store_true", help="print the game deal by deal instead")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language (default: from the system locale, else English)",
    )
    p.add_argument(
        "--delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="pause between decisions on the table (default 0.8)",
    )
    p.add_argument(
        "--screenshots",
        type=Path,
        default=None,
        metavar="DIR",
        help="replay headless and save the table as PNGs in DIR (no display needed)",
    )
    p.add_argument(
        "--every",
        type=int,
        default=1,
        metavar="N",
        help="with --screenshots: keep one decision in N (default 1)",
    )


def load(path: Path) -> ce.GameState:
    """The game of a record file; raises ValueError with a message for anything wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    try:
        return ce.GameState.from_record(_record_of_history_file(text))
    except ce.RecordError as exc:
        raise ValueError(f"{path} is not a valid game record: {exc}") from None


def _record_of_history_file(text: str) -> str | dict:
    """A finished game in the table's ``history/`` folder holds its record under ``"record"``:
    replay that; anything else is handed to the record loader unchanged."""
    if '"cribbage-env/autosave"' not in text:
        return text
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        return data["record"]
    return text


def game_text(g: ce.GameState, cat: Catalog) -> str:
    """Deal-by-deal account of a game with every score explained."""
    tr = cat.tr

    def name(p: int) -> str:
        return tr("Player {n}", n=p + 1)

    def cards(cs) -> str:
        return " ".join(card_label(c, cat) for c in cs)

    def reasons(items) -> str:
        return ", ".join(
            tr(PLAY_REASONS.get(r.kind, N_("{points} points")), n=len(r.cards), points=r.points)
            for r in items
        )

    out = [tr("Game record: seed {seed}, {n} decisions", seed=g.seed, n=len(g.decisions))]
    for e in g.events:
        k = e.kind
        sc = f"[{e.scores[0]}–{e.scores[1]}]"
        if k is EventKind.CUT_FOR_DEAL:
            out.append(tr("{name} cuts {card}", name=name(e.player), card=cards(e.cards)))
        elif k is EventKind.CUT_TIE:
            out.append(tr("Tie: both cut the same rank. Cut again."))
        elif k is EventKind.FIRST_DEALER:
            out.append(tr("{name} cut lower and deals first", name=name(e.player)))
        elif k is EventKind.DEAL:
            out.append("")
            out.append(tr("Deal {n}: {name} deals", n=e.deal + 1, name=name(e.player)))
            pone = 1 - e.player
            out.append("  " + tr("{name}'s hand", name=name(pone)) + ": " + cards(e.cards[:6]))
            out.append("  " + tr("{name}'s hand", name=name(e.player)) + ": " + cards(e.cards[6:]))
        elif k is EventKind.DISCARD:
            out.append(
                "  "
                + tr("{name} puts two cards in the crib", name=name(e.player))
                + ": "
                + cards(e.cards)
            )
        elif k is EventKind.STARTER:
            out.append("  " + tr("Starter: {card}", card=cards(e.cards)))
        elif k is EventKind.PLAY:
            line = tr(
                "{name} plays {card} ({count})",
                name=name(e.player),
                card=cards(e.cards[-1:]),
                count=e.count,
            )
            if e.points:
                line += f" — {reasons(e.reasons)} {sc}"
            out.append("    " + line)
        elif k is EventKind.GO:
            out.append("    " + tr("{name} says Go", name=name(e.player)))
        elif k is EventKind.SCORE:
            out.append(
                "    "
                + tr("{name}: {what}", name=name(e.player), what=reasons(e.reasons))
                + f" {sc}"
            )
        elif k is EventKind.SHOW:
            title = tr(
                N_("{name}'s crib") if e.what == "crib" else N_("{name}'s hand"),
                name=name(e.player),
            )
            running = 0
            said = []
            for r in e.reasons:
                running += r.points
                said.append(
                    tr(
                        SHOW_LINES.get(r.kind, N_("{points} points")),
                        total=running,
                        n=len(r.cards),
                        points=r.points,
                    )
                )
            total = (
                tr("{title}: {points} points", title=title, points=e.points)
                if e.points
                else tr("{title}: nineteen (nothing)", title=title)
            )
            out.append(
                f"  {title}: {cards(e.cards[:4])} + {cards(e.cards[4:])}"
                + (f" — {', '.join(said)}" if said else "")
            )
            out.append(f"    {total} {sc}")
        elif k is EventKind.GAME_OVER:
            out.append("")
            out.append(
                tr("{name} wins!", name=name(e.player))
                + " "
                + tr("Final score: {a} – {b}", a=g.scores[0], b=g.scores[1])
            )
            level = g.rules.game_points(g.scores)
            if level > 1:
                out.append(
                    tr(
                        N_("Skunk! ({points} game points)")
                        if level == 2
                        else N_("Double skunk! ({points} game points)"),
                        points=level,
                    )
                )
    if not g.is_over:
        out.append("")
        out.append(tr("Game not finished: {a} – {b}", a=g.scores[0], b=g.scores[1]))
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    lang = args.lang or system_language()
    try:
        g = load(args.file)
    except ValueError as exc:
        print(f"cribbage replay: {exc}", file=sys.stderr)
        return 1
    if args.text:
        print(game_text(g, Catalog(lang)))
        return 0
    from .gui import DisplayUnavailable, prepare

    if args.every < 1:
        print("cribbage replay: --every must be at least 1", file=sys.stderr)
        return 2
    try:
        prepare(headless=args.screenshots is not None)
    except DisplayUnavailable as exc:
        print(f"cribbage replay: {exc} (or use --text)", file=sys.stderr)
        return 1
    import arcade

    from .controller import Mode, TableController
    from .gui.app import GameWindow, Settings

    ctl = TableController(
        g.seed,
        mode=Mode.WATCH,
        agents=("record", "record"),
        lang=lang,
        interactive_cuts=g.interactive_cuts,
        script=list(g.decisions),
    )
    try:
        window = GameWindow(settings=Settings(computer_delay=args.delay, threaded=False))
    except Exception as exc:  # noqa: BLE001 - no GL: say so, no traceback
        print(f"cribbage replay: cannot open a window: {exc}", file=sys.stderr)
        return 1
    window.start_table(ctl)
    if args.screenshots is not None:
        from .gui.app import autoplay

        shots = autoplay(window, len(g.decisions), args.screenshots, every=args.every)
        window.close()
        print(
            f"replayed {len(ctl.decisions)} decisions; saved {len(shots)} screenshots in "
            f"{args.screenshots}"
        )
        return 0
    arcade.run()
    return 0
