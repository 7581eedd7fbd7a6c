"""The table controller: everything the game window does, as plain Python (no Arcade here).

The Arcade views only draw a :class:`TableController` and forward clicks and keys to it, so the
behaviour the rules card asks for (RULES R11) is unit-tested without a window:

- cuts are the player's gestures; the card never depends on where they cut (R11.1);
- selection and hint are previews that never touch the game (R11.2);
- pass-and-play hides both hands until "See my hand" is pressed (R11.4);
- undo goes back to before the human's last decision, taking back the computer's replies, and
  redo restores exactly the same actions (R11.5); restart replays the same seed (R11.6);
- in pass and play nobody can turn the other person's cards face up or replace their move by
  undo, redo, restart or the menu: undo takes back only the decisions of the person to act, made
  since the turn came to them, and restart waits for the end of the game.

The game is a pure function of ``(seed, decisions)`` (see :mod:`cribbage_env.rules.engine`): the
controller keeps the decisions and a cursor over them (:mod:`ui.table.history`) and rebuilds the game
on undo/redo. It holds the small parts that do the rest: ``selection`` (the person's cards,
:mod:`ui.table.selection`), ``coach`` (the hint and coach mode, :mod:`ui.table.teaching.coach`), ``computer`` (the
agents' moves, :mod:`ui.table.computer`), ``show`` (the count step by step, :mod:`ui.table.show`) and
``guard`` (the restart question, :mod:`ui.table.safety`); undo, redo and restart are its base
:class:`~ui.table.rewind.Rewind`'s; :mod:`ui.words.narration` says every sentence and
:mod:`ui.table.saves` keeps the save format.

>>> c = TableController(seed=3, mode=Mode.HOTSEAT)
>>> c.phase.value, c.needs_reveal
('cut for deal', False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum

import cribbage_env as ce
from cribbage_env.rules.cards import RANK, SUIT
from cribbage_env.rules.core import EventKind, Phase

from ..words.i18n import Catalog
from ..words.narration import Narrator, card_label, table_prompt
from .board import BoardShape
from .computer import Computer
from .history import History, UndoRule
from .rewind import Rewind
from .safety import RestartGuard
from .saves import SaveError, read_save, save_data
from .seats import seats
from .selection import Selection
from .show import ShowSequence, deal_points, last_cut, peg_holes, show_steps
from .teaching.coach import Coach

__all__ = ["Mode", "TableController"]


class Mode(str, Enum):
    """Who sits at the table."""

    COMPUTER = "computer"  # a person (seat 0) against an agent (seat 1)
    HOTSEAT = "hotseat"  # two people passing one screen (R11.4)
    WATCH = "watch"  # two agents; the person watches


class TableController(Rewind):
    """Owns one game at the table, its decision history and everything shown about it."""

    def __init__(
        self,
        seed: int = 0,
        *,
        mode: Mode | str = Mode.COMPUTER,
        opponent: str = "random",
        agents: Sequence[str] | None = None,
        lang: str = "en",
        on_change: Callable[[TableController], None] | None = None,
        interactive_cuts: bool = True,
        script: Sequence[int] | None = None,
        agent_seed: int | None = None,
        rules: ce.Rules | str = "standard",
        isolate: float | None = None,
    ) -> None:
        from cribbage_env.seeding import check_agent_seed, new_agent_seed

        self.mode = Mode(mode)
        self.seed = int(seed)
        self.rules = ce.Rules.named(rules)  # the game to 121, or the short game to 61
        self.board_shape = BoardShape.of(self.rules)
        #: Seeds the computer's (and the hint's) generators, independent of the game seed;
        #: fresh from OS entropy unless given, and kept in the save.
        self.agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
        self.interactive_cuts = bool(interactive_cuts)
        #: Replay of a record: the decisions the "computers" make, in order (watch mode).
        self.script = list(script) if script is not None else None
        if self.mode is Mode.COMPUTER:
            specs: list[str | None] = [None, opponent]
        elif self.mode is Mode.HOTSEAT:
            specs = [None, None]
        else:
            if not agents or len(agents) != 2:
                raise ValueError("watch mode needs two agent specs, e.g. ('hard', 'medium')")
            specs = [agents[0], agents[1]]
        self.seats = seats(specs, build=self.script is None, isolate=isolate)
        self.cat = Catalog(lang)
        self.lang = lang
        self.narrator = self._narrator()
        self.on_change = on_change  # called after every change to the game (autosave)
        self.history = History()  # every decision (the redo tail too), who made it, a cursor
        self.epoch = 0  # changes with every change of the game (stale computer moves)
        self._event_cache: tuple[int, list] | None = None
        self.version = 0  # changes with everything shown (the window redraws)
        self.computer = Computer(self)
        self.coach = Coach(self)
        self.guard = RestartGuard(self)
        self.selection, self.show = Selection(self), ShowSequence(self)  # cleared per game
        self._reset_game()

    # ----------------------------------------------------------------------------- basics
    def _reset_game(self) -> None:
        self.game = ce.new_game(self.seed, interactive_cuts=self.interactive_cuts, rules=self.rules)
        self._after_rebuild()

    def _after_rebuild(self) -> None:
        self.epoch += 1
        self.selection.clear()
        self.coach.clear()
        self.guard.asking = None
        self.show.clear()
        self.game_review: object = None  # the finished game's review (the window's side thread)
        self.revealed: int | None = None
        self.messages: list[str] = []
        events = self._all_events()
        self._events_seen = len(events)
        self.cut = last_cut(events)
        self.version += 1

    def tr(self, msgid: str, /, **kwargs: object) -> str:
        return self.cat.tr(msgid, **kwargs)

    def _narrator(self) -> Narrator:
        you = 0 if self.mode is Mode.COMPUTER else None
        return Narrator(self.cat, (self.name(0), self.name(1)), you=you)

    def set_language(self, lang: str) -> None:
        """Switch the table's language (messages already said are not re-said)."""
        self.cat = Catalog(lang)
        self.lang = lang
        self.narrator = self._narrator()
        self.messages = []
        self.version += 1

    @property
    def phase(self) -> Phase:
        return self.game.phase

    @property
    def to_act(self) -> int | None:
        return self.game.current_player

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].human

    @property
    def human_to_act(self) -> bool:
        p = self.to_act
        return p is not None and self.is_human(p) and not self.show.running

    @property
    def decisions(self) -> tuple[int, ...]:
        """Every decision made so far (the redo tail excluded)."""
        return self.history.decisions

    def name(self, seat: int) -> str:
        if self.mode is Mode.COMPUTER:
            return self.tr("You") if seat == 0 else self.tr("Computer")
        if self.mode is Mode.HOTSEAT or self.script is not None:  # people, or a record replayed
            return self.tr("Player {n}", n=seat + 1)
        return self.tr("Computer {n} ({spec})", n=seat + 1, spec=self.seats[seat].spec)

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, in a stable order (sorted by rank then suit)."""
        return tuple(sorted(self.game.hands[seat], key=lambda c: (RANK[c], SUIT[c])))

    def short_name(self, seat: int) -> str:
        """A name that fits beside the board: the agent's spec when two agents play."""
        if self.mode is Mode.WATCH and self.script is None:
            return str(self.seats[seat].spec)[:16]
        return self.name(seat)

    def card(self, card: int) -> str:
        return card_label(card, self.cat)

    # ----------------------------------------------------------------------------- seats & hiding
    @property
    def bottom_seat(self) -> int:
        """The seat drawn at the bottom of the table (the one whose hand may be face up)."""
        if self.mode is Mode.HOTSEAT:
            if self.revealed is not None:
                return self.revealed
            p = self.to_act
            return p if p is not None else 0
        return 0

    def hand_visible(self, seat: int) -> bool:
        """May the cards of ``seat``'s hand be drawn face up now? (R11.4)"""
        if self.mode is Mode.WATCH:
            return True
        if self.mode is Mode.COMPUTER:
            return seat == 0
        return self.revealed == seat

    @property
    def needs_reveal(self) -> bool:
        """Pass-and-play: a person must press "See my hand" before deciding (R11.4)."""
        if self.mode is not Mode.HOTSEAT or self.show.running:
            return False
        p = self.to_act
        return p is not None and self.phase in (Phase.DISCARD, Phase.PLAY) and self.revealed != p

    def reveal(self) -> None:
        if self.needs_reveal:
            self.revealed = self.to_act
            self.version += 1

    def view(self, seat: int | None = None) -> ce.PlayerView:
        """What the drawn seat may know: the table draws only this (never the state)."""
        return self.game.view(self.bottom_seat if seat is None else seat)

    # ----------------------------------------------------------------------------- decisions
    def decide(self, action: int) -> None:
        """Make a decision (the selection's, a cut, the computer's): the one way the game moves."""
        prev_player = self.to_act
        prev_deal = self.game.deal_no
        self.game.apply(action)
        self.history = self.history.decide(action, prev_player)
        self.guard.forget()
        self.epoch += 1
        self._after_decision(prev_player, prev_deal)

    def confirm(self) -> bool:
        """Send the selected cards (Confirm button, Enter, or a tap on the crib); in coach mode
        a costly move is held back once (:meth:`ui.table.teaching.coach.Coach.holds_back`)."""
        action = self.selection.pending_action
        if self.coach.holds_back(action):
            return False
        if action is None:
            if self.human_to_act and self.phase is Phase.DISCARD:
                self.say(self.tr("Select two cards for the crib"))
            return False
        self.decide(action)
        return True

    def _after_decision(self, prev_player: int | None, prev_deal: int) -> None:
        self.selection.clear()
        self.coach.hint = None
        self.coach.warning = None
        # Hands go face down between turns: a new player, a new deal, or a cut (R11.4).
        if (
            self.to_act != prev_player
            or self.game.deal_no != prev_deal
            or self.phase not in (Phase.DISCARD, Phase.PLAY)
        ):
            self.revealed = None
        self._read_new_events()
        self.version += 1
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:  # the autosave
            self.on_change(self)

    def say(self, text: str) -> None:
        """Add a line to the table's messages (held back while a show is being counted)."""
        if self.show.held is not None:
            self.show.held.append(text)
            return
        self.messages.append(text)
        del self.messages[:-6]
        self.version += 1

    def _read_new_events(self) -> None:
        """Turn what just happened into messages and a show sequence (public facts only)."""
        events = self._all_events()
        new = events[self._events_seen :]
        self._events_seen = len(events)
        self.cut = last_cut(events)
        shows = []
        for e in new:
            if e.kind is EventKind.SHOW:
                shows.append(e)
                if self.show.held is None:  # no spoilers: what follows waits for the count
                    self.show.held = []
                continue
            text = self.narrator.event(e)
            if text is not None:
                self.say(text)
        if shows:
            steps = show_steps(self.narrator, shows)
            points = deal_points(events, shows[-1], self.game.rules)
            self.show.start(steps, points, tuple(self.messages[-2:]))

    def _all_events(self) -> list:
        """The game's public typed events, built once per change of the game."""
        cached = self._event_cache
        if cached is None or cached[0] != self.epoch:
            cached = self._event_cache = (self.epoch, self.game.events_since(0))
        return cached[1]

    def scorer_text(self, player: int, reasons) -> str:
        """A pop-up that names who scored: "Computer: fifteen for 2"."""
        return self.tr("{name}: {what}", name=self.short_name(player),
                       what=self.narrator.reasons(reasons))  # fmt: skip

    # ----------------------------------------------------------------------------- scores & pegs
    @property
    def display_scores(self) -> tuple[int, int]:
        step = self.show.step
        return step.scores if step is not None else self.game.scores

    def pegs(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(front, back) peg holes for each player: leap-frogging pegs (0 = start hole)."""
        return peg_holes(self._all_events(), self.display_scores)

    # ----------------------------------------------------------------------------- undo rules
    # (undo, redo, restart and resume: :class:`~ui.table.rewind.Rewind`)
    @property
    def _undo_rule(self) -> UndoRule:
        return {Mode.WATCH: UndoRule.EACH, Mode.HOTSEAT: UndoRule.OWN_TURN}.get(
            self.mode, UndoRule.LAST_HUMAN
        )

    @property
    def can_restart(self) -> bool:
        """Pass and play: only before the first decision or after the game (a restart mid-game
        would throw away the other person's moves and deal them the same cards again)."""
        return self.mode is not Mode.HOTSEAT or self.history.cursor == 0 or self.game.is_over

    @property
    def can_export(self) -> bool:
        """A record holds every hand dealt: in pass and play only once the game is over."""
        return self.mode is not Mode.HOTSEAT or self.game.is_over

    # ----------------------------------------------------------------------------- prompts
    def prompt(self) -> str:
        """The line that tells the person what happens now."""
        return table_prompt(self)

    def game_over_lines(self) -> tuple[str, ...]:
        g = self.game
        if not g.is_over or g.winner is None:
            return ()
        shown = (g.rules.counted(g.scores[0]), g.rules.counted(g.scores[1]))  # 121, not 123
        return tuple(self.narrator.game_over(g.winner, shown, g.rules.game_points(g.scores)))

    # ----------------------------------------------------------------------------- saving
    def to_save(self) -> dict:
        """Everything needed to resume (the format is :func:`ui.table.saves.save_data`'s)."""
        return save_data(self)

    @classmethod
    def from_save(
        cls, data: object, *, on_change=None, trusted=(), isolate: float | None = None
    ) -> TableController:
        """Resume a saved game (checked by :func:`ui.table.saves.read_save`), computers sealed
        with ``isolate``; :class:`SaveError`, or :class:`UntrustedSave` before a seat runs code."""
        saved = read_save(data, trusted=trusted)
        kwargs: dict = {"mode": saved.mode, "lang": saved.lang, "agent_seed": saved.agent_seed,
                        "rules": saved.rules, "isolate": isolate}  # fmt: skip
        if saved.mode == Mode.COMPUTER:
            kwargs["opponent"] = saved.agents[1]
        elif saved.mode == Mode.WATCH:
            kwargs["agents"] = saved.agents
        try:
            ctl = cls(saved.seed, **kwargs)
            ctl.resume(saved.actions, saved.cursor)
        except (ValueError, ce.IllegalActionError) as exc:
            raise SaveError(f"saved game does not replay: {exc}") from None
        ctl.on_change = on_change
        return ctl
