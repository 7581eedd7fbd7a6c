"""The expert's opponent model (issue 9): analyzer split values batched over many hands, and
guesses drawn from the posterior of an analyzer-discarding opponent given what it has shown."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents import make_agent
from agents.opponent_model import sample_modelled_guesses, split_nets
from agents.peg_search import sample_guesses
from cribbage_env.cards import VALUE
from cribbage_env.discard import DISCARD_INDEX, default_crib_table, discard_values
from cribbage_env.scoring import score_hand


def _brute_hand_ev(keep: list[int], hand6: list[int]) -> float:
    """Independent reference: the show (R6) of the kept four with each of the 46 starters."""
    return sum(score_hand(keep, s) for s in range(52) if s not in hand6) / 46


@pytest.mark.parametrize("dealer", [True, False])
def test_split_nets_match_the_analyzer_and_a_brute_force_show(dealer: bool) -> None:
    rng = np.random.default_rng(5)
    hands = np.array(
        [rng.permutation(52)[:6] for _ in range(60)]
        + [
            [0, 13, 26, 39, 10, 23],  # four aces and two jacks (five of a kind skipped)
            [1, 2, 3, 4, 10, 6],
        ]
    )  # a club flush with the jack of clubs (R6.5, R6.6)
    nets = split_nets(hands, dealer)
    table = default_crib_table()
    for h, row in zip(hands, nets, strict=True):
        ev, _, _, crib = discard_values(h, dealer, table)
        assert row == pytest.approx(ev + crib, abs=1e-9)
    for h, row in zip(hands[-2:], nets[-2:], strict=True):
        for i in (0, 7, 14):
            keep = [int(c) for j, c in enumerate(h) if j not in DISCARD_INDEX[i]]
            d = DISCARD_INDEX[i]
            crib = table.value(int(h[d[0]]), int(h[d[1]]), dealer)
            assert row[i] == pytest.approx(
                _brute_hand_ev(keep, h.tolist()) + (crib if dealer else -crib), abs=1e-9
            )


def _play_state(seed: int, moves: int) -> ce.GameState:
    ex = make_agent("expectimax")
    g = ce.new_game(seed)
    rng = np.random.default_rng(seed)
    while g.phase is not ce.Phase.PLAY:
        g.apply(ex.act(g.view(g.current_player), rng))
    for _ in range(moves):
        if g.phase is not ce.Phase.PLAY or g.deal_no:
            break
        g.apply(ex.act(g.view(g.current_player), rng))
    return g


@pytest.mark.parametrize("seed", range(8))
def test_modelled_guesses_respect_the_view_plays_and_goes(seed: int) -> None:
    """Guesses use only unseen cards, keep the cards the opponent played, and fit its go's (R8.1)."""
    g = _play_state(seed, seed % 6)
    if g.phase is not ce.Phase.PLAY or g.deal_no:
        pytest.skip("the play ended early")
    seat = g.current_player
    v = g.view(seat)
    opp = 1 - seat
    seen = set(v.own_cards_this_deal()) | {v.starter} | {c for _, c in v.played}
    for hand, disc in sample_modelled_guesses(v, np.random.default_rng(seed), 25):
        assert len(hand) == v.opponent_cards_left and len(disc) == 2
        assert not (set(hand) | set(disc)) & seen
        assert len(set(hand) | set(disc)) == len(hand) + 2
        for p, count in v.goes:
            if p == opp:
                assert all(VALUE[c] > 31 - count for c in hand)


def test_sharp_model_guesses_discards_the_analyzer_would_make() -> None:
    """With a tiny temperature every guessed six-card hand's best analyzer split is the guess."""
    g = _play_state(11, 0)
    v = g.view(g.current_player)
    opp = 1 - v.seat
    table = default_crib_table()
    for hand, disc in sample_modelled_guesses(v, np.random.default_rng(3), 40, tau=1e-6):
        h6 = np.array(hand + disc)
        ev, _, _, crib = discard_values(h6, v.dealer == opp, table)
        best = DISCARD_INDEX[int(np.argmax(ev + crib))]
        assert set(h6[best].tolist()) == set(disc)


def test_modelled_guesses_keep_better_hands_than_uniform_ones() -> None:
    """Players keep scoring cards: the guessed kept fours show (R6) more than uniform draws."""
    for seed in (2, 3):
        g = _play_state(seed, 0)
        v = g.view(g.current_player)
        modelled = sample_modelled_guesses(v, np.random.default_rng(0), 300, tau=0.5)
        uniform = sample_guesses(v, np.random.default_rng(0), 300)
        m = np.mean([score_hand(h, v.starter) for h, _ in modelled])
        u = np.mean([score_hand(h, v.starter) for h, _ in uniform])
        assert m > u + 1.0
