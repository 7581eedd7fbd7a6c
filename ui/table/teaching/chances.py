"""The winning-chance indicator of the table (an evaluation bar): when to estimate,
from whose view, and the last reading.

The estimate is :func:`agents.coaching.chance.seat_chance` of the drawn seat's own
:class:`~cribbage_env.PlayerView` with the judge's generator for the position, so it says
nothing a player could not work out from their own cards (never the other hand, the crib or
the deck) and it is the number the hint and the review show there: at the seat's decision the
judge's best option, and once it has discarded, the discard taken as the review rates it (the
best option's chance minus the loss), so a costly discard shows at once. Off by default against the computer and in pass and play (a player decides whether
to look), on when two agents are watched. While the show is counted it keeps the reading from
before the show; in pass and play it is hidden while the screen changes hands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cribbage_env as ce

if TYPE_CHECKING:
    from ..controller import TableController


def discard_taken(game: ce.GameState, seat: int) -> float | None:
    """``seat``'s winning chance after its discard of the current deal as the review rates it
    (:func:`agents.coaching.judge.rate`: the judge's best chance minus the loss), None before it."""
    from agents.coaching.judge import position_rng, rate

    if game.set_up:
        return None
    g = ce.new_game(game.seed, interactive_cuts=game.interactive_cuts, rules=game.rules)
    last = None
    for a in game.decisions:
        if g.phase is ce.Phase.DISCARD and g.to_act == seat and g.deal_no == game.deal_no:
            last = (g.view(seat), a)
        g.apply(a)
    if last is None:
        return None
    view, action = last
    _, _, _, chance, _, options = rate(view, action, position_rng(view))
    return chance if options > 1 else None


@dataclass(frozen=True)
class Reading:
    """``seat``'s winning chance (0..1) at the table's position ``key``."""

    seat: int
    chance: float
    key: tuple


class ChanceMeter:
    """Whether the indicator is on, the reading shown, and the position it was asked for."""

    def __init__(self, on: bool = False) -> None:
        self.on = on
        self.reading: Reading | None = None
        self.pending: tuple | None = None  # the key of the estimate being computed

    @staticmethod
    def key(ctl: TableController) -> tuple:
        """The position as the drawn seat sees it (a new decision, undo, redo, the seat)."""
        return (id(ctl), ctl.bottom_seat, ctl.history.decisions)

    def visible(self, ctl: TableController) -> bool:
        return self.on and not ctl.needs_reveal

    def wanted(self, ctl: TableController) -> bool:
        """A new estimate is due: on, shown, nothing being computed, the show not running (it
        keeps the reading from before the show), and the position changed."""
        if not self.visible(ctl) or self.pending is not None or ctl.show.running:
            return False
        return self.reading is None or self.reading.key != self.key(ctl)

    def job(self, ctl: TableController) -> Callable[[], Reading | None]:
        """The estimate as a call for the window's worker thread (it only reads a view)."""
        from agents.coaching.chance import seat_chance

        key = self.key(ctl)
        seat = ctl.bottom_seat
        view = ctl.view(seat)
        game = ctl.game.clone()
        self.pending = key

        def run() -> Reading | None:
            chance = seat_chance(view)
            if chance is None and view.discards and view.phase is not ce.Phase.PLAY:
                chance = discard_taken(game, seat)
            return None if chance is None else Reading(seat, chance, key)

        return run

    def done(self, result: Reading | None, ctl: TableController) -> None:
        """Take a finished estimate; one for another position than the table's is kept only
        until the next one (the table has moved on meanwhile)."""
        key, self.pending = self.pending, None
        if result is not None:
            self.reading = result
        elif self.reading is not None and key is not None:  # nothing new known: same reading
            self.reading = Reading(self.reading.seat, self.reading.chance, key)

    def shown(self, ctl: TableController) -> Reading | None:
        """The reading to draw (None: nothing to draw)."""
        if not self.visible(ctl) or self.reading is None:
            return None
        if self.reading.seat != ctl.bottom_seat:  # pass and play: the other person's reading
            return None
        return self.reading

    def toggle(self) -> None:
        self.on = not self.on
        if not self.on:
            self.reading = None
