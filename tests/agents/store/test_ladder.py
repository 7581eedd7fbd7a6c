"""benchmarks/strength/ladder.py: ratings from pairs played or read from other results stores."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from agents.store.results_store import ResultsStore

ROOT = Path(__file__).resolve().parents[3]


def _ladder():
    spec = importlib.util.spec_from_file_location(
        "ladder", ROOT / "benchmarks" / "strength" / "ladder.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_pair_is_played_once_and_read_back_from_its_store(tmp_path) -> None:
    ladder = _ladder()
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    common = ["--agents", "greedy", "random", "--anchor", "random", "--games", "6",
              "--backend", "serial", "--bootstrap", "20"]  # fmt: skip
    assert ladder.main([*common, "--db", str(first), "--out", str(tmp_path / "1.json")]) == 0
    fig = json.loads((tmp_path / "1.json").read_text())
    assert [p["agents"] for p in fig["pairs"]] == [["greedy", "random"]]
    assert fig["pairs"][0]["games"] == 6
    (g,) = [r for r in fig["ratings"] if r["agent"] == "greedy"]
    (r,) = [r for r in fig["ratings"] if r["agent"] == "random"]
    assert r["elo"] == 0.0 and g["elo"] > 0 and g["elo_ci"][0] <= g["elo"] <= g["elo_ci"][1]
    # Read from the first store, nothing is played into the second.
    out2 = tmp_path / "2.json"
    assert (
        ladder.main([*common, "--db", str(second), "--from-db", str(first), "--out", str(out2)])
        == 0
    )
    assert json.loads(out2.read_text())["ratings"] == fig["ratings"]
    with ResultsStore(second) as db:
        assert db.runs() == []


def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys) -> None:
    ladder = _ladder()
    with pytest.raises(SystemExit) as e:
        ladder.main(
            ["--agents", "greedy", "random", "--anchor", "expert", "--db", str(tmp_path / "x")]
        )
    assert e.value.code == 2
    assert "--anchor 'expert' is not among --agents" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        ladder.main(["--agents", "greedy", "random", "--anchor", "random", "--pair-games", "greedy:x=4",
                     "--db", str(tmp_path / "x")])  # fmt: skip
    assert e.value.code == 2
    assert "not A:B=N" in capsys.readouterr().err
