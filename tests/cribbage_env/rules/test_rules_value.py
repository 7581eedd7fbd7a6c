"""Rules as one frozen value (the target score and skunk lines) carried by the state, every view
and records; the short game to 61 as a registered variant; old records still load."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.encoding import SLICES

DATA = Path(__file__).resolve().parents[2] / "data"


def _play_out(g: ce.GameState) -> ce.GameState:
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g


def test_standard_and_short_rules() -> None:
    assert ce.STANDARD == ce.Rules() and (ce.STANDARD.target, ce.STANDARD.skunk) == (121, 91)
    assert ce.Rules.named("short") is ce.SHORT and ce.SHORT.target == 61
    assert ce.Rules.named(None) is ce.STANDARD and ce.Rules.named(ce.SHORT) is ce.SHORT
    # Game points: loser under the skunk line 2, under the double line 3.
    assert [ce.STANDARD.game_points((121, s)) for s in (91, 90, 61, 60)] == [1, 2, 2, 3]
    assert [ce.SHORT.game_points((61, s)) for s in (31, 30, 1, 0)] == [1, 2, 2, 3]
    with pytest.raises(AttributeError):
        ce.STANDARD.target = 61  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [{"target": 1}, {"target": 61, "skunk": 91}, {"skunk": 50, "double_skunk": 60},
     {"target": "121"}, {"target": True}, {"double_skunk": -2}],
)  # fmt: skip
def test_impossible_rules_are_refused(kwargs: dict) -> None:
    with pytest.raises(ce.RulesError):
        ce.Rules(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "lines"),
    [({}, (91, 61)), ({"target": 61}, (31, 1)), ({"target": 91}, (61, 31)),
     ({"target": 40}, (10, 0)), ({"target": 20}, (0, 0)), ({"target": 91, "skunk": 20}, (20, 20)),
     ({"target": 91, "double_skunk": 0}, (61, 0)), ({"skunk": 100, "double_skunk": 50}, (100, 50))],
)  # fmt: skip
def test_skunk_lines_follow_the_target_unless_given(kwargs: dict, lines: tuple) -> None:
    r = ce.Rules(**kwargs)
    assert (r.skunk, r.double_skunk) == lines
    assert ce.Rules.from_json(r.to_json()) == r  # what a record keeps reads back the same
    assert ce.Rules.named(r.spec) == r


def test_a_game_to_61_is_not_a_double_skunk_and_91_keeps_lines_under_it() -> None:
    assert ce.skunk_level((61, 50), ce.SHORT) == 1 and ce.skunk_level((61, 30), ce.SHORT) == 2
    r91 = ce.Rules.named("target=91")
    assert [ce.skunk_level((91, s), r91) for s in (61, 60, 31, 30)] == [1, 2, 2, 3]
    assert ce.Rules.named("target=61") is not ce.SHORT and ce.Rules.named("target=61") == ce.SHORT


def test_unknown_variant_and_rule_names_are_refused() -> None:
    with pytest.raises(ce.RulesError, match="short"):
        ce.Rules.named("long")
    with pytest.raises(ce.RulesError, match="unknown rule"):
        ce.Rules.from_json({"target": 61, "colour": "red"})
    assert issubclass(ce.RulesError, ce.CribbageError) and issubclass(ce.RulesError, ValueError)


@pytest.mark.parametrize("seed", range(6))
def test_a_short_game_ends_at_61_with_the_same_deals(seed: int) -> None:
    short = _play_out(ce.new_game(seed, rules="short"))
    assert short.rules is ce.SHORT
    assert max(short.scores) >= 61 > min(short.scores) and short.scores[short.winner] >= 61
    # Same seed and decisions under the standard rules: the same events until the short game
    # stops (only the target differs).
    full = ce.replay(seed, short.decisions)
    n = short.event_count - 1  # all but the short game's GAME_OVER
    assert full.events[:n] == short.events[:n] and not full.is_over
    assert short.events[-1].kind is ce.EventKind.GAME_OVER
    for seat in (0, 1):
        assert short.view(seat).rules is ce.SHORT


def test_a_short_game_record_round_trips_and_says_its_rules() -> None:
    g = _play_out(ce.new_game(3, rules=ce.SHORT))
    rec = g.to_record()
    assert rec["rules"] == {"target": 61}  # the skunk lines follow from it
    assert rec["game_points"] == ce.SHORT.game_points(g.scores)
    back = ce.GameState.from_record(json.dumps(rec))
    assert back == g and back.rules == ce.SHORT
    # The same decisions under the standard rules do not match the record's account.
    rec.pop("rules")
    with pytest.raises(ce.RecordError):
        ce.GameState.from_record(rec)


def test_standard_records_omit_the_rules_and_old_records_load() -> None:
    g = _play_out(ce.new_game(5))
    assert "rules" not in g.to_record()
    old = json.loads((DATA / "record_before_rules_value.json").read_text())
    loaded = ce.GameState.from_record(old)
    assert loaded.rules == ce.STANDARD and loaded.to_record() == old


@pytest.mark.parametrize("bad", [{"target": 0}, [61], {"target": 61, "skunk": 99}])
def test_records_with_bad_rules_are_refused(bad: object) -> None:
    rec = _play_out(ce.new_game(3, rules="short")).to_record()
    rec["rules"] = bad
    with pytest.raises(ce.RecordError, match="rules"):
        ce.GameState.from_record(rec)


def test_set_up_positions_check_scores_against_the_target() -> None:
    hands = [ce.parse_cards("5H 5D 5C JS"), ce.parse_cards("2C 3C 4C 6C")]
    crib, starter = ce.parse_cards("KH KD QS QC"), ce.parse_card("5S")
    g = ce.GameState.from_position(hands, crib, starter, scores=(100, 60))
    assert g.scores == (100, 60)
    with pytest.raises(ce.PositionError, match="0..60"):
        ce.GameState.from_position(hands, crib, starter, scores=(100, 60), rules="short")


def test_short_env_id_plays_to_61_and_scales_scores_by_the_target() -> None:
    env = gym.make("cribbage/CribbageShort-v0")
    assert env.unwrapped.rules is ce.SHORT
    obs, info = env.reset(seed=4)
    done = False
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
        done = term or trunc
    g = env.unwrapped.game
    assert g.rules is ce.SHORT and max(g.scores) >= 61 > min(g.scores)
    view = g.view(env.unwrapped.seat)
    sl = SLICES["scores"]
    own = min(view.scores[view.seat], 61) / 61
    assert obs["observation"][sl][0] == pytest.approx(own)


def test_aec_env_takes_the_rules() -> None:
    pytest.importorskip("pettingzoo")
    from cribbage_env.envs.aec import raw_env

    e = raw_env(rules="short")
    e.reset(seed=2)
    while e.agents:
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.game.rules is ce.SHORT and max(e.game.scores) >= 61


def test_rules_text_names_a_variant_or_fields() -> None:
    assert ce.Rules.named("target=91") == ce.Rules(target=91)
    assert ce.Rules.named(" short ") is ce.SHORT
    assert ce.Rules.named("target=61, skunk=31, double_skunk=1") == ce.SHORT
    for rules in (ce.STANDARD, ce.SHORT, ce.Rules(target=91), ce.Rules(target=200, skunk=150)):
        assert ce.Rules.named(rules.spec) == rules
    for bad, says in [("target=x", "whole number"), ("colour=red", "unknown rule 'colour'"),
                      ("target=61,skunk=91", "skunk lines"), ("long", "known: standard, short")]:  # fmt: skip
        with pytest.raises(ce.RulesError, match=says):
            ce.Rules.named(bad)


def test_a_bool_rule_is_typed_parsed_and_left_out_of_records_at_its_default() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Flagged(ce.Rules):
        his_heels: bool = True

    off = Flagged.named("target=121,his_heels=false")
    assert off == Flagged(his_heels=False) and off.to_json() == {"his_heels": False}
    assert Flagged.named("his_heels=TRUE").to_json() == {} and off.spec == "his_heels=false"
    for bad in ("his_heels=1", "his_heels=no"):
        with pytest.raises(ce.RulesError, match="true or false"):
            Flagged.named(bad)
    with pytest.raises(ce.RulesError, match="must be bool"):
        Flagged(his_heels=1)  # type: ignore[arg-type]
    with pytest.raises(ce.RulesError, match="must be int"):
        Flagged(target=True)


def test_a_record_writes_only_the_rules_that_differ_from_the_standard() -> None:
    g = _play_out(ce.new_game(2, rules="target=91"))
    assert g.to_record()["rules"] == {"target": 91} and max(g.scores) >= 91
    assert ce.GameState.from_record(g.to_record()) == g
    assert "rules" not in _play_out(ce.new_game(2)).to_record()


def test_every_command_reads_rules_text(capsys) -> None:
    from ui.cli.args import argtypes

    assert argtypes.rules("target=91") == ce.Rules(target=91)
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="unknown rule"):
        argtypes.rules("holes=91")
