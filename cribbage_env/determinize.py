"""Determinization: a full GameState built from one seat's PlayerView plus a guess at the hidden
cards. Search agents (the expert tier) play these states forward with the real engine, so the rules
they search over are the engine's own; no second implementation of pegging.

The guessed state has no history (no decisions, no events) and a placeholder seed: it is for
looking ahead within the current deal, not for replay.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import VALUE
from .engine import GameState, Phase, _Chance
from .views import PlayerView

#: Chance of guessed states: fixed, shared and cached (only reached after the deal ends).
_PLACEHOLDER_CHANCE = _Chance(0)


class DeterminizeError(ValueError):
    """The guessed hidden cards do not fit the view."""


def consistent_with_goes(view: PlayerView, opponent_hand: Sequence[int]) -> bool:
    """Whether the opponent could still hold ``opponent_hand`` given the go's it said this deal.

    A player who said go at count ``c`` held no card of value ``<= 31 - c`` then; cards still held
    now were held then.

    >>> from cribbage_env.engine import new_game
    >>> v = new_game(1).view(0)
    >>> consistent_with_goes(v, [0, 1, 2, 3])
    True
    """
    opp = 1 - view.seat
    for player, count in view.goes:
        if player == opp and any(VALUE[c] <= 31 - count for c in opponent_hand):
            return False
    return True


def determinize(
    view: PlayerView, opponent_hand: Sequence[int], opponent_discards: Sequence[int]
) -> GameState:
    """A PLAY-phase state equal to the real one wherever ``view`` can see, with the opponent's
    unplayed cards and crib cards as guessed.

    >>> from cribbage_env.engine import new_game
    >>> g = new_game(3)
    >>> while g.phase.value != "play":
    ...     g.apply(g.legal_actions()[0])
    >>> seat = g.current_player
    >>> guess = determinize(g.view(seat), g.hands[1 - seat], g.discards[1 - seat])
    >>> guess.legal_actions() == g.legal_actions(), guess.hands == g.hands
    (True, True)
    """
    if view.phase is not Phase.PLAY:
        raise DeterminizeError(f"determinize works in the play phase, not {view.phase.value}")
    seat, opp = view.seat, 1 - view.seat
    opp_hand = list(opponent_hand)
    if len(opp_hand) != view.opponent_cards_left or len(opponent_discards) != 2:
        raise DeterminizeError(
            f"guess has {len(opp_hand)} cards and {len(opponent_discards)} discards; the opponent "
            f"holds {view.opponent_cards_left} and discarded 2"
        )
    g = GameState.__new__(GameState)
    g.seed = 0
    g.interactive_cuts = False
    g._chance = _PLACEHOLDER_CHANCE
    g.phase = Phase.PLAY
    g.dealer = view.dealer
    g.deal_no = view.deal
    hands: list[list[int]] = [[], []]
    hands[seat] = list(view.hand)
    hands[opp] = opp_hand
    g.hands = hands
    opp_played = [c for p, c in view.played if p == opp]
    kept: list[list[int]] = [[], []]
    kept[seat] = list(view.kept)
    kept[opp] = opp_played + opp_hand
    g.kept = kept
    discards: list[tuple[int, ...]] = [(), ()]
    discards[seat] = tuple(view.discards)
    discards[opp] = tuple(opponent_discards)
    g.discards = discards
    g.crib = list(discards[0] + discards[1])
    g.starter = view.starter
    g.scores_ = list(view.scores)
    g.to_act = view.to_act if view.to_act is not None else seat
    g.seq = list(view.sequence)
    g.count = view.count
    g.last_player = view.played[-1][0] if view.played else -1
    g.go_said = list(view.go_said)
    g.goes = list(view.goes)
    g.played = list(view.played)
    g.decisions = []
    g.log = []
    g.winner = view.winner
    g._cut_attempt = 0
    g._cut_cards = []
    g.set_up = True
    return g
