"""First checks that a whole game runs and records round-trip (R10, records)."""

from __future__ import annotations

import cribbage_env as ce


def test_r10_full_game_ends_with_one_winner_at_121() -> None:
    g = ce.new_game(11)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert g.winner in (0, 1)
    assert g.scores[g.winner] >= 121
    assert g.scores[1 - g.winner] < 121


def test_record_round_trip_gives_identical_state() -> None:
    g = ce.new_game(5)
    for _ in range(40):
        g.apply(g.legal_actions()[0])
    assert ce.GameState.from_record(g.to_record()) == g
