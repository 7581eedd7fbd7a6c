"""The kernels interpreted (while the table's warm-up compiles them) give exactly what the
compiled kernels give, so a game replays the same whichever path ran."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from numba import njit

from agents.players.expert import ExpertAgent
from agents.players.fastplay import random_play_position
from agents.search.opponent_model import sample_modelled_arrays, split_nets
from cribbage_env.kernels import fastsim as F
from cribbage_env.kernels.interpreted import interpreted, interpreting, runner, warming
from cribbage_env.rules.cards import JACK, RANK
from cribbage_env.rules.engine import new_game


def _states(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([F.state_from_game(random_play_position(rng)) for _ in range(n)])


@pytest.mark.parametrize(("policy", "n"), [("heuristic", 100), ("greedy", 100), ("expectimax", 30)])
def test_play_outs_interpreted_are_the_compiled_ones(policy: str, n: int) -> None:
    st = _states(n, 31)
    a = F.play_out(st, policy, record=True)
    with interpreting():
        b = F.play_out(st, policy, record=True)
    assert a.states is not None and b.states is not None and a.events is not None
    assert np.array_equal(a.states, b.states) and np.array_equal(a.events, b.events)
    assert (a.winner >= 0).sum() > 3  # positions near the end do end the game


def test_search_heels_and_split_values_interpreted_are_the_compiled_ones() -> None:
    rng = np.random.default_rng(8)
    for _ in range(12):
        g = random_play_position(rng)
        v = g.view(g.current_player)
        hands, discs = sample_modelled_arrays(v, np.random.default_rng(1), 8)
        base = F.states_from_view(v, hands, discs)
        cards = sorted(set(v.legal_actions))
        a = F.search_outcomes(base, cards)
        with interpreting():
            b = F.search_outcomes(base, cards)
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    st = _states(60, 9)
    st[:, F.K.STARTER] = [13 * (i % 4) + (JACK if i % 2 else i % 13) for i in range(60)]
    st[:, F.K.SCORES] = rng.integers(100, 121, 60)
    a_st = st.copy()
    F.cut_heels(a_st)
    with interpreting():
        F.cut_heels(st)
    assert np.array_equal(a_st, st) and (st[:, F.K.WINNER] >= 0).any()
    hands6 = np.argsort(rng.random((100, 52)), axis=1)[:, :6]
    with interpreting():
        interp = split_nets(hands6, dealer=True)
    assert np.array_equal(split_nets(hands6, dealer=True), interp)


def _expert_positions() -> list:
    """Plays with a choice of rank, and discards near the end (compared by play-outs)."""
    rng = np.random.default_rng(12)
    out = []
    while len(out) < 6:
        g = random_play_position(rng)
        v = g.view(g.current_player)
        if len({RANK[c] for c in v.legal_actions}) > 1:
            out.append(v)
    for seed in range(3):
        g = new_game(seed, interactive_cuts=False)
        g.scores_ = [int(rng.integers(95, 120)), int(rng.integers(95, 120))]
        while g.phase.value != "discard":
            g.apply(g.legal_actions()[0])
        out.append(g.view(g.current_player))
    return out


def test_the_experts_decisions_are_the_same_interpreted() -> None:
    agent = ExpertAgent(sims=12)
    views = _expert_positions()
    compiled = [agent.hint(v, np.random.default_rng(i)) for i, v in enumerate(views)]
    with interpreting():
        slow = [agent.hint(v, np.random.default_rng(i)) for i, v in enumerate(views)]
    assert compiled == slow  # the same action, the same values of every option


def test_kernels_run_interpreted_only_while_another_thread_compiles() -> None:
    @njit
    def twice(x):
        return 2 * x

    assert runner(twice) is twice  # no warm-up: a first call compiles, as always
    seen: dict[str, object] = {}
    started, done = threading.Event(), threading.Event()

    def warm() -> None:
        with warming():
            seen["warming thread"] = runner(twice)
            started.set()
            done.wait(10)

    t = threading.Thread(target=warm)
    t.start()
    started.wait(10)
    seen["other thread"] = runner(twice)
    assert twice(3) == 6  # compiled now in this process
    seen["compiled"] = runner(twice)
    done.set()
    t.join()
    assert seen == {
        "warming thread": twice,
        "other thread": interpreted(twice),
        "compiled": twice,
    }
    assert interpreted(twice) is twice.py_func  # a kernel of no kernel module: as written


def test_a_review_waits_for_the_warm_up_and_the_warming_thread_never_waits() -> None:
    from cribbage_env.kernels.interpreted import wait_for_warm_up

    started, done = threading.Event(), threading.Event()
    own: list[bool] = []

    def warm() -> None:
        with warming(), warming():  # nested: one warm-up
            own.append(wait_for_warm_up(0))
            started.set()
            done.wait(10)

    t = threading.Thread(target=warm)
    t.start()
    started.wait(10)
    assert not wait_for_warm_up(0.05)
    done.set()
    assert wait_for_warm_up(10)
    t.join()
    assert own == [True]
