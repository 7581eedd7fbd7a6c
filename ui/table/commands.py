"""What a click or a key asks of the table, as typed values, and the one table that does it.

Every button and target of the screens (:mod:`ui.scenes.table_scene`, :func:`ui.scenes.screens.start_scene.start_scene`,
the rules, review and statistics scenes) and every key binding (:mod:`ui.gui.keys`) carries a
:class:`Command`; :func:`run` does the controller's part through :data:`TABLE`, and each screen
does the rest (the menu, a new game, the rules...) through its own table in :mod:`ui.gui`. No
Arcade here: tests drive the table with commands.

>>> Command(Act.TOGGLE, 12).arg, Command(Act.LEVEL, name="hard").name
(12, 'hard')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, TypeVar

from cribbage_env.rules.core import Phase

if TYPE_CHECKING:
    from .controller import TableController


class Act(str, Enum):
    """What a command does."""

    TOGGLE = "card"  # arg: the card selected or unselected
    CUT = "spread"  # arg: the depth of the cut (a gesture: the card comes from the seed)
    CONFIRM = "confirm"
    HINT = "hint"  # show the hint, or hide it
    OPTIONS = "options"  # the hint's table of options
    TAKE_BACK = "coach:back"
    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"  # asks first while a game is under way
    ANSWER = "ask"  # arg: 1 yes, 0 no
    REVEAL = "reveal"
    NEXT = "next"  # the show's next step
    SKIP = "skip"  # the rest of the show
    SELECT = "select"  # arg: the position of the card in the hand (keys 1-6)
    FOCUS = "focus"  # arg: -1 left, 1 right
    SELECT_FOCUS = "select_focus"
    GO = "go"  # cut in the middle, or confirm
    GO_OR_SELECT = "go_or_select"  # as GO, else select the focused card
    READ_CUT = "read_cut"  # the first cut read: the computer may cut the deck
    # the window's: the screens and what lives outside the game
    MENU = "menu"
    NEWGAME = "newgame"
    RULES = "rules"
    EXPORT = "export"
    OPEN_EXPORTS = "open_exports"  # the exports folder in the system's file manager
    CHANCES = "chances"
    BOARD = "board"  # the board large in the middle, or back
    REVIEW = "review"
    MUTE = "mute"
    # the guided first deal's (ui.gui.tutorial_view)
    LESSON_START = "tutorial:start"
    LESSON_OK = "tutorial:ok"  # the lesson is read
    LESSON_PLAY = "tutorial:play"  # on to a real game
    # the start screen's (ui.gui.start_view; RULES too)
    LEVEL = "level"  # name: the opponent's level
    PLAYERS = "mode"  # name: "computer" or "hotseat"
    LANGUAGE = "lang"  # name: the language
    PLAY = "play"  # a new game (asked first while one is under way)
    CONTINUE = "continue"  # the saved game
    UNFINISHED = "list"  # the list of unfinished games
    RESUME = "resume"  # arg: which unfinished game
    TUTORIAL = "tutorial"
    STATS = "stats"
    PAST = "past"  # the list of past games (from the statistics)
    SETTINGS = "settings"  # the start screen's Settings panel
    PREF = "pref"  # name: the setting stepped to its next value
    REPLAY = "replay"  # arg: which past game, replayed on the table (REVIEW: in the Review)
    VARIANT = "variant"  # the next variant's rules
    FOUR_COLOUR = "four_colour"
    COACH = "coach"  # the next coach limit
    SOUND = "sound"
    QUIT = "quit"  # asks first (Esc asks too); ANSWER 1 quits
    # the rules, review and statistics screens' (and Back out of the list of unfinished games)
    PAGE = "page"  # arg: -1 back, 1 on (a page of rules, a reviewed decision)
    MISTAKES = "mistakes"  # the review: the mistakes only, or every decision
    SEATS = "seats"  # the review: one player's decisions or both players'
    CHART = "chart"  # at: where along the chart (0..1): the decision drawn there
    BACK = "back"  # to the screen it came from


@dataclass(frozen=True)
class Command:
    """One thing a click or a key asks for: what, and the card, position or depth (``arg``), the
    level or language (``name``) or the place along a chart (``at``) it is about."""

    act: Act
    arg: int = 0
    name: str = ""
    at: float = 0.0


def _hint(ctl: TableController, cmd: Command) -> None:
    if ctl.coach.hint is None:
        ctl.coach.request_hint()
    else:
        ctl.coach.clear_hint()


def _go(ctl: TableController, cmd: Command) -> None:
    """Enter cuts in the middle of the spread or confirms; Space also selects the focused card."""
    if ctl.computer.waits_for_the_cut:
        ctl.computer.read_the_cut()
    elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
        ctl.selection.cut_at(26 if ctl.phase is not Phase.STARTER_CUT else 20)
    elif not ctl.confirm() and cmd.act is Act.GO_OR_SELECT:
        ctl.selection.select_position(ctl.selection.focus)


#: The controller's part of every command (the window's are in :mod:`ui.gui.table_view`).
TABLE: dict[Act, Callable[[TableController, Command], object]] = {
    Act.TOGGLE: lambda ctl, cmd: ctl.selection.toggle(cmd.arg),
    Act.CUT: lambda ctl, cmd: ctl.selection.cut_at(cmd.arg),
    Act.CONFIRM: lambda ctl, cmd: ctl.confirm(),
    Act.HINT: _hint,
    Act.OPTIONS: lambda ctl, cmd: ctl.coach.toggle_options(),
    Act.TAKE_BACK: lambda ctl, cmd: ctl.coach.take_back(),
    Act.UNDO: lambda ctl, cmd: ctl.undo(),
    Act.REDO: lambda ctl, cmd: ctl.redo(),
    Act.RESTART: lambda ctl, cmd: ctl.guard.ask_restart(),
    Act.ANSWER: lambda ctl, cmd: ctl.guard.answer(bool(cmd.arg)),
    Act.REVEAL: lambda ctl, cmd: ctl.reveal(),
    Act.NEXT: lambda ctl, cmd: ctl.show.advance(),
    Act.SKIP: lambda ctl, cmd: ctl.show.skip(),
    Act.SELECT: lambda ctl, cmd: ctl.selection.select_position(cmd.arg),
    Act.FOCUS: lambda ctl, cmd: ctl.selection.move_focus(cmd.arg),
    Act.SELECT_FOCUS: lambda ctl, cmd: ctl.selection.select_position(ctl.selection.focus),
    Act.GO: _go,
    Act.GO_OR_SELECT: _go,
    Act.READ_CUT: lambda ctl, cmd: ctl.computer.read_the_cut(),
}


def run(ctl: TableController, cmd: Command) -> bool:
    """Do the controller's part of ``cmd``; False if it has none (a window command)."""
    handler = TABLE.get(cmd.act)
    if handler is None:
        return False
    handler(ctl, cmd)
    return True


Screen = TypeVar("Screen")


def dispatch(
    screen: Screen, table: Mapping[Act, Callable[[Screen, Command], object]], cmd: Command | None
) -> Command | None:
    """Do ``cmd`` on ``screen`` through the screen's ``table`` (nothing for None or an act the
    screen does not know); returns ``cmd``."""
    handler = None if cmd is None else table.get(cmd.act)
    if handler is not None and cmd is not None:
        handler(screen, cmd)
    return cmd
