"""A sealed seat works as installed: from any folder, whatever puts the project on the import
path (an editable install's import hook included), with ``cmd:`` programs named as one would
type them; a seat that fails to start says why in the first line; a bot that says nothing
leaves no log.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena import client
from agents.arena.client import SeatForfeit
from agents.arena.seat import SealedSeat

ROOT = Path(__file__).resolve().parents[3]

#: A host that imports the project through an import hook (as an editable install does) from
#: another folder, the checkout not on its import path, and plays one sealed decision.
HOOKED_HOST = """
import importlib.abc, importlib.machinery, os, sys
ROOT = {root!r}
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != ROOT]
class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name in ("cribbage_env", "agents", "ui"):
            return importlib.machinery.PathFinder.find_spec(name, [ROOT])
        return None
sys.meta_path.insert(0, Hook())
import numpy as np
import cribbage_env as ce
from agents.arena.seat import SealedSeat
assert not any(os.path.realpath(p or ".") == ROOT for p in sys.path)
assert os.path.dirname(os.path.dirname(os.path.realpath(ce.__file__))) == ROOT
seat = SealedSeat("random")
g = ce.new_game(1)
try:
    print("action", seat.act(g.view(g.to_act), np.random.default_rng(0)) in g.legal_actions())
finally:
    seat.close()
"""


def test_a_python_seat_works_when_the_project_comes_from_an_import_hook(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", HOOKED_HOST.format(root=str(ROOT))],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.stdout.split() == ["action", "True"], out.stderr[-2000:]


BOT_SH = """echo '{"bot": "sh", "protocol": 1}'
while read -r line; do
  a=$(printf '%s' "$line" | sed 's/.*"legal":\\[\\([0-9]*\\).*/\\1/')
  echo "{\\"action\\": $a}"
done
"""


@pytest.mark.parametrize("command", ["sh bot.sh", "./bot.sh", "sh ./bot.sh"])
def test_a_command_is_named_as_one_would_type_it(tmp_path: Path, monkeypatch, command) -> None:
    """An interpreter found on the PATH and a script beside it (``node bot.js``), or the
    script itself: the seat reads the program's and the script's folders."""
    (tmp_path / "bot.sh").write_text("#!/bin/sh\n" + BOT_SH)
    (tmp_path / "bot.sh").chmod(0o755)
    monkeypatch.chdir(tmp_path)
    seat = SealedSeat(f"cmd:{command}")
    g = ce.new_game(1)
    try:
        assert seat.act(g.view(g.to_act), np.random.default_rng(0)) == g.legal_actions()[0]
    finally:
        seat.close()


def test_an_unknown_program_is_a_bad_spec() -> None:
    from agents.base import AgentSpecError

    with pytest.raises(AgentSpecError, match="no program 'no-such-bot-xyz' on the PATH"):
        SealedSeat("cmd:no-such-bot-xyz --fast")


def test_a_start_failure_quotes_the_seats_own_error(tmp_path: Path) -> None:
    (tmp_path / "dies.py").write_text(
        "import sys\nprint('starting', file=sys.stderr)\n"
        "raise SystemExit('fatal: the model file is missing')\n"
    )
    seat = SealedSeat(f"cmd:{sys.executable} dies.py".replace("dies.py", str(tmp_path / "dies.py")))
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit) as err:
            seat.act(g.view(g.to_act), np.random.default_rng(0))
    finally:
        seat.close()
    first = str(err.value).splitlines()[0]
    assert "crashed starting (exit code 1): fatal: the model file is missing" in first
    assert seat.log is not None and "starting" in Path(seat.log).read_text()


def test_a_bot_that_says_nothing_leaves_no_log(tmp_path: Path, monkeypatch) -> None:
    """Sealed or not, a bot with nothing on standard error leaves no file behind."""
    import tempfile

    from agents.registry import make_agent

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client.log_folder.cache_clear()
    (tmp_path / "bot.sh").write_text("#!/bin/sh\n" + BOT_SH)
    (tmp_path / "bot.sh").chmod(0o755)
    g = ce.new_game(1)
    try:
        for agent in (make_agent(f"cmd:{tmp_path / 'bot.sh'}"),
                      SealedSeat(f"cmd:{tmp_path / 'bot.sh'}")):  # fmt: skip
            try:
                agent.act(g.view(g.to_act), np.random.default_rng(0))
            finally:
                agent.close()
            assert agent.log is None
    finally:
        client.log_folder.cache_clear()
    logs = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "bot.sh"]
    assert logs == []
