"""A user's agent in a file in the current folder, in every tool: ``cribbage bench``
(serial and pool give the same games), ``cribbage play --opponent / --watch / --pilot``, and the
Gymnasium env's ``opponent=``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from table_play import advance

import cribbage_env  # noqa: F401 - registers the env ids
from ui.cli.cli import main as cli_main
from ui.cli.cmd_play import resolve_opponent
from ui.table.controller import Mode, TableController

ROOT = Path(__file__).resolve().parents[3]

MY_BOT = '''
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.core import Phase


class LowBot:
    """Throws its two lowest cards, plays its lowest card."""

    def __init__(self, greedy: bool = False) -> None:
        self.greedy = greedy
        self.calls = 0

    def act(self, view, rng):
        self.calls += 1
        if view.phase is Phase.DISCARD:
            a, b = sorted(view.hand, key=lambda c: RANK[c])[:2]
            return discard_action(a, b)
        if view.phase is Phase.PLAY:
            return min(view.legal_actions, key=lambda c: RANK[c])
        return view.legal_actions[int(rng.integers(len(view.legal_actions)))]
'''


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    """A folder holding ``my_low_bot.py`` as the current working directory."""
    (tmp_path / "my_low_bot.py").write_text(MY_BOT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _bench(here: Path, backend: str, capsys) -> dict:
    argv = [
        "bench",
        "my_low_bot:LowBot",
        "random",
        "--games",
        "8",
        "--seed",
        "3",
        "--agent-seed",
        "9",
        "--block",
        "1",
        "--backend",
        backend,
        "--db",
        str(here / f"{backend}.sqlite"),
        "--json",
    ]
    if backend != "serial":
        argv += ["--workers", "2"]
    assert cli_main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.integration  # pool workers importing the user's module: seconds of start-up
def test_bench_serial_and_pool_play_the_same_games(here: Path, capsys) -> None:
    serial, pool = _bench(here, "serial", capsys), _bench(here, "pool", capsys)
    assert pool["run"]["backend"] == "pool" and pool["run"]["workers"] == 2
    for key in ("pairings", "agents", "ratings"):
        assert serial[key] == pool[key]
    p = serial["pairings"][0]
    assert p["agents"] == ["my_low_bot:LowBot", "random"] and sum(p["wins"]) == 8
    from agents.store.results_store import ResultsStore

    with ResultsStore(here / "serial.sqlite") as a, ResultsStore(here / "pool.sqlite") as b:
        assert [g.moves for g in a.games(1)] == [g.moves for g in b.games(1)]


@pytest.mark.slow
@pytest.mark.integration  # a local Ray runtime: seconds of start-up, mostly waiting
def test_bench_on_ray_finds_the_users_module_too(here: Path, capsys) -> None:
    """Local Ray workers resolve the spec themselves, from the driver's folder."""
    pytest.importorskip("ray")
    assert _bench(here, "ray", capsys)["pairings"] == _bench(here, "serial", capsys)["pairings"]


def test_play_opponent_and_watch_take_the_users_agent(here: Path) -> None:
    assert resolve_opponent("my_low_bot:LowBot:greedy=on") == "my_low_bot:LowBot:greedy=on"
    rng = np.random.default_rng(0)
    ctl = TableController(5, opponent="my_low_bot:LowBot")
    assert type(ctl.seats[1].agent).__name__ == "LowBot"
    watch = TableController(5, mode=Mode.WATCH, agents=("my_low_bot:LowBot", "random"))
    for c in (ctl, watch):
        while not c.game.is_over:
            advance(c, rng)
    assert watch.seats[0].agent.calls > 10 and ctl.seats[1].agent.calls > 10


def test_env_opponent_by_import_path(here: Path) -> None:
    env = gym.make("cribbage/Cribbage-v0", opponent="my_low_bot:LowBot")
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, _, info = env.step(int(legal[0]))
    assert type(env.unwrapped.opponent).__name__ == "LowBot"
    assert env.unwrapped.opponent.calls > 10
    with pytest.raises(ValueError, match="greedy must be one of true"):
        gym.make("cribbage/Cribbage-v0", opponent="my_low_bot:LowBot:greedy=2").reset(seed=0)


@pytest.mark.parametrize(
    "args",
    [
        ["--opponent", "my_low_bot:LowBot", "--pilot", "my_low_bot:LowBot"],
        ["--watch", "my_low_bot:LowBot", "random"],
    ],
)
def test_play_headless_with_the_users_agent(here: Path, args: list[str]) -> None:
    if importlib.util.find_spec("arcade") is None:
        pytest.skip("arcade is not installed")
    env = dict(
        os.environ,
        ARCADE_HEADLESS="1",
        CRIBBAGE_DATA_DIR=str(here / "data"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    r = subprocess.run(
        [sys.executable, "-m", "ui", "play", *args, "--autoplay", "12", "--seed", "2"],
        cwd=here,
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    if r.returncode != 0 and "cannot open a window" in r.stderr:
        pytest.skip(f"no headless GL here: {r.stderr.strip()}")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("played 12 decisions")
