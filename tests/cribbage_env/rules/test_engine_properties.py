"""Property tests over random legal games (hypothesis): one winner at 121 (R10), every card in
exactly one place, scores never decrease, every point matches the brute-force scorers, records
replay to identical states (R11.6), and a PlayerView never holds hidden cards."""

from __future__ import annotations

import os

import numpy as np
from brute_force_reference import _value, brute_peg, brute_show
from hypothesis import given, settings
from hypothesis import strategies as st

import cribbage_env as ce
from cribbage_env.rules.actions import DISCARD_BASE, discard_cards
from cribbage_env.rules.chance import Chance

K = ce.EventKind
seeds = st.integers(0, 2**63 - 1)
#: Random games per run; CRIBBAGE_GAMES=500 for a long fuzzing run (marked slow by its size only).
GAMES = settings(max_examples=int(os.environ.get("CRIBBAGE_GAMES", "25")), deadline=None)


def check_cards(g: ce.GameState) -> None:
    """Every card of the deal is in exactly one place: a hand, the crib, the table or the starter."""
    if g.phase in (ce.Phase.CUT_FOR_DEAL, ce.Phase.DEAL_CUT):
        return  # between deals (interactive cuts): nothing of the new deal is dealt yet
    dealt = next(e for e in reversed(g.events) if e.kind is K.DEAL).cards
    played = [c for _, c in g.played]
    places = g.hands[0] + g.hands[1] + g.crib + played
    assert len(places) == len(set(places)) == 12
    assert set(places) == set(dealt)
    if g.starter is not None:
        assert g.starter not in places
    for p in (0, 1):
        if g.discards[p]:
            mine = [c for q, c in g.played if q == p]
            assert sorted(g.kept[p]) == sorted(g.hands[p] + mine)
            assert set(g.discards[p]) <= set(g.crib)
    assert g.count == sum(_value(c) for c in g.seq) <= 31


def seen_by(g: ce.GameState, seat: int) -> set[int]:
    """What seat ``seat`` has seen of the current deal, worked out from the state directly."""
    seen = set(g.hands[seat]) | set(g.kept[seat]) | set(g.discards[seat]) | {c for _, c in g.played}
    if g.starter is not None:
        seen.add(g.starter)
    return seen


def cards_in_view(v: ce.PlayerView) -> set[int]:
    out = set(v.hand) | set(v.kept) | set(v.discards) | set(v.sequence) | {c for _, c in v.played}
    if v.starter is not None:
        out.add(v.starter)
    for a in v.legal_actions:
        if a < 52:
            out.add(a)
        elif DISCARD_BASE <= a < 3000:
            out.update(discard_cards(a))
    return out


def hide_and_shuffle(g: ce.GameState, seat: int, rng: np.random.Generator) -> ce.GameState:
    """A clone in which everything ``seat`` cannot see is changed: the opponent's cards and
    discards are swapped among the unseen cards, and the deck order comes from another seed."""
    h = g.clone()
    seen = seen_by(g, seat)
    hidden = [c for c in range(52) if c not in seen]
    perm = dict(zip(hidden, (int(c) for c in rng.permutation(hidden)), strict=True))
    o = 1 - seat
    h.hands[o] = [perm.get(c, c) for c in h.hands[o]]
    h.kept[o] = [perm.get(c, c) for c in h.kept[o]]
    h.discards[o] = tuple(perm.get(c, c) for c in h.discards[o])
    h.crib = [perm.get(c, c) for c in h.crib]
    h.seed = g.seed + 1
    h._chance = Chance(g.seed + 1)
    return h


def check_views(g: ce.GameState, rng: np.random.Generator, with_events: bool) -> None:
    for seat in (0, 1):
        v = g.view(seat)
        assert cards_in_view(v) <= seen_by(g, seat)
        assert v.opponent_cards_left == len(g.hands[1 - seat])
        assert g.view(seat) == v  # built fresh, equal
        assert hide_and_shuffle(g, seat, rng).view(seat) == v
        if g.phase not in (ce.Phase.CUT_FOR_DEAL, ce.Phase.DEAL_CUT):
            assert set(v.unseen_cards()) == set(range(52)) - seen_by(g, seat)
        for e in ce.visible_events(g, seat) if with_events else ():
            if e.kind is K.DEAL and e.deal == g.deal_no:
                assert set(e.cards) <= seen_by(g, seat)
            if e.kind is K.DISCARD and e.player != seat:
                assert e.cards == ()


def random_game(seed: int, choice_seed: int, interactive: bool, check_every_step: bool = True):
    rng = np.random.default_rng(choice_seed)
    g = ce.new_game(seed, interactive_cuts=interactive)
    last = g.scores
    snapshots = []
    while not g.is_over:
        acts = g.legal_actions()
        assert acts and g.current_player in (0, 1)
        assert len(set(acts)) == len(acts)
        g.apply(acts[int(rng.integers(len(acts)))])
        assert all(b >= a for a, b in zip(last, g.scores, strict=True)), "a score went down"
        last = g.scores
        if check_every_step:
            check_cards(g)
            check_views(g, rng, with_events=rng.random() < 0.05)
        if rng.random() < 0.03:
            snapshots.append(g.clone())
    return g, snapshots


@GAMES
@given(seeds, seeds, st.booleans())
def test_random_games_keep_every_invariant(seed: int, choice_seed: int, interactive: bool) -> None:
    g, snapshots = random_game(seed, choice_seed, interactive)
    # R10: exactly one winner, at or past 121, the other below; nothing after GAME_OVER
    assert g.winner in (0, 1) and g.current_player is None and g.legal_actions() == []
    assert g.scores[g.winner] >= 121 > g.scores[1 - g.winner]
    assert g.events[-1].kind is K.GAME_OVER and g.events[-1].player == g.winner
    assert sum(e.kind is K.GAME_OVER for e in g.events) == 1
    # every point scored, checked against the brute-force references
    for e in g.events:
        if e.kind is K.PLAY:
            assert e.points == brute_peg(list(e.cards))
        elif e.kind is K.SHOW:
            assert e.points == brute_show(list(e.cards[:4]), e.cards[4], e.what == "crib")
        elif e.kind is K.SCORE:
            assert (e.reasons[0].kind.value, e.points) in {
                ("go", 1),
                ("last card", 1),
                ("his heels", 2),
            }
    # replay and records give identical states, at the end and midway
    assert ce.replay(seed, g.decisions, interactive_cuts=interactive) == g
    assert ce.GameState.from_record(g.to_record()) == g
    for s in snapshots:
        assert ce.GameState.from_record(s.to_record()) == s


@settings(max_examples=60, deadline=None)
@given(seeds, seeds)
def test_clones_are_independent(seed: int, choice_seed: int) -> None:
    rng = np.random.default_rng(choice_seed)
    g = ce.new_game(seed)
    for _ in range(int(rng.integers(0, 60))):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.apply(acts[int(rng.integers(len(acts)))])
    before = g.clone()
    h = g.clone()
    assert h == g
    while not h.is_over:
        h.apply(h.legal_actions()[-1])
    assert g == before and (g.is_over or h != g)


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_r6_legal_plays_are_exactly_the_cards_that_fit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    g = ce.new_game(seed % 2**32)
    while not g.is_over:
        acts = g.legal_actions()
        if g.phase is ce.Phase.PLAY:
            hand = g.hands[g.current_player]
            assert sorted(acts) == sorted(c for c in hand if g.count + _value(c) <= 31)
            assert acts  # R6.3: a forced go is never asked of a player
        elif g.phase is ce.Phase.DISCARD:
            assert len(acts) == 15
        g.apply(acts[int(rng.integers(len(acts)))])
        if g.deal_no >= 2:
            break


def test_views_hold_plain_values_only_and_spectators_see_no_hands() -> None:
    """A PlayerView holds no reference to the state (nothing hidden is reachable through it)."""
    import dataclasses

    g = ce.new_game(12)
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    plain = (int, bool, str, tuple, type(None), ce.Phase, ce.Rules)
    # Rules is a frozen value of ints only (the target and skunk lines), not a reference.
    assert all(type(getattr(g.rules, f.name)) is int for f in dataclasses.fields(g.rules))

    def is_plain(x) -> bool:
        return isinstance(x, plain) and (not isinstance(x, tuple) or all(is_plain(y) for y in x))

    for seat in (0, 1):
        v = g.view(seat)
        assert all(is_plain(getattr(v, f.name)) for f in dataclasses.fields(v))
        assert set(v.hand) == set(g.hands[seat]) and not set(v.hand) & set(g.hands[1 - seat])
        assert not set(cards_in_view(v)) & (set(g.crib) - set(g.discards[seat]))
    for e in ce.visible_events(g, None):
        if e.kind in (K.DEAL, K.DISCARD):
            assert e.cards == ()
