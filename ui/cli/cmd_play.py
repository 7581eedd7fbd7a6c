"""``cribbage play``: open the Arcade table (extra ``gui``).

Without a display it exits with a message instead of a traceback; ``--autoplay N --screenshots
DIR`` runs headless and saves PNGs (tests, documentation).
"""

from __future__ import annotations

import argparse
import sys

from agents.registry import LEVELS
from cribbage_env import STANDARD

from ..words.i18n import LANGUAGES
from .args import argtypes, options
from .args.options import add_options

USAGE = (
    f"usage: cribbage play [--opponent {'|'.join(LEVELS)}|SPEC] [--hotseat] "
    "[--rules standard|short|FIELD=VALUE,...] [--seed N] "
    f"[--lang {'|'.join(LANGUAGES)}] [--fullscreen] [--watch A B] [--autoplay N [--screenshots DIR]] "
    "[--size WxH] [--data-dir DIR] [--four-colour] [--chances] [--no-motion] "
    "[--isolate [--decision-timeout S]]"
)


def _usage(msg: str) -> int:
    print(USAGE, file=sys.stderr)
    print(f"cribbage play: error: {msg}", file=sys.stderr)
    return 2


def add_arguments(p: argparse.ArgumentParser) -> None:
    # fmt: off
    add_options(
        p,
        ("--opponent", None, "medium", "LEVEL_OR_SPEC", f"a level ({', '.join(LEVELS)}) or an agent spec such as 'random' or 'my_bot:MyBot' "
         "(see `cribbage agents`; default: medium)"),
    )
    options.isolate_options(p)
    add_options(
        p,
        ("--hotseat", "two people on one screen (pass and play)"),
        options.rules(STANDARD, metavar="RULES", table=True),
        options.seed(None, "seed of the game (default: random; 0 with --autoplay, for reproducible runs)"),
    )
    options.lang_option(p)
    add_options(p, ("--fullscreen", "open the window full screen"))
    p.add_argument("--watch", nargs=2, metavar=("A", "B"), default=None,
                   help="two agents play each other on the table")
    add_options(
        p,
        ("--autoplay", argtypes.positive_int, None, "N", "play N decisions headless (the person's seat steered by --pilot)"),
        options.screenshots("with --autoplay: save PNG screenshots in DIR"),
        ("--pilot", None, "random", None, "agent that steers the person's seat in --autoplay"),
        options.delay(0.6, "pause before each computer move (default 0.6)"),
        ("--show-delay", argtypes.seconds, 1.0, "SECONDS", "pause per combination counted in the show (default 1.0)"),
        # how the table looks: colours, the winning-chance indicator, motion, size
        ("--four-colour", "four-colour deck: diamonds blue, clubs green"),
        ("--chances", "show the winning-chance indicator from the start (the Chances button toggles it)"),
        ("--no-motion", "no card, peg or point animations (always off headless)"),
        ("--size", None, "1280x800", "WxH", "window size (default 1280x800)"),
        ("--data-dir", argtypes.path, None, None, "where the autosave and history live (default: the user's data directory)"),
    )
    # fmt: on


def resolve_opponent(name: str, isolate: float | None = None) -> str:
    """A level name -> its agent spec (random until the level's agent exists); specs pass.
    With ``isolate`` the spec is built in its own process, never imported here."""
    from agents import make_agent

    spec = LEVELS[name].spec if name in LEVELS else name
    if name in LEVELS and isolate is None:
        return spec  # a built-in level: nothing to check, nothing imported before the window
    if isolate is not None:
        from agents.seats.isolate import check_isolated

        check_isolated(spec, isolate)  # AgentSpecError when it does not build there
    else:
        make_agent(spec)  # raises AgentSpecError for a bad spec
    return spec


#: the largest window (an 8K screen): beyond it the window system refuses, or divides by zero.
MAX_SIZE = (7680, 4320)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must look like 1280x800, got {text!r}") from None
    if w < 320 or h < 200:
        raise ValueError(f"--size {text} is too small (at least 320x200)")
    if w > MAX_SIZE[0] or h > MAX_SIZE[1]:
        raise ValueError(f"--size {text} is too big (at most {MAX_SIZE[0]}x{MAX_SIZE[1]})")
    return w, h


def _autosave(args: argparse.Namespace, store_class, *, own_game: bool):
    """(store, problem): the person's autosave, or None for a game that is not theirs (headless
    autoplay, two agents watched), so such a run never touches their saved game. A folder that
    cannot be used, or that another open game holds, leaves a read-only store and says why."""
    if not own_game:
        return None, None
    store = store_class(args.data_dir)
    return store, store.open()


def _not_saved(ctl) -> None:
    """The on_change of a table that must not write the autosave."""


def first_table(args: argparse.Namespace, store, *, opponent: str, watch, lang: str):
    """The table the command opens on, or None for the start screen.

    Two agents watched and headless autoplay never write the autosave (``store`` is None for
    them); a game against a custom ``--opponent`` spec is autosaved only when no saved game is
    in progress, which is the person's and is never overwritten."""
    from ..saved.seeds import new_game_seed
    from ..table.controller import Mode, TableController

    headless = args.autoplay is not None
    seed = args.seed
    if seed is None:  # a fresh game each time; headless autoplay stays reproducible
        seed = 0 if headless else new_game_seed()
    # Headless autoplay is a reproducible demo: its agents' seed is pinned (no secret to keep).
    agent_seed = 0 if headless else None
    common = {"lang": lang, "agent_seed": agent_seed, "rules": args.rules,
              "isolate": argtypes.isolation(args) if hasattr(args, "isolate") else None}  # fmt: skip
    if common["isolate"] is not None:  # the seed is known, maybe guessed: not the deal
        from agents.arena.seat import secret_seed

        seed = secret_seed(seed)
    if watch:
        return TableController(seed, mode="watch", agents=watch, **common)
    if not headless and args.opponent in LEVELS:
        return None
    mode = Mode.HOTSEAT if args.hotseat else Mode.COMPUTER
    ctl = TableController(seed, mode=mode, opponent=opponent, **common)
    if store is None or store.exists():
        if store is not None:
            print(
                f"cribbage play: a saved game is in progress in {store.dir}; this game is not "
                "autosaved (run `cribbage play` and press Continue to go back to it)",
                file=sys.stderr,
            )
        ctl.on_change = _not_saved
    return ctl


def _check_sealed_saves(args: argparse.Namespace, iso: float | None) -> None:
    """A sealed opponent must not read the saves (a save's seed is its deal): ValueError for a
    ``--data-dir`` inside a folder a seat reads (the person's default folder is hidden)."""
    if iso is None or args.data_dir is None:
        return
    from agents.arena import sandbox

    folder = sandbox.inside(str(args.data_dir), sandbox.python_folders())
    if folder is not None:
        raise ValueError(
            f"--data-dir {args.data_dir} is inside {folder}, which a sealed seat reads "
            "(Python's import path or the current folder): choose a folder outside it"
        )


def _check(args: argparse.Namespace):
    """(size, opponent spec, watch specs, pilot spec), or the exit code of a usage error."""
    from agents import AgentSpecError

    try:
        size = _size(args.size)
        if args.decision_timeout is not None and not args.isolate:
            raise ValueError(
                "--decision-timeout S is the time of an isolated agent: give --isolate"
            )
        iso = argtypes.isolation(args)
        _check_sealed_saves(args, iso)
        opponent = resolve_opponent(args.opponent, iso)
        watch = tuple(resolve_opponent(a, iso) for a in args.watch) if args.watch else None
        pilot = resolve_opponent(args.pilot)
    except (ValueError, AgentSpecError) as exc:
        return _usage(str(exc))
    if args.screenshots is not None and args.autoplay is None:
        return _usage("--screenshots needs --autoplay N")
    problem = argtypes.output_folder_problem(args.screenshots)
    if problem:
        return _usage(f"--screenshots {problem}")
    return size, opponent, watch, pilot


def _gui_ready(headless: bool) -> bool:
    """Arcade and a display (or headless GL) are there; else say what is missing."""
    from ..gui import DisplayUnavailable, prepare

    try:
        prepare(headless=headless)
    except DisplayUnavailable as exc:
        print(f"cribbage play: {exc}", file=sys.stderr)
        return False
    try:
        import arcade  # noqa: F401
    except ImportError:
        print(
            "cribbage play: the game needs Arcade: pip install 'cribbage-env[gui]'", file=sys.stderr
        )
        return False
    return True


def _given(args: argparse.Namespace) -> set[str]:
    """The start screen's choices the command line sets (an option at its default sets none)."""
    given = {"lang"} if args.lang else set()
    given |= {"level"} if args.opponent != "medium" else set()
    given |= {"hotseat"} if args.hotseat else set()
    given |= {"rules"} if args.rules != STANDARD else set()
    return given | ({"four_colour"} if args.four_colour else set())


def run(args: argparse.Namespace) -> int:
    from ..words.i18n import Catalog, system_language

    checked = _check(args)
    if isinstance(checked, int):
        return checked
    size, opponent, watch, pilot = checked
    lang = args.lang or system_language()
    headless = args.autoplay is not None
    if not _gui_ready(headless):
        return 1
    from ..gui.app import GameWindow
    from ..saved.autosave import SaveStore
    from ..scenes.screens.start_scene import StartOptions

    level = args.opponent if args.opponent in LEVELS else "medium"
    options = StartOptions(level=level, hotseat=args.hotseat, lang=lang, rules=args.rules)
    settings = _settings(args, watch, headless)
    store, problem = _autosave(args, SaveStore, own_game=not (watch or headless))
    notices = []
    if store is not None:  # the person's own game: the start screen as they left it
        from ..saved.choices import apply_choices, read_choices

        choices, notice = read_choices(store.dir, aside=store.writable)
        apply_choices(options, choices, _given(args))
        from ..saved.preferences import load_preferences

        options.prefs = load_preferences(store.dir)
        lang = options.lang
        notices = [n for n in (store.notice, notice) if n]
    for notice in notices:  # a file that could not be read, set aside: the game starts
        print(f"cribbage play: {notice}", file=sys.stderr)
        options.message = notice
    if problem:
        print(
            f"cribbage play: autosave is off: {problem}; you can play, but the game is not saved",
            file=sys.stderr,
        )
        options.message = Catalog(lang).tr("Autosave is off: {error}", error=problem)
    try:
        window = GameWindow(
            settings=settings, store=store, options=options, fullscreen=args.fullscreen, size=size
        )
    except Exception as exc:  # noqa: BLE001 - no GL / no display: say so, no traceback
        print(f"cribbage play: cannot open a window: {exc}", file=sys.stderr)
        return 1
    ctl = first_table(args, store, opponent=opponent, watch=watch, lang=lang)
    if ctl is not None:
        window.settings.seed = None  # --seed was this game's; later New games draw fresh ones
        window.start_table(ctl)
    if headless:
        return _autoplay(window, args, ctl.seed if ctl is not None else 0, pilot)
    import arcade

    arcade.run()
    return 0


def _settings(args: argparse.Namespace, watch, headless: bool):
    """The window's settings from the command line (its pace, look and seats)."""
    from ..gui.app import Settings

    return Settings(
        computer_delay=args.delay,
        show_delay=args.show_delay,
        threaded=not headless,
        seed=args.seed,
        watch=watch,
        motion=not (headless or args.no_motion),
        four_colour=args.four_colour,
        chances=args.chances,
        isolate=argtypes.isolation(args),
        # the Settings panel's pace unless a delay is given (an option at its default is none)
        pace_from_prefs=not headless and args.delay == 0.6 and args.show_delay == 1.0,
    )


def _autoplay(window, args: argparse.Namespace, seed: int, pilot: str) -> int:
    from ..gui.autoplay import autoplay

    shots = autoplay(window, args.autoplay, args.screenshots, pilot=pilot, seed=seed)
    ctl = window.ctl
    if ctl is not None:
        print(
            f"played {len(ctl.decisions)} decisions; scores "
            + "-".join(str(ctl.game.rules.counted(v)) for v in ctl.game.scores)
            + (f"; winner {ctl.name(ctl.game.winner)}" if ctl.game.is_over else "")
        )
    if args.screenshots is not None:
        print(f"saved {len(shots)} screenshots in {args.screenshots}")
    window.close()
    return 0
