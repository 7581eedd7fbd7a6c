"""A guided first deal for a person who has never played.

The person plays one real deal at the table against the Easy computer, and a lesson beside the
cards says what happens at each step and why, citing the numbered rules of ``docs/RULES.md``
(the Rules button shows them): the cut for the deal (R2), the deal (R3), the discard (R4), the
starter (R5), the play (R6-R8) and the show (R9), then what follows (R10). The lesson is read
off the game's state, so it follows whatever the person does, undo included; nothing here
decides anything about the game, and the deal is never saved over the person's own game.

>>> t = Tutorial(lang="fr")
>>> t.lesson().key, t.lesson().title
('welcome', 'Votre première donne')
>>> t.start(); t.lesson().key, t.waiting
('cut_for_deal', True)
>>> t.got_it(); t.lesson().read, t.waiting
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage_env.rules.core import Phase

from ...words.i18n import N_
from ..commands import Act
from ..controller import Mode, TableController

#: The deal of the tutorial (a fixed seed: the same lesson for everybody) and the computer's.
SEED = 2024
AGENT_SEED = 7
OPPONENT = "novice"  # Easy


class Where:
    """Where a lesson is laid out (see :mod:`ui.scenes.tutorial_scene`)."""

    CENTER = "center"  # a panel of its own, the table waits (welcome, done)
    LOW = "low"  # over the empty hand row (the cuts before the deal)
    HIGH = "high"  # in place of the log, beside the table
    SHOW = "show"  # under the show's panel


@dataclass(frozen=True)
class Lesson:
    """What the tutorial says now: a title, a few lines (rules cited as R<n>) and its buttons."""

    key: str
    title: str
    lines: tuple[str, ...]
    where: str
    buttons: tuple[tuple[Act, str], ...] = ()  # (what, label); the first is the primary one
    short: str = ""  # once read: the one line kept in sight (what to do now, its rule)
    read: bool = False  # the person pressed "Got it": only the title and ``short`` are shown


#: The lessons' English texts (message ids), by key: title, then lines.
TEXTS: dict[str, tuple[str, ...]] = {
    "welcome": (
        N_("Your first deal"),
        N_(
            "Cribbage is a race to {target} points (R10). You score during the play and in the "
            "show; the pegs on the board at the right keep the score."
        ),  # fmt: skip
        N_(
            "This guided deal shows each step. The Rules button lists the rules by number, "
            "R1 to R11."
        ),  # fmt: skip
    ),
    "cut_for_deal": (
        N_("Cut for the deal"),
        N_(
            "Tap the spread of cards anywhere to cut. The lower card deals first, the ace is "
            "lowest (R2.1); equal cards cut again (R2.2)."
        ),  # fmt: skip
    ),
    "deal_cut": (
        N_("Cut before the deal"),
        N_(
            "The player who does not deal, the pone, cuts the deck; then six cards are dealt "
            "to each player (R3)."
        ),  # fmt: skip
    ),
    "discard": (
        N_("Two cards to the crib"),
        N_(
            "Choose two of your six cards for the crib, a third hand that counts for the "
            "dealer, {dealer} (R4.1). Tap two cards, then To the crib."
        ),  # fmt: skip
        N_("Keep cards that score together: fifteens, pairs, runs (R9). Stuck? Press Hint."),
    ),
    "discard_own": (N_("Your crib: what you give it counts for you too."),),
    "discard_other": (N_("The computer's crib: do not give it fives or pairs."),),
    "starter_cut": (
        N_("The starter"),
        N_(
            "Both have discarded: the pone cuts, and the card turned up counts with every hand "
            "and the crib (R5.1). A jack gives the dealer 2 at once (R5.2)."
        ),  # fmt: skip
    ),
    "play": (
        N_("The play"),
        N_(
            "Lay a card in turn and add it to the count, never above 31 (R6). A count of 15 or "
            "31 scores 2, a pair 2, a run of three 3 (R7)."
        ),  # fmt: skip
        N_(
            "When no card fits, the table says Go for you: the other plays on, and the last "
            "card scores 1 (R8)."
        ),  # fmt: skip
    ),
    "play_turn": (N_("The count is {count}: lay a card worth up to {room}."),),
    "play_any": (N_("The count is {count}: any of your cards fits."),),
    "show": (
        N_("The show"),
        N_(
            "Each hand counts with the starter, the pone's first, then the dealer's hand and "
            "crib: fifteens 2, pairs 2, runs, flush, the jack of the starter's suit 1 (R9)."
        ),  # fmt: skip
    ),
    "done": (
        N_("That was a whole deal"),
        N_(
            "Deals go on like this, the deal passing from one player to the other (R2.3), "
            "until someone reaches {target} (R10)."
        ),  # fmt: skip
        N_("You are ready: play a real game, or read the rules first."),
    ),
}
#: What to do now, kept in sight once the lesson is read (by key).
SHORT: dict[str, str] = {
    "cut_for_deal": N_("Tap the spread to cut; the lower card deals (R2.1)."),
    "deal_cut": N_("The pone cuts, then six cards each (R3)."),
    "discard": N_("Tap two cards, then To the crib (R4.1)."),
    "starter_cut": N_("The pone cuts for the starter (R5.1)."),
    "play": N_("Wait for the computer's card (R6.1)."),
    "show": N_("Press Next for each count (R9)."),
}


class Tutorial:
    """One guided deal: a table controller and the lesson for its state."""

    def __init__(self, lang: str = "en") -> None:
        self.ctl = TableController(SEED, mode=Mode.COMPUTER, opponent=OPPONENT, lang=lang,
                                   agent_seed=AGENT_SEED)  # fmt: skip
        self.started = False  # the welcome has been read
        self.read: set[str] = set()  # lessons the person has read ("Got it")

    def start(self) -> None:
        self.started = True
        self.ctl.version += 1  # the scene changes

    def got_it(self) -> None:
        """The lesson in sight has been read: it folds to its title and one line."""
        self.read.add(self.lesson().key)
        self.ctl.version += 1

    @property
    def waiting(self) -> bool:
        """The table waits for the person to read (the welcome, a lesson not yet read)."""
        lesson = self.lesson()
        return lesson.where != Where.SHOW and not lesson.read

    @property
    def done(self) -> bool:
        """The first deal has been counted (the next one is under way, or the game is over)."""
        g = self.ctl.game
        return not self.ctl.show.running and (g.deal_no >= 1 or g.is_over)

    def step_alone(self) -> bool:
        """One step that needs no decision of the person: the lesson in sight read, the show
        counted on or the computer's move; False when the person is to act (headless runs)."""
        c = self.ctl
        if self.waiting:
            self.got_it()
        elif c.show.running:
            c.show.advance()
        elif c.computer.to_act:
            c.computer.step()
        else:
            return False
        return True

    def _texts(self, key: str, **kw: object) -> tuple[str, ...]:
        return tuple(self.ctl.tr(t, **kw) for t in TEXTS[key])

    def lesson(self) -> Lesson:
        """The lesson for the table as it is now."""
        ctl, tr = self.ctl, self.ctl.tr
        g = ctl.game
        target = g.rules.target
        if not self.started:
            title, *lines = self._texts("welcome", target=target)
            return Lesson("welcome", title, tuple(lines), Where.CENTER, (
                (Act.LESSON_START, tr("Start")),))  # fmt: skip
        if self.done:
            title, *lines = self._texts("done", target=target)
            a, b = g.scores
            lines.insert(0, tr("The score: {you} {a}, {other} {b}.", you=ctl.name(0), a=a,
                               other=ctl.name(1), b=b))  # fmt: skip
            buttons = ((Act.LESSON_PLAY, tr("Play a game")), (Act.RULES, tr("Rules")),
                       (Act.MENU, tr("Menu")))  # fmt: skip
            return Lesson("done", title, tuple(lines), Where.CENTER, buttons)
        if ctl.show.running:
            return self._make("show", Where.SHOW)
        ph = g.phase
        if ph is Phase.CUT_FOR_DEAL:
            return self._make("cut_for_deal", Where.LOW)
        if ph is Phase.DEAL_CUT:
            return self._make("deal_cut", Where.LOW)
        if ph is Phase.DISCARD:
            extra = "discard_own" if g.dealer == 0 else "discard_other"
            return self._make("discard", Where.HIGH, extra, dealer=ctl.name(g.dealer))
        if ph is Phase.STARTER_CUT:
            return self._make("starter_cut", Where.HIGH)
        if ph is Phase.PLAY and ctl.human_to_act:  # a Go is said for the person (R8)
            room = 31 - g.count
            key = "play_turn" if room < 10 else "play_any"
            turn = tr(TEXTS[key][0], count=g.count, room=room)
            return self._make("play", Where.HIGH, short=f"{turn} (R6.2)")
        return self._make("play", Where.HIGH)

    def _make(self, key: str, where: str, extra: str | None = None, short: str = "",
              **kw: object) -> Lesson:  # fmt: skip
        title, *lines = self._texts(key, **kw)
        if extra is not None:
            lines += self._texts(extra, **kw)
        read = key in self.read
        buttons = () if read or where == Where.SHOW else ((Act.LESSON_OK, self.ctl.tr("Got it")),)
        short = short or self.ctl.tr(SHORT[key])
        return Lesson(key, title, tuple(lines), where, buttons, short, read)
