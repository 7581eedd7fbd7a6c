"""Determinization refuses guesses that contradict the view (issue: impossible guesses): the
seat's own cards, the starter, cards already played, repeats, wrong counts, non-cards."""

from __future__ import annotations

import pytest

import cribbage_env as ce
from cribbage_env.unseen.determinize import DeterminizeError, check_guess, determinize


def _mid_play(seed: int, plays: int = 2) -> ce.GameState:
    g = ce.new_game(seed)
    while g.phase is not ce.Phase.PLAY:
        g.apply(g.legal_actions()[0])
    for _ in range(plays):
        if g.phase is ce.Phase.PLAY:
            g.apply(g.legal_actions()[0])
    assert g.phase is ce.Phase.PLAY
    return g


def _truth(g: ce.GameState) -> tuple[ce.PlayerView, list[int], list[int]]:
    seat = g.current_player
    return g.view(seat), list(g.hands[1 - seat]), list(g.discards[1 - seat])


@pytest.mark.parametrize("seed", range(4))
def test_the_true_hidden_cards_are_accepted(seed: int) -> None:
    g = _mid_play(seed)
    v, hand, disc = _truth(g)
    check_guess(v, hand, disc)
    d = determinize(v, hand, disc)
    assert d.hands == g.hands and d.kept == g.kept and d.played == g.played and d.set_up


def test_own_cards_are_refused() -> None:
    v, hand, disc = _truth(_mid_play(1))
    with pytest.raises(DeterminizeError, match="seen"):
        determinize(v, [v.hand[0], *hand[1:]], disc)
    with pytest.raises(DeterminizeError, match="seen"):
        determinize(v, hand, [v.discards[0], disc[1]])  # own crib card


def test_the_starter_and_played_cards_are_refused() -> None:
    v, hand, disc = _truth(_mid_play(2))
    with pytest.raises(DeterminizeError, match="seen"):
        determinize(v, hand, [v.starter, disc[1]])
    played = v.played[0][1]
    with pytest.raises(DeterminizeError, match="seen"):
        determinize(v, [played, *hand[1:]], disc)


def test_repeats_are_refused() -> None:
    v, hand, disc = _truth(_mid_play(3))
    with pytest.raises(DeterminizeError, match="repeats"):
        determinize(v, hand, [disc[0], disc[0]])
    with pytest.raises(DeterminizeError, match="repeats"):
        determinize(v, hand, [hand[0], disc[1]])


def test_wrong_counts_and_non_cards_are_refused() -> None:
    v, hand, disc = _truth(_mid_play(4))
    with pytest.raises(DeterminizeError, match="holds"):
        determinize(v, hand[:-1], disc)
    with pytest.raises(DeterminizeError, match="discarded 2"):
        determinize(v, hand, disc[:1])
    with pytest.raises(DeterminizeError, match="card ids"):
        determinize(v, [52, *hand[1:]], disc)
    with pytest.raises(DeterminizeError, match="card ids"):
        determinize(v, [True, *hand[1:]], disc)


def test_outside_the_play_is_refused() -> None:
    g = ce.new_game(5)
    with pytest.raises(DeterminizeError, match="play phase"):
        determinize(g.view(0), [0, 1, 2, 3], [4, 5])


def test_determinize_error_is_a_position_error_under_the_root() -> None:
    assert issubclass(DeterminizeError, ce.PositionError)
    assert issubclass(ce.PositionError, ce.CribbageError)


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"played": [(0, 51)]}, "did not keep"),
        ({"played": [(1, 0), (1, 0)]}, "twice"),
        ({"played": [(1, 1)], "sequence": [2]}, "not the end"),
        ({"scores": (121, 0)}, "scores"),
        ({"to_act": 2}, "to_act"),
        ({"starter": 0}, "13 different"),
    ],
)
def test_in_play_refuses_unreachable_positions(changes: dict, match: str) -> None:
    base = {
        "dealer": 0,
        "kept": [ce.parse_cards("5H 5D 5C JS"), ce.parse_cards("AC 2C 3C 4C")],
        "discards": [ce.parse_cards("KH KD"), ce.parse_cards("QS QC")],
        "starter": ce.parse_card("5S"),
    }
    with pytest.raises(ce.PositionError, match=match):
        ce.GameState.in_play(**{**base, **changes})
