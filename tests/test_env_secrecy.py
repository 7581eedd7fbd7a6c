"""No env hands its opponent (or its learner) a way to the hidden cards.

Issue 23, finding 4: the Gym env seeded its opponent's generator with the raw second draw of the
env's generator, so after ``reset(seed=123)`` an opponent could rebuild the learner's six cards
(40 of 40 episodes). Env opponents' generators are now derived as the tournament's are
(:func:`cribbage_env.seeding.agent_rng` of an agent seed, the game seed and the seat).
"""

from __future__ import annotations

import numpy as np
import pytest
from cheater_agent import EnvCheaterAgent, _numbers

import cribbage_env as ce
from cribbage_env.env import CribbageEnv
from cribbage_env.seeding import agent_rng


def _learner_six(env: CribbageEnv) -> tuple[int, ...]:
    assert env.game is not None
    return tuple(sorted(ce.new_game(env.game.seed).view(env.seat).hand))


def _play(env: CribbageEnv, rng: np.random.Generator, seed: int | None = None) -> None:
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, done, _, info = env.step(action)


def test_the_env_cheater_finds_the_old_derivation() -> None:
    """Control: against the old derivation (the raw sibling draw) the cheater rebuilds the deal."""
    cheater = EnvCheaterAgent()
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(123)))
    for _ in range(5):
        game_seed, opp_seed = rng.integers(0, 2**63 - 1, size=2).tolist()
        view = ce.new_game(game_seed).view(1)
        old = np.random.Generator(np.random.PCG64(opp_seed))
        assert cheater.learner_hand(view, old) == tuple(sorted(ce.new_game(game_seed).view(0).hand))


@pytest.mark.parametrize("seat", [0, "alternate"])
def test_an_env_opponent_cannot_rebuild_the_learner_hand(seat) -> None:
    cheater = EnvCheaterAgent()
    env = CribbageEnv(opponent=cheater, episode="deal", seat=seat)
    truth = []
    rng = np.random.default_rng(0)
    for episode in range(40):
        _play(env, rng, 123 if episode == 0 else None)
        truth.append(_learner_six(env))
    assert len(cheater.found) == 40
    assert sum(f == t for f, t in zip(cheater.found, truth, strict=True)) == 0
    assert cheater.found == [None] * 40


def test_env_opponent_generator_is_the_tournament_derivation() -> None:
    env = CribbageEnv(opponent="random", seat=1, agent_seed=99)
    env.reset(seed=5)
    assert env.game is not None and env.opponent_rng is not None
    want = agent_rng(99, env.game.seed, 0)
    assert env.opponent_rng.bit_generator.state == want.bit_generator.state
    # a pinned agent seed replays the opponent's decisions; the deals never depend on it
    a, b = CribbageEnv(agent_seed=1), CribbageEnv(agent_seed=1)
    c = CribbageEnv(agent_seed=2)
    for e in (a, b, c):
        e.reset(seed=8)
    assert a.game.decisions == b.game.decisions  # type: ignore[union-attr]
    assert a.game.seed == c.game.seed  # type: ignore[union-attr]


def test_env_agent_seed_is_drawn_and_checked() -> None:
    assert CribbageEnv().agent_seed != CribbageEnv().agent_seed
    for bad in (-1, 1.5, True, 1 << 128):
        with pytest.raises(ValueError, match="agent seed"):
            CribbageEnv(agent_seed=bad)


def test_openspiel_agent_bot_generator_hides_its_seed() -> None:
    pytest.importorskip("pyspiel")
    from agents.openspiel_bots import AgentBot

    for seed in range(20):
        for player in (0, 1):
            bot = AgentBot("random", player, seed)
            assert seed not in _numbers(bot._rng)
    a, b = AgentBot("random", 0, 5, agent_seed=3), AgentBot("random", 0, 5, agent_seed=3)
    assert a._rng.bit_generator.state == b._rng.bit_generator.state
