"""Observation encoding and masks (cribbage_env.encoding): checked against the engine state directly."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.encoding import (
    LAYOUT,
    OBS_SIZE,
    SLICES,
    InvalidActionError,
    action_mask,
    as_action,
    encode,
    engine_action_to_picks,
    named_views,
    observation_dict,
    picks_to_engine_action,
)
from cribbage_env.rules.actions import discard_cards, is_discard
from cribbage_env.rules.cards import RANK


def reference_legal_cards(g: ce.GameState, pending: int | None) -> set[int]:
    """Legal picks derived only from the engine's legal_actions (independent of encoding)."""
    legal = g.legal_actions()
    if g.phase is ce.Phase.PLAY:
        return set(legal)
    assert g.phase is ce.Phase.DISCARD and all(is_discard(a) for a in legal)
    pairs = [discard_cards(a) for a in legal]
    if pending is None:
        return {c for pair in pairs for c in pair}
    return {b if a == pending else a for a, b in pairs if pending in (a, b)}


def random_game_states(n_games: int, seed: int):
    """Every decision state of ``n_games`` random games (state, seat to act)."""
    rng = np.random.default_rng(seed)
    for k in range(n_games):
        g = ce.new_game(seed * 1000 + k)
        while not g.is_over:
            yield g
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
        yield g


def test_layout_slices_tile_the_vector_without_gaps() -> None:
    assert sum(size for _, size in LAYOUT) == OBS_SIZE
    pos = 0
    for name, size in LAYOUT:
        assert SLICES[name] == slice(pos, pos + size)
        pos += size


def test_r4_r6_masks_equal_engine_legal_actions_in_every_state_of_random_games() -> None:
    """R4 (discard two cards, as two picks) and R6.2/R6.3 (playable cards): mask == engine."""
    checked = 0
    for g in random_game_states(120, seed=1):
        for seat in (0, 1):
            view = g.view(seat)
            if g.current_player != seat:
                assert not action_mask(view).any()
                continue
            mask = action_mask(view)
            assert mask.dtype == np.int8 and mask.shape == (52,)
            assert set(np.flatnonzero(mask).tolist()) == reference_legal_cards(g, None)
            if g.phase is ce.Phase.DISCARD:
                for first in view.hand:
                    m2 = action_mask(view, first)
                    assert set(np.flatnonzero(m2).tolist()) == reference_legal_cards(g, first)
                    assert not m2[first]
            checked += 1
    assert checked > 5000


def test_encode_mask_is_the_same_as_action_mask() -> None:
    for g in random_game_states(10, seed=2):
        for seat in (0, 1):
            view = g.view(seat)
            obs, mask = encode(view)
            assert np.array_equal(mask, action_mask(view))
            assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_slices_hold_the_state_they_document() -> None:
    """Each named slice checked against the engine's own fields (not the view or the encoder)."""
    n = 0
    for g in random_game_states(20, seed=3):
        for seat in (0, 1):
            parts = named_views(encode(g.view(seat))[0])
            opp = 1 - seat

            def cards(part: str) -> set[int]:
                return set(np.flatnonzero(parts[part]).tolist())  # noqa: B023

            assert cards("hand") == set(g.hands[seat])
            assert cards("discards") == set(g.discards[seat])
            assert cards("kept") == (set(g.kept[seat]) if g.discards[seat] else set())
            assert cards("starter") == ({g.starter} if g.starter is not None else set())
            assert cards("sequence") == set(g.seq)
            assert cards("played_own") == {c for p, c in g.played if p == seat}
            assert cards("played_opponent") == {c for p, c in g.played if p == opp}
            recent = parts["recent_ranks"].reshape(8, 13)
            expected = np.zeros((8, 13), np.float32)
            for i, c in enumerate(reversed(g.seq)):
                expected[i, RANK[c]] = 1
            assert np.array_equal(recent, expected)
            assert parts["count"][0] == pytest.approx(g.count / 31)
            assert parts["scores"][0] == pytest.approx(min(g.scores[seat], 121) / 121)
            assert parts["scores"][1] == pytest.approx(min(g.scores[opp], 121) / 121)
            assert parts["opponent_cards_left"][0] == pytest.approx(len(g.hands[opp]) / 6)
            flags = parts["flags"]
            assert flags[0] == (g.dealer == seat)
            assert flags[1] == (g.current_player == seat)
            assert flags[2] == bool(g.discards[opp])
            assert flags[3] == g.go_said[seat] and flags[4] == g.go_said[opp]
            assert flags[5] == bool(g.seq and g.played and g.played[-1][0] == seat)
            phase = parts["phase"].tolist()
            want = {ce.Phase.DISCARD: 0, ce.Phase.PLAY: 2, ce.Phase.GAME_OVER: 3}[g.phase]
            assert phase == [1.0 if i == want else 0.0 for i in range(4)]
            n += 1
    assert n > 500


def test_pending_pick_is_marked_and_switches_the_phase_entry() -> None:
    g = ce.new_game(4)
    view = g.view(g.current_player)
    first = view.hand[2]
    parts = named_views(encode(view, first)[0])
    assert np.flatnonzero(parts["pending_discard"]).tolist() == [first]
    assert parts["phase"].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert np.flatnonzero(parts["hand"]).tolist() == sorted(view.hand)  # still held


def _permute_hidden(g: ce.GameState, seat: int, rng: np.random.Generator) -> ce.GameState:
    """A clone where the cards ``seat`` cannot see (opponent hand/kept/discards, crib) are shuffled."""
    opp = 1 - seat
    seen = set(g.hands[seat]) | set(g.kept[seat]) | set(g.discards[seat])
    seen |= {c for _, c in g.played}
    if g.starter is not None:
        seen.add(g.starter)
    unseen = [c for c in range(52) if c not in seen]
    perm = dict(zip(unseen, rng.permutation(unseen).tolist(), strict=True))

    def f(c: int) -> int:
        return perm.get(c, c)

    h = g.clone()
    h.hands[opp] = [f(c) for c in h.hands[opp]]
    h.kept[opp] = [f(c) for c in h.kept[opp]]
    h.discards[opp] = tuple(f(c) for c in h.discards[opp])
    h.crib = [f(c) for c in h.crib]
    return h


def test_observation_never_changes_when_only_hidden_cards_change() -> None:
    """Information hiding: opponent's hand and the crib do not reach the observation."""
    rng = np.random.default_rng(5)
    changed_states = 0
    for g in random_game_states(15, seed=6):
        for seat in (0, 1):
            h = _permute_hidden(g, seat, rng)
            if h.hands[1 - seat] != g.hands[1 - seat]:
                changed_states += 1
            a_obs, a_mask = encode(g.view(seat))
            b_obs, b_mask = encode(h.view(seat))
            assert np.array_equal(a_obs, b_obs) and np.array_equal(a_mask, b_mask)
    assert changed_states > 100  # the permutation really moved hidden cards


def test_observation_does_change_when_own_hand_changes() -> None:
    """Sanity check of the test above: a visible change is seen."""
    g = ce.new_game(8)
    seat = g.current_player
    h = g.clone()
    out = next(c for c in range(52) if c not in g.hands[seat])
    h.hands[seat] = [out] + h.hands[seat][1:]
    assert not np.array_equal(encode(g.view(seat))[0], encode(h.view(seat))[0])


def test_masks_are_fresh_arrays_every_call() -> None:
    view = ce.new_game(1).view(0)
    a, b = observation_dict(view), observation_dict(view)
    assert a["action_mask"] is not b["action_mask"] and a["observation"] is not b["observation"]


@pytest.mark.parametrize(
    "value", [0, 51, np.int64(7), np.int32(3), np.uint8(9), np.array(4), np.array([5])]
)
def test_as_action_accepts_integers_0_to_51(value) -> None:
    assert as_action(value) == int(np.asarray(value).reshape(()))
    assert type(as_action(value)) is int


@pytest.mark.parametrize(
    "value", [-1, 52, 10**9, 3.0, np.float32(2), True, None, "5H", np.array([1, 2])]
)
def test_as_action_rejects_non_actions_with_a_value_error(value) -> None:
    with pytest.raises(InvalidActionError) as err:
        as_action(value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, ce.IllegalActionError)
    assert "0..51" in str(err.value)


def test_r4_discard_picks_round_trip_through_the_engine_action() -> None:
    a = ce.discard_action(ce.parse_card("5H"), ce.parse_card("JD"))
    picks = engine_action_to_picks(a)
    assert sorted(picks) == sorted(ce.parse_cards("5H JD"))
    assert picks_to_engine_action(*picks) == a == picks_to_engine_action(*reversed(picks))
    assert engine_action_to_picks(30) == [30]
    with pytest.raises(ValueError, match="cuts"):
        engine_action_to_picks(3010)


def test_describe_names_the_hand_cards_and_the_phase() -> None:
    from cribbage_env.encoding import describe

    g = ce.new_game(2)
    view = g.view(g.current_player)
    text = describe(encode(view)[0])
    hand_line = next(line for line in text.splitlines() if line.startswith("hand:"))
    assert sorted(hand_line.split()[1:]) == sorted(ce.cards_str(view.hand).split())
    assert "phase: discard_first=1" in text
