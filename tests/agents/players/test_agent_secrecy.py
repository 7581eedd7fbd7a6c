"""Leak 1: nothing reachable from an agent's generator reveals the game's chance.

A "cheater" agent (tests/cheater_agent.py) reads its generator's seed sequence and state and
tries to rebuild its own deal from every number it finds; it raises when it succeeds. It does
succeed against the old derivation (the game seed as the generator's entropy), so the test can
fail; it must fail against ``cribbage_env.seeding`` on every backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from cheater_agent import CheaterAgent, rebuild

import cribbage_env as ce
from agents.tournament import play
from agents.tournament.play import play_game
from agents.tournament.runner import run_plan
from agents.tournament.tournament import game_seeds, make_plan
from cribbage_env.seeding import agent_entropy, agent_rng, check_agent_seed, new_agent_seed


def _first_view(seed: int, seat: int):
    g = ce.new_game(seed)
    return g.view(seat)


def test_the_cheater_catches_the_old_leak() -> None:
    """Control: with the game seed as entropy (the old agent_rng) the cheater rebuilds the deal."""
    for seed in (1, 2**40 + 5, 2**62 + 3):
        for seat in (0, 1):
            old = np.random.Generator(
                np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(100, seat)))
            )
            assert rebuild(_first_view(seed, seat), old) == seed


def test_the_cheater_learns_nothing_from_the_agent_generator() -> None:
    agent_seed = new_agent_seed()
    for seed in game_seeds(3, 40):
        for seat in (0, 1):
            assert rebuild(_first_view(seed, seat), agent_rng(agent_seed, seed, seat)) is None
    # A pinned small agent seed: the generator still shows only a digest of it.
    assert rebuild(_first_view(7, 0), agent_rng(0, 7, 0)) is None


def test_agent_streams_are_one_way_and_distinct() -> None:
    rng = agent_rng(5, 1234, 0)
    entropy = rng.bit_generator.seed_seq.entropy
    assert entropy == agent_entropy(5, 1234, 0) and entropy.bit_length() > 200
    assert 1234 not in (entropy, *rng.bit_generator.seed_seq.spawn_key)
    draws = {int(agent_rng(5, 1234, seat).integers(1 << 62)) for seat in (0, 1)}
    draws |= {
        int(agent_rng(6, 1234, 0).integers(1 << 62)),
        int(agent_rng(5, 1235, 0).integers(1 << 62)),
    }
    assert len(draws) == 4
    assert new_agent_seed() != new_agent_seed()
    for bad in (-1, 1 << 128, 1.5, True, "3"):
        with pytest.raises(ValueError, match="agent seed"):
            check_agent_seed(bad)


def test_the_agent_seed_changes_decisions_never_deals() -> None:
    one = play_game("random", "random", 11, agent_seed=1)
    two = play_game("random", "random", 11, agent_seed=2)
    assert one.decisions != two.decisions
    deal = [next(e.cards for e in g.events if e.kind is ce.EventKind.DEAL) for g in (one, two)]
    assert deal[0] == deal[1]
    assert play_game("random", "random", 11, agent_seed=1) == one


def test_plans_draw_and_record_an_agent_seed() -> None:
    a, b = make_plan(["random", "random"], 2), make_plan(["random", "random"], 2)
    assert a.agent_seed != b.agent_seed and a.params()["agent_seed"] == a.agent_seed
    assert make_plan(["random", "random"], 2, agent_seed=9).tasks()[0].agent_seed == 9


def test_a_cheater_in_a_serial_tournament_fails_to_cheat(monkeypatch) -> None:
    for seat in (0, 1):
        monkeypatch.setitem(play._AGENT_CACHE, ("cheater", seat), CheaterAgent())
    out = run_plan(
        make_plan(["cheater", "random"], 40, seed=2, check_agents=False), backend="serial"
    )
    assert len(out.results) == 40  # a successful cheat would have raised AgentFailure
