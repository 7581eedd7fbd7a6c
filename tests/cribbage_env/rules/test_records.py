"""JSON game records: the per-deal account is right (checked against brute-force scorers) and a
record that is corrupt, edited or of another version is refused with ce.RecordError."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from brute_force_reference import _value, brute_peg, brute_show
from random_games import random_game

import cribbage_env as ce

P = ce.parse_cards


def played_game(
    seed: int, *, interactive_cuts: bool = False, stop: int | None = None
) -> ce.GameState:
    rng = np.random.default_rng(seed + 1000)
    return random_game(seed, rng, interactive_cuts=interactive_cuts, stop=stop)


@pytest.fixture(scope="module")
def game() -> ce.GameState:
    return played_game(31)


@pytest.fixture(scope="module")
def record(game: ce.GameState) -> dict:
    return game.to_record()


def check_deal_account(deal: dict, before: list[int]) -> list[int]:
    """Check one deal of a record by the rules; returns the scores after it."""
    dealer, pone = deal["dealer"], 1 - deal["dealer"]
    hands = [P(h) for h in deal["hands"]]
    assert all(len(h) == 6 for h in hands) and not set(hands[0]) & set(hands[1])
    scores = list(before)
    if deal["starter"] is not None:
        starter = ce.parse_card(deal["starter"])
        discards = [P(d) for d in deal["discards"]]
        assert all(len(d) == 2 and set(d) <= set(h) for d, h in zip(discards, hands, strict=True))
        assert starter not in hands[0] + hands[1]
        assert deal["his_heels"] == (2 if starter % 13 == 10 else 0)  # R5.2
        scores[dealer] += deal["his_heels"]
    seq: list[int] = []
    for item in deal["play"]:
        if item.get("reset"):
            seq = []
        elif item.get("go"):
            pass
        elif "card" in item:
            seq.append(ce.parse_card(item["card"]))
            assert item["count"] == sum(_value(c) for c in seq) <= 31
            assert item["points"] == brute_peg(seq)
            assert sum(r["points"] for r in item["reasons"]) == item["points"]
            for r in item["reasons"]:  # each reason names cards of the current sequence
                assert set(P(r["cards"])) <= set(seq) and ce.parse_card(item["card"]) in P(
                    r["cards"]
                )
            scores[item["player"]] += item["points"]
        else:
            assert item["reason"] in ("go", "last card") and item["points"] == 1
            scores[item["player"]] += 1
    order = [(s["player"], s["what"]) for s in deal["show"]]
    assert order == [(pone, "hand"), (dealer, "hand"), (dealer, "crib")][: len(order)]  # R9.1
    for s in deal["show"]:
        cards = P(s["cards"])
        if s["what"] == "crib":
            assert sorted(cards) == sorted(discards[0] + discards[1])
        else:
            assert sorted(cards) == sorted(set(hands[s["player"]]) - set(discards[s["player"]]))
        assert s["points"] == brute_show(cards, starter, s["what"] == "crib")
        assert sum(b["points"] for b in s["breakdown"]) == s["points"]
        for b in s["breakdown"]:
            assert set(P(b["cards"])) <= set(cards) | {starter}
        scores[s["player"]] += s["points"]
    assert deal["scores_after"] == scores
    return scores


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_record_accounts_every_point_of_every_deal(seed: int) -> None:
    g = played_game(seed)
    rec = g.to_record()
    scores = [0, 0]
    for i, deal in enumerate(rec["deals"]):
        assert deal["number"] == i
        scores = check_deal_account(deal, scores)
        if i + 1 < len(rec["deals"]):
            assert rec["deals"][i + 1]["dealer"] == 1 - deal["dealer"]  # R2.3
    assert scores == rec["scores"] == list(g.scores)
    assert rec["winner"] == g.winner and rec["scores"][g.winner] >= 121
    assert rec["game_points"] == ce.skunk_level(g.scores, g.rules)
    assert (
        rec["seed"] == seed and rec["version"] == 1 and rec["format"] == "cribbage-env/game-record"
    )
    assert rec["decisions"] == [ce.action_str(a) for a in g.decisions]
    assert len(rec["decisions"]) == len(g.decisions)


def test_record_first_cut_and_first_dealer(record: dict, game: ce.GameState) -> None:
    cuts = [c for c in record["first_cut"] if "card" in c]
    a, b = ce.parse_card(cuts[-2]["card"]) % 13, ce.parse_card(cuts[-1]["card"]) % 13
    assert record["first_dealer"] == (0 if a < b else 1) == record["deals"][0]["dealer"]


def test_record_is_json_and_round_trips(record: dict, game: ce.GameState) -> None:
    text = json.dumps(record)
    assert ce.GameState.from_record(text) == game
    assert ce.GameState.from_record(json.loads(text)) == game
    assert ce.GameState.from_record(text.encode()) == game


@pytest.mark.parametrize("stop", [0, 1, 2, 7, 23, 60])
def test_mid_game_records_round_trip(stop: int) -> None:
    g = played_game(5, stop=stop)
    assert ce.GameState.from_record(json.dumps(g.to_record())) == g


def test_interactive_cut_records_round_trip() -> None:
    g = played_game(6, interactive_cuts=True, stop=80)
    rec = g.to_record()
    assert rec["interactive_cuts"] is True and any(d.startswith("cut ") for d in rec["decisions"])
    assert ce.GameState.from_record(rec) == g


def test_events_carry_points_reasons_and_running_scores(game: ce.GameState) -> None:
    scores = [0, 0]
    for e in game.events:
        if e.points:
            scores[e.player] += e.points
            assert sum(r.points for r in e.reasons) == e.points
        assert list(e.scores) == scores
    assert tuple(scores) == game.scores


# ------------------------------------------------------------------ refused records
def _edited(record: dict, edit) -> dict:
    rec = copy.deepcopy(record)
    edit(rec)
    return rec


def _first_play_with_points(rec: dict) -> dict:
    return next(p for d in rec["deals"] for p in d["play"] if p.get("points") and "card" in p)


EDITS = {
    "version 2": lambda r: r.update(version=2),
    "version as text": lambda r: r.update(version="1"),
    "no version": lambda r: r.pop("version"),
    "other format": lambda r: r.update(format="chess"),
    "no decisions": lambda r: r.pop("decisions"),
    "decisions not a list": lambda r: r.update(decisions="5H"),
    "negative seed": lambda r: r.update(seed=-3),
    "seed as bool": lambda r: r.update(seed=True),
    "seed as text": lambda r: r.update(seed="31"),
    "other seed": lambda r: r.update(seed=r["seed"] + 1),
    "cuts flag text": lambda r: r.update(interactive_cuts="no"),
    "bad decision text": lambda r: r["decisions"].__setitem__(3, "ZZ"),
    "decision not text": lambda r: r["decisions"].__setitem__(3, 17),
    "decision dropped": lambda r: r["decisions"].pop(),
    "illegal decision": lambda r: r["decisions"].__setitem__(0, "cut 5"),
    "play points edited": lambda r: _first_play_with_points(r).update(points=99),
    "show points edited": lambda r: r["deals"][0]["show"][0].update(points=40),
    "breakdown edited": lambda r: r["deals"][0]["show"][0]["breakdown"].append(
        {"kind": "nobs", "cards": ["JH"], "points": 1}
    ),
    "hand edited": lambda r: r["deals"][0]["hands"][0].__setitem__(
        0, "AS" if r["deals"][0]["hands"][0][0] != "AS" else "2S"
    ),
    "starter edited": lambda r: r["deals"][0].update(
        starter="KS" if r["deals"][0]["starter"] != "KS" else "QS"
    ),
    "scores edited": lambda r: r.update(scores=[121, 0]),
    "winner edited": lambda r: r.update(winner=1 - r["winner"]),
    "deal removed": lambda r: r["deals"].pop(),
    "extra key": lambda r: r.update(comment="hello"),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_edited_or_corrupt_records_are_refused(record: dict, name: str) -> None:
    bad = _edited(record, EDITS[name])
    with pytest.raises(ce.RecordError) as err:
        ce.GameState.from_record(bad)
    assert isinstance(err.value, ValueError) and str(err.value)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "42", '{"format": 1}', b"\xff\xfe"])
def test_malformed_json_is_refused(text) -> None:
    with pytest.raises(ce.RecordError):
        ce.GameState.from_record(text)


def test_refusal_messages_say_what_is_wrong(record: dict) -> None:
    with pytest.raises(ce.RecordError, match="version 2"):
        ce.GameState.from_record(_edited(record, EDITS["version 2"]))
    with pytest.raises(ce.RecordError, match="decision 3"):
        ce.GameState.from_record(_edited(record, EDITS["bad decision text"]))
    with pytest.raises(ce.RecordError, match="points"):
        ce.GameState.from_record(_edited(record, EDITS["play points edited"]))


def test_loading_does_not_change_the_record(record: dict) -> None:
    before = copy.deepcopy(record)
    ce.GameState.from_record(record)
    assert record == before
