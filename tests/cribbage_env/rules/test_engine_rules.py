"""The engine, one focused test per rule (R2-R10, R11.1, R11.6) and the traps peers fail.

Positions are set up with ``GameState.from_position`` (hands, crib and starter chosen, the play
about to start) or found by searching seeds; expected points are worked out by hand here.
"""

from __future__ import annotations

import numpy as np
import pytest
from brute_force_reference import brute_show
from random_games import random_game

import cribbage_env as ce
from cribbage_env.rules.actions import CUT_BASE

K = ce.EventKind
S = ce.ScoreKind
P = ce.parse_cards
DEALER, PONE = 0, 1


def card(text: str) -> int:
    return ce.parse_card(text)


def position(
    dealer_hand: str, pone_hand: str, crib: str, starter: str, scores: tuple[int, int] = (0, 0)
) -> ce.GameState:
    """Seat 0 deals, seat 1 (the pone) is about to lead."""
    return ce.GameState.from_position(
        [P(dealer_hand), P(pone_hand)], P(crib), card(starter), dealer=DEALER, scores=scores
    )


def play(g: ce.GameState, cards: str) -> None:
    """Lay ``cards`` in order, checking each is a legal decision of the player to act (the
    card's holder: each card is in one hand, so a card names its player)."""
    for text in cards.split():
        assert card(text) in g.legal_actions(), (text, ce.cards_str(g.legal_actions()))
        g.apply(card(text), player=g.current_player)


def points(g: ce.GameState, kinds=(K.PLAY, K.SCORE)) -> list[tuple[int, int, tuple[str, ...]]]:
    """(player, points, reasons) of every scoring PLAY/SCORE event, in order."""
    return [
        (e.player, e.points, tuple(r.kind.value for r in e.reasons))
        for e in g.events
        if e.kind in kinds and e.points
    ]


def fresh_game_where(
    predicate, *, interactive_cuts: bool = False, limit: int = 5000
) -> tuple[int, ce.GameState]:
    for seed in range(limit):
        g = ce.new_game(seed, interactive_cuts=interactive_cuts)
        if predicate(g):
            return seed, g
    raise AssertionError("no seed found")


# ------------------------------------------------------------------ R2 first dealer
def test_r2_1_lower_cut_deals_first() -> None:
    for seed in range(60):
        g = ce.new_game(seed)
        cuts = [e for e in g.events if e.kind is K.CUT_FOR_DEAL][-2:]
        a, b = cuts[0].cards[0] % 13, cuts[1].cards[0] % 13
        assert a != b
        assert g.dealer == (0 if a < b else 1)
        assert [e.player for e in g.events if e.kind is K.FIRST_DEALER] == [g.dealer]


def test_r2_2_equal_cuts_are_cut_again() -> None:
    seed, g = fresh_game_where(lambda g: any(e.kind is K.CUT_TIE for e in g.events))
    cuts = [e for e in g.events if e.kind is K.CUT_FOR_DEAL]
    assert len(cuts) >= 4 and len(cuts) % 2 == 0
    for i in range(0, len(cuts) - 2, 2):
        assert cuts[i].cards[0] % 13 == cuts[i + 1].cards[0] % 13  # a tie before each recut
    last = cuts[-2].cards[0] % 13, cuts[-1].cards[0] % 13
    assert last[0] != last[1] and g.dealer == (0 if last[0] < last[1] else 1)


def test_r2_2_ties_recut_with_interactive_cuts() -> None:
    def tie_first(g: ce.GameState) -> bool:
        h = g.clone()
        h.apply(h.legal_actions()[0])
        h.apply(h.legal_actions()[0])
        return h.phase is ce.Phase.CUT_FOR_DEAL

    seed, g = fresh_game_where(tie_first, interactive_cuts=True)
    assert g.current_player == 0
    g.apply(g.legal_actions()[3], player=0)
    assert g.current_player == 1 and g.phase is ce.Phase.CUT_FOR_DEAL
    g.apply(g.legal_actions()[-1], player=1)
    assert g.phase is ce.Phase.CUT_FOR_DEAL and g.current_player == 0  # recut (R2.2)
    tie = [e for e in g.events if e.kind is K.CUT_TIE]
    assert len(tie) == 1 and tie[0].cards[0] % 13 == tie[0].cards[1] % 13


def test_r2_3_deal_alternates_every_hand() -> None:
    g = random_game(3, np.random.default_rng(0))
    dealers = [e.player for e in g.events if e.kind is K.DEAL]
    assert len(dealers) >= 3
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))


# ------------------------------------------------------------------ R3-R5 deal, discard, starter
def test_r3_2_six_cards_each_dealt_alternately_from_the_pone() -> None:
    g = ce.new_game(21)
    deck = g._chance.deck(g.deal_no)  # the deal's shuffled deck (the seed's chance)
    pone = 1 - g.dealer
    assert g.hands[pone] == deck[0:12:2] and g.hands[g.dealer] == deck[1:12:2]
    assert len(set(g.hands[0]) | set(g.hands[1])) == 12
    assert g.current_player == pone  # R4: the pone discards first


def test_r3_1_and_r5_1_the_pone_cuts_and_the_starter_comes_only_after_both_discards() -> None:
    g = ce.new_game(4, interactive_cuts=True)
    while g.phase is ce.Phase.CUT_FOR_DEAL:
        g.apply(g.legal_actions()[0])
    assert g.phase is ce.Phase.DEAL_CUT and g.current_player == g.pone  # R3.1
    g.apply(g.legal_actions()[0], player=g.pone)
    assert g.phase is ce.Phase.DISCARD and g.starter is None
    g.apply(g.legal_actions()[0], player=g.pone)
    assert g.phase is ce.Phase.DISCARD and g.starter is None and g.current_player == g.dealer
    g.apply(g.legal_actions()[0], player=g.dealer)
    assert g.phase is ce.Phase.STARTER_CUT and g.starter is None and g.current_player == g.pone
    cuts = g.legal_actions()
    assert all(CUT_BASE + 1 <= a <= CUT_BASE + 39 for a in cuts)  # 40 cards remain (R5.1)
    g.apply(cuts[0], player=g.pone)
    assert g.starter is not None and g.phase is ce.Phase.PLAY


def test_r4_1_discards_form_the_dealers_crib() -> None:
    g = ce.new_game(8)
    pone, dealer = g.pone, g.dealer
    hp, hd = g.hands[pone][:], g.hands[dealer][:]
    g.apply(ce.discard_action(hp[0], hp[3]), player=pone)
    g.apply(ce.discard_action(hd[1], hd[5]), player=dealer)
    assert sorted(g.crib) == sorted([hp[0], hp[3], hd[1], hd[5]])
    assert sorted(g.kept[pone]) == sorted(hp[1:3] + hp[4:])
    crib_show = [e for e in g.events if e.kind is K.SHOW and e.what == "crib"]
    assert crib_show == []  # not yet
    while g.deal_no == 0 and not g.is_over:
        g.apply(g.legal_actions()[0])
    crib_show = [e for e in g.events if e.kind is K.SHOW and e.what == "crib"]
    assert crib_show[0].player == dealer
    assert sorted(crib_show[0].cards[:4]) == sorted([hp[0], hp[3], hd[1], hd[5]])


def test_r5_2_his_heels_scores_2_for_the_dealer_at_the_cut() -> None:
    def jack_starter(g: ce.GameState) -> bool:
        return g._chance.deck(0)[12] % 13 == 10

    _, g = fresh_game_where(jack_starter)
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    assert g.starter % 13 == 10
    assert points(g) == [(g.dealer, 2, ("his heels",))]
    assert g.scores[g.dealer] == 2 and g.scores[g.pone] == 0


def test_r10_1_his_heels_can_win_the_game() -> None:
    _, g = fresh_game_where(lambda g: g._chance.deck(0)[12] % 13 == 10)
    g.scores_[g.dealer] = 119  # a dealer on 119 (set on the fresh state)
    g.scores_[g.pone] = 120
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    assert g.is_over and g.winner == g.dealer and g.scores[g.dealer] == 121
    assert g.phase is ce.Phase.GAME_OVER and g.legal_actions() == []
    assert g.events[-1].kind is K.GAME_OVER
    assert not any(e.kind in (K.PLAY, K.SHOW) for e in g.events)


# ------------------------------------------------------------------ R6 the play
def test_r6_1_the_pone_leads() -> None:
    for seed in range(20):
        g = ce.new_game(seed)
        g.apply(g.legal_actions()[0])
        g.apply(g.legal_actions()[0])
        if g.is_over:
            continue
        assert g.phase is ce.Phase.PLAY and g.current_player == g.pone
        assert len(g.legal_actions()) == 4


def test_r6_2_a_card_is_playable_only_if_the_count_stays_at_most_31() -> None:
    g = position("KD 9S 2S QD", "KH 5C 3H 4H", "AC AD AH AS", "7C")
    play(g, "KH KD 5C")
    assert g.count == 25
    assert g.legal_actions() == [card("2S")]
    before = g.clone()
    with pytest.raises(ce.IllegalActionError, match="2S"):
        g.apply(card("9S"))
    assert g == before


def test_r6_3_a_player_who_cannot_play_says_go_and_the_other_continues() -> None:
    g = position("KD QD 9S 8S", "KH QH 5C 4H", "AC AD AH AS", "7C")
    play(g, "KH KD QH")
    # Count 30: the dealer cannot play and says go automatically; the pone cannot either.
    go = [e for e in g.events if e.kind is K.GO]
    assert [e.player for e in go] == [DEALER]


def test_r8_1_go_point_to_the_last_layer_and_the_other_player_leads() -> None:
    g = position("KD QD 9S 8S", "KH QH 5C 4H", "AC AD AH AS", "7C")
    play(g, "KH KD QH")
    assert points(g)[-1] == (PONE, 1, ("go",))
    assert g.count == 0 and g.seq == []
    assert g.current_player == DEALER  # the player who did not lay the last card leads
    play(g, "QD 5C 9S 4H")
    # The pone is out; the dealer's 8S does not fit on 28: go to the pone, then the dealer leads
    # and lays the last card alone.
    assert g.phase is ce.Phase.PLAY and g.current_player == DEALER and g.count == 0
    play(g, "8S")
    assert points(g) == [
        (DEALER, 2, ("pair",)),
        (PONE, 1, ("go",)),
        (PONE, 2, ("fifteen",)),
        (PONE, 1, ("go",)),
        (DEALER, 1, ("last card",)),
    ]


def test_r8_4_a_player_out_of_cards_is_skipped_and_the_other_plays_on_alone() -> None:
    g = position("KS QS JS TS", "AC 2C 3C 4C", "5D 6D 7D 8D", "9H")
    play(g, "AC KS 2C QS 3C")
    assert g.current_player == PONE  # count 26: the dealer said go, the pone plays on
    play(g, "4C")
    play(g, "JS")
    assert g.current_player == DEALER  # the pone has no cards and is skipped
    play(g, "TS")
    plays = [e.player for e in g.events if e.kind is K.PLAY]
    assert plays == [PONE, DEALER, PONE, DEALER, PONE, PONE, DEALER, DEALER]
    assert [e.player for e in g.events if e.kind is K.GO] == [DEALER]  # an empty hand says nothing
    assert points(g) == [(PONE, 1, ("go",)), (DEALER, 1, ("last card",))]


# ------------------------------------------------------------------ R7 scoring while pegging
def test_r7_trap_5_5_4_6_the_six_scores_a_run_of_three_in_the_engine() -> None:
    g = position("5D 6S KD QD", "5H 4C KH QH", "AC AD AH AS", "9C")
    play(g, "5H 5D 4C 6S")
    assert points(g) == [(DEALER, 2, ("pair",)), (DEALER, 3, ("run",))]
    run = g.events[-1].reasons[0]
    assert ce.cards_str(run.cards) == "4C 5D 6S"


def test_r7_trap_7_8_7_scores_nothing_in_the_engine() -> None:
    g = position("8D AD 2D 3D", "7H 7C KH QH", "AC 4D AH AS", "9C")
    play(g, "7H 8D 7C")
    assert g.count == 22 and points(g) == [(DEALER, 2, ("fifteen",))]  # 7-8 is fifteen
    last = g.events[-1]
    assert last.kind is K.PLAY and last.cards[-1] == card("7C") and last.points == 0


def test_r7_1_and_r7_2_fifteen_pairs_and_pair_royal_in_the_engine() -> None:
    g = position("5D 5S KD QD", "5H TC KH QH", "AC AD AH AS", "9C")
    play(g, "TC 5D")
    assert points(g) == [(DEALER, 2, ("fifteen",))]
    g = position("5D 5S KD QD", "5H 5C KH QH", "AC AD AH AS", "9C")
    play(g, "5H 5D 5C 5S")
    assert points(g) == [
        (DEALER, 2, ("pair",)),
        (PONE, 2 + 6, ("fifteen", "pair royal")),
        (DEALER, 12, ("double pair royal",)),
    ]


def test_r8_2_thirty_one_scores_2_no_go_point_and_the_other_player_leads() -> None:
    g = position("QD 5S 9D 8D", "KH 6C 2H 3H", "AC AD AH AS", "7C")
    play(g, "KH QD 6C 5S")
    assert points(g) == [(DEALER, 2, ("thirty-one",))]
    assert g.events[-1].kind is K.RESET and g.count == 0
    assert g.current_player == PONE  # the player who did not lay the last card
    play(g, "2H 9D 3H 8D")
    assert points(g) == [(DEALER, 2, ("thirty-one",)), (DEALER, 1, ("last card",))]
    assert not any(e.kind is K.GO for e in g.events)


def test_r8_3_last_card_scores_1() -> None:
    # A 5 2 6 3 7 4: the 4 completes a run of seven (R7.3); the final 2 ends the play at 30.
    g = position("5D 6D 7D 2D", "AC 2C 3C 4C", "KH QH JH TH", "9S")
    play(g, "AC 5D 2C 6D 3C 7D 4C 2D")
    assert points(g) == [(PONE, 7, ("run",)), (DEALER, 1, ("last card",))]


def test_r8_3_last_card_making_31_scores_only_the_2() -> None:
    g = position("5D 6D 7D 3D", "AC 2C 3C 4C", "KH QH JH TH", "9S")
    play(g, "AC 5D 2C 6D 3C 7D 4C 3D")
    assert points(g) == [(PONE, 7, ("run",)), (DEALER, 2, ("thirty-one",))]


# ------------------------------------------------------------------ R9 the show
def test_r9_1_show_order_pone_hand_dealer_hand_crib_with_the_same_starter() -> None:
    g = position("AD 2D 3D 4D", "KH QH JH 9C", "2H 4H 6H 8H", "5C")
    play(g, "KH AD QH 2D 3D 4D 9C JH")
    shows = [(e.player, e.what, e.cards[4], e.points) for e in g.events if e.kind is K.SHOW]
    assert shows == [
        (PONE, "hand", card("5C"), brute_show(P("KH QH JH 9C"), card("5C"), False)),
        (DEALER, "hand", card("5C"), brute_show(P("AD 2D 3D 4D"), card("5C"), False)),
        (DEALER, "crib", card("5C"), brute_show(P("2H 4H 6H 8H"), card("5C"), True)),
    ]
    # by hand: pone K Q J 9 + 5: fifteens K5 Q5 J5 = 6, run 9? no (T missing), J-Q-K run 3 -> 9
    # dealer A 2 3 4 + 5: fifteen A2345 = 2, run of 5 = 5, flush of 4 (diamonds) = 4 -> 11
    # crib 2 4 6 8 hearts + 5C: fifteens 2+8+5, 4+6+5, 2+4+... (2+... ) and no crib flush
    assert [s[3] for s in shows][:2] == [9, 11]
    assert g.phase is ce.Phase.DISCARD and g.deal_no == 1 and g.dealer == PONE  # next deal


def test_r9_5_crib_four_card_flush_does_not_count_in_the_engine() -> None:
    g = position("AD 2D 3D 4D", "KH QH JH 9C", "2S 4S 6S 8S", "KC")
    play(g, "KH AD QH 2D 3D 4D 9C JH")
    crib = [e for e in g.events if e.kind is K.SHOW and e.what == "crib"][0]
    assert crib.points == 0 and crib.reasons == ()
    hand = [e for e in g.events if e.kind is K.SHOW and e.player == DEALER and e.what == "hand"][0]
    assert S.FLUSH in [r.kind for r in hand.reasons]


def test_r10_a_win_during_the_pones_show_stops_the_dealer_from_counting() -> None:
    g = position("4C 4D 6C 6D", "5H 5D 5C JS", "KH QH 9S 8S", "5S", scores=(100, 100))
    play(g, "JS 4C 5H 6C 5D 4D 5C 6D")
    # Counts 10 14 19 25(run 4-5-6) 30, go for the pone, then 4 9 15(fifteen, run) + last card.
    assert points(g) == [
        (DEALER, 3, ("run",)),
        (PONE, 1, ("go",)),
        (DEALER, 5, ("fifteen", "run")),
        (DEALER, 1, ("last card",)),
    ]
    # Pone 101 + 29 wins in the show; the dealer (109) would have reached 133 with 4 4 6 6 + 5.
    assert g.is_over
    before_show = [e for e in g.events if e.kind is K.SHOW]
    assert len(before_show) == 1 and before_show[0].player == PONE and before_show[0].points == 29
    assert g.winner == PONE and g.scores[PONE] >= 121
    dealer_before = [e.scores[DEALER] for e in g.events if e.kind is not K.SHOW][-1]
    assert g.scores[DEALER] == dealer_before < 121  # the dealer's 24 was never counted


def test_r10_1_winning_during_the_play_ends_the_game_at_once() -> None:
    g = position("KD 9S 2S QD", "KH 5C 3H 4H", "AC AD AH AS", "7C", scores=(119, 50))
    play(g, "KH KD")
    assert g.is_over and g.winner == DEALER and g.scores == (121, 50)
    assert g.phase is ce.Phase.GAME_OVER and g.current_player is None and g.legal_actions() == []
    assert g.events[-1].kind is K.GAME_OVER and g.events[-1].player == DEALER
    assert not any(e.kind is K.SHOW for e in g.events)
    with pytest.raises(ce.IllegalActionError, match="over"):
        g.apply(card("5C"))


def test_r10_2_nothing_is_scored_after_121_and_the_winner_may_pass_121() -> None:
    g = position("5D 5S KD QD", "5H 5C KH QH", "AC AD AH AS", "9C", scores=(118, 50))
    play(g, "5H 5D 5C 5S")
    assert g.is_over and g.winner == DEALER and g.scores == (118 + 2 + 12, 50 + 8)
    assert [e.kind for e in g.events][-2:] == [K.PLAY, K.GAME_OVER]
    assert ce.skunk_level(g.scores, g.rules) == 3  # 58 < 61: double skunk
