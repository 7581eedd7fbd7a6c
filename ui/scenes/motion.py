"""Motion between two scenes, as data (no Arcade): cards fly, turn over, pegs walk hole by hole,
points pop up where they were scored.

A :class:`Transition` is made from the scene the table showed and the scene it must show now;
``frame(t)`` is the scene to draw ``t`` seconds in. Cards are matched by their ``key``; a card
that appears where none left (a deal, the starter) comes from the deck. Two rules keep it
honest:

- **Nothing hidden shows.** A flying card is drawn face up only with the face the new scene
  shows for it: a card turning over shows its back until half way, and a card going face down
  (discards to the crib, a hand handed over) is a back from the first frame.
- **No spoilers.** Labels tagged ``log``, ``score``, ``count``, ``go`` and ``prompt`` stay as they
  were until the motion ends, so the log never announces a card that is still in the air and the
  prompt never names a count the table does not show yet.

Cards and pegs move for at most :data:`MAX_SECONDS`; a point pop-up waits for its card to land
and then lives :data:`POP`, so a transition lasts at most their sum. A click ends it at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..table.board import peg_holes
from .scene import GOLD, Board, CardItem, Label, Rect, Scene

MAX_SECONDS = 0.4
FLY = 0.24  # one card's flight
STAGGER = 0.014  # between the cards of a deal
HOLE_STEP = 0.03  # a peg's time per hole (shortened so a long count stays within the limit)
POP = 0.4  # a point pop-up's life
HELD_TAGS = ("log", "score", "count", "go", "prompt")


@dataclass(frozen=True)
class Flight:
    """One card moving from ``src`` to ``dst`` (turning over when the faces differ)."""

    item: CardItem  # as the new scene shows it
    src: Rect
    face_from: int | None
    delay: float = 0.0
    duration: float = FLY

    def at(self, t: float) -> CardItem:
        p = _ease(min(max((t - self.delay) / self.duration, 0.0), 1.0))
        r = _lerp_rect(self.src, self.item.rect, p)
        to = self.item.card
        if self.face_from == to:
            return replace(self.item, rect=r)
        # turning over: the width goes to zero half way; the new face only after that
        squash = abs(math.cos(p * math.pi))
        w = max(r.w * squash, 1.0)
        r = Rect(r.x + (r.w - w) / 2, r.y, w, r.h)
        face = to if p >= 0.5 else None
        return CardItem(face, r, dimmed=self.item.dimmed, key=self.item.key)


@dataclass(frozen=True)
class PegWalk:
    """A player's front peg walking from ``start`` to ``end``, one hole at a time; the other
    peg stays in ``start`` (it becomes the back peg: leapfrogging)."""

    player: int
    start: int
    end: int
    delay: float = 0.0

    @property
    def duration(self) -> float:
        return min(HOLE_STEP * (self.end - self.start), MAX_SECONDS - self.delay)

    def holes(self, t: float) -> tuple[int, int] | None:
        """(front, back) at time ``t``, or None before the walk starts (the old pegs stay)."""
        if t <= self.delay:
            return None
        p = min((t - self.delay) / max(self.duration, 1e-6), 1.0)
        return self.start + int(round(p * (self.end - self.start))), self.start


@dataclass(frozen=True)
class Popup:
    """Points said where they were scored ("fifteen for 2"), rising and fading."""

    text: str
    x: float
    y: float
    color: tuple[int, int, int] = (GOLD[0], GOLD[1], GOLD[2])
    anchor_x: str = "center"
    card: int | None = None  # the card that scored: the pop-up waits for it to land
    delay: float = 0.0  # seconds into the transition it appears (set by the transition)

    def at(self, t: float) -> Label | None:
        t -= self.delay
        if t < 0 or t >= POP:
            return None
        p = t / POP
        alpha = 255 if p < 0.6 else int(255 * (1 - (p - 0.6) / 0.4))
        alpha = max(32, alpha // 32 * 32)  # a few levels: text objects stay cached
        return Label(self.text, self.x, self.y + 28 * p, 20, self.color + (alpha,),
                     self.anchor_x, bold=True, tag="popup")  # fmt: skip


def _ease(p: float) -> float:
    return 1 - (1 - p) ** 3


def _lerp_rect(a: Rect, b: Rect, p: float) -> Rect:
    return Rect(a.x + (b.x - a.x) * p, a.y + (b.y - a.y) * p, a.w + (b.w - a.w) * p,
                a.h + (b.h - a.h) * p)  # fmt: skip


def _key(item: CardItem) -> str:
    return item.key or f"c{item.card}"


def _from_hand(key: str) -> bool:
    return key.startswith(("h", "c"))


def plan_flights(old: list[CardItem], new: list[CardItem], deck: Rect | None) -> list[Flight]:
    """Pair the new scene's cards with where they were: the same key, else a card that left a
    hand (a discard, a card played), else the deck (a deal, the starter)."""
    before = {_key(i): i for i in old}
    now = {_key(i) for i in new}
    leaving = [i for i in old if _key(i) not in now and _from_hand(_key(i))]
    flights: list[Flight] = []
    dealt = 0
    for item in new:
        k = _key(item)
        prev = before.get(k)
        if prev is not None:
            if prev.rect != item.rect or prev.card != item.card:
                flights.append(Flight(item, prev.rect, prev.card))
            continue
        if leaving and not k.startswith(("d", "deck")):
            src = leaving.pop(0)
            flights.append(Flight(item, src.rect, src.card))
        elif deck is not None and k != "deck" and not k.startswith("d"):
            flights.append(Flight(item, deck, None, delay=min(dealt * STAGGER, 0.15)))
            dealt += 1
    return flights


class Transition:
    """From the scene shown to the scene to show, over at most :data:`MAX_SECONDS`."""

    def __init__(self, old: Scene, new: Scene, popups: tuple[Popup, ...] = ()) -> None:
        self.old, self.new = old, new
        deck = next((i.rect for i in old.cards + new.cards if i.key == "deck"), None)
        self.flights = {id(f.item): f for f in plan_flights(old.cards, new.cards, deck)}
        self.layer_flights: dict[int, Flight] = {}
        if old.layer is not None and new.layer is not None:
            layer = plan_flights(old.layer.cards, new.layer.cards, None)
            self.layer_flights = {id(f.item): f for f in layer}
        self.walks = _peg_walks(old.board, new.board)
        ends = [
            f.delay + f.duration for f in (*self.flights.values(), *self.layer_flights.values())
        ]
        ends += [w.delay + w.duration for w in self.walks]
        moving = min(max(ends, default=0.0), MAX_SECONDS)
        landed = {f.item.card: min(f.delay + f.duration, moving) for f in self.flights.values()}
        self.popups = tuple(replace(p, delay=landed.get(p.card, 0.0)) for p in popups)
        self.total = max([moving] + [p.delay + POP for p in self.popups])

    @property
    def idle(self) -> bool:
        """Nothing moves: no need to animate at all."""
        return self.total <= 0.0

    def frame(self, t: float) -> Scene:
        """The scene to draw ``t`` seconds into the transition."""
        new = self.new
        if t >= self.total:
            return new
        s = replace(new, cards=[self._card(i, t, self.flights) for i in new.cards])
        if new.layer is not None and self.layer_flights:
            cards = [self._card(i, t, self.layer_flights) for i in new.layer.cards]
            s.layer = replace(new.layer, cards=cards)
        held = [lb for lb in self.old.labels if lb.tag in HELD_TAGS]
        s.labels = [lb for lb in new.labels if lb.tag not in HELD_TAGS] + held
        for pop in self.popups:
            label = pop.at(t)
            if label is not None:
                s.labels.append(label)
        if new.board is not None and self.walks:
            s.board = self._board(new.board, t)
        return s

    @staticmethod
    def _card(item: CardItem, t: float, flights: dict[int, Flight]) -> CardItem:
        f = flights.get(id(item))
        return item if f is None else f.at(t)

    def _board(self, board: Board, t: float) -> Board:
        old = self.old.board
        pegs = list(old.pegs if old is not None else board.pegs)
        for w in self.walks:
            at = w.holes(t)
            if at is not None:
                pegs[w.player] = peg_holes(*at, board.shape)
        return replace(board, pegs=(pegs[0], pegs[1]))


def _peg_walks(old: Board | None, new: Board | None) -> tuple[PegWalk, ...]:
    """Pegs that moved forward by a score walk there; anything else (undo, a new game) jumps."""
    if old is None or new is None:
        return ()
    walks: list[PegWalk] = []
    for p in (0, 1):
        (of, _), (nf, nb) = old.pegs[p], new.pegs[p]
        if nf > of and nb == of:
            walks.append(PegWalk(p, of, nf, delay=0.1 * len(walks)))
    return tuple(walks)
