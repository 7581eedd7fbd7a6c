"""The learned-agent stack: features from the view only, numpy inference equal to torch,
weights round-trip, reproducible data shards, the fits, and the ``neural`` agent's play."""

from __future__ import annotations

import numpy as np
import pytest
from extras import needs_training

import cribbage_env as ce
from agents import make_agent
from agents.learn.generate import GenConfig, load_shards, play_shard
from agents.nets.features import DISCARD_DIM, PLAY_DIM, discard_candidates, play_candidates
from agents.nets.mlp import MLP, load_nets, save_nets
from agents.players.neural import NeuralAgent
from agents.players.rollouts import TOP_DISCARDS, deal_returns, top_discards
from cribbage_env.rules.core import Phase


def _random_mlp(dim: int, seed: int, hidden=(8, 8)) -> MLP:
    rng = np.random.default_rng(seed)
    dims = [dim, *hidden, 1]
    return MLP(
        [
            (
                rng.normal(size=(a, b)).astype(np.float32) / np.sqrt(a),
                rng.normal(size=b).astype(np.float32) * 0.1,
            )
            for a, b in zip(dims, dims[1:], strict=False)
        ]
    )


def _first_play_view(seed: int):
    x = make_agent("expectimax")
    g = ce.new_game(seed)
    rng = np.random.default_rng(0)
    while not (g.phase is Phase.PLAY and len(g.legal_actions()) > 1):
        g.apply(x.act(g.view(g.current_player), rng))
    return g, x


def test_discard_rows_match_the_analyzer():
    x = make_agent("expectimax")
    g = ce.new_game(5)
    v = g.view(g.current_player)
    actions, rows, net = discard_candidates(v, x._table)
    assert rows.shape == (15, DISCARD_DIM) and len(set(actions)) == 15
    assert set(actions) == set(v.legal_actions)
    best = ce.analyze_discards(v.hand, dealer=v.is_dealer)[0]
    assert actions[int(np.argmax(net))] == best.action == x.act(v, None)
    top, rows5 = top_discards(v, x)
    assert len(top) == TOP_DISCARDS and top[0] == best.action and rows5.shape[0] == TOP_DISCARDS


def test_play_rows_come_from_the_view_alone():
    g, x = _first_play_view(3)
    v = g.view(g.current_player)
    actions, rows, values = play_candidates(v, x._rank_cards(v))
    assert rows.shape == (len(v.legal_actions), PLAY_DIM) and sorted(actions) == sorted(
        v.legal_actions
    )
    assert actions[0] == x.act(v, None)  # ranked best first, as expectimax plays
    # Swapping the opponent's hidden cards changes nothing in the rows.
    other = g.clone()
    opp = 1 - v.seat
    unseen = [c for c in v.unseen_cards() if c not in other.hands[opp]]
    other.hands[opp] = unseen[: len(other.hands[opp])]
    v2 = other.view(v.seat)
    np.testing.assert_array_equal(play_candidates(v2, x._rank_cards(v2))[1], rows)


def test_numpy_scores_equal_torch():
    torch = needs_training("torch")
    from agents.learn.fit import build, to_mlp

    model = build(PLAY_DIM, (16, 8), seed=1)
    x = np.random.default_rng(0).normal(size=(7, PLAY_DIM)).astype(np.float32)
    with torch.no_grad():
        ref = model(torch.from_numpy(x)).numpy()[:, 0]
    np.testing.assert_allclose(to_mlp(model).score(x), ref, rtol=1e-5, atol=1e-5)


def test_weights_round_trip(tmp_path):
    d, p = _random_mlp(DISCARD_DIM, 1), _random_mlp(PLAY_DIM, 2)
    path = tmp_path / "w.npz"
    save_nets(path, d, p, {"command": "cribbage train --method dmc"})
    d2, p2, meta = load_nets(path)
    x = np.ones((3, DISCARD_DIM), np.float32)
    np.testing.assert_array_equal(d.score(x), d2.score(x))
    assert meta["command"] == "cribbage train --method dmc"


def test_neural_agent_plays_legal_games(tmp_path):
    path = tmp_path / "w.npz"
    save_nets(path, _random_mlp(DISCARD_DIM, 1), _random_mlp(PLAY_DIM, 2), {})
    agent = make_agent(f"neural:path={path}")
    g = ce.new_game(11)
    rng = np.random.default_rng(0)
    other = make_agent("greedy")
    while not g.is_over:
        p = g.current_player
        v = g.view(p)
        a = agent.act(v, rng) if p == 0 else other.act(v, rng)
        assert a in v.legal_actions
        g.apply(a)


def test_neural_agent_rejects_a_missing_or_mismatched_file(tmp_path):
    with pytest.raises(ValueError, match="no weights"):
        NeuralAgent(tmp_path / "none.npz")
    path = tmp_path / "w.npz"
    save_nets(path, _random_mlp(3, 1), _random_mlp(PLAY_DIM, 2), {})
    with pytest.raises(ValueError, match="retrain"):
        NeuralAgent(path)


def test_deal_margin_is_the_score_change_to_the_deal_end():
    g, x = _first_play_view(4)
    seat = g.current_player
    a = g.legal_actions()[0]
    m, _ = deal_returns(g, seat, a, (x, x), np.random.default_rng(0))
    h = g.clone()
    before = h.scores
    h.apply(a)
    deal = h.deal_no
    while h.winner is None and h.deal_no == deal:
        h.apply(x.act(h.view(h.current_player), None))
    assert m == (h.scores[seat] - before[seat]) - (h.scores[1 - seat] - before[1 - seat])
    assert g.scores == before  # the branch ran on a copy


def test_shards_are_reproducible(tmp_path):
    cfg = GenConfig(seed=3, gen=0, shards=1, games=1, rate_play=0.3)
    a = load_shards([play_shard(cfg, tmp_path / "a", 0)])
    b = load_shards([play_shard(cfg, tmp_path / "b", 0)])
    assert a["discard_x"].shape[1:] == (TOP_DISCARDS, DISCARD_DIM)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    assert (a["discard_t"] == 0).all()  # the teacher's choice is ranked first


def test_fits_learn_the_teacher_and_the_returns():
    needs_training("torch")
    from agents.learn.fit import FitConfig, fit

    rng = np.random.default_rng(0)
    n, k, d = 600, 4, 6
    x = rng.normal(size=(n, k, d)).astype(np.float16)
    true = x.astype(np.float32) @ np.array([1.0, -2.0, 0.5, 0, 0, 0], np.float32)
    data = {
        "play_x": x,
        "play_g": (true + rng.normal(0, 0.1, size=(n, k))).astype(np.float32),
        "play_n": np.full(n, k, np.int8),
        "play_t": true.argmax(1).astype(np.int8),
    }
    cfg = FitConfig(hidden=(16,), epochs=15, batch=64, lr=3e-3, holdout=0.2)
    _, bc = fit(data, "play", "bc", cfg, log=lambda m: None)
    _, q = fit(data, "play", "dmc", cfg, log=lambda m: None)
    assert bc["agree"] > 0.7
    assert q["agree"] > 0.7 and q["gain"] > -0.1  # gain is measured against the teacher (=best)


def test_shipped_weights_are_the_neural_level():
    from agents import LEVELS
    from agents.players.neural import DEFAULT_WEIGHTS

    agent = make_agent(LEVELS["neural"].spec)
    assert isinstance(agent, NeuralAgent)
    assert agent.meta["command"].startswith("cribbage train --method dmc")
    assert "--warm-start" in agent.meta["command"] and agent.meta["stage"] == "gen1"
    clone = make_agent(f"neural:path={DEFAULT_WEIGHTS.with_name('neural_bc_expert.npz')}")
    assert clone.meta["stage"] == "bc_expert" and clone.margins == {"discard": 0.0, "play": 0.0}
    old = make_agent(f"neural:path={DEFAULT_WEIGHTS.with_name('neural_dmc.npz')}")
    assert old.meta["stage"] == "gen1" and old.margins["play"] > 0
    g = ce.new_game(2)
    v = g.view(g.current_player)
    assert agent.act(v, np.random.default_rng(0)) in v.legal_actions


def _linear_data(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    k, d = 4, 6
    x = rng.normal(size=(n, k, d)).astype(np.float16)
    true = x.astype(np.float32) @ np.array([1.0, -2.0, 0.5, 0, 0, 0], np.float32)
    return {
        "play_x": x,
        "play_g": true.astype(np.float32),
        "play_n": np.full(n, k, np.int8),
        "play_t": true.argmax(1).astype(np.int8),
    }


@pytest.mark.parametrize("method", ["bc", "dmc"])
def test_a_fit_smaller_than_the_batch_still_trains_and_says_so(method):
    """Fewer rows than the batch (512) is one batch of all of them per epoch, not zero steps."""
    needs_training("torch")
    from agents.learn.fit import FitConfig, fit

    data = _linear_data(120)
    start = _random_mlp(6, 1, hidden=(16,))
    lines: list[str] = []
    net, rep = fit(data, "play", method, FitConfig(hidden=(16,), epochs=3, holdout=0.1), init=start,
                   log=lines.append)  # fmt: skip
    assert rep["gradient_steps"] == 3 and rep["batch"] == 108 == rep["train_samples"]
    changed = [not np.array_equal(a, b) for (a, _), (b, _) in zip(net.layers, start.layers,
                                                                 strict=True)]  # fmt: skip
    assert all(changed)
    assert "loss 0.0000" not in "\n".join(lines)
    assert "(3/3 gradient steps, batch 108)" in lines[2] and "over 108 decisions" in lines[2]


def test_a_fit_with_nothing_to_train_on_is_refused():
    needs_training("torch")
    from agents.learn.fit import FitConfig, TooLittleData, fit

    with pytest.raises(TooLittleData, match="none left to train on"):
        fit(_linear_data(1), "play", "bc", FitConfig(hidden=(4,), holdout=1.0), log=print)


def test_a_fit_of_labels_without_rollouts_reports_no_gain():
    """Behaviour-cloning labels have no rollouts: the held-out line gives the agreement alone,
    never a "gain +0.000 (se 0.000)" made of returns that were never measured."""
    needs_training("torch")
    from agents.learn.fit import FitConfig, fit

    data = _linear_data(200)
    lines: list[str] = []
    _, rep = fit(data, "play", "bc", FitConfig(hidden=(8,), epochs=2, holdout=0.1),
                 log=lines.append, returns=None)  # fmt: skip
    assert rep["samples"] == 20 and 0.0 <= rep["agree"] <= 1.0 and "gain" not in rep
    assert lines[-1].endswith(f"held-out agree {rep['agree']:.3f} over 20 (labels only)")
    assert all("gain" not in line for line in lines)
    with pytest.raises(ValueError, match="returns"):
        fit(data, "play", "dmc", FitConfig(hidden=(8,), epochs=1), log=print, returns=None)


def test_the_untrained_nets_are_where_a_fit_of_that_seed_starts(tmp_path):
    """The tutorial's "before": a fit that cannot move (learning rate 0) returns exactly the
    nets :func:`save_untrained` wrote for its seed, for both kinds."""
    needs_training("torch")
    from agents.learn.fit import FitConfig, fit, save_untrained
    from agents.nets.features import DISCARD_DIM, PLAY_DIM
    from agents.nets.mlp import load_nets

    start = load_nets(save_untrained(tmp_path / "u.npz", seed=3, hidden=(8,)))
    rng = np.random.default_rng(0)
    for i, (kind, dim) in enumerate((("discard", DISCARD_DIM), ("play", PLAY_DIM))):
        data = {f"{kind}_x": rng.normal(size=(40, 4, dim)).astype(np.float16),
                f"{kind}_n": np.full(40, 4, np.int8), f"{kind}_t": np.zeros(40, np.int8)}  # fmt: skip
        net, rep = fit(data, kind, "bc", FitConfig(hidden=(8,), epochs=1, lr=0.0, seed=3),
                       log=lambda _: None, returns=None)  # fmt: skip
        assert rep["gradient_steps"] == 1
        for (a, b), (c, d) in zip(net.layers, start[i].layers, strict=True):
            assert np.array_equal(a, c) and np.array_equal(b, d)
