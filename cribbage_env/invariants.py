"""Invariants every reachable game state satisfies, checked by the soak benchmark and fuzz tests.

These are consequences of the rules stated independently of how the engine enforces them: card
conservation, counts, scores, phase bookkeeping and what a PlayerView may hold.
"""

from __future__ import annotations

from .rules.cards import VALUE
from .rules.core import CribbageError, Phase
from .rules.engine import GameState


class InvariantViolation(CribbageError, AssertionError):
    """A game state that breaks a rule-level invariant (an engine bug)."""


def _fail(state: GameState, what: str) -> None:
    raise InvariantViolation(f"{what} [{state!r}, decisions={len(state.decisions)}]")


def check_state(state: GameState, previous_scores: tuple[int, int] | None = None) -> None:
    """Raise :class:`InvariantViolation` if ``state`` breaks an invariant.

    >>> from cribbage_env.rules.engine import new_game
    >>> check_state(new_game(2))
    """
    if _check_scores(state, previous_scores):
        return  # a finished game
    if state.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT):
        return
    if not state.legal_actions():
        _fail(state, f"no legal action in phase {state.phase.value}")
    _check_cards(state)
    if state.phase is Phase.DISCARD:
        _check_discard(state)
    if state.phase is Phase.PLAY:
        _check_play(state)


def _check_scores(state: GameState, previous_scores: tuple[int, int] | None) -> bool:
    """Scores never fall, nobody passes the target unnoticed; True if the game is over."""
    s0, s1 = state.scores
    if previous_scores is not None and (s0 < previous_scores[0] or s1 < previous_scores[1]):
        _fail(state, f"scores went down: {previous_scores} -> {(s0, s1)}")
    if s0 < 0 or s1 < 0:
        _fail(state, "negative score")
    target = state.rules.target
    over = [p for p in (0, 1) if state.scores[p] >= target]
    if len(over) > 1:
        _fail(state, f"both players at {target} or more (R10: the game stops at the first)")
    if over and state.winner != over[0]:
        _fail(state, f"player {over[0]} reached {target} but the winner is {state.winner}")
    if state.winner is None:
        return False
    if not over or state.phase is not Phase.GAME_OVER or state.legal_actions():
        _fail(
            state,
            "a finished game must be at GAME_OVER with a winner at the target and no actions",
        )
    return True


def _check_cards(state: GameState) -> None:
    """Card conservation within the deal: dealt cards are in hands, crib or played, once each."""
    dealt = state._chance.deck(state.deal_no)[:12]
    held = state.hands[0] + state.hands[1]
    played = [c for _, c in state.played]
    places = held + state.crib + played
    if len(places) != len(set(places)):
        _fail(state, "a card is in two places")
    if sorted(places) != sorted(dealt):
        _fail(state, "dealt cards are not exactly hands + crib + played cards")
    if state.starter is not None and state.starter in places:
        _fail(state, "the starter is also in a hand, the crib or the play")


def _check_discard(state: GameState) -> None:
    for p in (0, 1):
        expected = 4 if state.discards[p] else 6
        if len(state.hands[p]) != expected:
            _fail(state, f"player {p} holds {len(state.hands[p])} cards in the discard")
    if len(state.crib) != 2 * sum(bool(d) for d in state.discards):
        _fail(state, "crib size does not match the discards made")


def _check_play(state: GameState) -> None:
    if state.starter is None or len(state.crib) != 4:
        _fail(state, "play without a starter or a full crib")
    if state.count != sum(VALUE[c] for c in state.seq) or state.count > 31:
        _fail(state, f"count {state.count} does not match the sequence or exceeds 31")
    for p in (0, 1):
        mine = [c for q, c in state.played if q == p]
        if sorted(mine + state.hands[p]) != sorted(state.kept[p]):
            _fail(state, f"player {p}'s played + held cards are not the four kept")
    p = state.to_act
    if not any(VALUE[c] <= 31 - state.count for c in state.hands[p]):
        _fail(state, f"player {p} is asked to play but cannot (a go must be automatic)")


def check_view(state: GameState, seat: int) -> None:
    """The seat's view holds none of the opponent's unplayed cards nor the hidden crib."""
    view = state.view(seat)
    opp = 1 - seat
    visible = set(view.hand) | set(view.kept) | set(view.discards) | set(view.sequence)
    visible |= {c for _, c in view.played}
    hidden = set(state.hands[opp]) | set(state.discards[opp])
    if state.deal_no >= 0 and state.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT):
        undealt = state._chance.deck(state.deal_no)[12:]  # the starter until cut, then the stock
        hidden |= set(undealt) - ({state.starter} if state.starter is not None else set())
    if view.starter is not None and view.starter != state.starter:
        _fail(state, f"seat {seat}'s view shows a starter that is not the cut card")
    if visible & hidden:
        _fail(state, f"seat {seat}'s view shows hidden cards {sorted(visible & hidden)}")
    if view.opponent_cards_left != len(state.hands[opp]):
        _fail(state, "view miscounts the opponent's cards")
