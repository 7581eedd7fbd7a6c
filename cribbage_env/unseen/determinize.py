"""Determinization: a full GameState built from one seat's PlayerView plus a guess at the hidden
cards. Search agents (the expert tier) play these states forward with the real engine, so the rules
they search over are the engine's own; no second implementation of pegging.

The guessed state has no history (no decisions, no events) and a placeholder seed: it is for
looking ahead within the current deal, not for replay. A guess that contradicts the view (one of
the seat's own cards, the starter, a card already played, a repeat, the wrong number of cards)
is refused with :class:`DeterminizeError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..rules.cards import VALUE, cards_str
from ..rules.core import Phase, PositionError
from ..rules.engine import GameState
from ..rules.positions import is_card_int
from ..rules.views import PlayerView


def none_in_hand(u: int, m: int, k: int) -> float:
    """P(a random k-subset of u unseen cards avoids m given cards) = C(u-m, k) / C(u, k): the
    chance the opponent holds none of them (the pegging estimate and its compiled twin,
    :mod:`cribbage_env.kernels.simpolicy`, which compiles this very function).

    >>> none_in_hand(10, 2, 1), none_in_hand(4, 4, 1), none_in_hand(5, 0, 3)
    (0.8, 0.0, 1.0)
    """
    if m <= 0 or k <= 0:
        return 1.0
    if u - m < k:
        return 0.0
    p = 1.0
    for i in range(k):
        p *= (u - m - i) / (u - i)
    return p


class DeterminizeError(PositionError):
    """The guessed hidden cards do not fit the view."""


def held_above(view: PlayerView, player: int) -> int:
    """Every card ``player`` still holds has a value above this (0: nothing known) by the
    play of this deal: a go it said at count ``c`` (nothing of value ``<= 31 - c`` then), and
    a count that ended without 31 after its own card (the other had said go or had no card
    left, and it could not go on either: the go point it scored says so, R8.1). Cards still
    held now were held then. Counts are rebuilt from the cards laid: a card that would pass
    31 was laid after a new count began.

    >>> from cribbage_env.rules.engine import new_game
    >>> held_above(new_game(1).view(0), 1)
    0
    """
    limit = max((31 - c for p, c in view.goes if p == player), default=0)
    count, last = 0, None
    for p, card in view.played:
        if count + VALUE[card] > 31:  # neither could play at ``count``: last laid, then stuck
            if last == player:
                limit = max(limit, 31 - count)
            count = 0
        count += VALUE[card]
        last = p
        if count == 31:
            count = 0
    if count != view.count and last == player:  # the count just ended after its card
        limit = max(limit, 31 - count)
    return limit


def consistent_with_goes(view: PlayerView, opponent_hand: Sequence[int]) -> bool:
    """Whether the opponent could still hold ``opponent_hand`` given how it played this deal
    (:func:`held_above`: its go's, and the counts it could not go on with).

    >>> from cribbage_env.rules.engine import new_game
    >>> v = new_game(1).view(0)
    >>> consistent_with_goes(v, [0, 1, 2, 3])
    True
    """
    limit = held_above(view, 1 - view.seat)
    return all(VALUE[c] > limit for c in opponent_hand)


def uniform_guesses(
    view: PlayerView, rng: np.random.Generator, n: int, max_tries: int = 20
) -> list[tuple[list[int], list[int]]]:
    """``n`` guesses (opponent's unplayed cards, its two crib cards) drawn uniformly from the
    cards ``view``'s seat has not seen, redrawn (up to ``max_tries`` times) when its go's rule
    the hand out (:func:`consistent_with_goes`).

    >>> from cribbage_env.rules.engine import new_game
    >>> [(len(h), len(d)) for h, d in uniform_guesses(new_game(1).view(0), np.random.default_rng(0), 2)]
    [(6, 2), (6, 2)]
    """
    unseen = np.array(view.unseen_cards())
    k = view.opponent_cards_left
    guesses = []
    for _ in range(n):
        for _try in range(max_tries):
            pick = rng.permutation(unseen)[: k + 2].tolist()
            hand, disc = pick[:k], pick[k:]
            if consistent_with_goes(view, hand):
                break
        else:
            # Rare: go constraints leave few hands; fall back to the highest-value cards (a
            # player who said go holds high cards). unseen_cards() already excludes our own.
            pool = sorted(unseen.tolist(), key=VALUE.__getitem__, reverse=True)
            hand, disc = pool[:k], pool[k : k + 2]
        guesses.append((hand, disc))
    return guesses


def check_guess(
    view: PlayerView, opponent_hand: Sequence[int], opponent_discards: Sequence[int]
) -> None:
    """Refuse a guess no deal could match: wrong counts, or cards the seat has seen elsewhere.

    >>> from cribbage_env.rules.engine import new_game
    >>> g = new_game(3)
    >>> while g.phase.value != "play":
    ...     g.apply(g.legal_actions()[0])
    >>> v = g.view(g.current_player)
    >>> check_guess(v, [v.hand[0], *g.hands[1 - v.seat][1:]], g.discards[1 - v.seat])
    Traceback (most recent call last):
    cribbage_env.unseen.determinize.DeterminizeError: the guess holds cards this seat has seen: ...
    """
    guess = [*opponent_hand, *opponent_discards]
    if len(opponent_hand) != view.opponent_cards_left or len(opponent_discards) != 2:
        raise DeterminizeError(
            f"guess has {len(opponent_hand)} cards and {len(opponent_discards)} discards; the "
            f"opponent holds {view.opponent_cards_left} and discarded 2"
        )
    if not all(is_card_int(c) and 0 <= c < 52 for c in guess):
        raise DeterminizeError(f"guessed cards must be card ids 0..51, got {guess!r}")
    if len(set(guess)) != len(guess):
        raise DeterminizeError(f"the guess repeats a card: {cards_str(guess)}")
    seen = set(view.own_cards_this_deal())
    seen.update(c for _, c in view.played)
    if view.starter is not None:
        seen.add(view.starter)
    clash = [c for c in guess if c in seen]
    if clash:
        raise DeterminizeError(
            f"the guess holds cards this seat has seen: {cards_str(clash)} (own cards, the "
            "starter or cards already played)"
        )


def determinize(
    view: PlayerView, opponent_hand: Sequence[int], opponent_discards: Sequence[int]
) -> GameState:
    """A PLAY-phase state equal to the real one wherever ``view`` can see, with the opponent's
    unplayed cards and crib cards as guessed (checked by :func:`check_guess`).

    >>> from cribbage_env.rules.engine import new_game
    >>> g = new_game(3)
    >>> while g.phase.value != "play":
    ...     g.apply(g.legal_actions()[0])
    >>> seat = g.current_player
    >>> guess = determinize(g.view(seat), g.hands[1 - seat], g.discards[1 - seat])
    >>> guess.legal_actions() == g.legal_actions(), guess.hands == g.hands
    (True, True)
    """
    if view.phase is not Phase.PLAY or view.starter is None:
        raise DeterminizeError(f"determinize works in the play phase, not {view.phase.value}")
    check_guess(view, opponent_hand, opponent_discards)
    seat, opp = view.seat, 1 - view.seat
    kept: list[Sequence[int]] = [(), ()]
    kept[seat] = view.kept
    kept[opp] = [c for p, c in view.played if p == opp] + list(opponent_hand)
    discards: list[Sequence[int]] = [(), ()]
    discards[seat] = view.discards
    discards[opp] = opponent_discards
    try:
        return GameState.in_play(
            dealer=view.dealer, kept=kept, discards=discards, starter=view.starter,
            scores=view.scores, played=view.played, sequence=view.sequence,
            go_said=view.go_said, goes=view.goes,
            to_act=view.to_act if view.to_act is not None else seat, deal=view.deal,
            rules=view.rules,
        )  # fmt: skip
    except PositionError as exc:
        raise DeterminizeError(f"the guess does not fit the view: {exc}") from None
