"""The compiled deal simulator agrees with the engine, and the expert's search on it agrees with
the search through the engine (same guesses, same estimates, same decisions).

The quick version of the differential test; ``benchmarks/speed/fastsim_speed.py --check N`` runs it
over millions of positions (figures in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from agents.players.expert import ExpertAgent
from agents.players.fastplay import ENGINE_POLICIES, engine_play_out, random_play_position
from agents.search.opponent_model import (
    sample_modelled_arrays,
    sample_modelled_guesses,
    sample_opponent_deal_arrays,
    sample_opponent_deals,
    split_nets,
)
from agents.search.peg_search import WIN_UTILITY, play_out, search_play
from agents.search.play_outs import _play_view, deal_play_outs
from cribbage_env.kernels import fastsim as F
from cribbage_env.kernels import simkernel as K
from cribbage_env.rules.actions import discard_cards
from cribbage_env.rules.cards import JACK, RANK, parse_cards
from cribbage_env.rules.engine import GameState, new_game
from cribbage_env.unseen.determinize import determinize

POLICIES = tuple(F.POLICIES)


@pytest.mark.parametrize("policy", POLICIES)
def test_play_outs_agree_with_the_engine(policy: str) -> None:
    """Same cards laid, same scoring events in the same order, same scores, same end at 121."""
    rng = np.random.default_rng(2024)
    games = [random_play_position(rng) for _ in range(300)]
    out = F.play_out(np.stack([F.state_from_game(g) for g in games]), policy, record=True)
    ended = 0
    for i, g in enumerate(games):
        ref = g.clone()
        events = engine_play_out(ref, policy)
        laid = [c for _, c in g.played] + ref.decisions[len(g.decisions) :]
        got = [tuple(e) for e in out.events[i, : out.nevents[i]].tolist()]
        assert got == events, (i, got, events)
        assert tuple(out.scores[i]) == ref.scores
        assert out.winner[i] == (-1 if ref.winner is None else ref.winner)
        assert out.cards_played(i) == laid
        ended += ref.winner is not None
    assert ended > 20  # the positions near 121 do end there


def test_mixed_policies_per_seat_and_the_input_checks() -> None:
    rng = np.random.default_rng(7)
    games = [random_play_position(rng) for _ in range(100)]
    out = F.play_out(np.stack([F.state_from_game(g) for g in games]), ("greedy", "expectimax"))
    for i, g in enumerate(games):
        engine_play_out(g, ("greedy", "expectimax"))
        assert tuple(out.scores[i]) == g.scores
    with pytest.raises(F.SimulatorInputError, match="policy"):
        F.play_out(out.states, "best")
    with pytest.raises(F.SimulatorInputError, match="starts in the play"):
        F.state_from_game(new_game(1))


def test_play_scores_are_the_scores_before_the_show() -> None:
    g = GameState.from_position(
        [parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
        parse_cards("KH KD QS QC"),
        parse_cards("5S")[0],
    )
    out = F.play_out(F.state_from_game(g)[None, :], "heuristic", record=True)
    shows = [e for e in out.events[0, : out.nevents[0]].tolist() if e[0] in (K.EV_HAND, K.EV_CRIB)]
    # Pone (seat 1) shows first, then the dealer's 29 hand, then the crib (R9).
    assert [e[1] for e in shows] == [1, 0, 0] and shows[1][2] == 29
    assert (out.scores[0] - out.play_scores[0]).tolist() == [29 + shows[2][2], shows[0][2]]


def _positions(n: int, seed: int):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        g = random_play_position(rng)
        v = g.view(g.current_player)
        if len({RANK[c] for c in v.legal_actions}) > 1:
            out.append((g, v))
    return out


@pytest.mark.parametrize("policy", ["heuristic", "expectimax"])
def test_search_estimates_equal_the_engine_search_for_the_same_guesses(policy: str) -> None:
    engine = None if policy == "heuristic" else ENGINE_POLICIES[policy]
    for i, (_g, v) in enumerate(_positions(40 if policy == "heuristic" else 15, 11)):
        guesses = sample_modelled_guesses(v, np.random.default_rng(i), 24)
        a = search_play(v, np.random.default_rng(0), 24, policy=engine, guesses=guesses)
        b = search_play(v, np.random.default_rng(0), 24, policy=policy, guesses=guesses)
        assert a == b
        stop_a = search_play(v, None, 48, policy=engine, guesses=guesses * 2, stop_z=0.5)
        stop_b = search_play(v, None, 48, policy=policy, guesses=guesses * 2, stop_z=0.5)
        assert stop_a == stop_b


def _old_sample(view, rng, n, tau=0.5):
    """The per-guess ``rng.choice`` loop the modelled sampler used before (its reference)."""
    from cribbage_env.analysis.discard import DISCARD_INDEX, KEEP_INDEX

    hands6, pv, mass, total, played = _sampler_state(view, rng, n, tau)
    rows = rng.choice(len(hands6), size=n, replace=True, p=mass / total)
    out = []
    for row in rows:
        split = int(rng.choice(15, p=pv[row] / mass[row]))
        keep = [int(c) for c in hands6[row][KEEP_INDEX[split]] if int(c) not in played]
        out.append((keep, [int(c) for c in hands6[row][DISCARD_INDEX[split]]]))
    return out


def _sampler_state(view, rng, n, tau):
    from cribbage_env.analysis.discard import DISCARD_INDEX

    opp = 1 - view.seat
    played = [c for p, c in view.played if p == opp]
    unseen = np.array(view.unseen_cards(), dtype=np.intp)
    m = max(n * 4, 8)
    draws = np.argsort(rng.random((m, unseen.size)), axis=1)[:, : 6 - len(played)]
    hands6 = np.concatenate(
        [np.tile(np.array(played, dtype=np.intp), (m, 1)), unseen[draws]], axis=1
    )
    nets = split_nets(hands6, view.dealer == opp)
    p = np.exp((nets - nets.max(axis=1, keepdims=True)) / tau)
    p /= p.sum(axis=1, keepdims=True)
    valid = np.ones((m, 15), dtype=bool)
    for i in range(len(played)):
        valid &= (DISCARD_INDEX != i).all(axis=1)[None, :]
    pv = p * valid
    mass = pv.sum(axis=1)
    return hands6, pv, mass, mass.sum(), set(played)


def test_batched_split_draws_are_the_per_guess_draws() -> None:
    for i, (_g, v) in enumerate(_positions(30, 5)):
        if v.goes:
            continue  # the reference above leaves out the go filter
        assert sample_modelled_guesses(v, np.random.default_rng(i), 20) == _old_sample(
            v, np.random.default_rng(i), 20
        )
        hands, discs = sample_modelled_arrays(v, np.random.default_rng(i), 20)
        assert hands.shape == (20, v.opponent_cards_left) and discs.shape == (20, 2)


def _old_endgame_values(view, action, deals):
    """The endgame re-rank's values through the engine (as expert.py computed them before)."""
    out = []
    for opp_hand, opp_disc, starter in deals:
        disc = discard_cards(action)
        keep = [c for c in view.hand if c not in disc]
        g = determinize(_play_view(view, keep, disc, starter), opp_hand, opp_disc)
        if RANK[starter] == JACK and g._add(view.dealer, 2):
            out.append(WIN_UTILITY if view.dealer == view.seat else -WIN_UTILITY)
            continue
        from agents.search.peg_search import rollout_card

        out.append(play_out(g, view.seat, rollout_card(g)))
    return out


def _old_opponent_deals(view, rng, n, tau=0.5):
    """The per-deal ``rng.choice`` loop sample_opponent_deals used before (its reference)."""
    from cribbage_env.analysis.discard import DISCARD_INDEX, KEEP_INDEX

    own = set(view.own_cards_this_deal())
    unseen = np.array([c for c in range(52) if c not in own], dtype=np.intp)
    draws = unseen[np.argsort(rng.random((n, unseen.size)), axis=1)[:, :7]]
    nets = split_nets(draws[:, :6], view.dealer != view.seat)
    p = np.exp((nets - nets.max(axis=1, keepdims=True)) / tau)
    p /= p.sum(axis=1, keepdims=True)
    out = []
    for i in range(n):
        split = int(rng.choice(15, p=p[i]))
        out.append(
            (
                [int(c) for c in draws[i, KEEP_INDEX[split]]],
                [int(c) for c in draws[i, DISCARD_INDEX[split]]],
                int(draws[i, 6]),
            )
        )
    return out


def test_endgame_play_outs_equal_the_engine_ones() -> None:
    from agents.search.peg_search import deal_utility

    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(40):
        g = new_game(seed)
        g.scores_ = [int(rng.integers(96, 121)), int(rng.integers(96, 121))]
        v = g.view(g.current_player)
        deals = sample_opponent_deals(v, np.random.default_rng(seed), 12)
        assert deals == _old_opponent_deals(v, np.random.default_rng(seed), 12)
        arrays = sample_opponent_deal_arrays(v, np.random.default_rng(seed), 12)
        action = v.legal_actions[seed % 15]
        out, start = deal_play_outs(v, action, arrays, "heuristic", heels=True)
        got = deal_utility(out.scores, out.winner, v.seat, start).tolist()
        assert got == _old_endgame_values(v, action, deals)
        checked += sum(abs(x) >= WIN_UTILITY / 2 for x in got)
    assert checked > 50  # many of these play-outs end the game


def test_expert_games_are_deterministic_and_legal() -> None:
    a, b = ExpertAgent(sims=12), ExpertAgent(sims=12)
    for agent in (a, b):
        g = new_game(5)
        rng = np.random.default_rng(1)
        while not g.is_over:
            g.apply(agent.act(g.view(g.current_player), rng))
        agent.final = g.scores
    assert a.final == b.final and max(a.final) >= 121


def test_import_cribbage_env_and_agents_do_not_import_numba() -> None:
    code = "import sys, cribbage_env, agents.players.expert; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
