"""Isolated seats: each agent in its own process, seeing only its view.

In-process, a plug-in can walk the call stack or the garbage collector to the true GameState
(the controls below show the spies finding it). Isolated, the same spies find nothing; an
honest agent plays exactly the same games; a crash, hang, exception or illegal answer loses
that game with its reason in the results, never the run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from cheater_agent import FramePeeker, FrameSpy, GcSpy

from agents.arena.client import SeatForfeit
from agents.arena.protocol import MAX_LINE
from agents.arena.seat import SealedSeat, check_timeout
from agents.base import AgentSpecError
from agents.bench import resume_tournament, run_tournament
from agents.store.results_store import ResultsStore
from agents.tournament.play import play_game
from agents.tournament.runner import run_plan
from agents.tournament.tournament import AgentFailure, make_plan
from ui.cli.cli import main

HERE = Path(__file__).resolve().parents[2]


# pool and ray: worker processes (and a local Ray runtime), seconds of start-up, mostly waiting:
# the integration tier; serial plays the same isolated seats in the README's tier
@pytest.mark.parametrize(
    "backend",
    [
        "serial",
        pytest.param("pool", marks=pytest.mark.integration),
        pytest.param("ray", marks=pytest.mark.integration),
    ],
)
def test_honest_agents_play_the_same_games_isolated(backend: str) -> None:
    agents = ["expectimax", "random", "cheater_agent:Chatty"]
    if backend == "ray":
        pytest.importorskip("ray")
        agents[2] = "greedy"  # Ray's workers import from the working folder, not from tests/
    kw = {"seed": 4, "agent_seed": 77, "block": 2}
    plan = make_plan(agents, 2, isolate=10.0, **kw)
    assert plan.deal_key and plan.seeds != make_plan(agents, 2, **kw).seeds  # a secret deal
    inproc = run_plan(make_plan(agents, 2, deal_key=plan.deal_key, **kw), backend="serial")
    iso = run_plan(plan, backend=backend, workers=2)
    assert len(iso.results) == 6
    assert iso.results == inproc.results
    assert all(r.forfeit == "" for r in iso.results)


def test_spies_find_the_state_in_process() -> None:
    """Controls: in the engine's process the frame and gc walkers reach the true state."""
    for spy in (FrameSpy(), GcSpy()):
        with pytest.raises(AgentFailure, match="saw the opponent's hand"):
            play_game(spy, "random", 3, agent_seed=1)
    peeker = FramePeeker()
    play_game(peeker, "random", 3, agent_seed=1)
    assert peeker.found > 0


def test_isolated_spies_find_nothing() -> None:
    spies = ["cheater_agent:FrameSpy", "cheater_agent:GcSpy", "cheater_agent:GeneratorSpy"]
    out = run_plan(
        make_plan([*spies, "random"], 2, seed=2, isolate=10.0, agent_seed=5), backend="serial"
    )
    assert len(out.results) == 6 * 2
    assert [r.forfeit for r in out.results if r.forfeit] == []


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("Crasher", "crashed deciding"),
        # asleep past three times its limit: seconds of waiting, the integration tier
        pytest.param("Hanger", "gave no answer in", marks=pytest.mark.integration),
        # the other failures of a seat: the sealed seat's own tests cover them in the README's tier
        pytest.param("Illegal", "chose an illegal action", marks=pytest.mark.integration),
        pytest.param("Raiser", "raised ValueError: out of ideas", marks=pytest.mark.integration),
    ],
)
def test_a_failing_isolated_seat_loses_the_game_with_its_reason(tmp_path, bad, reason) -> None:
    db = tmp_path / "r.sqlite"
    out = run_tournament(
        [f"cheater_agent:{bad}", "random"], 2, seed=1, agent_seed=3, backend="serial",
        store=db, isolate=1.5, keep_results=True,
    )  # fmt: skip
    assert out.status == "complete" and out.games_played == 2
    assert out.summary["pairings"][0]["forfeits"] == [2, 0]
    with ResultsStore(db, create=False) as store:
        saved = store.games(out.run_id)  # type: ignore[arg-type]
    assert len(saved) == 2
    for r in saved:
        loser = 0 if not r.swapped else 1  # the bad agent's seat
        assert r.winner == 1 - loser
        assert f"cheater_agent:{bad} (seat {loser}) {reason}" in r.forfeit
        if bad == "Hanger":  # asleep past 3 times its limit: the reason names the limit
            assert r.forfeit.endswith("is not computing: past 3 times the decision timeout")
    assert tuple(saved) == out.results


@pytest.mark.integration  # an interrupted isolated run and its resume: seconds of seat start-ups
def test_an_isolated_run_resumes_isolated(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    stop = []

    def once(block):
        stop.append(1)
        return False

    first = run_tournament(
        ["cheater_agent:FrameSpy", "random"], 8, seed=1, agent_seed=3, backend="serial",
        store=db, isolate=10.0, block=2, on_block=once,
    )  # fmt: skip
    assert first.status == "interrupted" and first.games_played == 4
    agents = [
        "cheater_agent:FrameSpy",
        "random",
    ]  # an import path is named again (agents.seats.trust)
    rest = resume_tournament(first.run_id, db, backend="serial", agents=agents)  # type: ignore[arg-type]
    assert rest.status == "complete" and rest.games_played == 4  # the spy stayed isolated
    assert rest.plan.seating.isolate == 10.0


def test_isolated_seats_take_spec_strings_only_and_check_them_in_the_worker() -> None:
    with pytest.raises(AgentSpecError, match="spec"):
        make_plan([FrameSpy(), "random"], 2, isolate=5.0)
    with pytest.raises(AgentSpecError, match="cannot build agent"):
        make_plan(["no_such_module_xyz:Bot", "random"], 2, isolate=5.0)
    for bad in (0, -1, float("nan"), float("inf"), True, "3"):
        with pytest.raises(ValueError, match="timeout"):
            check_timeout(bad)


def test_a_worker_answer_is_checked(tmp_path) -> None:
    """A worker's answer is plain JSON, read with a size limit: garbage forfeits the game."""
    import cribbage_env as ce

    seat = SealedSeat("random", 5.0)
    try:
        g = ce.new_game(1)
        view = g.view(g.to_act)
        rng = __import__("numpy").random.default_rng(0)
        assert seat.act(view, rng) in view.legal_actions
        proc = seat._proc
        assert proc is not None
        seat._buf = b"x" * (MAX_LINE + 1)  # as if the worker had sent a long line without a newline
        with pytest.raises(SeatForfeit, match="longer than"):
            seat._read(1.0, "deciding", "the decision timeout")
        seat._buf = b""
        assert seat._proc is None  # killed; the next decision starts a new worker
        assert seat.act(view, rng) in view.legal_actions
    finally:
        seat.close()


def test_the_engine_process_never_imports_an_isolated_agent(tmp_path, capsys, monkeypatch) -> None:
    """``--isolate`` builds (and checks) the agent in its sealed seat only: its module's
    top-level code never runs in the process that holds the game (and cannot write a file)."""
    (tmp_path / "marked_bot.py").write_text(
        "import os\n"
        f"os.environ['MARKED_BOT_RAN'] = '1'\n"
        f"open({str(tmp_path / 'pids')!r}, 'a').write('escaped')\n"
        "class Bot:\n"
        "    name = 'marked'\n"
        "    def act(self, view, rng):\n"
        "        return view.legal_actions[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("MARKED_BOT_RAN", raising=False)
    code = main(["bench", "marked_bot:Bot", "random", "--games", "2", "--isolate",
                 "--backend", "serial", "--db", str(tmp_path / "r.sqlite"), "--json"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "Read-only file system" in err, err  # the seat could not write
    assert "MARKED_BOT_RAN" not in os.environ and not (tmp_path / "pids").exists()
    assert "marked_bot" not in sys.modules


@pytest.mark.integration  # the command with sealed seats: the library's isolated runs above are in the README's tier
def test_bench_cli_isolate(tmp_path, capsys) -> None:
    db = str(tmp_path / "r.sqlite")
    code = main(["bench", "cheater_agent:Raiser", "random", "--games", "2", "--isolate",
                 "--backend", "serial", "--db", db, "--json"])  # fmt: skip
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["pairings"][0]["forfeits"] == [2, 0]
    csv_path = tmp_path / "games.csv"
    assert main(["results", "1", "--per-game", "--csv", str(csv_path), "--db", db]) == 0
    text = csv_path.read_text()
    assert "forfeit" in text.splitlines()[0] and text.count("raised ValueError: out of ideas") == 2
    code = main(["bench", "cheater_agent:Raiser", "random", "--games", "2", "--isolate",
                 "--backend", "serial", "--db", db])  # fmt: skip
    assert code == 0 and "forfeits (an isolated agent" in capsys.readouterr().out
    for args, what in (
        (["random", "random", "--decision-timeout", "3"], "give --isolate"),
        (["random", "random", "--isolate", "--decision-timeout", "0"], "timeout"),
        (["no_such_module_xyz:Bot", "random", "--isolate"], "cannot build agent"),
    ):
        try:
            code = main(["bench", *args, "--games", "2", "--db", db])
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and what in err and "Traceback" not in err, err


# ------------------------------------------------------------------------ cribbage play --isolate


def _watch(agents, isolate):
    from ui.table.controller import TableController

    ctl = TableController(5, mode="watch", agents=agents, agent_seed=9, isolate=isolate,
                          interactive_cuts=False)  # fmt: skip
    steps = 0
    while ctl.computer.step() and steps < 2000:
        steps += 1
    return ctl


def test_play_with_an_isolated_opponent_plays_the_same_game() -> None:
    iso = _watch(("cheater_agent:Chatty", "expectimax"), 10.0)
    inproc = _watch(("cheater_agent:Chatty", "expectimax"), None)
    assert iso.game.is_over and iso.computer.forfeit is None
    assert iso.decisions == inproc.decisions


def test_play_an_isolated_opponent_that_fails_forfeits_the_game() -> None:
    ctl = _watch(("random", "cheater_agent:Crasher"), 5.0)
    assert not ctl.game.is_over
    assert ctl.computer.forfeit is not None and ctl.computer.forfeit[0] == 1
    assert "crashed" in ctl.computer.forfeit[1]
    assert not ctl.computer.should_move


def test_play_cli_isolate_checks_the_opponent_in_its_worker(capsys) -> None:
    from ui.cli.cli import build_parser
    from ui.cli.cmd_play import _check

    args = build_parser().parse_args(["play", "--opponent", "no_such_module_xyz:Bot", "--isolate"])
    assert _check(args) == 2
    err = capsys.readouterr().err
    assert "cannot build agent" in err and "Traceback" not in err
    args = build_parser().parse_args(["play", "--opponent", "random", "--decision-timeout", "2"])
    assert _check(args) == 2 and "--isolate" in capsys.readouterr().err
    args = build_parser().parse_args(["play", "--opponent", "cheater_agent:Chatty", "--isolate"])
    assert _check(args)[1] == "cheater_agent:Chatty"


def test_a_results_database_from_before_forfeits_gains_the_column(tmp_path) -> None:
    import sqlite3

    db = tmp_path / "old.sqlite"
    out = run_tournament(["random", "random:"], 2, seed=1, agent_seed=1, backend="serial", store=db)
    with sqlite3.connect(db) as con:
        con.execute("ALTER TABLE games DROP COLUMN forfeit")  # as the file was before
    with ResultsStore(db) as store:
        games = store.games(out.run_id)  # type: ignore[arg-type]
    assert len(games) == 2 and all(g.forfeit == "" for g in games)
