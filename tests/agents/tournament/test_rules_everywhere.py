"""Rules carried at every edge: tournaments (play_game, the plan, the results store, resume,
``cribbage bench --rules``), ``cribbage discards --rules``, ``cribbage train --rules``; every
command reads the same rules text (a variant name or rule fields)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import cribbage_env as ce
from agents.bench import resume_tournament, run_tournament
from agents.store.results_store import ResultsStore
from agents.tournament.play import play_game
from agents.tournament.tournament import make_plan
from ui.cli.cli import main

TO_91 = ce.Rules(target=91)


def test_play_game_plays_the_rules_it_is_given() -> None:
    g = play_game("random", "random", 5, agent_seed=1, rules="target=91")
    assert g.rules == TO_91 and 91 <= max(g.scores) and g.is_over
    # The same seed and agents to 121 play on past the 91 game's end.
    assert max(play_game("random", "random", 5, agent_seed=1).scores) >= 121


def test_a_plan_carries_its_rules_and_writes_them_only_when_not_standard() -> None:
    assert "rules" not in make_plan(["random", "random"], 2).params()
    plan = make_plan(["random", "random"], 2, rules="target=91")
    assert plan.rules == TO_91 and plan.params()["rules"] == {"target": 91}
    assert all(t.rules == TO_91 for t in plan.tasks())


def test_a_run_to_91_is_stored_and_resumed_with_its_rules(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    common = dict(seed=4, agent_seed=2, block=1, backend="serial", store=db, keep_results=True)
    cut = run_tournament(["random", "greedy"], 6, rules=TO_91, on_block=lambda b: False, **common)
    assert cut.status == "interrupted"
    with ResultsStore(db, create=False) as store:
        assert store.run(cut.run_id)["params"]["rules"] == {"target": 91}
    done = resume_tournament(cut.run_id, db, backend="serial", keep_results=True)
    whole = run_tournament(["random", "greedy"], 6, rules=TO_91, **common)
    assert done.status == whole.status == "complete"
    with ResultsStore(db, create=False) as store:
        assert store.games(cut.run_id) == store.games(whole.run_id)
        games = store.games(whole.run_id)
    assert all(max(r.scores) >= 91 > min(r.scores) for r in games)
    assert any(max(r.scores) < 121 for r in games)


def test_cribbage_bench_rules_reach_the_games_and_the_records(capsys, tmp_path: Path) -> None:
    out = tmp_path / "recs"
    argv = ["bench", "random", "greedy", "--games", "2", "--workers", "1", "--backend",
            "serial", "--rules", "target=91", "--records", str(out), "--db",
            str(tmp_path / "r.sqlite"), "--json"]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["params"]["rules"] == {"target": 91}
    records = [json.loads(p.read_text()) for p in out.glob("p*.json")]
    assert len(records) == 2 and all(r["rules"] == {"target": 91} for r in records)
    for r in records:
        assert ce.GameState.from_record(r).rules == TO_91


@pytest.mark.parametrize(
    "argv, says",
    [(["bench", "random", "random", "--rules", "target=x"], "whole number"),
     (["bench", "--resume", "1", "--rules", "short"], "give none of them"),
     (["discards", "random", "--rules", "holes=3"], "unknown rule 'holes'"),
     (["train", "--rules", "long"], "unknown rules variant 'long'")],
)  # fmt: skip
def test_bad_rules_are_usage_errors(argv: list[str], says: str, capsys, tmp_path) -> None:
    try:
        code = main([*argv, "--db", str(tmp_path / "r.sqlite")])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_cribbage_discards_plays_its_games_by_the_rules(capsys, tmp_path: Path) -> None:
    argv = ["discards", "random", "--deals", "10", "--games", "2", "--backend", "serial",
            "--rules", "target=31,skunk=0,double_skunk=0", "--db", str(tmp_path / "r.sqlite"),
            "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"]["rules"] == "target=31,skunk=0"  # double_skunk 0 follows
    with ResultsStore(tmp_path / "r.sqlite", create=False) as store:
        kinds = {r["params"].get("kind"): r["params"] for r in store.runs()}
    assert kinds["discards"]["rules"] == {"target": 31, "skunk": 0}


@pytest.mark.parametrize("method", ["ppo", "dmc"])
def test_cribbage_train_learns_the_rules_asked_for(method: str) -> None:
    from ui.cli.cmd_train.arguments import add_arguments
    from ui.cli.cmd_train.command import _config

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert _config(p.parse_args(["--method", method, "--rules", "short"])).rules == "short"
    assert _config(p.parse_args(["--method", method])).rules == "standard"
