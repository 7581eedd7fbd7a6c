"""Game review: ratings from the deciding seat's view, a winning card found exactly, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.coaching.judge import rate
from agents.review import THRESHOLDS, flag_of, review_game
from agents.tournament.play import play_game
from cribbage_env.rules.cards import parse_cards
from cribbage_env.rules.engine import GameState
from ui.cli.cli import main as cli


@pytest.fixture(scope="module")
def game():
    return play_game("random", "expectimax", 3, agent_seed=0)


@pytest.fixture(scope="module")
def review(game):
    return review_game(game, samples=8)


def test_rows_cover_every_discard_and_play_decision(game, review):
    rows = review.to_json()["rows"]
    kinds = {"discard", "play"}
    assert len(rows) == sum(1 for _ in game.decisions)  # no cut decisions without interactive cuts
    assert {r["phase"] for r in rows} == kinds
    for r in rows:
        assert r["seat"] in (0, 1) and -1 <= r["loss"] <= 1
        assert r["action"] != r["best"] or r["loss"] == 0  # the judge's choice loses nothing
        assert r["flag"] == flag_of(r["loss"])
        if r["options"] == 1:
            assert r["loss"] == 0 and r["chance"] is None
        else:  # the loss shown is the difference shown
            assert round(r["best_chance"] - r["chance"], 3) == r["loss"]
    assert len(review.curve) == len(rows) + 1 and review.curve[-1] in (0.0, 1.0)
    json.dumps(review.to_json(), allow_nan=False)


def test_random_loses_more_winning_chance_than_expectimax(game, review):
    random_seat = 0  # play_game("random", "expectimax", ...) seats random at 0
    assert review.seat_summary(random_seat)["error_rate"] > 2 * review.seat_summary(1)["error_rate"]
    assert review.winner == game.winner


def test_a_card_that_wins_the_game_is_best_and_the_others_lose_exactly_their_shortfall():
    # Dealer (seat 0) at 119, pone at 120 (its hand counts first): pairing the led 5 wins now.
    g = GameState.from_position(
        [parse_cards("5H 9C 8C 7C"), parse_cards("5D KS QS JH")],
        parse_cards("AH 2H 3H 4D"),
        parse_cards("6S")[0],
        dealer=0,
        scores=(119, 120),
    )
    g.apply(parse_cards("5D")[0])  # the pone leads
    view = g.view(0)
    rng = np.random.default_rng(0)
    best, loss, _, chance, best_chance, n = rate(view, parse_cards("9C")[0], rng, samples=8)
    assert best == parse_cards("5H")[0] and best_chance == 1.0 and n == 4
    assert loss == pytest.approx(1.0 - chance) and loss > 0
    best, loss, *_ = rate(view, parse_cards("5H")[0], rng, samples=8)
    assert best == parse_cards("5H")[0] and loss == 0.0


def test_a_loss_is_measured_on_guesses_the_choice_was_not_made_on():
    """The judge picks its best option on the hint's guesses; the loss of another move is the
    difference on fresh guesses (a child of the same generator), not clipped at 0: the best of
    noisy estimates is too good on the guesses that picked it, not on others."""
    from agents.coaching.judge import CHECK_SAMPLES, judge, play_values, position_rng

    views = _play_views(play_game("random", "random", 11, agent_seed=0), 12)
    assert len(views) == 12
    for view in views:
        opts = judge(view, position_rng(view), samples=8)
        worst = opts[-1].action
        best, loss, *_ = rate(view, worst, position_rng(view), samples=8)
        assert best == opts[0].action
        check = position_rng(view).spawn(1)[0]
        chance, _ = play_values(view, [best, worst], check, CHECK_SAMPLES)
        assert loss == round(float(chance[0] - chance[1]), 3)
        assert rate(view, best, position_rng(view), samples=8)[1] == 0.0


def _play_views(game: GameState, n: int) -> list:
    """Up to ``n`` play positions of ``game`` with a choice of ranks."""
    from cribbage_env.rules.cards import RANK
    from cribbage_env.rules.core import Phase
    from cribbage_env.rules.engine import new_game

    g, out = new_game(game.seed, rules=game.rules), []
    for a in game.decisions:
        if g.phase is Phase.PLAY and len({RANK[c] for c in g.legal_actions()}) > 1:
            out.append(g.view(g.to_act))
        g.apply(a)
    return out[:n]


def test_thresholds_are_ordered():
    assert [v for _, v in THRESHOLDS] == sorted((v for _, v in THRESHOLDS), reverse=True)
    assert flag_of(0.0) == "" and flag_of(1.0) == "blunder"


def test_cli_review_json_text_and_plot(tmp_path, game, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.to_record()))
    assert cli(["review", str(path), "--json", "--samples", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"seat", "deal", "phase", "action", "best", "loss"} <= set(out["rows"][0])
    assert len(out["seats"]) == 2
    png = tmp_path / "chart.png"
    assert cli(["review", str(path), "--samples", "4", "--plot", str(png)]) == 0
    assert "error rate" in capsys.readouterr().out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_review_refuses_a_bad_record(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli(["review", str(bad)]) == 2
    assert "cribbage review:" in capsys.readouterr().err
    assert cli(["review", str(tmp_path / "missing.json")]) == 2
