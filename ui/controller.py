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

The game is a pure function of ``(seed, decisions)`` (see :mod:`cribbage_env.engine`): the
controller keeps the decision list and a cursor over it and rebuilds the game on undo/redo.

>>> c = TableController(seed=3, mode=Mode.HOTSEAT)
>>> c.phase.value, c.needs_reveal
('cut for deal', False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np

import cribbage_env as ce
from cribbage_env.actions import CUT_BASE, discard_cards, is_cut, is_discard
from cribbage_env.cards import RANK, SUIT, SUIT_SYMBOLS
from cribbage_env.engine import EventKind, Phase
from cribbage_env.scoring import ScoreKind

from .board import BOARD_HOLES
from .i18n import N_, Catalog

if TYPE_CHECKING:
    import agents

SAVE_FORMAT = "cribbage-env/autosave"
SAVE_VERSION = 1
#: Number of face-down cards spread for a cut (the whole deck, or the 40 left for the starter).
GAME_HOLE = BOARD_HOLES + 1  # a winner's peg stops here: scores past it read 121
CUT_SPREAD = {Phase.CUT_FOR_DEAL: 52, Phase.DEAL_CUT: 52, Phase.STARTER_CUT: 40}
_RANK_IDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", N_("J"), N_("Q"), N_("K"))

#: How a show combination is said, with the running total (R9).
SHOW_LINES: dict[ScoreKind, str] = {
    ScoreKind.FIFTEEN: N_("fifteen {total}"),
    ScoreKind.PAIR: N_("a pair is {total}"),
    ScoreKind.RUN: N_("a run of {n} is {total}"),
    ScoreKind.FLUSH: N_("a flush of {n} is {total}"),
    ScoreKind.NOBS: N_("his nobs is {total}"),
}
#: What a pegging score is called (R5.2, R7, R8).
PLAY_REASONS: dict[ScoreKind, str] = {
    ScoreKind.FIFTEEN: N_("fifteen for 2"),
    ScoreKind.THIRTY_ONE: N_("thirty-one for 2"),
    ScoreKind.PAIR: N_("a pair for 2"),
    ScoreKind.PAIR_ROYAL: N_("three of a kind for 6"),
    ScoreKind.DOUBLE_PAIR_ROYAL: N_("four of a kind for 12"),
    ScoreKind.RUN: N_("a run of {n} for {n}"),
    ScoreKind.GO: N_("go for 1"),
    ScoreKind.LAST_CARD: N_("last card for 1"),
    ScoreKind.HIS_HEELS: N_("his heels for 2"),
}


class Mode(str, Enum):
    """Who sits at the table."""

    COMPUTER = "computer"  # a person (seat 0) against an agent (seat 1)
    HOTSEAT = "hotseat"  # two people passing one screen (R11.4)
    WATCH = "watch"  # two agents; the person watches


class SaveError(ValueError):
    """A saved game that cannot be read or does not replay; the file is left as it was."""


@dataclass(frozen=True)
class ShowStep:
    """One moment of the show: a hand being counted, combination by combination (R9)."""

    title: str
    player: int
    what: str  # "hand" or "crib"
    cards: tuple[int, ...]  # the four cards counted
    starter: int
    highlight: tuple[int, ...]  # cards of the combination just said
    line: str  # what is said now ("fifteen 4")
    said: tuple[str, ...]  # everything said so far for this hand
    points: int  # running points of this hand
    scores: tuple[int, int]  # board scores at this moment


@dataclass(frozen=True)
class HintView:
    """A hint as the table shows it: the suggested cards and the numbers behind it (R11.2)."""

    action: int
    cards: tuple[int, ...]
    lines: tuple[str, ...]


@dataclass
class CutResult:
    """The last cut for first deal, shown until the discard starts (R2)."""

    cards: tuple[int | None, int | None] = (None, None)
    tie: bool = False
    first_dealer: int | None = None


@dataclass
class _Seat:
    human: bool
    spec: str | None = None
    agent: object | None = field(default=None, repr=False)


def card_label(card: int, cat: Catalog) -> str:
    """A card as players write it, with the rank letter of the language: ``5♥``, ``V♠`` (fr)."""
    rank = _RANK_IDS[RANK[card]]
    return cat.tr(rank) + SUIT_SYMBOLS[SUIT[card]]


class TableController:
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
    ) -> None:
        from agents.seeding import check_agent_seed, new_agent_seed

        self.mode = Mode(mode)
        self.seed = int(seed)
        #: Seeds the computer's (and the hint's) generators, independent of the game seed;
        #: fresh from OS entropy unless given, and kept in the save (issue 15, leak 1).
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
        self.seats = [_Seat(human=s is None, spec=s) for s in specs]
        for seat in self.seats:
            if seat.spec is not None and self.script is None:
                seat.agent = _make_agent(seat.spec)
        self.cat = Catalog(lang)
        self.lang = lang
        self.on_change = on_change  # called after every change to the game (autosave)
        self._actions: list[int] = []
        self._actors: list[int] = []  # seat that made each decision
        self._cursor = 0
        self._epoch = 0  # changes with every change of the game (stale computer moves)
        self._reset_game()

    # ----------------------------------------------------------------------------- basics
    def _reset_game(self) -> None:
        self.game = ce.new_game(self.seed, interactive_cuts=self.interactive_cuts)
        self._after_rebuild()

    def _after_rebuild(self) -> None:
        self._epoch += 1
        self.selection: tuple[int, ...] = ()
        self.hint: HintView | None = None
        self.focus = 0
        self.revealed: int | None = None
        self.messages: list[str] = []
        self._held: list[str] | None = None  # said after a show: held until it is counted
        self.show_steps: list[ShowStep] = []
        self.show_intro: tuple[str, ...] = ()  # how the play ended, shown beside the count
        self.show_pos = 0
        self.cut = CutResult()
        self._events_seen = len(self.game.log)
        self._rebuild_cut_result()
        self.version = getattr(self, "version", 0) + 1

    def tr(self, msgid: str, /, **kwargs: object) -> str:
        return self.cat.tr(msgid, **kwargs)

    def set_language(self, lang: str) -> None:
        """Switch the table's language (messages already said are not re-said)."""
        self.cat = Catalog(lang)
        self.lang = lang
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
        return p is not None and self.is_human(p) and not self.show_running

    @property
    def computer_to_act(self) -> bool:
        p = self.to_act
        if p is None or self.is_human(p):
            return False
        return self.script is None or self._cursor < len(self.script)

    @property
    def decisions(self) -> tuple[int, ...]:
        """Every decision made so far (the redo tail excluded)."""
        return tuple(self._actions[: self._cursor])

    def name(self, seat: int) -> str:
        if self.mode is Mode.COMPUTER:
            return self.tr("You") if seat == 0 else self.tr("Computer")
        if self.mode is Mode.HOTSEAT:
            return self.tr("Player {n}", n=seat + 1)
        if self.script is not None:
            return self.tr("Player {n}", n=seat + 1)
        return self.tr("Computer {n} ({spec})", n=seat + 1, spec=self.seats[seat].spec)

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
        if self.mode is not Mode.HOTSEAT or self.show_running:
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

    # ----------------------------------------------------------------------------- selection & hint
    def selectable(self, card: int) -> bool:
        """Can the person to act select this card now? Unplayable cards are dimmed (R6.2)."""
        if not self.human_to_act or self.needs_reveal:
            return False
        p = self.to_act
        if self.phase is Phase.DISCARD:
            return card in self.game.hands[p]
        if self.phase is Phase.PLAY:
            return self.game.is_legal(card)  # the engine's rule (R6.2)
        return False

    def toggle(self, card: int) -> bool:
        """Select or unselect a card of the hand to act (a preview: the game is untouched, R11.2)."""
        if not self.human_to_act or self.needs_reveal:
            return False
        p = self.to_act
        if card not in self.game.hands[p]:
            return False
        if self.phase is Phase.PLAY and not self.selectable(card):
            self._say(self.tr("{card} would take the count past 31", card=self.card(card)))
            return False
        if card in self.selection:
            self.selection = tuple(c for c in self.selection if c != card)
        elif self.phase is Phase.DISCARD:
            self.selection = (self.selection + (card,))[-2:]
        elif self.phase is Phase.PLAY:
            self.selection = (card,)
        else:
            return False
        self.version += 1
        return True

    def select_position(self, index: int) -> bool:
        """Keyboard aid: toggle the ``index``-th card (0-based) of the hand to act."""
        hand = self.hand_cards(self.bottom_seat)
        if 0 <= index < len(hand):
            self.focus = index
            return self.toggle(hand[index])
        return False

    def move_focus(self, step: int) -> None:
        hand = self.hand_cards(self.bottom_seat)
        if hand:
            self.focus = (self.focus + step) % len(hand)
            self.version += 1

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, in a stable order (sorted by rank then suit)."""
        return tuple(sorted(self.game.hands[seat], key=lambda c: (RANK[c], SUIT[c])))

    @property
    def pending_action(self) -> int | None:
        """The action the current selection stands for, if it is complete and legal."""
        if not self.human_to_act or self.needs_reveal:
            return None
        sel = self.selection
        if self.phase is Phase.DISCARD and len(sel) == 2:
            return ce.discard_action(sel[0], sel[1])
        if self.phase is Phase.PLAY and len(sel) == 1 and self.selectable(sel[0]):
            return sel[0]
        return None

    @property
    def can_confirm(self) -> bool:
        return self.pending_action is not None

    def confirm(self) -> bool:
        """Send the selected cards (Confirm button, Enter, or a tap on the crib)."""
        action = self.pending_action
        if action is None:
            if self.human_to_act and self.phase is Phase.DISCARD:
                self._say(self.tr("Select two cards for the crib"))
            return False
        self._decide(action)
        return True

    def cut_at(self, depth: int) -> bool:
        """Cut the spread at ``depth`` cards (a gesture: the card comes from the seed, R11.1)."""
        if not self.human_to_act or self.phase not in CUT_SPREAD:
            return False
        action = CUT_BASE + int(depth)
        if not self.game.is_legal(action):
            legal = self.game.legal_actions()
            action = min(max(action, legal[0]), legal[-1])  # spots at the very ends snap inwards
        self._decide(action)
        return True

    def request_hint(self) -> HintView | None:
        """Show the suggested move and its numbers; nothing changes until confirmed (R11.2)."""
        if not self.human_to_act or self.needs_reveal:
            return None
        if self.phase not in (Phase.DISCARD, Phase.PLAY):
            return None
        seat = self.to_act
        view = self.game.view(seat)
        hint = _hint_for(view, self._rng(77))
        cards = discard_cards(hint.action) if is_discard(hint.action) else (hint.action,)
        lines = []
        for o in hint.options[:3]:
            what = self._action_text(o.action)
            d = o.details
            if "hand_ev" in d and "crib_ev" in d:  # discards: hand EV, crib EV, net
                text = self.tr(
                    "{cards}: hand {hand}, crib {crib}, net {net}",
                    cards=what,
                    hand=f"{d['hand_ev']:.1f}",
                    crib=f"{d['crib_ev']:+.1f}",
                    net=f"{o.value:.1f}",
                )
            else:
                text = self.tr(
                    "{cards}: {value} points expected", cards=what, value=f"{o.value:.1f}"
                )
            lines.append(("→ " if o.action == hint.action else "") + text)
        self.hint = HintView(hint.action, tuple(cards), tuple(lines))
        self.version += 1
        return self.hint

    def clear_hint(self) -> None:
        if self.hint is not None:
            self.hint = None
            self.version += 1

    def _action_text(self, action: int) -> str:
        if is_discard(action):
            return " ".join(self.card(c) for c in discard_cards(action))
        if is_cut(action):
            return self.tr("cut")
        return self.card(action)

    # ----------------------------------------------------------------------------- the computer
    def _rng(self, stream: int) -> np.random.Generator:
        """Agent randomness: a function of the agent seed, the game, the stream and the decision
        index, so undo/redo and restart replay the computer's choices exactly. It is a one-way
        hash with the independent agent seed (:mod:`agents.seeding`): nothing an agent can read
        from its generator gives away the game seed, hence the deck (issue 15, leak 1)."""
        from agents.seeding import agent_rng

        return agent_rng(self.agent_seed, self.seed, stream, self._cursor)

    def computer_job(self) -> tuple[int, Callable[[], int]]:
        """(ticket, job): the job computes the computer's decision from a frozen PlayerView and
        its own generator, so it may run in a worker thread while the window keeps drawing."""
        p = self.to_act
        if p is None or self.is_human(p):
            raise RuntimeError("it is not the computer's turn")
        if self.script is not None:
            if self._cursor >= len(self.script):
                raise RuntimeError("the record has no more decisions")
            action = self.script[self._cursor]
            return self._epoch, lambda: action
        rng = self._rng(1000 + p)
        view = self.game.view(p)
        if self.phase in CUT_SPREAD:  # where an agent cuts does not matter (R11.1)
            legal = view.legal_actions
            return self._epoch, lambda: int(legal[int(rng.integers(len(legal)))])
        agent = self.seats[p].agent
        return self._epoch, lambda: int(agent.act(view, rng))  # type: ignore[union-attr]

    def computer_action(self) -> int:
        """The computer's decision for the current state (from its PlayerView only)."""
        return self.computer_job()[1]()

    @property
    def computer_should_move(self) -> bool:
        """The computer's turn and nothing on screen (the show) to wait for."""
        return self.computer_to_act and not self.show_running

    def computer_ticket(self) -> int:
        """Identifies the state a computer move was computed for (stale after undo etc.)."""
        return self._epoch

    def apply_computer(self, action: int, ticket: int | None = None) -> bool:
        """Apply a computer move unless the game changed since it was computed."""
        if ticket is not None and ticket != self._epoch:
            return False
        if not self.computer_to_act or not self.game.is_legal(action):
            return False
        self._decide(action)
        return True

    def step_computer(self) -> bool:
        """Compute and apply one computer move now (tests, autoplay)."""
        if not self.computer_to_act:
            return False
        self._decide(self.computer_action())
        return True

    # ----------------------------------------------------------------------------- decisions
    def _decide(self, action: int) -> None:
        prev_player = self.to_act
        prev_deal = self.game.deal_no
        self.game.apply(action)
        del self._actions[self._cursor :]
        del self._actors[self._cursor :]
        self._actions.append(action)
        self._actors.append(prev_player)
        self._cursor += 1
        self._epoch += 1
        self._after_decision(prev_player, prev_deal)

    def _after_decision(self, prev_player: int | None, prev_deal: int) -> None:
        self.selection = ()
        self.hint = None
        self.focus = 0
        # Hands go face down between turns: a new player, a new deal, or a cut (R11.4).
        if (
            self.to_act != prev_player
            or self.game.deal_no != prev_deal
            or self.phase not in (Phase.DISCARD, Phase.PLAY)
        ):
            self.revealed = None
        self._read_new_events()
        self.version += 1
        if self.on_change is not None:
            self.on_change(self)

    def _say(self, text: str) -> None:
        if self._held is not None:
            self._held.append(text)
            return
        self.messages.append(text)
        del self.messages[:-6]
        self.version += 1

    def _rebuild_cut_result(self) -> None:
        cut = CutResult()
        cards: list[int | None] = [None, None]
        for entry in self.game.log:
            kind = entry[0]
            if kind is EventKind.CUT_FOR_DEAL:
                if cards[0] is not None and cards[1] is not None:
                    cards = [None, None]
                cards[entry[1]] = entry[2][0]
                cut = CutResult((cards[0], cards[1]))
            elif kind is EventKind.CUT_TIE:
                cut = CutResult((cards[0], cards[1]), tie=True)
            elif kind is EventKind.FIRST_DEALER:
                cut = CutResult((cards[0], cards[1]), first_dealer=entry[1])
        self.cut = cut

    def _read_new_events(self) -> None:
        """Turn what just happened into messages and a show sequence (public facts only)."""
        log = self.game.log
        new = self.game.events[self._events_seen :]
        self._events_seen = len(log)
        self._rebuild_cut_result()
        shows = []
        for e in new:
            k = e.kind
            who = self.name(e.player) if e.player is not None else ""
            if k is EventKind.CUT_FOR_DEAL:
                self._say(
                    self._who(
                        e.player,
                        N_("You cut {card}"),
                        N_("{name} cuts {card}"),
                        card=self.card(e.cards[0]),
                    )
                )
            elif k is EventKind.CUT_TIE:
                self._say(self.tr("Tie: both cut the same rank. Cut again."))
            elif k is EventKind.FIRST_DEALER:
                self._say(
                    self._who(
                        e.player,
                        N_("You cut lower and deal first"),
                        N_("{name} cut lower and deals first"),
                    )
                )
            elif k is EventKind.DEAL:
                self._say(
                    self._who(
                        e.player,
                        N_("Deal {n}: you deal"),
                        N_("Deal {n}: {name} deals"),
                        n=e.deal + 1,
                    )
                )
            elif k is EventKind.DISCARD:
                self._say(
                    self._who(
                        e.player,
                        N_("You put two cards in the crib"),
                        N_("{name} puts two cards in the crib"),
                    )
                )
            elif k is EventKind.STARTER:
                self._say(self.tr("Starter: {card}", card=self.card(e.cards[0])))
            elif k is EventKind.PLAY:
                card = self.card(e.cards[-1])
                count = e.count
                text = self._who(
                    e.player,
                    N_("You play {card} ({count})"),
                    N_("{name} plays {card} ({count})"),
                    card=card,
                    count=count,
                )
                if e.points:
                    text += " — " + self._reasons_text(e.reasons)
                self._say(text)
            elif k is EventKind.GO:
                self._say(self._who(e.player, N_("You say Go"), N_("{name} says Go")))
            elif k is EventKind.SCORE:
                self._say(self.tr("{name}: {what}", name=who, what=self._reasons_text(e.reasons)))
            elif k is EventKind.SHOW:
                shows.append(e)
                if self._held is None:  # no spoilers: what follows waits for the count
                    self._held = []
            elif k is EventKind.GAME_OVER:
                self._say(self._who(e.player, N_("You win!"), N_("{name} wins!")))
        if shows:
            self._build_show(shows)

    def points_text(self, reasons) -> str:
        """Points as said at the table ("fifteen for 2, a pair for 2"), for pop-ups."""
        return self._reasons_text(reasons)

    def _reasons_text(self, reasons) -> str:
        parts = []
        for r in reasons:
            n = len(r.cards)
            parts.append(
                self.tr(PLAY_REASONS.get(r.kind, N_("{points} points")), n=n, points=r.points)
            )
        return ", ".join(parts)

    def _who(self, seat: int, you: str, other: str, **kwargs: object) -> str:
        """A sentence about ``seat``: the "you" form for the person playing the computer."""
        if self.mode is Mode.COMPUTER and seat == 0:
            return self.tr(you, **kwargs)
        return self.tr(other, name=self.name(seat), **kwargs)

    def show_title(self, player: int, what: str) -> str:
        if what == "crib":
            return self._who(player, N_("Your crib"), N_("{name}'s crib"))
        return self._who(player, N_("Your hand"), N_("{name}'s hand"))

    def _build_show(self, shows) -> None:
        steps: list[ShowStep] = []
        for e in shows:
            title = self.show_title(e.player, e.what)
            cards, starter = tuple(e.cards[:4]), e.cards[4]
            before = list(e.scores)
            before[e.player] -= e.points
            running = 0
            said: list[str] = []
            steps.append(
                ShowStep(
                    title, e.player, e.what, cards, starter, (), "", (), 0, (before[0], before[1])
                )
            )
            for item in e.reasons:
                running += item.points
                line = self.tr(
                    SHOW_LINES.get(item.kind, N_("{points} points")),
                    total=running,
                    n=len(item.cards),
                    points=item.points,
                )
                said.append(line)
                sc = list(before)
                sc[e.player] += running
                steps.append(
                    ShowStep(
                        title,
                        e.player,
                        e.what,
                        cards,
                        starter,
                        tuple(item.cards),
                        line,
                        tuple(said),
                        running,
                        (sc[0], sc[1]),
                    )
                )
            final = (
                self.tr("{title}: {points} points", title=title, points=running)
                if running
                else self.tr("{title}: nineteen (nothing)", title=title)
            )
            steps.append(
                ShowStep(
                    title,
                    e.player,
                    e.what,
                    cards,
                    starter,
                    (),
                    final,
                    tuple(said) + (final,),
                    running,
                    e.scores,
                )
            )
        self.show_steps = steps
        self.show_intro = tuple(self.messages[-2:])
        self.show_pos = 0

    # ----------------------------------------------------------------------------- the show
    @property
    def show_running(self) -> bool:
        return self.show_pos < len(self.show_steps)

    @property
    def show_step(self) -> ShowStep | None:
        return self.show_steps[self.show_pos] if self.show_running else None

    def advance_show(self) -> None:
        """Say the next combination (the view calls this at a readable pace)."""
        if self.show_running:
            self.show_pos += 1
            self.version += 1
            if not self.show_running:
                self._show_done()

    def skip_show(self) -> None:
        if self.show_running:
            self.show_pos = len(self.show_steps)
            self.version += 1
            self._show_done()

    def _show_done(self) -> None:
        """After the count, its totals stay in the message log, then what came after it."""
        held, self._held = self._held or [], None
        for step in self.show_steps:
            if step.said and step.line == step.said[-1] and not step.highlight:
                self._say(step.line)
        for text in held:
            self._say(text)

    # ----------------------------------------------------------------------------- scores & pegs
    @property
    def display_scores(self) -> tuple[int, int]:
        step = self.show_step
        return step.scores if step is not None else self.game.scores

    def pegs(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(front, back) peg holes for each player: leap-frogging pegs (0 = start hole)."""
        trail: list[list[int]] = [[0, 0], [0, 0]]
        shown = self.display_scores
        scores = [0, 0]
        for entry in self.game.log:
            pts = entry[3]
            if pts:
                p = entry[1]
                scores[p] += pts
                if scores[p] > shown[p]:
                    break
                trail[p].append(scores[p])
        for p in (0, 1):
            if trail[p][-1] != shown[p]:
                trail[p].append(shown[p])
        return ((trail[0][-1], trail[0][-2]), (trail[1][-1], trail[1][-2]))

    # ----------------------------------------------------------------------------- undo / redo
    def _set_history(self, actions: list[int]) -> None:
        g = ce.new_game(self.seed, interactive_cuts=self.interactive_cuts)
        actors = []
        for a in actions:
            actors.append(g.to_act)
            g.apply(a)
        self._actions, self._actors = list(actions), actors

    @property
    def can_undo(self) -> bool:
        return self._undo_target() is not None

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._actions)

    @property
    def can_restart(self) -> bool:
        """Pass and play: only before the first decision or after the game (a restart mid-game
        would throw away the other person's moves and deal them the same cards again)."""
        return self.mode is not Mode.HOTSEAT or self._cursor == 0 or self.game.is_over

    def _undo_target(self) -> int | None:
        """The cursor an undo goes back to, or None.

        Pass and play: only the decisions of the person to act now, made since the turn came to
        them. Once a decision passes the turn, the other person may hold the screen: undoing it
        would let them see its maker's hand ("See my hand") and redo it without a trace, or
        replace it (issue 15, leak 2)."""
        cursor = self._cursor
        if cursor == 0:
            return None
        if self.mode is Mode.WATCH:
            return cursor - 1
        if self.mode is Mode.HOTSEAT:
            p = self.to_act
            return cursor - 1 if p is not None and self._actors[cursor - 1] == p else None
        return next((i for i in range(cursor - 1, -1, -1) if self.is_human(self._actors[i])), None)

    def _rebuild(self, cursor: int) -> None:
        self._cursor = cursor
        self.game = ce.replay(
            self.seed, self._actions[:cursor], interactive_cuts=self.interactive_cuts
        )
        self._after_rebuild()

    def undo(self) -> bool:
        """Back to the moment before the person's last decision (computer replies too, R11.5)."""
        target = self._undo_target()
        if target is None:
            return False
        self._rebuild(target)
        self._say(self.tr("Undone"))
        if self.on_change is not None:
            self.on_change(self)
        return True

    def redo(self) -> bool:
        """Replay the undone decision and the computer's replies that followed it (R11.5)."""
        if not self.can_redo:
            return False
        cursor = self._cursor + 1
        if self.mode is not Mode.WATCH:
            while cursor < len(self._actions) and not self.is_human(self._actors[cursor]):
                cursor += 1
        self._rebuild(cursor)
        self._say(self.tr("Redone"))
        if self.on_change is not None:
            self.on_change(self)
        return True

    def restart(self) -> bool:
        """The same game from the start: same seed, same shuffles, empty history (R11.6).

        Refused (False) in pass and play while a game is under way (see :attr:`can_restart`)."""
        if not self.can_restart:
            return False
        self._actions, self._actors = [], []
        self._rebuild(0)
        if self.on_change is not None:
            self.on_change(self)
        return True

    # ----------------------------------------------------------------------------- prompts
    def prompt(self) -> str:
        """The line that tells the person what happens now."""
        g = self.game
        if self.show_running:  # first: the winner is not announced before the count
            return self.tr("Counting the show")
        if g.is_over:
            return self._who(
                g.winner,
                N_("You win {a} to {b}"),
                N_("{name} wins {a} to {b}"),
                a=min(max(g.scores), GAME_HOLE),
                b=min(g.scores),
            )
        p = g.current_player
        name = self.name(p)
        if self.needs_reveal:
            return self.tr("Pass the screen to {name}", name=name)
        if not self.is_human(p):
            return self.tr("{name} is thinking…", name=name)
        ph = g.phase
        if ph is Phase.CUT_FOR_DEAL:
            text = self.tr("Cut the deck for first deal: the lower card deals")
        elif ph is Phase.DEAL_CUT:
            text = self._who(
                g.dealer, N_("Cut the deck: you deal"), N_("Cut the deck: {name} deals")
            )
        elif ph is Phase.STARTER_CUT:
            text = self.tr("Cut the deck for the starter")
        elif ph is Phase.DISCARD:
            text = (
                self.tr("Choose two cards for your crib")
                if g.dealer == p
                else self._who(
                    g.dealer,
                    N_("Choose two cards for your crib"),
                    N_("Choose two cards for {name}'s crib"),
                )
            )
        else:
            text = self.tr("Play a card (count {count})", count=g.count)
        if self.mode is Mode.HOTSEAT:
            return self.tr("{name}: {text}", name=name, text=text)
        return text

    def game_over_lines(self) -> tuple[str, ...]:
        g = self.game
        if not g.is_over:
            return ()
        lines = [
            self._who(g.winner, N_("You win!"), N_("{name} wins!")),
            self.tr(
                "Final score: {a} – {b}",
                a=min(g.scores[0], GAME_HOLE),
                b=min(g.scores[1], GAME_HOLE),
            ),
        ]
        level = ce.skunk_level(g.scores)
        if level == 2:
            lines.append(self.tr("Skunk! ({points} game points)", points=level))
        elif level == 3:
            lines.append(self.tr("Double skunk! ({points} game points)", points=level))
        return tuple(lines)

    # ----------------------------------------------------------------------------- saving
    def to_save(self) -> dict:
        """Everything needed to resume: seed, decisions (with the redo tail), cursor, seats."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "agent_seed": self.agent_seed,
            "mode": self.mode.value,
            "agents": [s.spec for s in self.seats],
            "lang": self.lang,
            "decisions": [ce.action_str(a) for a in self._actions],
            "cursor": self._cursor,
            "finished": self.game.is_over,
        }

    @classmethod
    def from_save(cls, data: dict, *, on_change=None) -> TableController:
        """Resume a saved game; raises :class:`SaveError` for anything malformed."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("not a cribbage-env saved game")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(
                f"saved game version {data.get('version')!r} is not supported "
                f"(this version reads {SAVE_VERSION})"
            )
        try:
            seed = data["seed"]
            mode = Mode(data["mode"])
            agents = data["agents"]
            lang = data.get("lang", "en")
            actions = [ce.parse_action(t) for t in data["decisions"]]
            cursor = data["cursor"]
            agent_seed = data.get("agent_seed")  # saves before issue 15 have none: a fresh one
        except (KeyError, ValueError, TypeError) as exc:
            raise SaveError(f"saved game is incomplete or malformed: {exc}") from None
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SaveError(f"saved seed must be a non-negative integer, got {seed!r}")
        if not isinstance(agents, list) or len(agents) != 2:
            raise SaveError("saved game must name two seats")
        if (
            isinstance(cursor, bool)
            or not isinstance(cursor, int)
            or not 0 <= cursor <= len(actions)
        ):
            raise SaveError(f"saved cursor {cursor!r} is outside 0..{len(actions)}")
        from .i18n import LANGUAGES

        if lang not in LANGUAGES:
            lang = "en"
        kwargs: dict = {"mode": mode, "lang": lang, "agent_seed": agent_seed}
        if mode is Mode.COMPUTER:
            kwargs["opponent"] = agents[1]
        elif mode is Mode.WATCH:
            kwargs["agents"] = agents
        try:
            ctl = cls(seed, **kwargs)
            ctl._set_history(actions)
        except (ValueError, ce.IllegalActionError) as exc:
            raise SaveError(f"saved game does not replay: {exc}") from None
        ctl._rebuild(cursor)
        ctl.on_change = on_change
        return ctl


# --------------------------------------------------------------------------------- helpers
def _make_agent(spec: str):
    from agents import make_agent

    return make_agent(spec)


_HINT_AGENT: list = []


def _hint_agent():
    """The strongest level's agent, built once (it may load tables)."""
    if not _HINT_AGENT:
        from agents import LEVELS, make_agent

        _HINT_AGENT.append(make_agent(LEVELS["hard"]))
    return _HINT_AGENT[0]


def _hint_for(view: ce.PlayerView, rng: np.random.Generator) -> agents.Hint:
    """The hint agent's suggestion with its ranked options (the numbers behind it)."""
    return _hint_agent().hint(view, rng)
