"""The published baseline: keep the four with the best expected hand score (crib ignored); peg the
card that scores most now (ties: lowest counting value)."""

from __future__ import annotations

import numpy as np

from cribbage_env.analysis.discard import DISCARD_INDEX, CribTable, analyze_discards, discard_values
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.cards import cards_str
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..base import Hint, Option
from ..search.pegging import describe_play, greedy_card, points_now

_NO_CRIB = CribTable.zeros()


def other_decision(view: PlayerView, rng: np.random.Generator) -> int:
    """Cuts (interactive cuts only): the card never depends on the depth (R11.1), so any will do."""
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"no legal action for seat {view.seat} in phase {view.phase.value}")
    return legal[int(rng.integers(len(legal)))]


def discard_hint(view: PlayerView, table: CribTable, top: int, who: str) -> Hint:
    """Ranked splits of the six-card hand with hand EV / crib EV / net."""
    options = analyze_discards(view.hand, dealer=view.is_dealer, table=table)
    opts = []
    for o in options[:top]:
        reason = (
            f"keep {cards_str(o.keep)}: hand {o.hand_ev:.2f} on average ({o.hand_min}-{o.hand_max})"
        )
        if table is not _NO_CRIB:
            whose = "own crib" if view.is_dealer else "opponent's crib"
            reason += f", {whose} {o.crib_ev:+.2f}, net {o.net:.2f}"
        opts.append(
            Option(
                o.action,
                o.net,
                reason,
                {
                    "keep": cards_str(o.keep),
                    "discard": cards_str(o.discard),
                    "hand_ev": o.hand_ev,
                    "hand_min": o.hand_min,
                    "hand_max": o.hand_max,
                    "crib_ev": o.crib_ev,
                    "net": o.net,
                },
            )
        )
    best = opts[0]
    return Hint(
        best.action, tuple(opts), f"{who}: discard {best.details['discard']} ({best.reason})"
    )


class GreedyAgent:
    """Best exact hand EV for the discard; most points now in the play. Deterministic."""

    name = "greedy"

    def __init__(self) -> None:
        self.spec = "greedy"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is Phase.DISCARD:
            hand = np.array(view.hand, dtype=np.intp)
            ev, _, _, _ = discard_values(hand, view.is_dealer, _NO_CRIB)
            a, b = hand[DISCARD_INDEX[int(np.argmax(ev))]]
            return discard_action(int(a), int(b))
        if view.phase is Phase.PLAY:
            return greedy_card(view)
        return other_decision(view, rng)

    def hint(
        self, view: PlayerView, rng: np.random.Generator | None = None, *, top: int = 3
    ) -> Hint:
        if not view.legal_actions:
            raise ValueError(
                f"no decision to hint for seat {view.seat} now "
                f"(phase {view.phase.value}, player to act: {view.to_act})"
            )
        if view.phase is Phase.DISCARD:
            return discard_hint(view, _NO_CRIB, top, "greedy")
        if view.phase is Phase.PLAY:
            best = greedy_card(view)
            opts = sorted(
                (
                    Option(c, float(points_now(view, c)), describe_play(view, c))
                    for c in view.legal_actions
                ),
                key=lambda o: (o.action != best, -o.value),
            )
            return Hint(
                best,
                tuple(opts),
                f"greedy: play {cards_str([best])} ({opts[0].reason}; ties go to the lowest card)",
            )
        action = other_decision(view, np.random.default_rng(0))
        return Hint(
            action, (Option(action, 0.0, "the cut never changes the card (R11.1)"),), "any cut"
        )


class NoviceAgent(GreedyAgent):
    """The ``easy`` level: random discard, greedy pegging."""

    name = "novice"

    def __init__(self) -> None:
        self.spec = "novice"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is Phase.DISCARD:
            return other_decision(view, rng)
        return super().act(view, rng)
