"""The expert tier: determinized guesses respect the view, the search prefers what
wins, the endgame and the knob behave."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents import make_agent
from agents.players.expert import ExpertAgent, peg_value
from agents.search.peg_search import sample_guesses, search_play
from cribbage_env.rules.cards import VALUE, parse_card, parse_cards
from cribbage_env.unseen.determinize import DeterminizeError, consistent_with_goes, determinize


def _to_play(seed: int) -> ce.GameState:
    g = ce.new_game(seed)
    while g.phase is not ce.Phase.PLAY:
        g.apply(g.legal_actions()[0])
    return g


@pytest.mark.parametrize("seed", range(5))
def test_determinized_state_matches_the_real_one_when_the_guess_is_right(seed: int) -> None:
    g = _to_play(seed)
    for _ in range(seed % 4):
        g.apply(g.legal_actions()[-1])
    seat = g.current_player
    opp = 1 - seat
    d = determinize(g.view(seat), g.hands[opp], g.discards[opp])
    assert d.hands == g.hands and d.count == g.count and d.seq == g.seq
    assert d.legal_actions() == g.legal_actions() and d.scores == g.scores
    # Played out the same way, both reach the same scores at the end of the deal (R6-R9).
    deal = g.deal_no
    while g.deal_no == deal and not g.is_over:
        a = g.legal_actions()[0]
        g.apply(a)
        d.apply(a)
    assert d.scores == g.scores


def test_determinize_refuses_a_guess_of_the_wrong_size() -> None:
    g = _to_play(1)
    v = g.view(g.current_player)
    with pytest.raises(DeterminizeError):
        determinize(v, [0, 1, 2], [3, 4])


def test_guesses_never_use_seen_cards_and_respect_goes() -> None:
    """R6.3: a player who said go at count c held no card of value <= 31 - c."""
    rng = np.random.default_rng(0)
    for seed in range(30):
        g = _to_play(seed)
        while not g.goes and g.phase is ce.Phase.PLAY and g.deal_no == 0:
            g.apply(g.legal_actions()[0])
        if g.phase is not ce.Phase.PLAY or not g.goes:
            continue
        seat = g.current_player
        v = g.view(seat)
        seen = set(v.hand) | set(v.kept) | set(v.discards) | {v.starter} | {c for _, c in v.played}
        for hand, disc in sample_guesses(v, rng, 20):
            assert not (set(hand) | set(disc)) & seen
            assert len(hand) == v.opponent_cards_left
            if any(p == 1 - seat for p, _ in v.goes):
                assert consistent_with_goes(v, hand)
                count = max(c for p, c in v.goes if p == 1 - seat)
                assert all(VALUE[c] > 31 - count for c in hand)


def ten_led(dealer_hand: str, starter: str, scores: tuple[int, int]) -> ce.GameState:
    """Seat 0 deals and holds ``dealer_hand``; the pone (seat 1) has led TC: count 10."""
    g = ce.GameState.from_position(
        [parse_cards(dealer_hand), parse_cards("TC 3D 4H 7S")],
        parse_cards("AC AD AH AS"),
        parse_card(starter),
        dealer=0,
        scores=scores,
    )
    g.apply(parse_card("TC"))
    return g


def test_search_plays_the_card_that_wins_the_game_now() -> None:
    """R10.1: at 119 with a card that makes fifteen, the search takes the game."""
    g = ten_led("5H 9C 8D 2S", "KD", (119, 60))
    v = g.view(0)
    best = search_play(v, np.random.default_rng(1), sims=10)[0]
    assert best.card == parse_card("5H")  # fifteen for 2 reaches 121
    assert ExpertAgent(sims=10).act(v, np.random.default_rng(2)) == parse_card("5H")


def test_pegging_table_is_shipped_and_values_fives_for_the_dealer() -> None:
    fives = parse_cards("5H 5D 9C KS")
    tens = parse_cards("TH QD 9C KS")
    assert peg_value(fives, dealer=True) > peg_value(tens, dealer=True)


def test_expert_knob_and_bad_parameters() -> None:
    assert make_agent("expert:sims=5").sims == 5
    with pytest.raises(ValueError, match="sims"):
        make_agent("expert:sims=0")


def test_expert_hint_lists_discards_with_their_numbers() -> None:
    g = ce.new_game(4)
    v = g.view(g.current_player)
    h = ExpertAgent(sims=5).hint(v, np.random.default_rng(0), top=3)
    assert len(h.options) == 3 and h.action == h.options[0].action
    assert h.options[0].value >= h.options[1].value >= h.options[2].value
    # The hand figure is the exact mean over the 46 starters this seat cannot see (brute force).
    from brute_force_reference import brute_show

    for o in h.options:
        keep = parse_cards(o.details["keep"])
        starters = [c for c in range(52) if c not in v.hand]
        exact = sum(brute_show(keep, s, False) for s in starters) / len(starters)
        assert o.details["hand_ev"] == pytest.approx(exact)


def test_expert_knobs_reject_bad_values_with_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match="heuristic, expectimax"):
        make_agent("expert:rollout=magic")
    with pytest.raises(ValueError, match="table, sim"):
        make_agent("expert:discard=guess")
    with pytest.raises(ValueError, match="tau"):
        make_agent("expert:tau=-1")
    a = make_agent("expert:sims=7,tau=0,rollout=expectimax,discard=sim")
    assert (a.sims, a.tau, a.rollout, a.discard) == (7, 0.0, "expectimax", "sim")


@pytest.mark.parametrize(
    "spec", ["expert:sims=4,discard=sim", "expert:sims=4,rollout=expectimax", "expert:sims=4,tau=0"]
)
def test_expert_variants_play_legal_games_to_the_end(spec: str) -> None:
    """Every knob setting plays whole games legally (R1-R10) against expectimax."""
    agents = [make_agent(spec), make_agent("expectimax")]
    g = ce.new_game(21)
    rng = np.random.default_rng(21)
    while not g.is_over:
        p = g.current_player
        a = agents[p].act(g.view(p), rng)
        assert a in g.legal_actions()
        g.apply(a)
    assert max(g.scores) >= 121


def test_sim_discard_keeps_the_fifteen_hand_over_a_weaker_split() -> None:
    """The play-out discard adds pegging to the analyzer net; it still keeps 5-5-J-Q over
    throwing the fives when the net gap is large (several points)."""
    v = ce.new_game(4).view(0)
    hand = parse_cards("5H 5D JS QC 2C 9D")
    from dataclasses import replace

    v = replace(
        v,
        hand=tuple(hand),
        legal_actions=tuple(
            ce.discard_action(a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]
        ),
    )
    opts = ExpertAgent(sims=12, discard="sim").hint(v, np.random.default_rng(0), top=4).options
    keep = set(parse_cards(opts[0].details["keep"]))
    assert set(parse_cards("5H 5D")) <= keep
    assert all("play-outs" in o.reason for o in opts[:4])


def test_search_values_cards_of_one_rank_alike() -> None:
    """R7 scores ranks only and the show (R6) does not depend on the order cards are laid, so two
    cards of one rank get the same estimate."""
    g = ten_led("5H 5D 9C KS", "QD", (10, 20))
    ests = {e.card: e.value for e in search_play(g.view(0), np.random.default_rng(3), sims=8)}
    assert ests[parse_card("5H")] == ests[parse_card("5D")]
    assert len(ests) == 4


def test_the_game_offers_the_expert_level() -> None:
    """The start screen and `cribbage play --opponent expert` offer the expert."""
    from agents import LEVELS
    from ui.cli.cmd_play import resolve_opponent
    from ui.scenes.screens.start_scene import StartOptions, start_scene

    ids = {b.id for b in start_scene(StartOptions(level="expert")).buttons}
    assert "level:expert" in ids and resolve_opponent("expert") == "expert"
    assert isinstance(make_agent(LEVELS["expert"].spec), ExpertAgent)


def test_early_stop_rule_needs_a_clear_paired_lead() -> None:
    from agents.search.peg_search import _clear_best

    rng = np.random.default_rng(0)
    noise = rng.normal(0, 5, size=(24, 1))
    # The same guesses move both candidates alike (common random numbers): a steady +1 is clear.
    assert _clear_best(np.hstack([noise + 1.0, noise]), 2.0)
    # Independent noise of the same size hides a +1 lead over 24 guesses.
    assert not _clear_best(np.hstack([noise + 1.0, rng.normal(0, 5, size=(24, 1))]), 2.0)
    # Equal candidates are never "clearly" apart.
    assert not _clear_best(np.hstack([noise, noise]), 2.0)


def test_search_uses_every_guess_unless_told_to_stop_early() -> None:
    g = ten_led("5H 9C 8D 2S", "KD", (10, 20))  # the 5 makes fifteen for 2, the others nothing
    v = g.view(0)
    full = search_play(v, np.random.default_rng(1), sims=48)
    assert all(e.samples == 48 for e in full)
    early = search_play(v, np.random.default_rng(1), sims=48, stop_z=0.5)
    assert all(e.samples == early[0].samples for e in early)
    assert 16 <= early[0].samples <= 48


def test_endgame_discards_are_compared_by_play_outs() -> None:
    """Near 121 (R10) the best splits are re-ranked by playing the deal out on modelled deals."""
    g = ce.new_game(8)
    g.scores_ = [110, 100]
    v = g.view(g.current_player)
    opts = ExpertAgent(sims=6).hint(v, np.random.default_rng(0), top=4).options
    assert all("play-out value" in o.reason for o in opts)
    assert opts[0].action in v.legal_actions
