"""Bad input and refused resumes exit 2 with one line, Ctrl-C exits 130 from the command's first
instant: the names a command is handed (a database that is a folder, a FIFO, a device, or lies
under a file; a run that is not there or cannot be resumed as asked), the values it would
otherwise take in silence (an empty Ray address, a skunk line of -1), and an exploit run left
unfinished, which ``exploit --resume`` finishes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ui.cli.cli import main

ROOT = Path(__file__).resolve().parents[3]

#: a small command per subcommand that takes --db (one that would run if the name were good)
DB_COMMANDS = {
    "bench": ["bench", "random", "random", "--games", "2", "--backend", "serial"],
    "results": ["results"],
    "discards": ["discards", "analyzer", "--deals", "2", "--backend", "serial"],
    "exploit": ["exploit", "random", "--games", "2", "--backend", "serial"],
    "train": ["train", "--method", "dmc", "--shards", "1", "--eval-games", "0"],
}


def _said(capsys) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return [line for line in err.splitlines() if line.startswith("cribbage")]


@pytest.fixture
def names(tmp_path) -> dict[str, str]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    return {
        "folder": str(tmp_path / "folder"),
        "under a file": str(tmp_path / "file" / "r.sqlite"),
        "fifo": str(tmp_path / "fifo"),
        "device": "/dev/zero",
    }


@pytest.mark.parametrize("kind", ["folder", "under a file", "fifo", "device"])
@pytest.mark.parametrize("command", list(DB_COMMANDS))
def test_a_db_that_cannot_be_a_database_file_is_bad_input(
    names, tmp_path, monkeypatch, capsys, command, kind
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [*DB_COMMANDS[command], "--db", names[kind]]
    if command == "train":
        argv += ["--run-dir", str(tmp_path / "run")]
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    said = _said(capsys)
    assert code == 2 and len(said) == 1, (argv, code, said)
    what = {"folder": "is a folder", "under a file": "is not a folder", "fifo": "is a pipe",
            "device": "is a device"}[kind]  # fmt: skip
    assert what in said[0] and "failing" not in said[0]
    assert not (tmp_path / "run").exists()


def test_the_store_says_what_a_fifo_is_not_a_failing_disk(tmp_path) -> None:
    from agents.store.db_errors import NamedNothing
    from agents.store.results_store import ResultsStore

    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NamedNothing, match="is a pipe"):
        ResultsStore(tmp_path / "fifo")


# --------------------------------------------------------------------------- bench --resume
@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A database with run 1 complete and run 2 interrupted after its first block of one pair."""
    from agents.bench import run_tournament

    db = tmp_path_factory.mktemp("runs") / "r.sqlite"
    run_tournament(["random", "random"], 2, 1, backend="serial", store=db, agent_seed=1)
    out = run_tournament(["random", "greedy"], 6, 1, backend="serial", store=db, agent_seed=1,
                         block=1, on_block=lambda block: False)  # fmt: skip
    assert out.status == "interrupted" and out.run_id == 2
    return db


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--resume", "99"], "no run 99"),
        (["--resume", "1"], "run 1 is complete"),
        (["--resume", "2", "greedy", "greedy"], "are not those of run 2"),
        (["--resume", "2", "--block", "7"], "--block 7: run 2 plays blocks of 1"),
    ],
    ids=["no such run", "complete", "other agents", "another block"],
)
def test_bench_resume_refusals_are_bad_input(runs, tmp_path, capsys, extra, says) -> None:
    before = runs.read_bytes()
    assert main(["bench", *extra, "--db", str(runs), "--backend", "serial"]) == 2
    said = _said(capsys)
    assert len(said) == 1 and says in said[0], said
    assert runs.read_bytes() == before


def test_bench_resume_of_a_missing_database_is_bad_input(tmp_path, capsys) -> None:
    db = tmp_path / "none.sqlite"
    assert main(["bench", "--resume", "3", "--db", str(db)]) == 2
    said = _said(capsys)
    assert len(said) == 1 and "does not exist" in said[0] and not db.exists()


# ------------------------------------------------------------------------------- values
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["bench", "random", "random", "--backend", "ray", "--address", ""], "a Ray address"),
        (["train", "--backend", "ray", "--address", " "], "a Ray address"),
        (["bench", "random", "random", "--rules", "target=121,double_skunk=-1"], ">= 0"),
        (["equity", "100", "100", "--rules", "skunk=-1"], ">= 0"),
    ],
    ids=["empty address", "blank address", "double_skunk=-1", "skunk=-1"],
)
def test_values_taken_in_silence_are_refused(tmp_path, monkeypatch, capsys, argv, says) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    said = _said(capsys)
    assert exc.value.code == 2 and len(said) == 1 and says in said[0], said
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------------ exploit --resume
def test_an_interrupted_exploit_run_is_finished_by_exploit_resume(tmp_path, capsys) -> None:
    import json

    from agents.exploit.run import exploit

    db, whole = tmp_path / "e.sqlite", tmp_path / "whole.sqlite"
    kw = dict(method="blind", guesses=4, backend="serial", agent_seed=5)
    cut = exploit("random", 4, 2, store=db, block=1, on_block=lambda b: False, **kw)
    assert cut.run.status == "interrupted" and cut.run.summary["games_played"] == 2
    assert main(["bench", "--resume", "1", "--db", str(db)]) == 2
    assert "cribbage exploit --resume 1" in _said(capsys)[0]
    for typed in (["--games", "8"], ["--guesses", "5"], ["--rollout", "agent"]):
        assert main(["exploit", "--resume", "1", "--db", str(db), *typed]) == 2
        assert "leave out" in _said(capsys)[0]
    assert main(["exploit", "--resume", "1"]) == 2
    assert "needs --db" in _said(capsys)[0]
    assert main(["exploit", "greedy", "--resume", "1", "--db", str(db)]) == 2
    assert "exploits 'random', not 'greedy'" in _said(capsys)[0]
    argv = ["exploit", "--resume", "1", "--db", str(db), "--backend", "serial", "--json"]
    assert main(argv) == 0
    done = json.loads(capsys.readouterr().out)
    ref = exploit("random", 4, 2, store=whole, block=1, **kw).to_json()
    assert done["status"] == "complete" and done["games"] == 4
    keys = ("exploiter", "win_rate", "mean_margin", "agent_seed", "belief")
    assert {k: done[k] for k in keys} == {k: ref[k] for k in keys}
    assert main(argv) == 2 and "is complete" in _said(capsys)[0]


def test_exploit_resume_builds_no_stored_import_path(tmp_path, capsys) -> None:
    from agents.exploit.run import exploit

    db = tmp_path / "e.sqlite"
    spec = "tests.plugin_agents:FirstLegal"
    exploit(spec, 4, 2, method="blind", guesses=2, store=db, block=1, backend="serial",
            on_block=lambda b: False)  # fmt: skip
    assert main(["exploit", "--resume", "1", "--db", str(db), "--backend", "serial"]) == 2
    assert "would run code" in _said(capsys)[0]
    assert main(["exploit", spec, "--resume", "1", "--db", str(db), "--backend", "serial"]) == 0


# ------------------------------------------------------------------------------- Ctrl-C
def test_ctrl_c_from_the_commands_first_instant_is_130_without_a_traceback() -> None:
    """The console script's steps once its entry module is loaded (the interpreter's own start
    and that import come before any of the project's code), interrupted at once and at moments
    through the imports: 130 and one line each time (or done, if it finished)."""
    script = ("import sys; import ui.cli.entry; print('ready', flush=True); "
              "from ui.cli.entry import main; sys.exit(main())")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seen = []
    for delay in (0.0, 0.002, 0.01, 0.03, 0.08):
        p = subprocess.Popen([sys.executable, "-c", script, "analyze", "5H 5D JS QC 2C 3D", "--dealer"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        assert p.stdout is not None
        p.stdout.readline()  # the command has started: from here on it answers Ctrl-C
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        seen.append(p.returncode)
        assert "Traceback" not in err, (delay, err)
        # done; interrupted (130, one line); or killed by the signal while the interpreter shuts
        # down after the command returned (a shell reports that as 130 too, nothing printed)
        assert (
            p.returncode == 0
            or (p.returncode == 130 and err == "cribbage: interrupted\n")
            or (p.returncode == -signal.SIGINT and not err)
        ), (delay, p.returncode, err)
    assert seen.count(130) >= 3, seen  # the early moments answer with the one line
