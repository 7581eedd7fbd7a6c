"""The ``hard`` level: heuristic discard expectimax.

- **Discard**: the discard analyzer's net value (exact expected hand over the 46 unseen starters,
  plus the crib table for the own crib, minus it for the opponent's).
- **Pegging**: one-ply expectimax (:func:`agents.search.pegging.expectimax_estimates`): points now,
  minus the expected points of the opponent's best reply (their hand drawn from the cards this
  seat has not seen), plus half the expected points of our best answer to that reply, plus the
  go point when they cannot reply. Expert heuristics then break near-ties (small weights, so
  they never overrule a real point difference):

  ========================  ======  =========================================================
  heuristic                 weight  why
  ========================  ======  =========================================================
  lead from a pair          +0.15   if they pair us we answer with three of a kind (6)
  lead a card below 5       +0.05   nothing they lay makes fifteen
  lead a 5                  -0.15   every ten-card makes fifteen
  leave the count at 5/21   -0.10   a ten-card makes 15 / 31
  keep a low card for go    -0.10   playing our only card of value <= 4 while others remain
  ========================  ======  =========================================================

- **Board position near 121** (R10.1): a card that reaches 121 now is always played; within
  ``endgame`` points of 121 our own points weigh 1.5x when we are close, and points given up
  weigh 1.5x when the opponent is close (a point then can decide the game).

Deterministic given the view; the Generator is used only for cuts (which never matter, R11.1).
"""

from __future__ import annotations

import numpy as np

from cribbage_env.analysis.discard import (
    DISCARD_INDEX,
    CribTable,
    default_crib_table,
    discard_values,
)
from cribbage_env.equity import point_weights
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.cards import FIVE, RANK, VALUE, cards_str
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..base import Hint, Option
from ..params import Param
from ..search.peg_search import SEARCHES
from ..search.pegging import PegEstimate, describe_play, expectimax_estimates
from .greedy import discard_hint, other_decision


def _heuristics(view: PlayerView, card: int, low_cards: int) -> list[tuple[float, str]]:
    """The tie-break adjustments that apply to laying ``card`` (weight, reason)."""
    out = []
    count = view.count + VALUE[card]
    if view.count == 0:
        if any(RANK[c] == RANK[card] for c in view.hand if c != card):
            out.append((0.15, "leads from a pair"))
        if VALUE[card] < 5:
            out.append((0.05, "a lead below 5 cannot be made fifteen"))
        if RANK[card] == FIVE:
            out.append((-0.15, "leading a 5 invites a fifteen"))
    if count in (5, 21):
        out.append((-0.10, f"leaves {count} for a ten-card"))
    if VALUE[card] <= 4 and low_cards == 1 and len(view.hand) > 1:
        out.append((-0.10, "spends the last low card kept for the go"))
    return out


def _flag(value: bool | str) -> bool:
    return str(value).lower() not in ("0", "false", "no", "off")


class ExpectimaxAgent:
    """Analyzer discards, one-ply expectimax pegging with expert tie-breaks."""

    name = "expectimax"
    PARAMS = (
        Param("counter", float, 0.5, "weight of our best answer to their reply", low=0, high=1),
        Param("endgame", int, 15, "distance to 121 where the board weights start", low=0, high=120),
        Param("heuristics", bool, True, "the expert tie-breaks (lead from a pair, ...)"),
        Param("crib", bool, True, "use the crib table in discards (off: best hand EV only)"),
        Param(
            "objective",
            str,
            "points",
            "points, or equity: each side's points weighed by the winning chance they move",
            choices=("points", "equity"),
        ),
    )

    def __init__(
        self,
        counter: float | str = 0.5,
        endgame: int | str = 15,
        heuristics: bool | str = True,
        crib: bool | str = True,
        objective: str = "points",
    ) -> None:
        """Knobs (for ablations, e.g. ``expectimax:crib=off``): ``counter`` weight of our best
        answer to their reply (0..1); ``endgame`` distance to 121 where board weights start;
        ``heuristics`` the tie-breaks above; ``crib`` use the crib table in discards;
        ``objective`` ``points`` or ``equity`` (points of each side weighed by how much they move
        the winning chance on the board, :func:`cribbage_env.equity.point_weights`)."""
        self.counter = float(counter)
        self.endgame = int(endgame)
        self.heuristics = _flag(heuristics)
        if not 0.0 <= self.counter <= 1.0:
            raise ValueError(f"counter must be within 0..1, got {counter!r}")
        if objective not in ("points", "equity"):
            raise ValueError(f"objective must be points or equity, got {objective!r}")
        self.equity = objective == "equity"
        self.spec = "expectimax" + (":objective=equity" if self.equity else "")
        self._table: CribTable = default_crib_table() if _flag(crib) else CribTable.zeros()

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        SEARCHES.check(view.rules)
        if view.phase is Phase.DISCARD:
            hand = np.array(view.hand, dtype=np.intp)
            ev, _, _, crib = discard_values(hand, view.is_dealer, self._table)
            if self.equity:
                w_me, w_opp = self._weights(view)
                ev, crib = w_me * ev, (w_me if view.is_dealer else w_opp) * crib
            a, b = hand[DISCARD_INDEX[int(np.argmax(ev + crib))]]
            return discard_action(int(a), int(b))
        if view.phase is Phase.PLAY:
            if len(view.legal_actions) == 1:
                return view.legal_actions[0]
            return self._rank_cards(view)[0].card
        return other_decision(view, rng)

    def _rank_cards(self, view: PlayerView) -> list[PegEstimate]:
        ests = expectimax_estimates(view, counter_weight=self.counter)
        me, opp = view.scores[view.seat], view.scores[1 - view.seat]
        target = view.rules.target
        w_own = 1.5 if me >= target - self.endgame else 1.0
        w_opp = 1.5 if opp >= target - self.endgame else 1.0
        if self.equity and max(me, opp) < target - self.endgame:
            w_own, w_opp = self._weights(view)
        low_cards = sum(1 for c in view.hand if VALUE[c] <= 4)
        ranked = []
        for e in ests:
            h = self._heuristic(view, e.card, low_cards) if self.heuristics else 0.0
            value = (
                w_own * (e.now + self.counter * e.counter + e.go_chance) - w_opp * e.given_up + h
            )
            if e.wins:
                value += 1000.0
            ranked.append(
                PegEstimate(e.card, e.now, e.given_up, e.counter, e.go_chance, h, value, e.wins)
            )
        ranked.sort(key=lambda e: (-e.value, VALUE[e.card], e.card))
        return ranked

    @staticmethod
    def _weights(view: PlayerView) -> tuple[float, float]:
        me, opp = view.scores[view.seat], view.scores[1 - view.seat]
        return point_weights(me, opp, view.is_dealer, target=view.rules)

    @staticmethod
    def _heuristic(view: PlayerView, card: int, low_cards: int) -> float:
        return sum(w for w, _ in _heuristics(view, card, low_cards))

    # ------------------------------------------------------------------ hints
    def hint(
        self, view: PlayerView, rng: np.random.Generator | None = None, *, top: int = 3
    ) -> Hint:
        """The suggested action with the numbers behind it (discard: the top splits; play: every
        legal card with its expected value)."""
        if not view.legal_actions:
            raise ValueError(
                f"no decision to hint for seat {view.seat} now "
                f"(phase {view.phase.value}, player to act: {view.to_act})"
            )
        if view.phase is Phase.DISCARD:
            return discard_hint(view, self._table, top, "expectimax")
        if view.phase is Phase.PLAY:
            ranked = self._rank_cards(view)
            opts = []
            for e in ranked:
                if e.wins:
                    reason = f"{describe_play(view, e.card)}: reaches {view.rules.target} and wins"
                else:
                    reason = (
                        f"{describe_play(view, e.card)}; opponent's best reply "
                        f"~{e.given_up:.2f} on average"
                    )
                    if e.go_chance > 0.5:
                        reason += f"; they likely cannot reply (go {e.go_chance:.0%})"
                    if self.heuristics:
                        low = sum(1 for c in view.hand if VALUE[c] <= 4)
                        reason += "".join(f"; {why}" for _, why in _heuristics(view, e.card, low))
                opts.append(
                    Option(
                        e.card,
                        round(e.value, 4),
                        reason,
                        {
                            "now": e.now,
                            "given_up": e.given_up,
                            "counter": e.counter,
                            "go": e.go_chance,
                            "heuristic": e.heuristic,
                        },
                    )
                )
            best = opts[0]
            return Hint(
                best.action,
                tuple(opts),
                f"expectimax: play {cards_str([best.action])} ({best.reason})",
            )
        action = other_decision(view, np.random.default_rng(0))
        return Hint(
            action, (Option(action, 0.0, "the cut never changes the card (R11.1)"),), "any cut"
        )
