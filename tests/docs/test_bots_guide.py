"""docs/BOTS.md stays true: its 20-line bot and its discard function run as the guide says."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import agents
import cribbage_env  # noqa: F401 - registers the env ids
from ui.cli.cli import main as cli_main

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "BOTS.md"


def _block(starts: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    return next(b for b in blocks if b.startswith(starts))


def test_the_guides_bot_runs_in_bench_the_env_and_discards(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    bot = _block('"""my_bot.py')
    assert len(bot.strip().splitlines()) <= 25
    (tmp_path / "my_bot.py").write_text(bot)
    (tmp_path / "my_discards.py").write_text(_block("# my_discards.py"))
    monkeypatch.chdir(tmp_path)
    argv = [
        "bench",
        "my_bot:MyBot",
        "my_bot:MyBot:use_crib=off",
        "--games",
        "4",
        "--backend",
        "serial",
    ]
    assert cli_main([*argv, "--db", str(tmp_path / "r.sqlite"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games_played"] == 4
    env = gym.make("cribbage/Cribbage-v0", opponent="my_bot:MyBot")
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    from my_bot import MyBot

    from agents.bench import run_tournament

    out = run_tournament([MyBot, "random"], games=2, backend="serial")  # the notebook way
    assert out.status == "complete" and out.summary["pairings"][0]["games"] == 2
    argv = [
        "discards",
        "analyzer",
        "my_discards:keep_fives",
        "agent:my_bot:MyBot",
        "--deals",
        "100",
    ]
    assert cli_main([*argv, "--db", str(tmp_path / "r.sqlite")]) == 0
    out = capsys.readouterr().out
    assert "my_discards:keep_fives - analyzer" in out
    # It discards as the analyzer does: no difference as dealer, as pone, or on average.
    assert re.search(r"agent:my_bot:MyBot - analyzer(\s+\+0\.000 ±0\.000){3}", out)


@pytest.mark.integration  # sealed seats end to end; tests/agents/arena/test_isolate.py covers bench --isolate
def test_the_guides_isolate_commands_run(tmp_path: Path, monkeypatch, capsys) -> None:
    """The `--isolate` lines of the guide (their bot played by the guide's own), shortened."""
    import shlex

    (tmp_path / "their_bot.py").write_text(
        _block('"""my_bot.py').replace("class MyBot", "class Bot")
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    text = GUIDE.read_text()
    block = next(b for b in re.findall(r"```bash\n(.*?)```", text, re.S) if "--isolate" in b)
    benches = [ln.split("#")[0] for ln in block.splitlines() if ln.startswith("cribbage bench")]
    assert len(benches) == 2
    for line in benches:
        argv = shlex.split(line)[1:] + [
            "--games",
            "2",
            "--backend",
            "serial",
            "--json",
        ]  # last wins
        assert cli_main([*argv, "--db", str(tmp_path / "r.sqlite")]) == 0
        assert json.loads(capsys.readouterr().out)["games_played"] == 2
    api = re.search(r"`(agents\.run_tournament\(.*?\))`", text.replace("\n", " "))
    assert api is not None
    call = ast.parse(api.group(1).replace("games=200", "games=2, backend='serial'"), mode="eval")
    assert (
        isinstance(call.body, ast.Call) and ast.unparse(call.body.func) == "agents.run_tournament"
    )
    args = [ast.literal_eval(a) for a in call.body.args]  # literals only: nothing of it runs
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.body.keywords if k.arg}
    out = agents.run_tournament(*args, **kwargs)
    assert out.status == "complete" and out.games_played == 2


def test_the_guide_gives_every_action_id_as_the_engine_makes_it() -> None:
    """The bot author's action ids (the play's cards, the discard, the cut) are the engine's."""
    from cribbage_env.rules import actions

    text = " ".join(GUIDE.read_text().split())
    base, cut = actions.DISCARD_BASE, actions.CUT_BASE
    assert f"**`{base} + 52*low + high`** (`low < high`" in text
    assert f"**`{cut} + k`** to cut at depth `k`" in text and "**`c`** (0..51)" in text
    assert actions.discard_action(30, 17) == base + 52 * 17 + 30 == 1014
    assert "5D and 5H: `100 + 52*17 + 30 = 1014`" in text
    assert actions.action_str(1014) == "5D 5H" and actions.cut_action(5) == cut + 5
