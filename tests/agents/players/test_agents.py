"""Agents: conformance for every registered agent (legal, deterministic, view-only) and
the documented behaviour of greedy, novice and expectimax."""

from __future__ import annotations

import gc
from itertools import combinations

import numpy as np
import pytest
from brute_force_reference import brute_show

import cribbage_env as ce
from agents import AGENTS, LEVELS, AgentSpecError, make_agent
from agents.base import Hint
from cribbage_env.analysis.discard import analyze_discards
from cribbage_env.rules.core import Phase

#: Expensive search agents get fewer games in the default run.
GAMES = {name: 2 if name in ("expert", "master", "ismcts", "coach") else 4 for name in AGENTS}
#: Search agents whose default budget is seconds per decision are checked with a small one.
SPECS = {name: name for name in AGENTS} | {"ismcts": "ismcts:sims=2", "master": "master:worlds=24"}


def _buildable(name: str) -> str:
    """Agents that need a parameter (a trained model's path) or an optional extra are checked
    where those exist; here they are skipped with the reason."""
    try:
        make_agent(name)
    except (AgentSpecError, ImportError) as exc:
        pytest.skip(f"agent {name!r} cannot be built without parameters/extras: {exc}")
    return name


def _play(
    names: tuple[str, str], seed: int, *, interactive_cuts: bool = False, check_views: bool = True
) -> ce.GameState:
    agents = [make_agent(SPECS.get(n, n)) for n in names]
    rngs = [np.random.default_rng([seed, p]) for p in (0, 1)]
    g = ce.new_game(seed, interactive_cuts=interactive_cuts)
    while not g.is_over:
        p = g.current_player
        view = g.view(p)
        action = agents[p].act(view, rngs[p])
        if check_views:
            assert isinstance(action, int) and not isinstance(action, bool)
            assert action in view.legal_actions, (names[p], view, action)
        g.apply(action, player=p)
    return g


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_plays_only_legal_actions(name: str) -> None:
    """R4-R8: over seeded games against random (both seats, with and without interactive cuts),
    every action is in the view's legal set and every game ends with a winner at 121 (R10.1)."""
    _buildable(name)
    for seed in range(GAMES[name]):
        for names in ((name, "random"), ("random", name)):
            g = _play(names, seed, interactive_cuts=seed % 2 == 1)
            assert max(g.scores) >= 121 and g.winner in (0, 1)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_is_deterministic_given_the_seed(name: str) -> None:
    _buildable(name)
    a = _play((name, name), seed=123, check_views=False)
    b = _play((name, name), seed=123, check_views=False)
    assert a.decisions == b.decisions and a == b


def _hidden_variant(g: ce.GameState, seat: int, rng: np.random.Generator) -> ce.GameState:
    """A copy of ``g`` where the cards ``seat`` cannot see (opponent's hand and discards) are
    replaced by other unseen cards."""
    h = g.clone()
    opp = 1 - seat
    view = g.view(seat)
    unseen = view.unseen_cards()
    opp_hidden = list(h.hands[opp]) + list(h.discards[opp])
    pool = [c for c in unseen if c not in opp_hidden]
    new = list(rng.choice(pool, size=len(opp_hidden), replace=False))
    new = [int(c) for c in new]
    mapping = dict(zip(opp_hidden, new, strict=True))
    h.hands[opp] = [mapping[c] for c in h.hands[opp]]
    if h.discards[opp]:
        h.discards[opp] = tuple(mapping[c] for c in h.discards[opp])
        h.kept[opp] = [mapping.get(c, c) for c in h.kept[opp]]
        h.crib = [mapping.get(c, c) for c in h.crib]
    return h


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_decides_from_its_view_only(name: str) -> None:
    """Information hiding: states that differ only in cards hidden from the seat give equal
    views and the same decision, and nothing reachable from a view is the game state."""
    _buildable(name)
    agent = make_agent(SPECS[name])
    rng = np.random.default_rng(5)
    g = ce.new_game(77)
    checked = 0
    while not g.is_over and checked < 25:
        p = g.current_player
        if g.phase in (Phase.DISCARD, Phase.PLAY):
            other = _hidden_variant(g, p, rng)
            assert other != g  # the hidden cards really differ
            v1, v2 = g.view(p), other.view(p)
            assert v1 == v2
            a1 = agent.act(v1, np.random.default_rng(9))
            a2 = agent.act(v2, np.random.default_rng(9))
            assert a1 == a2
            checked += 1
            reachable = gc.get_referents(v1)
            assert not any(isinstance(x, ce.GameState) for x in reachable)
        g.apply(agent.act(g.view(p), rng))
    assert checked >= 10


def test_levels_name_registered_agents() -> None:
    assert {"easy", "medium", "hard"} <= set(LEVELS)
    assert make_agent("easy").name == "novice"
    assert make_agent("medium").name == "greedy"
    assert make_agent("hard").name == "expectimax"
    for level in LEVELS.values():
        assert level.spec.partition(":")[0] in AGENTS and level.label


# ---------------------------------------------------------------------------- greedy


def _discard_view(seed: int) -> ce.PlayerView:
    g = ce.new_game(seed)
    return g.view(g.current_player)


def test_greedy_discard_keeps_the_best_hand_by_brute_force() -> None:
    """Greedy keeps the four with the highest exact mean show score over the 46 starters (R9)."""
    agent = make_agent("greedy")
    for seed in range(6):
        view = _discard_view(seed)
        hand = list(view.hand)
        starters = [c for c in range(52) if c not in hand]
        best = max(
            (sum(brute_show(list(k), s, False) for s in starters), k) for k in combinations(hand, 4)
        )
        action = agent.act(view, np.random.default_rng(0))
        keep = set(hand) - set(ce.discard_cards(action))
        mean = sum(brute_show(sorted(keep), s, False) for s in starters)
        assert mean == best[0]


def _play_view(hands, crib, starter, plays, scores=(0, 0), dealer=0):
    g = ce.GameState.from_position(
        [ce.parse_cards(h) for h in hands],
        ce.parse_cards(crib),
        ce.parse_card(starter),
        dealer=dealer,
        scores=scores,
    )
    for c in plays:
        g.apply(ce.parse_card(c))
    return g, g.view(g.current_player)


def test_greedy_pegs_the_most_points_now_ties_lowest_value() -> None:
    """R7.1/R7.2: after a 7 is laid, pairing it (7H) and making fifteen (8H) both score 2;
    the tie goes to the lower counting value, 7H. 2C/3C score nothing."""
    g, view = _play_view(["7C 9D KH QS", "7H 8H 2C 3C"], "AD AH AS 9C", "6D", ["7C"], dealer=1)
    agent = make_agent("greedy")
    assert view.seat == 1 and view.count == 7
    assert ce.card_str(agent.act(view, np.random.default_rng(0))) == "7H"


def test_greedy_takes_a_fifteen_over_nothing() -> None:
    g, view = _play_view(["TC 9D KH QS", "5H 2C 3C 4C"], "AD AH AS 9C", "6D", ["TC"], dealer=1)
    assert ce.card_str(make_agent("greedy").act(view, np.random.default_rng(0))) == "5H"


def test_novice_discards_randomly_but_reproducibly() -> None:
    view = _discard_view(3)
    agent = make_agent("novice")
    picks = {agent.act(view, np.random.default_rng(s)) for s in range(30)}
    assert len(picks) > 3 and picks <= set(view.legal_actions)
    assert agent.act(view, np.random.default_rng(1)) == agent.act(view, np.random.default_rng(1))


# ---------------------------------------------------------------------------- expectimax


def test_expectimax_discard_is_the_analyzer_best_net() -> None:
    agent = make_agent("expectimax")
    for seed in range(8):
        view = _discard_view(seed)
        best = analyze_discards(view.hand, dealer=view.is_dealer)[0]
        assert agent.act(view, np.random.default_rng(0)) == best.action


def test_expectimax_does_not_lead_a_five() -> None:
    """A led 5 lets any ten-card make fifteen (R7.1)."""
    g, view = _play_view(["5H 9D KH 4S", "7H 2C 3C 8C"], "AD AH AS 9C", "6D", [], dealer=1)
    card = make_agent("expectimax").act(view, np.random.default_rng(0))
    assert ce.card_str(card) != "5H"


def test_expectimax_avoids_leaving_21_for_a_thirty_one() -> None:
    """Count 11, nothing scores now: TD makes 21 and any of the many ten-cards then makes 31
    (R7.1), so expectimax plays something else (greedy would play its lowest card anyway)."""
    g, view = _play_view(
        ["AC TD 9H 7S", "JH 2C 3C 8C"], "AD AH AS 9C", "6D", ["AC", "JH"], dealer=1
    )
    assert view.count == 11 and view.seat == 0
    assert ce.card_str(make_agent("expectimax").act(view, np.random.default_rng(0))) != "TD"


def test_expectimax_plays_the_card_that_wins_now() -> None:
    """R10.1: at 119 the pair (2) wins the game at once; the other cards score nothing."""
    g, view = _play_view(
        ["7C 9D KH QS", "7H 2C 3C 4C"], "AD AH AS 9C", "6D", ["7C"], scores=(50, 119), dealer=1
    )
    assert view.seat == 1
    card = make_agent("expectimax").act(view, np.random.default_rng(0))
    assert ce.card_str(card) == "7H"


@pytest.mark.parametrize("name", ["greedy", "expectimax"])
def test_hints_explain_the_chosen_action(name: str) -> None:
    agent = make_agent(name)
    g = ce.new_game(21)
    seen_phases = set()
    while not g.is_over and len(seen_phases) < 2:
        view = g.view(g.current_player)
        hint = agent.hint(view)
        assert isinstance(hint, Hint)
        assert hint.action == agent.act(view, np.random.default_rng(0))
        assert hint.options[0].action == hint.action and hint.summary
        assert all(o.reason for o in hint.options)
        if view.phase is Phase.DISCARD:
            assert len(hint.options) == 3
            d = hint.options[0].details
            assert d["net"] == pytest.approx(d["hand_ev"] + d["crib_ev"])
            values = [o.value for o in hint.options]
            assert values == sorted(values, reverse=True)
        else:
            assert {o.action for o in hint.options} == set(view.legal_actions)
        seen_phases.add(view.phase)
        g.apply(hint.action)
    assert seen_phases == {Phase.DISCARD, Phase.PLAY}


@pytest.mark.parametrize("name", ["greedy", "expectimax"])
def test_hint_when_it_is_not_your_turn_is_a_clear_error(name: str) -> None:
    g = ce.new_game(3)
    waiting = 1 - g.current_player
    with pytest.raises(ValueError, match="no decision to hint"):
        make_agent(name).hint(g.view(waiting))
