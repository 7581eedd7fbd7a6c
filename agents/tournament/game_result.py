"""A finished game of a tournament and the points each seat made in it, by role.

Points are classified from the engine's events, per deal, by the role (dealer or pone) of the
seat that scored: *pegging* is ``EventKind.PLAY`` points plus ``EventKind.SCORE`` points (go, last
card and his heels; his heels, R5.2, is pegged by the dealer when the starter is turned, so we
count it as pegging and also report it separately as ``heels``); *hand* and *crib* are
``EventKind.SHOW`` points with ``what == "hand"`` / ``"crib"``. The last deal is usually cut short
by the win; it still counts as a deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

import cribbage_env as ce
from cribbage_env.rules.scoring import ScoreKind


@dataclass(frozen=True)
class SeatStats:
    """Points one seat made in one game, split by its role in each deal."""

    deals_dealer: int = 0
    deals_pone: int = 0
    peg_dealer: int = 0
    peg_pone: int = 0
    hand_dealer: int = 0
    hand_pone: int = 0
    crib: int = 0
    heels: int = 0  # included in peg_dealer


SEAT_FIELDS = tuple(SeatStats.__dataclass_fields__)


@dataclass(frozen=True)
class GameResult:
    """One finished game of a pairing; seats are engine seats, ``swapped`` says who sat where."""

    pairing: int
    index: int  # duplicate-pair index: the game seed is seeds[index]
    swapped: bool  # False: the pairing's agent A sits in seat 0; True: in seat 1
    seed: int
    winner: int
    scores: tuple[int, int]
    first_dealer: int
    deals: int
    seats: tuple[SeatStats, SeatStats]
    moves: tuple[int, ...] = field(default=(), compare=True)
    #: why the loser lost without finishing (an isolated seat crashed, hung or cheated); "" if
    #: the game was played to the end. The scores are those when it stopped.
    forfeit: str = ""
    #: seat 0's luck (winning chance, points margin) from :mod:`cribbage_env.analysis.luck`; None: not
    #: measured (games stored before it existed)
    luck: tuple[float, float] | None = None

    @property
    def seat_a(self) -> int:
        return 1 if self.swapped else 0

    @property
    def a_won(self) -> bool:
        return self.winner == self.seat_a

    @property
    def margin_a(self) -> int:
        a = self.seat_a
        return self.scores[a] - self.scores[1 - a]

    @property
    def luck_a(self) -> tuple[float, float] | None:
        """Agent A's luck (winning chance, points), or None."""
        if self.luck is None:
            return None
        s = -1.0 if self.swapped else 1.0
        return s * self.luck[0], s * self.luck[1]

    def game_points(self, rules: ce.Rules) -> int:
        """Game points the winner earned under the run's ``rules`` (1 for a forfeit)."""
        return 1 if self.forfeit else ce.skunk_level(self.scores, rules)

    @property
    def key(self) -> tuple[int, int, bool]:
        return (self.pairing, self.index, self.swapped)


def _tally(
    events: Iterable[ce.Event], is_heels: Callable[[ce.Event], bool]
) -> tuple[SeatStats, SeatStats]:
    K = ce.EventKind
    acc = [dict.fromkeys(SEAT_FIELDS, 0), dict.fromkeys(SEAT_FIELDS, 0)]
    dealer = 0
    for e in events:
        kind, p, pts = e.kind, e.player, e.points
        if p is None:  # cuts, the starter, resets: nobody's points
            continue
        if kind is K.DEAL:
            dealer = p
            acc[p]["deals_dealer"] += 1
            acc[1 - p]["deals_pone"] += 1
        elif not pts:
            continue
        elif kind is K.PLAY or kind is K.SCORE:
            acc[p]["peg_dealer" if p == dealer else "peg_pone"] += pts
            if kind is K.SCORE and is_heels(e):
                acc[p]["heels"] += pts
        elif kind is K.SHOW:
            if e.what == "crib":
                acc[p]["crib"] += pts
            else:
                acc[p]["hand_dealer" if p == dealer else "hand_pone"] += pts
    return (SeatStats(**acc[0]), SeatStats(**acc[1]))


def seat_stats(events: Iterable[ce.Event]) -> tuple[SeatStats, SeatStats]:
    """Per-seat pegging / hand / crib points by role, from a game's events (see module doc)."""
    return _tally(events, lambda e: any(r.kind is ScoreKind.HIS_HEELS for r in e.reasons))


def seat_stats_fast(g: ce.GameState) -> tuple[SeatStats, SeatStats]:
    """:func:`seat_stats` of ``g.events`` without building any scoring reasons (per game).

    His heels is read from the event's ``score_kind``; a test checks this equals
    :func:`seat_stats`, which reads it from the reasons.
    """
    return _tally(g.events, lambda e: e.score_kind is ScoreKind.HIS_HEELS)


def game_luck_pair(g: ce.GameState) -> tuple[float, float] | None:
    """Seat 0's luck in ``g`` (winning chance, points margin): :func:`cribbage_env.analysis.luck.game_luck`;
    None for rules with no winning-chance table (luck is measured in winning chance)."""
    from cribbage_env.analysis.luck import game_luck
    from cribbage_env.equity import has_table

    if not has_table(g.rules):
        return None
    luck = game_luck(g)
    return luck.win, luck.points


def result_to_dict(r: GameResult) -> dict:
    d = asdict(r)
    d["scores"] = list(r.scores)
    d["moves"] = list(r.moves)
    d["luck"] = None if r.luck is None else list(r.luck)
    return d


def result_from_dict(d: dict) -> GameResult:
    seats = tuple(SeatStats(**s) for s in d["seats"])
    return GameResult(
        pairing=int(d["pairing"]),
        index=int(d["index"]),
        swapped=bool(d["swapped"]),
        seed=int(d["seed"]),
        winner=int(d["winner"]),
        scores=(int(d["scores"][0]), int(d["scores"][1])),
        first_dealer=int(d["first_dealer"]),
        deals=int(d["deals"]),
        seats=seats,  # type: ignore[arg-type]
        moves=tuple(int(m) for m in d.get("moves", ())),
        forfeit=str(d.get("forfeit", "")),
        luck=None if d.get("luck") is None else (float(d["luck"][0]), float(d["luck"][1])),
    )
