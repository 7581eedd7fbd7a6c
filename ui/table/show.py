"""What the table shows from a game's public events: the count of the show step by step, the
cut for first deal, the pegs on the board: pure functions of events (no Arcade), and the
:class:`ShowSequence` the controller holds to count a show step by step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from cribbage_env.rules.core import EventKind, Rules

from ..words.narration import Narrator


class ShowHost(Protocol):
    """What a show reads of its table: the redraw counter and the message log."""

    version: int

    def say(self, text: str) -> None: ...


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


@dataclass
class CutResult:
    """The last cut for first deal, shown until the discard starts (R2)."""

    cards: tuple[int | None, int | None] = (None, None)
    tie: bool = False
    first_dealer: int | None = None


def show_steps(narrator: Narrator, shows: Iterable) -> list[ShowStep]:
    """The count of each SHOW event, said one combination at a time with the board's scores."""
    steps: list[ShowStep] = []
    for e in shows:
        title = narrator.show_title(e.player, e.what)
        cards, starter = tuple(e.cards[:4]), e.cards[4]
        before = list(e.scores)
        before[e.player] -= e.points
        steps.append(ShowStep(title, e.player, e.what, cards, starter, (), "", (), 0,
                              (before[0], before[1])))  # fmt: skip
        reasons = e.reasons
        said = narrator.count(reasons)
        running = 0
        for i, item in enumerate(reasons):
            running += item.points
            sc = list(before)
            sc[e.player] += running
            steps.append(ShowStep(title, e.player, e.what, cards, starter, tuple(item.cards),
                                  said[i], tuple(said[: i + 1]), running, (sc[0], sc[1])))  # fmt: skip
        final = narrator.count_total(title, running)
        steps.append(ShowStep(title, e.player, e.what, cards, starter, (), final,
                              (*said, final), running, e.scores))  # fmt: skip
    return steps


@dataclass(frozen=True)
class DealPoints:
    """One player's points in a deal by where they came from (the deal summary)."""

    pegging: int = 0  # the play, go, last card and his heels
    hand: int = 0
    crib: int = 0
    #: The parts that were never counted ("hand", "crib"): the pone's crib, and a hand or crib
    #: the game ended before (shown as a dash, not as 0 points).
    uncounted: frozenset[str] = frozenset()

    @property
    def total(self) -> int:
        return self.pegging + self.hand + self.crib


def deal_points(events: list, last_show: object, rules: Rules) -> tuple[DealPoints, DealPoints]:
    """Both players' points in the deal whose show ends with the event ``last_show``."""
    end = next(i for i, e in enumerate(events) if e is last_show)
    start = max((i for i in range(end) if events[i].kind is EventKind.DEAL), default=0)
    deal = events[start : end + 1]
    dealer = deal[0].player if deal and deal[0].kind is EventKind.DEAL else None
    shown = {(e.player, e.what) for e in deal if e.kind is EventKind.SHOW}
    a, b = points_by_part(deal, rules)
    return tuple(  # type: ignore[return-value]
        replace(p, uncounted=frozenset(
            part for part in ("hand", "crib")
            if (seat, part) not in shown and (part == "hand" or seat == dealer)
        ) | ({"crib"} if seat != dealer else set()))
        for seat, p in enumerate((a, b))
    )  # fmt: skip


def points_by_part(events, rules: Rules) -> tuple[DealPoints, DealPoints]:
    """Both players' points in ``events`` by part (pegging, hands, cribs), each scoring counted
    up to the target only (:meth:`~cribbage_env.rules.core.Rules.counted`), so a whole game's
    parts add up to its final score."""
    pts = [[0, 0, 0], [0, 0, 0]]
    for e in events:
        if not e.points or e.player is None:
            continue
        counted = rules.counted_points(e.points, e.scores[e.player])
        if e.kind is EventKind.SHOW:
            pts[e.player][2 if e.what == "crib" else 1] += counted
        elif e.kind in (EventKind.PLAY, EventKind.SCORE):
            pts[e.player][0] += counted
    a, b = pts
    return DealPoints(a[0], a[1], a[2]), DealPoints(b[0], b[1], b[2])


def last_cut(events: Iterable) -> CutResult:
    """The cut for first deal as the table shows it (the last pair cut, a tie, the dealer)."""
    cut = CutResult()
    cards: list[int | None] = [None, None]
    for e in events:
        kind = e.kind
        if kind is EventKind.CUT_FOR_DEAL:
            if cards[0] is not None and cards[1] is not None:
                cards = [None, None]
            cards[e.player] = e.cards[0]
            cut = CutResult((cards[0], cards[1]))
        elif kind is EventKind.CUT_TIE:
            cut = CutResult((cards[0], cards[1]), tie=True)
        elif kind is EventKind.FIRST_DEALER:
            cut = CutResult((cards[0], cards[1]), first_dealer=e.player)
    return cut


def peg_holes(events: Iterable, shown: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(front, back) peg holes for each player: leap-frogging pegs (0 = start hole), up to the
    scores ``shown`` (which lag behind during the show's count)."""
    trail: list[list[int]] = [[0, 0], [0, 0]]
    scores = [0, 0]
    for e in events:
        pts = e.points
        if pts:
            p = e.player
            scores[p] += pts
            if scores[p] > shown[p]:
                break
            trail[p].append(scores[p])
    for p in (0, 1):
        if trail[p][-1] != shown[p]:
            trail[p].append(shown[p])
    return ((trail[0][-1], trail[0][-2]), (trail[1][-1], trail[1][-2]))


class ShowSequence:
    """The show counted on the table one combination at a time, held by the controller.

    What is said after a show (the next deal, the game's end) is held back until the count is
    over: no spoilers."""

    def __init__(self, ctl: ShowHost) -> None:
        self._ctl = ctl
        self.clear()

    def clear(self) -> None:
        """No show on the table (a new or rebuilt game)."""
        self.steps: list[ShowStep] = []
        self.pos = 0
        self.intro: tuple[str, ...] = ()  # how the play ended, shown beside the count
        self.summary: tuple[DealPoints, DealPoints] | None = None  # of the deal being shown
        self.held: list[str] | None = None  # said after a show: held until it is counted

    def start(self, steps: list[ShowStep], summary: tuple[DealPoints, DealPoints],
              intro: tuple[str, ...]) -> None:  # fmt: skip
        """Count a new show from its first step."""
        self.steps, self.summary, self.intro, self.pos = steps, summary, intro, 0

    @property
    def at_end(self) -> bool:
        """The last step of the show: the deal summary waits there for Continue."""
        return self.running and self.pos == len(self.steps) - 1

    @property
    def running(self) -> bool:
        return self.pos < len(self.steps)

    @property
    def step(self) -> ShowStep | None:
        return self.steps[self.pos] if self.running else None

    def advance(self) -> None:
        """Say the next combination (the view calls this at a readable pace)."""
        if self.running:
            self.pos += 1
            self._ctl.version += 1
            if not self.running:
                self._done()

    def skip(self) -> None:
        if self.running:
            self.pos = len(self.steps)
            self._ctl.version += 1
            self._done()

    def _done(self) -> None:
        """After the count, its totals stay in the message log, then what came after it."""
        held, self.held = self.held or [], None
        for step in self.steps:
            if step.said and step.line == step.said[-1] and not step.highlight:
                self._ctl.say(step.line)
        for text in held:
            self._ctl.say(text)
