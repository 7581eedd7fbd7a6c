"""Cuts as decisions (R11.1, R2.2), same seed same game (R11.6), and bad input: clear errors,
state unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.rules.actions import CUT_BASE

K = ce.EventKind


def random_decisions(g: ce.GameState, rng: np.random.Generator, limit: int = 10_000) -> None:
    for _ in range(limit):
        if g.is_over:
            return
        acts = g.legal_actions()
        g.apply(acts[int(rng.integers(len(acts)))])


def advance_to(g: ce.GameState, phase: ce.Phase, rng: np.random.Generator) -> None:
    while g.phase is not phase:
        acts = g.legal_actions()
        g.apply(acts[int(rng.integers(len(acts)))])


# ------------------------------------------------------------------ R11.1 the cut depth never matters
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_r11_1_cut_for_deal_card_does_not_depend_on_depth(seed: int) -> None:
    g = ce.new_game(seed, interactive_cuts=True)
    for _ in range(2):
        outcomes = set()
        for a in g.legal_actions():
            h = g.clone()
            h.apply(a)
            outcomes.add([e for e in h.events if e.kind is K.CUT_FOR_DEAL][-1].cards)
        assert len(outcomes) == 1
        g.apply(g.legal_actions()[0])


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_r11_1_deal_cut_and_starter_cut_do_not_depend_on_depth(seed: int) -> None:
    rng = np.random.default_rng(seed)
    g = ce.new_game(seed, interactive_cuts=True)
    advance_to(g, ce.Phase.DEAL_CUT, rng)
    cuts = g.legal_actions()
    assert len(cuts) > 30 and all(a >= CUT_BASE for a in cuts)
    hands = set()
    for a in cuts:
        h = g.clone()
        h.apply(a)
        hands.add((tuple(h.hands[0]), tuple(h.hands[1])))
    assert len(hands) == 1
    advance_to(g, ce.Phase.STARTER_CUT, rng)
    starters = set()
    for a in g.legal_actions():
        h = g.clone()
        h.apply(a)
        starters.add(h.starter)
    assert len(starters) == 1


def test_r11_1_undo_and_cut_elsewhere_gives_the_same_starter() -> None:
    rng = np.random.default_rng(1)
    g = ce.new_game(11, interactive_cuts=True)
    advance_to(g, ce.Phase.STARTER_CUT, rng)
    first = ce.replay(11, [*g.decisions, CUT_BASE + 5], interactive_cuts=True)
    again = ce.replay(11, [*g.decisions, CUT_BASE + 30], interactive_cuts=True)
    assert first.starter == again.starter is not None


def test_r11_1_interactive_cuts_deal_the_same_cards_as_automatic_cuts() -> None:
    rng = np.random.default_rng(3)
    auto = ce.new_game(9)
    cut = ce.new_game(9, interactive_cuts=True)
    while not auto.is_over and auto.deal_no < 3:
        while cut.phase in (ce.Phase.CUT_FOR_DEAL, ce.Phase.DEAL_CUT, ce.Phase.STARTER_CUT):
            acts = cut.legal_actions()
            cut.apply(acts[int(rng.integers(len(acts)))])
        assert (cut.hands, cut.starter, cut.dealer, cut.scores) == (
            auto.hands,
            auto.starter,
            auto.dealer,
            auto.scores,
        )
        a = auto.legal_actions()[0]
        auto.apply(a)
        cut.apply(a)


def test_interactive_game_runs_to_the_end_and_replays() -> None:
    rng = np.random.default_rng(4)
    g = ce.new_game(4, interactive_cuts=True)
    random_decisions(g, rng)
    assert g.is_over and max(g.scores) >= 121
    assert ce.replay(4, g.decisions, interactive_cuts=True) == g
    assert ce.GameState.from_record(g.to_record()) == g


# ------------------------------------------------------------------ R11.6 same seed, same game
def test_r11_6_same_seed_and_decisions_give_the_same_game() -> None:
    a, b = ce.new_game(42), ce.new_game(42)
    assert a == b and a.hands == b.hands
    random_decisions(a, np.random.default_rng(0))
    random_decisions(b, np.random.default_rng(0))
    assert a == b and a.events == b.events
    assert ce.replay(42, a.decisions) == a


def test_r11_6_restart_reproduces_every_deal_even_with_other_decisions() -> None:
    a, b = ce.new_game(43), ce.new_game(43)
    random_decisions(a, np.random.default_rng(1))
    random_decisions(b, np.random.default_rng(2))
    deals_a = {e.deal: e.cards for e in a.events if e.kind is K.DEAL}
    deals_b = {e.deal: e.cards for e in b.events if e.kind is K.DEAL}
    common = set(deals_a) & set(deals_b)
    assert len(common) >= 3
    assert all(deals_a[d] == deals_b[d] for d in common)  # the shuffles are the seed's


def test_r11_6_different_seeds_give_different_deals() -> None:
    first = {tuple(ce.new_game(s).hands[0]) for s in range(50)}
    assert len(first) == 50


# ------------------------------------------------------------------ bad input
def _discard_state() -> ce.GameState:
    return ce.new_game(17)


def _play_state() -> ce.GameState:
    g = ce.new_game(17)
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    assert g.phase is ce.Phase.PLAY
    return g


def _refused(g: ce.GameState, action, player=None, match: str = "legal") -> None:
    before = g.clone()
    with pytest.raises(ce.IllegalActionError, match=match) as err:
        g.apply(action, player=player)
    assert isinstance(err.value, ValueError)
    assert g == before, "a refused action changed the state"


def test_illegal_discards_are_refused_with_the_legal_set_and_nothing_changes() -> None:
    g = _discard_state()
    mine, theirs = g.hands[g.to_act], g.hands[1 - g.to_act]
    a, b = sorted(mine[:2])
    _refused(g, ce.discard_action(mine[0], theirs[0]))
    _refused(g, mine[0])  # a play action during the discard
    _refused(g, CUT_BASE + 10)  # a cut without interactive cuts
    _refused(g, 100 + 52 * b + a)  # non-canonical discard id (not in legal_actions)
    _refused(g, 100 + 53 * a)  # the same card twice
    _refused(g, -1)
    _refused(g, 75)
    _refused(g, 10**9)
    msg = ""
    try:
        g.apply(ce.discard_action(mine[0], theirs[0]))
    except ce.IllegalActionError as exc:
        msg = str(exc)
    assert ce.action_str(g.legal_actions()[0]) in msg and "discard" in msg


def test_illegal_plays_are_refused() -> None:
    g = _play_state()
    other = g.hands[1 - g.to_act][0]
    _refused(g, other)  # the opponent's card
    _refused(g, g.kept[1 - g.to_act][0])
    _refused(g, g.starter)
    _refused(g, g.crib[0])
    _refused(g, ce.discard_action(*g.hands[g.to_act][:2]))


def test_actions_out_of_turn_are_refused() -> None:
    for g in (_discard_state(), _play_state()):
        me = g.current_player
        _refused(g, g.legal_actions()[0], player=1 - me, match="turn")
        for bad_player in (2, -1, "0", float(me), bool(me)):
            _refused(g, g.legal_actions()[0], player=bad_player, match="turn")
        g.apply(g.legal_actions()[0], player=me)  # the right player is fine


def test_numpy_integers_are_accepted_as_actions() -> None:
    g, h = _discard_state(), _discard_state()
    for kind in (np.int64, np.int32, np.uint16):
        a = g.legal_actions()[0]
        g.apply(kind(a), player=np.int64(g.current_player))
        h.apply(a)
        assert g == h
        assert all(type(d) is int for d in g.decisions)
    assert g.to_record() == h.to_record()


@pytest.mark.parametrize(
    "bad", [1.0, 17.0, None, True, False, np.bool_(True), "5H", [3], np.float64(3)]
)
def test_non_integer_actions_are_refused(bad) -> None:
    for g in (_discard_state(), _play_state()):
        _refused(g, bad, match="int")


def test_actions_after_the_game_is_over_are_refused() -> None:
    g = ce.new_game(2)
    random_decisions(g, np.random.default_rng(2))
    assert g.is_over and g.legal_actions() == [] and g.current_player is None
    _refused(g, 0, match="over")


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, None])
def test_bad_seeds_are_refused(seed) -> None:
    with pytest.raises(ValueError, match="seed"):
        ce.new_game(seed)


def test_numpy_seed_is_accepted() -> None:
    assert ce.new_game(np.int64(5)) == ce.new_game(5)


def test_bad_seat_for_a_view_is_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        ce.new_game(0).view(2)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": [[0, 1, 2], [4, 5, 6, 7]]},
        {"hands": [[0, 1, 2, 3], [3, 5, 6, 7]]},  # a card twice
        {"crib": [8, 9, 10, 60]},
        {"starter": 0},
        {"dealer": 2},
        {"scores": (121, 0)},
        {"scores": (-1, 0)},
        {"hands": [[0, 1, 2, True], [4, 5, 6, 7]]},
    ],
)
def test_from_position_refuses_impossible_positions(kwargs) -> None:
    args = {"hands": [[0, 1, 2, 3], [4, 5, 6, 7]], "crib": [8, 9, 10, 11], "starter": 12}
    args.update(kwargs)
    with pytest.raises(ValueError):
        ce.GameState.from_position(args.pop("hands"), args.pop("crib"), args.pop("starter"), **args)


def test_from_position_state_plays_on_into_the_seeded_deals() -> None:
    g = ce.GameState.from_position(
        [[0, 1, 2, 3], [4, 5, 6, 7]], [8, 9, 10, 11], 12, dealer=1, scores=(10, 20)
    )
    assert g.current_player == 0 and g.scores == (10, 20) and g.set_up
    assert g.clone() == g
    random_decisions(g, np.random.default_rng(0))
    assert g.is_over
    deals = [e.player for e in g.events if e.kind is K.DEAL]
    assert deals[:3] == [1, 0, 1]
    scores = [e.scores for e in g.events]
    assert scores[-1] == g.scores
    with pytest.raises(ce.RecordError, match="from_position"):
        g.to_record()
