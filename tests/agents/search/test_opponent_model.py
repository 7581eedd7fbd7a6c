"""The expert's opponent model: analyzer split values batched over many hands, and
guesses drawn from the posterior of an analyzer-discarding opponent given what it has shown."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents import make_agent
from agents.search.opponent_model import sample_modelled_guesses, split_nets
from agents.search.peg_search import sample_guesses
from cribbage_env.analysis.discard import DISCARD_INDEX, default_crib_table, discard_values
from cribbage_env.rules.cards import VALUE, parse_cards
from cribbage_env.rules.scoring import score_hand


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


def _stuck_after_its_own_card():
    """Pone leads K, dealer Q (20), pone 9 (29): the dealer says go; the pone, holding 7 and
    8, cannot go on either and scores the go (R8.1): no go of the pone's is recorded, yet its
    last two cards are above 2."""
    from cribbage_env.rules.cards import parse_cards as p
    from cribbage_env.rules.engine import GameState

    g = GameState.in_play(dealer=0, kept=[p("QH 5C 6D 4S"), p("KS 9D 7C 8H")],
                          discards=[p("AH 2D"), p("3C JD")], starter=p("TS")[0])  # fmt: skip
    for card in p("KS QH 9D"):
        g.apply(card)
    return g


def test_a_count_the_opponent_could_not_go_on_with_bounds_its_cards() -> None:
    from cribbage_env.unseen.determinize import consistent_with_goes, held_above

    g = _stuck_after_its_own_card()
    v = g.view(0)
    assert v.goes == ((0, 29),) and v.count == 0  # only the dealer's go is on record
    assert held_above(v, 1) == 2 and held_above(v, 0) == 2
    assert not consistent_with_goes(v, parse_cards("AC 8D"))
    assert not consistent_with_goes(v, parse_cards("2C 8D"))
    assert consistent_with_goes(v, parse_cards("3C 8D"))
    for hand, _ in sample_modelled_guesses(v, np.random.default_rng(0), 200):
        assert all(VALUE[c] > 2 for c in hand), hand


def test_every_go_bounds_the_cards_still_held_not_only_the_loosest() -> None:
    """Two go's at counts 25 and 10: the cards still held are above 21, not only above 6."""
    from cribbage_env.rules.cards import parse_cards as p
    from cribbage_env.rules.engine import GameState

    g = GameState.in_play(dealer=0, kept=[p("AH AD 9C 7S"), p("KS QD JC TH")],
                          discards=[p("2H 3D"), p("4C 5D")], starter=p("6S")[0],
                          played=[(1, p("KS")[0]), (0, p("AH")[0])], sequence=p("KS AH"),
                          to_act=1)  # fmt: skip
    v = g.view(1)
    v = type(v)(**{**v.__dict__, "goes": ((0, 25), (0, 10))})  # as if it had said go twice
    from cribbage_env.unseen.determinize import held_above

    assert held_above(v, 0) == 21
    for hand, _ in sample_modelled_guesses(v, np.random.default_rng(1), 100):
        assert all(VALUE[c] > 21 for c in hand), hand


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_the_bound_never_excludes_the_real_cards(policy: str) -> None:
    """In real play, every card the opponent still holds is above :func:`held_above` (a bound
    that excluded the truth would make every guess wrong)."""
    from cribbage_env.unseen.determinize import held_above

    bot, rng = make_agent(policy), np.random.default_rng(7)
    checked = bounded = 0
    for seed in range(60):
        g = ce.new_game(seed)
        while not g.is_over:
            if g.phase is ce.Phase.PLAY:
                for seat in (0, 1):
                    limit = held_above(g.view(seat), 1 - seat)
                    assert all(VALUE[c] > limit for c in g.hands[1 - seat]), (seed, g.played)
                    checked += 1
                    bounded += limit > 0
            g.apply(bot.act(g.view(g.to_act), rng))
    assert checked > 1000 and bounded > 50
