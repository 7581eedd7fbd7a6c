"""Win-aware training: equity returns, the training-only oracle critic, expert iteration, and
resuming such runs bit for bit. Torch-dependent runs are tiny (one shard of one game)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
from extras import needs_training

import cribbage_env as ce
from agents import make_agent
from agents.learn.critic import oracle_rows, widen
from agents.learn.generate import GenConfig, load_shards, play_shard
from agents.nets.features import DISCARD_DIM, PLAY_DIM, discard_candidates
from agents.nets.mlp import MLP, load_nets
from agents.nets.oracle import ORACLE_DIM, oracle_features
from agents.players.neural import NeuralAgent
from agents.players.rollouts import candidates, deal_returns, new_batches, play_episode
from cribbage_env.equity import win_probability
from cribbage_env.rules.cards import parse_cards as p
from cribbage_env.rules.engine import GameState
from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]


def _position(scores):
    """Seat 0 deals; the pone (1) led the king; seat 0 to play. 5H makes fifteen for 2."""
    return GameState.in_play(
        dealer=0,
        kept=[p("5H 2C 3D 4S"), p("KH QS JD 9C")],
        discards=[p("AH AD"), p("7S 8S")],
        starter=p("5S")[0],
        scores=scores,
        played=[(1, p("KH")[0])],
        sequence=p("KH"),
        to_act=0,
    )


def test_equity_return_of_a_winning_fifteen():
    g = _position((119, 60))
    x = make_agent("expectimax")
    points, equity = deal_returns(g, 0, p("5H")[0], (x, x), np.random.default_rng(0))
    # fifteen for 2 takes the dealer from 119 to 121: the game ends, won, at once
    assert points == 2.0
    assert equity == 100.0 * (1.0 - win_probability(119, 60, dealer=True))
    assert g.scores == (119, 60)  # the branch ran on a copy


def test_equity_return_when_the_pone_counts_out_first():
    # At 60-120 whatever seat 0 plays, the pone pegs its point or counts its hand first (Q + the
    # starter 5 make fifteen): it wins, so every branch's return is the whole chance it had.
    g = _position((60, 120))
    x = make_agent("expectimax")
    lost = -100.0 * win_probability(60, 120, dealer=True)
    for card in g.legal_actions():
        _, equity = deal_returns(g, 0, card, (x, x), np.random.default_rng(0))
        assert equity == lost


def test_play_time_rows_never_see_the_hidden_cards():
    """The oracle features change with the opponent's cards; the rows a play-time net scores,
    and so the neural agent's choice, do not (this fails if they took the hidden cards)."""
    g = ce.new_game(8)
    seat = g.current_player
    other = g.clone()
    opp = 1 - seat
    view = g.view(seat)
    unseen = [c for c in view.unseen_cards() if c not in g.hands[opp]]
    other.hands[opp] = unseen[:6]
    assert other.view(seat) == view
    assert not np.array_equal(oracle_features(g, seat), oracle_features(other, seat))
    x = make_agent("expectimax")
    rows = [discard_candidates(s.view(seat), x._table)[1] for s in (g, other)]
    np.testing.assert_array_equal(rows[0], rows[1])
    assert rows[0].shape[1] == DISCARD_DIM
    agent = NeuralAgent()
    assert agent.act(view, None) == agent.act(other.view(seat), None)


def test_agent_modules_never_import_the_oracle():
    for path in ("agents/players/neural.py", "agents/nets/features.py"):
        tree = ast.parse((ROOT / path).read_text())
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)] + [
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        ]
        assert not any("oracle" in m or "critic" in m for m in names), (path, names)


def test_widened_critic_starts_as_the_blind_net():
    rng = np.random.default_rng(0)
    dims = [PLAY_DIM, 8, 1]
    net = MLP([(rng.normal(size=(a, b)).astype(np.float32), np.zeros(b, np.float32))
               for a, b in zip(dims, dims[1:], strict=False)])  # fmt: skip
    wide = widen(net)
    x = rng.normal(size=(5, PLAY_DIM)).astype(np.float32)
    o = rng.normal(size=(5, ORACLE_DIM)).astype(np.float32)
    np.testing.assert_allclose(wide.score(np.concatenate([x, o], 1)), net.score(x), rtol=1e-5)


def test_shards_hold_equity_returns_and_oracle_features(tmp_path):
    cfg = GenConfig(seed=5, gen=0, shards=1, games=1, rate_play=0.5)
    data = load_shards([play_shard(cfg, tmp_path, 0)])
    for kind in ("discard", "play"):
        n = len(data[f"{kind}_x"])
        assert data[f"{kind}_e"].shape == data[f"{kind}_g"].shape and n > 0
        assert data[f"{kind}_o"].shape == (n, ORACLE_DIM)
        # equity and points move together: a better point margin is never a worse chance
        # across the bulk of branches (same deal, same board)
        g, e = data[f"{kind}_g"], data[f"{kind}_e"]
        valid = np.arange(g.shape[1])[None, :] < data[f"{kind}_n"][:, None]
        assert np.corrcoef(g[valid], e[valid])[0, 1] > 0.8
        rows = oracle_rows(data, kind, np.arange(n))
        assert rows.shape[2] == data[f"{kind}_x"].shape[2] + ORACLE_DIM


class _LastCandidate:
    """A labeler that always names the candidate the analyzer ranks last."""

    def __init__(self):
        self.x = make_agent("expectimax")

    def act(self, view, rng):
        return candidates(view, self.x)[0][-1]


def test_labels_come_from_the_labeler_and_play_from_the_policy():
    x = make_agent("expectimax")
    out = new_batches()
    rate = {"discard": 1.0, "play": 1.0}
    g = play_episode(4, (x, x), (0, 1), eps=0.0, rate=rate, rng=np.random.default_rng(0),
                     out=out, teacher=x, branch=False, labeler=_LastCandidate())  # fmt: skip
    ref = ce.new_game(4)
    while not ref.is_over:
        ref.apply(x.act(ref.view(ref.current_player), None))
    assert g.scores == ref.scores  # the game went on with the policy's (expectimax's) choices
    for kind in ("discard", "play"):
        a = out[kind].arrays(kind)
        assert len(a[f"{kind}_t"]) > 0
        np.testing.assert_array_equal(a[f"{kind}_t"], a[f"{kind}_n"] - 1)


def _train(run, *extra):
    return main(["train", "--run-dir", str(run), "--shards", "1", "--games-per-shard", "1",
                 "--epochs", "1", "--eval-games", "0", "--workers", "1", "--no-progress",
                 *extra])  # fmt: skip


def _arrays(path):
    d, q, meta = load_nets(path)
    return [a for net in (d, q) for layer in net.layers for a in layer], meta


def test_oracle_equity_run_resumes_bit_for_bit(tmp_path):
    """About 10 s on a quiet machine: two tiny runs (data, critic folds, fit) are the point."""
    needs_training("torch")
    args = ("--method", "dmc", "--returns", "equity", "--oracle", "0.5", "--seed", "4")
    b = tmp_path / "b"
    assert _train(b, *args) == 0
    want, _ = _arrays(b / "model.npz")
    for name in ("gen1.npz", "model.npz", "data/gen0/shard_00000.npz"):
        (b / name).unlink()  # as if killed before the shard and the fit were written
    assert _train(b, *args, "--resume") == 0
    got, meta = _arrays(b / "model.npz")
    assert len(got) == len(want) and all((x == y).all() for x, y in zip(got, want, strict=True))
    assert '"returns": "equity"' in meta["config"] and '"oracle": 0.5' in meta["config"]
    d, q, _ = load_nets(b / "model.npz")
    assert (d.in_dim, q.in_dim) == (DISCARD_DIM, PLAY_DIM)  # the critic never ships
    assert not any("critic" in k or "oracle" in k for k in np.load(b / "model.npz").files)


def test_expert_iteration_end_to_end(tmp_path):
    needs_training("torch")
    run = tmp_path / "exit"
    assert _train(run, "--method", "exit", "--teacher", "greedy", "--generations", "1") == 0
    for name in ("round0.npz", "round1.npz", "model.npz", "data/exit1/shard_00000.npz"):
        assert (run / name).exists(), name
    _, meta0 = _arrays(run / "round0.npz")
    r1, meta = _arrays(run / "round1.npz")
    assert meta["stage"] == "round1" and '"teacher": "greedy"' in meta["config"]
    assert int(meta["samples"]) > int(meta0["samples"]) > 0  # round 1 fits both rounds' labels
    labels = load_shards([run / "data" / "exit1" / "shard_00000.npz"])
    assert len(labels["play_t"]) > 0 and not labels["play_g"].any()  # labels, no rollouts
    assert _train(run, "--method", "exit", "--teacher", "greedy", "--generations", "1",
                  "--resume") == 0  # fmt: skip
    assert _arrays(run / "model.npz")[0][0].tobytes() == r1[0].tobytes()


def test_bad_options_exit_2(tmp_path, capsys):
    assert _train(tmp_path / "a", "--method", "bc", "--returns", "equity") == 2
    assert "--method dmc" in capsys.readouterr().err
    assert _train(tmp_path / "b", "--method", "dmc", "--oracle", "0.5", "--reward", "win") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--reward" in err
    assert _train(tmp_path / "c", "--method", "exit", "--teacher", "nobody") == 2
    assert "unknown agent" in capsys.readouterr().err
    for bad in (["--oracle", "1.5"], ["--returns", "wins"]):
        try:
            _train(tmp_path / "d", "--method", "dmc", *bad)
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(bad)
    assert not any((tmp_path / n).exists() for n in "abcd")
