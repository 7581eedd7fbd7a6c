"""The smaller ways a file or an argument broke a command (each one line and
exit 2, or handled as documented)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """A data folder with two finished games at the table in its history."""
    from agents.tournament.play import play_game
    from ui.table.saves import SAVE_FORMAT

    data_dir = tmp_path_factory.mktemp("data")
    folder = data_dir / "history"
    folder.mkdir()
    for i in range(2):
        g = play_game("random", "greedy", 40 + i, agent_seed=0)
        data = {"format": SAVE_FORMAT, "version": 1, "seed": g.seed, "mode": "computer",
                "agents": [None, "greedy"], "decisions": [], "cursor": 0, "finished": True,
                "record": g.to_record()}  # fmt: skip
        (folder / f"game-2026120{i}-000000-seed{g.seed}.json").write_text(json.dumps(data))
    return data_dir


def _stats(data_dir: Path, capsys, monkeypatch, *extra: str) -> tuple[int, str, str]:
    monkeypatch.setenv("CRIBBAGE_DATA_DIR", str(data_dir))
    code = main(["stats", "--json", "--samples", "1", *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "cache",
    [
        "[]",
        "null",
        '{"KEY": "x"}',
        '{"KEY": [0.1]}',
        '{"KEY": ["a", "b"]}',
        '{"KEY": [NaN, NaN]}',
        '{"KEY": [Infinity, -1]}',
        '{"KEY": [5, 7]}',
        '{"KEY": {"0": 1}}',
        '{"KEY": [true, false]}',
    ],
)
def test_a_damaged_review_cache_counts_as_missing(history, tmp_path, capsys, monkeypatch, cache):
    import shutil

    data_dir = tmp_path / "d"
    shutil.copytree(history, data_dir)
    from agents.review import review_key
    from ui.reports.player_stats import load_history

    first = load_history(data_dir / "history")[0][0].game
    text = cache.replace("KEY", review_key(first, samples=1))  # the entry Statistics looks up
    (data_dir / "review-cache.json").write_text(text)
    code, out, err = _stats(data_dir, capsys, monkeypatch)
    assert code == 0 and "Traceback" not in err, err
    rates = [g["error_rate"] for g in json.loads(out)["error_rate"]]
    assert len(rates) == 2 and all(math.isfinite(r) and 0 <= r <= 1 for r in rates)


def test_a_review_cache_that_is_a_fifo_does_not_hang(history, tmp_path):
    import shutil

    data_dir = tmp_path / "d"
    shutil.copytree(history, data_dir)
    os.mkfifo(data_dir / "review-cache.json")
    os.mkfifo(data_dir / "history" / "game-20261231-000000-seed9.json")
    env = {**os.environ, "CRIBBAGE_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "ui", "stats", "--json", "--samples", "1"],
                       env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert json.loads(p.stdout)["games"] == 2
    assert "seed9" in p.stderr  # skipped, and said


# ------------------------------------------------------------------------------ review --plot
@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    from agents.tournament.play import play_game

    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_text(json.dumps(play_game("greedy", "greedy", 3, agent_seed=0).to_record()))
    return path


@pytest.mark.parametrize("target", ["folder", "/dev/null", "/dev/cribbage-x.png", "out.txt",
                                    "out", "missing/out.png"])  # fmt: skip
def test_review_plot_refuses_what_is_not_a_png_path(record, tmp_path, capsys, target) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "folder").mkdir()
    where = Path(target) if target.startswith("/") else tmp_path / target
    before = sorted(tmp_path.rglob("*"))
    code = main(["review", str(record), "--samples", "1", "--plot", str(where)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert sorted(tmp_path.rglob("*")) == before
    assert not Path("/dev/cribbage-x.png").exists()


def test_review_plot_writes_exactly_the_path_given(record, tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "chart.PNG"
    assert main(["review", str(record), "--samples", "1", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.PNG"]


# ------------------------------------------------------------------------------ arguments
@pytest.mark.parametrize(
    "args",
    [
        ["agents", "nope.mod:X"],
        ["bench", "random", "greedy", "--prior", "inf"],
        ["bench", "random", "greedy", "--prior", "nan"],
        ["play", "--size", "100000x100000", "--autoplay", "1"],
        ["play", "--size", "0x0", "--autoplay", "1"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch, args) -> None:
    monkeypatch.setenv("CRIBBAGE_DATA_DIR", str(tmp_path))
    try:
        code = main([*args, *(["--db", str(tmp_path / "r.sqlite")] if args[0] == "bench" else [])])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "division" not in err, err
    assert not (tmp_path / "r.sqlite").exists()


# ------------------------------------------------------------------------------ OpenSpiel
def test_the_resampler_raises_instead_of_returning_the_true_state(monkeypatch) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cribbage_env.openspiel  # noqa: F401  (registers the game)
    from cribbage_env.openspiel.state import CribbageState

    game = pyspiel.load_game("python_cribbage")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    monkeypatch.setattr(CribbageState, "_resampled_history", lambda self, me, rng: None)
    with pytest.raises(RuntimeError, match="draws"):
        state.resample_from_infostate(state.current_player(), lambda: 0.5)
