"""No env hands its opponent (or its learner) a way to the hidden cards.

The Gym env seeded its opponent's generator with the raw second draw of the
env's generator, so after ``reset(seed=123)`` an opponent could rebuild the learner's six cards
(40 of 40 episodes). Env opponents' generators are now derived as the tournament's are
(:func:`cribbage_env.seeding.agent_rng` of an agent seed, the game seed and the seat).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cheater_agent import EnvCheaterAgent, _numbers

import cribbage_env as ce
from cribbage_env.envs.rewards import REWARDS
from cribbage_env.envs.single import CribbageEnv
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
    from agents.players.openspiel_bots import AgentBot

    for seed in range(20):
        for player in (0, 1):
            bot = AgentBot("random", player, seed)
            assert seed not in _numbers(bot._rng)
    a, b = AgentBot("random", 0, 5, agent_seed=3), AgentBot("random", 0, 5, agent_seed=3)
    assert a._rng.bit_generator.state == b._rng.bit_generator.state


# ------------------------------------------------------------------ finding 5: the learner's info


def _other_worlds(view, rng: np.random.Generator, n: int) -> list[tuple[list[int], list[int]]]:
    """``n`` guesses at the opponent's hidden cards that fit ``view`` (its go's included)."""
    from cribbage_env.unseen.determinize import consistent_with_goes

    out: list[tuple[list[int], list[int]]] = []
    unseen = np.array(view.unseen_cards())
    k = view.opponent_cards_left
    while len(out) < n:
        pick = rng.permutation(unseen)[: k + 2].tolist()
        if consistent_with_goes(view, pick[:k]):
            out.append((pick[:k], pick[k:]))
    return out


def _equity_play_decisions(seed: int, episodes: int):
    """(env, info, true opponent hand, true opponent discards) at every learner decision in the
    play, over ``episodes`` one-deal episodes against greedy."""
    env = CribbageEnv("greedy", episode="deal", reward="equity", seat="alternate", agent_seed=1)
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        obs, info = env.reset(seed=seed if episode == 0 else None)
        done = False
        while not done:
            g = env.game
            assert g is not None
            if g.phase is ce.Phase.PLAY and g.to_act == env.seat:
                yield env, info, list(g.hands[1 - env.seat]), list(g.discards[1 - env.seat])
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))


def test_candidate_world_matching_cannot_single_out_the_opponent_hand() -> None:
    """The attack of the issue: value candidate worlds the way the old env did (a play-out of the
    true state) and keep those that give the reported ``win_chance``. The true world was singled
    out in 14 of 187 decisions; now the number is a function of the learner's view alone."""
    from cribbage_env.equity import chance_now
    from cribbage_env.unseen.determinize import determinize

    rng = np.random.default_rng(5)
    decisions = singled_out = old_singled_out = 0
    for env, info, hand, disc in _equity_play_decisions(11, 12):
        view = env._ep.view(env.seat)  # type: ignore[union-attr]
        worlds = [(hand, disc), *_other_worlds(view, rng, 12)]
        values = [chance_now(determinize(view, h, d), env.seat) for h, d in worlds]
        match = [i for i, v in enumerate(values) if v == info["win_chance"]]
        singled_out += match == [0]
        old_match = [
            i for i, v in enumerate(values) if v == values[0]
        ]  # the old info was values[0]
        old_singled_out += old_match == [0]
        decisions += 1
    assert decisions > 40
    assert old_singled_out > 0  # the attack works against the old number
    assert singled_out == 0


def test_states_that_look_the_same_to_the_learner_give_the_same_info() -> None:
    from cribbage_env.unseen.determinize import determinize

    rng = np.random.default_rng(6)
    compared = differ_in_truth = 0
    for env, info, _hand, _disc in _equity_play_decisions(12, 6):
        ep = env._ep
        assert ep is not None and env.game is not None
        real, view = env.game, ep.view(env.seat)
        for h, d in _other_worlds(view, rng, 2):
            other = determinize(view, h, d)
            assert other.view(env.seat) == view
            ep.game = env.game = other
            ep._views = [None, None]
            assert REWARDS["equity"].of(ep, env.seat) == info["win_chance"]
            from cribbage_env.equity import chance_now

            differ_in_truth += chance_now(other, env.seat) != chance_now(real, env.seat)
            compared += 1
        ep.game = env.game = real
        ep._views = [None, None]
    assert compared > 20 and differ_in_truth > 0


def _seed_of_hand(hand: tuple[int, ...], seat: int) -> int | None:
    from gymnasium.utils import seeding

    from cribbage_env.envs.episode import episode_seed

    for s in range(100):
        rng, _ = seeding.np_random(s)
        if tuple(sorted(ce.new_game(episode_seed(rng)).view(seat).hand)) == hand:
            return s
    return None


def test_what_an_in_process_opponent_can_learn_is_what_the_docs_say() -> None:
    """Guessable reset seeds give the deal away to the opponent's own hand (and the docs say so,
    no longer "nothing it can read leads back to the deal"); seeds from the OS do not."""
    root = Path(__file__).resolve().parents[3]
    guide = " ".join((root / "docs" / "guide" / "rewards.md").read_text().split())
    assert "Nothing it can read leads back to the deal" not in guide
    assert "learn the whole deal whenever it can guess the reset seed" in guide
    doc = " ".join((CribbageEnv.__doc__ or "").split())
    assert "nothing it can read leads back to the deal" not in doc
    assert "the whole deal whenever it can guess the reset seed" in doc
    env = CribbageEnv("random", seat=0)
    for seed in (7, 42, 99):
        env.reset(seed=seed)
        assert env.game is not None
        opp_hand = tuple(sorted(ce.new_game(env.game.seed).view(1).hand))
        assert _seed_of_hand(opp_hand, 1) == seed  # found: the docs' warning is true
    env = CribbageEnv("random", seat=0)
    env.reset()  # a first reset without a seed: the OS's entropy
    assert env.game is not None
    opp_hand = tuple(sorted(ce.new_game(env.game.seed).view(1).hand))
    assert _seed_of_hand(opp_hand, 1) is None
