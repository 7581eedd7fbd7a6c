"""A fair arena: bots in any language over the bot protocol, in a seat sealed off from the deal,
the results and the machine.

The attack bots live in ``cheater_agent.py``; each attack is played sealed (``isolate``) and
shown to fail, and where it is cheap the same attack in-process (or unsealed) is shown to work,
so the test would fail if the seal did nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena import sandbox
from agents.arena.client import ProtocolBot, SeatForfeit
from agents.arena.protocol import VERSION
from agents.arena.seat import SealedSeat, SeatLimits, database_files
from agents.bench import run_tournament
from agents.registry import make_agent
from agents.tournament.tournament import make_plan
from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]
C_BOT = ROOT / "examples" / "bots" / "first_legal.c"


def _python_bot(tmp_path: Path, body: str, name: str = "bot.py") -> list[str]:
    """A bot command: a Python script (standard library only) that speaks the protocol."""
    path = tmp_path / name
    path.write_text("import json, sys\n" + body)
    return [sys.executable, str(path)]


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> Path:
    """The example C bot, compiled here by the machine's C compiler."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip(
            "no C compiler (cc or gcc) on this machine to build examples/bots/first_legal.c"
        )
    folder = tmp_path_factory.mktemp("cbot")
    folder.chmod(0o755)  # a root host's seat runs as 'nobody'
    exe = folder / "first_legal"
    subprocess.run([cc, "-O2", "-Wall", "-Werror", "-o", str(exe), str(C_BOT)], check=True)
    return exe


def _one_game(agent) -> ce.GameState:
    g = ce.new_game(11)
    other = make_agent("random")
    rng = np.random.default_rng(1)
    while not g.is_over:
        p = g.to_act
        g.apply((agent if p == 0 else other).act(g.view(p), rng), p)
    return g


# ------------------------------------------------------------------------------ the protocol


def test_the_c_bot_speaks_the_protocol(c_bot: Path) -> None:
    bot = make_agent(f"cmd:{c_bot}")
    try:
        assert bot.start() == "c-first-legal"  # type: ignore[attr-defined]
        assert _one_game(bot).is_over
    finally:
        bot.close()  # type: ignore[attr-defined]


@pytest.mark.integration
def test_the_c_bot_plays_a_bench_in_process_and_sealed(c_bot: Path, tmp_path: Path) -> None:
    for isolate in (None, 5.0):
        out = run_tournament([f"cmd:{c_bot}", "random"], 4, seed=3, agent_seed=1,
                             backend="serial", store=tmp_path / "r.sqlite", isolate=isolate,
                             keep_results=True)  # fmt: skip
        assert out.status == "complete" and out.games_played == 4
        assert all(r.forfeit == "" for r in out.results)


def test_the_c_bot_is_the_envs_opponent(c_bot: Path) -> None:
    import gymnasium as gym

    env = gym.make("cribbage_env:cribbage/Cribbage-v0", opponent=f"cmd:{c_bot}")
    try:
        obs, info = env.reset(seed=5)
        done, steps = False, 0
        while not done and steps < 500:
            legal = np.flatnonzero(info["action_mask"])
            obs, _, term, trunc, info = env.step(int(legal[0]))
            done, steps = term or trunc, steps + 1
        assert done
    finally:
        env.close()
        env.unwrapped.opponent.close()


def test_the_c_bot_is_an_openspiel_bot(c_bot: Path) -> None:
    pytest.importorskip("pyspiel")
    from agents.players.openspiel_bots import AgentBot

    bot = AgentBot(f"cmd:{c_bot}", 0, seed=1, agent_seed=2)
    try:
        assert bot.agent.start() == "c-first-legal"  # type: ignore[attr-defined]
    finally:
        bot.agent.close()  # type: ignore[attr-defined]


def test_a_python_agent_served_by_the_kit_plays_like_in_process() -> None:
    """``python -m agents.seat_server SPEC`` turns any agent into a protocol bot;
    its own generator travels with the request, so it decides as it would in-process."""
    bot = ProtocolBot([sys.executable, "-m", "agents.seat_server", "expectimax"],
                      env={"PYTHONPATH": str(ROOT)})  # fmt: skip
    try:
        g = ce.new_game(2)
        view = g.view(g.to_act)
        rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
        assert bot.act(view, rng_a) == make_agent("expectimax").act(view, rng_b)
    finally:
        bot.close()


@pytest.mark.parametrize("argv", [[], [""], ["random", "greedy"]])
def test_the_seat_server_without_one_spec_is_one_line_and_exit_2(argv: list[str]) -> None:
    run = subprocess.run([sys.executable, "-m", "agents.seat_server", *argv], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1 and "SPEC" in run.stderr


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("print(json.dumps({'bot': 'old', 'protocol': 0}), flush=True)\n", "speaks protocol 0"),
        ("print('hello', flush=True)\n", "not JSON"),
        ("print(json.dumps({'protocol': 1}), flush=True)\n", "no name"),
        ("sys.exit(3)\n", "crashed starting (exit code 3)"),
    ],
)
def test_a_bad_hello_is_refused(tmp_path: Path, body: str, reason: str) -> None:
    bot = ProtocolBot(_python_bot(tmp_path, body))
    with pytest.raises(SeatForfeit, match=re.escape(reason)):
        bot.start()
    assert bot._proc is None


HELLO = f"print(json.dumps({{'bot': 'b', 'protocol': {VERSION}}}), flush=True)\n"


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("{'action': 99999}", "chose an illegal action 99999"),
        ("{'action': 'x'}", "chose an illegal action x"),
        ("{'error': 'lost'}", "raised lost"),
        ("[1]", "not a JSON object"),
    ],
)
def test_a_bad_answer_forfeits(tmp_path: Path, answer: str, reason: str) -> None:
    body = HELLO + f"for line in sys.stdin:\n    print(json.dumps({answer}), flush=True)\n"
    bot = ProtocolBot(_python_bot(tmp_path, body))
    g = ce.new_game(1)
    with pytest.raises(SeatForfeit, match=reason):
        bot.act(g.view(g.to_act), np.random.default_rng(0))


def test_the_game_budget_forfeits(tmp_path: Path) -> None:
    """The budget counts the bot's CPU time: a bot that computes 0.3 s a decision breaks a
    0.5 s budget at its second decision, named in the reason."""
    body = HELLO + (
        "import time\n"
        "for line in sys.stdin:\n"
        "    t = time.process_time()\n"
        "    while time.process_time() - t < 0.3:\n"
        "        pass\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n"
    )
    bot = ProtocolBot(_python_bot(tmp_path, body), timeout=5.0, game_budget=0.5)
    rng = np.random.default_rng(0)
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit, match=r"CPU time deciding: past its game budget of 0.5 s"):
            for _ in range(5):
                p = g.to_act
                g.apply(bot.act(g.view(p), rng) if p == g.to_act else 0, p)
    finally:
        bot.close()


# ------------------------------------------------------------------------------ the deal


@pytest.mark.integration
def test_a_seed_replayer_finds_the_deal_in_process_but_not_sealed(tmp_path: Path) -> None:
    spec = "cheater_agent:SeedReplayer:games=20,loud=1"
    control = run_tournament([spec, "greedy"], 2, seed=0, agent_seed=1, backend="serial")
    assert control.status == "failed" and "replayed the deal" in str(control.error)
    out = run_tournament([spec, "greedy"], 4, seed=0, agent_seed=1, backend="serial",
                         isolate=10.0, keep_results=True)  # fmt: skip
    assert out.status == "complete" and [r.forfeit for r in out.results] == [""] * 4


def test_the_deal_key_is_the_runs_own_and_resume_repeats_it(tmp_path: Path) -> None:
    a = make_plan(["random", "greedy"], 4, seed=5, isolate=5.0, check_agents=False)
    b = make_plan(["random", "greedy"], 4, seed=5, isolate=5.0, check_agents=False)
    assert a.deal_key != b.deal_key and list(a.seeds) != list(b.seeds)
    again = make_plan(["random", "greedy"], 4, seed=5, deal_key=a.deal_key, check_agents=False)
    assert list(again.seeds) == list(a.seeds)  # the person repeats the run with the stored key
    assert make_plan(["random", "greedy"], 4, seed=5).deal_key == ""  # in-process: seed only


def test_a_sealed_seat_cannot_read_the_results(tmp_path: Path, monkeypatch) -> None:
    """The snoop looks for a results database in a folder the seat may read (on its import
    path): in-process it finds it, sealed the file reads as empty."""
    db = tmp_path / "r.sqlite"
    run_tournament(["random", "random"], 2, seed=1, agent_seed=1, backend="serial", store=db)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = f"cheater_agent:Snoop:folder={tmp_path}"
    g = ce.new_game(1)
    with pytest.raises(Exception, match="found the seed or the results in .*r.sqlite"):
        make_agent(spec).act(g.view(g.to_act), np.random.default_rng(0))
    for hidden in (database_files(db), ()):  # named by the run, or found in a folder it reads
        seat = SealedSeat(spec, 10.0, hidden=hidden)
        try:
            assert seat.act(g.view(g.to_act), np.random.default_rng(0)) in g.legal_actions()
        finally:
            seat.close()


def test_a_bot_in_the_current_folder_plays_sealed(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "here_bot.py").write_text(
        "class Bot:\n    def act(self, view, rng):\n        return view.legal_actions[-1]\n"
    )
    monkeypatch.chdir(tmp_path)
    seat = SealedSeat("here_bot:Bot", 10.0)
    g = ce.new_game(1)
    try:
        assert seat.act(g.view(g.to_act), np.random.default_rng(0)) == g.legal_actions()[-1]
    finally:
        seat.close()


@pytest.mark.integration
def test_a_sealed_seat_cannot_see_the_seed(tmp_path: Path, capsys) -> None:
    """The snoop reads every command line and environment it can see for the run's seed."""
    db = tmp_path / "r.sqlite"
    code = main(["bench", "cheater_agent:Snoop", "random", "--games", "4",
                 "--seed", "987654321", "--isolate", "--backend", "serial", "--db", str(db),
                 "--json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["pairings"][0].get("forfeits", [0, 0]) == [0, 0]


# ------------------------------------------------------------------------------ the machine


def _alive(marker: str, wait: float = 0.0) -> list[int]:
    """Processes (not this one) whose command line holds ``marker``, after up to ``wait`` s for
    them to end."""
    deadline = time.monotonic() + wait
    while True:
        pids = _with(marker)
        if not pids or time.monotonic() >= deadline:
            return pids
        time.sleep(0.05)


def _with(marker: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker.encode() in (d / "cmdline").read_bytes() and int(d.name) != os.getpid():
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


def test_a_forker_leaves_no_process_behind() -> None:
    seat = SealedSeat("cheater_agent:Forker", 10.0)
    g = ce.new_game(1)
    seat.act(g.view(g.to_act), np.random.default_rng(0))
    assert len(_alive("cheater_agent:Forker")) >= 2  # the seat and its detached grandchild
    seat.close()
    assert _alive("cheater_agent:Forker", wait=2.0) == []


def test_a_memory_hog_forfeits_its_game() -> None:
    seat = SealedSeat("cheater_agent:Hog", 10.0, limits=SeatLimits(memory_mb=1024))
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit, match="MemoryError"):
            seat.act(g.view(g.to_act), np.random.default_rng(0))
    finally:
        seat.close()


@pytest.mark.integration
def test_a_memory_hog_and_a_hanger_forfeit_and_the_run_completes(tmp_path: Path) -> None:
    out = run_tournament(["cheater_agent:Hog", "cheater_agent:Hanger", "random"], 2, seed=1,
                         agent_seed=1, backend="serial", isolate=1.0, keep_results=True)  # fmt: skip
    assert out.status == "complete" and out.games_played == 6
    reasons = [r.forfeit for r in out.results]
    assert sum("Hog" in f and "MemoryError" in f for f in reasons) == 4, reasons
    assert sum("Hanger" in f and "is not computing" in f for f in reasons) == 2, reasons


def test_a_spammer_writes_only_to_its_log(capfd) -> None:
    seat = SealedSeat("cheater_agent:Spammer", 10.0)
    g = ce.new_game(1)
    try:
        seat.act(g.view(g.to_act), np.random.default_rng(0))
    finally:
        seat.close()
    out, err = capfd.readouterr()
    assert "SPAM" not in out and "SPAM" not in err
    assert seat.log is not None
    log = Path(seat.log).read_text()
    assert "SPAM on stderr" in log and "SPAM on stdout" in log and "SPAM raw" in log
    os.unlink(seat.log)


def test_without_bubblewrap_isolation_is_refused(monkeypatch, capsys) -> None:
    sandbox.bwrap_path.cache_clear()
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    try:
        code = main(["bench", "random", "random", "--games", "2", "--isolate"])
    finally:
        sandbox.bwrap_path.cache_clear()
    err = capsys.readouterr().err
    assert code == 2 and "bubblewrap" in err and "Traceback" not in err


def test_the_seat_limits_are_options_and_parameters(tmp_path: Path, capsys) -> None:
    from agents.arena.seat import SeatLimits

    plan = make_plan(["random", "greedy"], 2, isolate=5.0, check_agents=False,
                     seat_limits=SeatLimits(512, 60, 20.0))  # fmt: skip
    assert plan.params()["seat_limits"] == {
        "memory_mb": 512,
        "cpu_s": 60,
        "game_budget": 20.0,
        "procs": 256,
    }
    assert {t.seating.limits for t in plan.tasks()} == {SeatLimits(512, 60, 20.0)}
    db = str(tmp_path / "r.sqlite")
    for args, what in (
        (["--seat-memory", "512"], "give --isolate"),
        (["--isolate", "--seat-memory", "10"], "memory_mb must be an integer in 64"),
        (["--isolate", "--game-budget", "0"], "game budget must be > 0"),
        (["--isolate", "--seat-procs", "2"], "procs must be an integer in 16"),
        (["--seat-procs", "64"], "give --isolate"),
    ):
        try:
            code = main(["bench", "random", "random", "--games", "2", "--db", db, *args])
        except SystemExit as exc:  # argparse's own type errors
            code = exc.code  # type: ignore[assignment]
        err = capsys.readouterr().err
        assert code == 2 and what in err and "Traceback" not in err, err


def test_a_sealed_opponent_in_the_env() -> None:
    import gymnasium as gym

    env = gym.make("cribbage_env:cribbage/Cribbage-v0", opponent="sealed:greedy")
    try:
        obs, info = env.reset(seed=5)
        done, steps = False, 0
        while not done and steps < 500:
            obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            done, steps = term or trunc, steps + 1
        assert done
        assert isinstance(env.unwrapped.opponent, SealedSeat)
    finally:
        env.close()
        env.unwrapped.opponent.close()
