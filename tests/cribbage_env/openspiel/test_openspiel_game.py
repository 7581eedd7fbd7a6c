"""The OpenSpiel game over our engine (``cribbage_env.openspiel``), checked with OpenSpiel's own
tooling: its random-simulation checks, ``rl_environment``, its ISMCTS bot, serialization; and
against our engine: the same chance outcomes and decisions give the same scores.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_games import random_game

import cribbage_env as ce

pyspiel = pytest.importorskip("pyspiel")
ospiel = pytest.importorskip("cribbage_env.openspiel")

K = ce.EventKind


def _random_state(seed: int, decisions: int) -> ospiel.CribbageState:
    """A state after ``decisions`` random decisions (chance drawn from its outcomes)."""
    rng = np.random.default_rng(seed)
    s = pyspiel.load_game("python_cribbage").new_initial_state()
    made = 0
    while not s.is_terminal() and (made < decisions or s.is_chance_node()):
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            s.apply_action(int(rng.choice(outcomes)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
            made += 1
    return s


def test_loads_by_name_with_parameters():
    game = pyspiel.load_game("python_cribbage")
    assert game.num_distinct_actions() == 52 and game.max_chance_outcomes() == 52
    assert game.get_type().provides_information_state_tensor
    assert pyspiel.load_game("python_cribbage(returns=skunk)").max_utility() == 3
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("python_cribbage(returns=money)")


def test_openspiel_random_simulation_checks():
    game = pyspiel.load_game("python_cribbage")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _engine_chance(g: ce.GameState) -> list[list[int]]:
    """Per deal, the chance outcomes OpenSpiel's game draws: 12 cards in dealing order, starter."""
    per_deal: list[list[int]] = []
    for e in g.events:
        if e.kind is K.DEAL:
            pone6, dealer6 = e.cards[:6], e.cards[6:]
            per_deal.append([c for pair in zip(pone6, dealer6, strict=True) for c in pair])
        elif e.kind is K.STARTER:
            per_deal[-1].append(e.cards[0])
    return per_deal


@pytest.mark.parametrize("seed", range(6))
def test_same_chance_and_decisions_give_the_engines_scores(seed):
    g = random_game(seed, np.random.default_rng(seed))
    first = next(e.player for e in g.events if e.kind is K.FIRST_DEALER)
    chance = [first] + [c for deal in _engine_chance(g) for c in deal]
    picks: list[int] = []
    for a in g.decisions:
        picks.extend(ce.discard_cards(a) if a >= 100 else (a,))
    s = pyspiel.load_game("python_cribbage").new_initial_state()
    deal_scores = [e.scores for e in g.events if e.kind is K.SHOW and e.what == "crib"]
    seen_scores = []
    while not s.is_terminal():
        queue = chance if s.is_chance_node() else picks
        action = queue.pop(0)
        assert action in s.legal_actions()
        deal = s.engine.deal_no if s.history() else -1
        s.apply_action(action)
        if s.engine.deal_no != deal >= 0 and not s.is_terminal():
            seen_scores.append(s.engine.scores)
    assert s.engine.scores == g.scores and not picks
    assert seen_scores == deal_scores[: len(seen_scores)]
    winner = g.winner
    assert s.returns()[winner] == 1.0 and s.returns()[1 - winner] == -1.0


def test_returns_modes_are_zero_sum():
    s = _random_state(3, 10_000)
    assert s.is_terminal()
    scores, w = s.engine.scores, s.engine.winner
    expected = {"win": 1.0, "skunk": float(ce.skunk_level(scores, ce.STANDARD)),
                "points": float(121 - scores[1 - w])}  # fmt: skip
    for mode, value in expected.items():
        t = pyspiel.load_game(f"python_cribbage(returns={mode})").new_initial_state()
        for a in s.history():
            t.apply_action(a)
        assert t.returns()[w] == value and t.returns()[1 - w] == -value


def test_information_state_hides_the_opponents_cards_until_the_show():
    s = _random_state(11, 3)  # mid discard of the first deal
    g = s.engine
    for seat in (0, 1):
        text = s.information_state_string(seat)
        for card in g.hands[1 - seat]:
            assert f"P{1 - seat} dealt {ce.card_str(card)}" not in text
        for card in g.hands[seat]:
            assert f"P{seat} dealt {ce.card_str(card)}" in text


def test_resample_keeps_the_infostate_and_redraws_hidden_cards():
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    s = _random_state(5, 8)  # in the play of the first deal
    me = s.current_player()
    opp = 1 - me
    true_hand = sorted(s.engine.hands[opp])
    hands = set()
    for _ in range(30):
        r = s.resample_from_infostate(me, sampler)
        assert r.information_state_string(me) == s.information_state_string(me)
        assert r.current_player() == me and r.legal_actions() == s.legal_actions()
        assert r.engine.hands[me] == s.engine.hands[me] and r.engine.scores == s.engine.scores
        unseen = set(r.engine.hands[opp]) | set(r.engine.crib)
        assert not unseen & (set(s.engine.kept[me]) | {s.engine.starter})
        hands.add(tuple(sorted(r.engine.hands[opp])))
    assert len(hands) > 1 and any(list(h) != true_hand for h in hands)


def test_clone_is_independent_and_serialization_round_trips():
    s = _random_state(2, 12)
    c = s.clone()
    before = str(s)
    while not c.is_terminal():
        c.apply_action(
            c.legal_actions()[0] if not c.is_chance_node() else c.chance_outcomes()[-1][0]
        )
    assert str(s) == before and not s.is_terminal()
    text = pyspiel.serialize_game_and_state(s.get_game(), s)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == s.history() and str(back) == str(s)
    assert back.information_state_string(0) == s.information_state_string(0)


def test_rl_environment_steps_whole_episodes_with_masks():
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game("python_cribbage"), seed=4)
    ts = env.reset()
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][p]
        assert legal and len(ts.observations["info_state"][p]) == ce.encoding.OBS_SIZE
        ts = env.step([legal[-1]])
        steps += 1
    assert steps > 40 and sorted(ts.rewards) == [-1.0, 1.0]


def test_openspiel_ismcts_finishes_a_whole_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_cribbage")
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 2,
        random_state=np.random.RandomState(2),
    )  # fmt: skip
    rng = np.random.default_rng(0)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.choice([o for o, _ in s.chance_outcomes()])))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert max(s.engine.scores) >= 121 and sorted(s.returns()) == [-1.0, 1.0]


def test_our_agents_play_in_openspiel_as_bots():
    from open_spiel.python.algorithms import evaluate_bots

    from agents.players.openspiel_bots import AgentBot

    game = pyspiel.load_game("python_cribbage")
    wins = 0
    for seed in range(4):
        bots = [AgentBot("expectimax", 0, seed), AgentBot("random", 1, seed)]
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), bots, np.random.RandomState(seed)
        )
        wins += returns[0] > 0
    assert wins >= 3  # expectimax beats random in 99% of games


def test_an_agent_bot_sees_only_its_view():
    from agents.players.openspiel_bots import AgentBot

    seen = []

    class Spy:
        name = "spy"

        def act(self, view, rng):
            seen.append(view)
            return view.legal_actions[0]

    game = pyspiel.load_game("python_cribbage")
    s = game.new_initial_state()
    bots = [AgentBot(Spy(), 0), AgentBot("random", 1)]
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.choice([o for o, _ in s.chance_outcomes()])))
        else:
            p = s.current_player()
            s.apply_action(bots[p].step(s))
    assert seen and all(isinstance(v, ce.PlayerView) and v.seat == 0 for v in seen)


def test_a_state_rebuilt_from_a_view_shows_that_view():
    game = pyspiel.load_game("python_cribbage")
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(4):
        g = ce.new_game(seed)
        while not g.is_over:
            seat = g.current_player
            view = g.view(seat)
            state = ospiel.CribbageState.from_view(game, view, rng)
            assert state.player_view(seat) == (view, None)
            assert state.current_player() == seat and state.engine.scores == g.scores
            if view.phase is ce.Phase.PLAY:
                assert state.legal_actions() == sorted(view.legal_actions)
            checked += 1
            g.apply(view.legal_actions[int(rng.integers(len(view.legal_actions)))])
    assert checked > 100


def test_openspiel_ismcts_plays_as_our_agent():
    from agents.players.openspiel_bots import ISMCTSAgent

    agent = ISMCTSAgent(sims=2)
    rng = np.random.default_rng(1)
    g = ce.new_game(8)
    while not g.is_over:
        view = g.view(g.current_player)
        if g.current_player == 0:
            action = agent.act(view, rng)
        else:
            action = view.legal_actions[int(rng.integers(len(view.legal_actions)))]
        assert action in view.legal_actions
        g.apply(action)
    assert g.winner in (0, 1)


def test_rule_parameters_make_the_short_game():
    game = pyspiel.load_game("python_cribbage(rules=short)")
    rng = np.random.default_rng(2)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.choice([o for o, _ in s.chance_outcomes()])))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.engine.rules.target == 61 and 61 <= max(s.engine.scores) < 121
    lines = pyspiel.load_game("python_cribbage(target=91)").rules
    assert (lines.skunk, lines.double_skunk) == (61, 31)  # the lines follow the target
    assert pyspiel.load_game("python_cribbage(rules=short,skunk=20)").rules == ce.Rules(61, 20, 1)
    with pytest.raises(Exception, match="skunk"):
        pyspiel.load_game("python_cribbage(target=50,skunk=51)")
