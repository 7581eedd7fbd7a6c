"""Nothing a person does at the game loses their game or crashes it (the game side).

- only the person's own game writes the autosave (not ``--autoplay``, ``--watch`` or a custom
  ``--opponent`` while a game is in progress); two games lock the folder and the second is told;
- a folder that cannot be used (a file, ``autosave.json`` a folder, read-only, full, full in the
  middle of a game) is said in words and the game goes on without autosave;
- temp files left by a killed game are removed by the next one;
- ``replay`` reads only small regular files (``/dev/zero``, a FIFO, a 100 MB file are refused at
  once); ``--screenshots FILE``, ``--delay nan``, 5,000-digit integers are refused without a
  traceback;
- a save naming code or a model file is never built without the person's yes.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from agents.players.random_agent import RandomAgent
from agents.store import atomic
from agents.store.files import UnreadableFile, read_text
from ui.cli import cmd_play
from ui.cli.cli import main
from ui.saved import autosave
from ui.saved.autosave import SaveStore
from ui.table import seats as seats_module
from ui.table.controller import Mode, TableController
from ui.table.saves import SaveError, UntrustedSave, trusted_spec

ROOT = Path(__file__).resolve().parents[3]


def _play(ctl: TableController, n: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.human_to_act:
            legal = ctl.game.legal_actions()
            ctl.decide(int(legal[int(rng.integers(len(legal)))]))


def _saved_game(directory: Path) -> bytes:
    """A person's game in progress in ``directory`` (its bytes)."""
    store = SaveStore(directory, durable=False)
    ctl = TableController(21, mode=Mode.COMPUTER, opponent="random", on_change=store.save)
    _play(ctl, 8)
    return store.path.read_bytes()


def _args(**kw) -> argparse.Namespace:
    """``cribbage play``'s options as its parser gives them, with ``kw`` changed."""
    parser = argparse.ArgumentParser()
    cmd_play.add_arguments(parser)
    args = parser.parse_args([])
    vars(args).update(kw)
    return args


# ------------------------------------------------------------------------------ who writes
def test_only_the_persons_own_game_writes_the_autosave(tmp_path) -> None:
    before = _saved_game(tmp_path)
    # Autoplay and watching never get a store at all.
    assert cmd_play._autosave(_args(autoplay=5), SaveStore, own_game=False) == (None, None)
    # A custom opponent started from the command line, with a game in progress: not saved.
    store = SaveStore(tmp_path, durable=False)
    assert store.open() is None
    ctl = cmd_play.first_table(
        _args(opponent="random"), store, opponent="random", watch=None, lang="en"
    )
    assert ctl is not None and ctl.on_change is cmd_play._not_saved
    _play(ctl, 12)
    assert store.path.read_bytes() == before
    # The level games start on the start screen (New game / Continue are the person's choice).
    assert cmd_play.first_table(_args(), store, opponent="greedy", watch=None, lang="en") is None
    store.close()


def test_a_custom_opponent_is_autosaved_when_nothing_is_in_progress(tmp_path) -> None:
    store = SaveStore(tmp_path, durable=False)
    store.open()
    ctl = cmd_play.first_table(
        _args(opponent="random"), store, opponent="random", watch=None, lang="en"
    )
    assert ctl is not None and ctl.on_change is None  # the window sets store.save
    store.close()


@pytest.mark.parametrize(
    "extra",
    [["--watch", "random", "greedy"], ["--opponent", "random"]],
    ids=["watch", "custom opponent"],
)
def test_autoplay_and_watch_leave_the_save_alone(tmp_path, extra) -> None:
    pytest.importorskip("arcade")
    before = _saved_game(tmp_path / "data")
    env = dict(os.environ, CRIBBAGE_DATA_DIR=str(tmp_path / "data"), ARCADE_HEADLESS="1")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run(
        [sys.executable, "-m", "ui", "play", "--autoplay", "30", *extra],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    if r.returncode != 0 and "cannot open a window" in r.stderr:
        pytest.skip(f"no headless GL here: {r.stderr.strip()}")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert (tmp_path / "data" / "autosave.json").read_bytes() == before


# ------------------------------------------------------------------------------ the lock
def test_two_games_lock_the_folder_and_the_second_is_told(tmp_path) -> None:
    before = _saved_game(tmp_path)
    first, second = SaveStore(tmp_path), SaveStore(tmp_path)
    assert first.open() is None and first.writable
    problem = second.open()
    assert problem and "another cribbage game" in problem and not second.writable
    ctl = TableController(4, mode=Mode.HOTSEAT, on_change=second.save)
    _play(ctl, 6)
    assert first.path.read_bytes() == before  # the second game wrote nothing
    assert second.load().game is not None  # it may still read (Continue)
    first.close()
    third = SaveStore(tmp_path)
    assert third.open() is None
    third.close()


def test_a_lock_held_by_another_process(tmp_path) -> None:
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[2]); from ui.saved.autosave import SaveStore; "
        "s = SaveStore(sys.argv[1]); assert s.open() is None; print('locked', flush=True); "
        "time.sleep(30)"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path), str(ROOT)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert p.stdout.readline().strip() == "locked"
        mine = SaveStore(tmp_path)
        assert "another cribbage game" in (mine.open() or "")
    finally:
        p.kill()
        p.wait()
    assert SaveStore(tmp_path).open() is None  # the system drops the lock with the process


# ------------------------------------------------------------------------------ bad folders
def test_a_file_instead_of_the_folder(tmp_path) -> None:
    path = tmp_path / "data"
    path.write_text("not a folder")
    store = SaveStore(path)
    assert "is a file, not a folder" in store.open() and not store.writable
    ctl = TableController(2, mode=Mode.HOTSEAT, on_change=store.save)
    _play(ctl, 10)  # plays on, nothing written, nothing raised
    assert path.read_text() == "not a folder" and not store.exists()


def test_autosave_json_is_a_folder(tmp_path) -> None:
    (tmp_path / "autosave.json").mkdir()
    other = SaveStore(tmp_path)  # a game without the folder's lock reads, never moves
    with pytest.raises(SaveError, match="folder"):
        other.load()
    store = SaveStore(tmp_path)
    assert store.open() is None and store.writable
    assert "is a folder" in str(store.notice) and "set aside as autosave.json.bad-" in store.notice
    assert not store.exists() and len(list(tmp_path.glob("autosave.json.bad-*"))) == 1
    _play(TableController(2, mode=Mode.HOTSEAT, on_change=store.save), 10)
    assert store.exists()  # the game is autosaved again


@pytest.mark.parametrize(
    ("where", "err", "words"),
    [
        ("mkstemp", errno.EACCES, "Permission denied"),
        ("mkstemp", errno.EROFS, "Read-only file system"),
        ("write", errno.ENOSPC, "No space left on device"),
    ],
)
def test_read_only_or_full_folder(tmp_path, monkeypatch, where, err, words) -> None:
    """Simulated (the tests may run as root, who writes anywhere)."""

    def fail(*a, **k):
        raise OSError(err, os.strerror(err))

    if where == "mkstemp":
        monkeypatch.setattr(autosave.tempfile, "mkstemp", fail)
    else:
        monkeypatch.setattr(autosave.os, "write", fail)
    store = SaveStore(tmp_path)
    problem = store.open()
    assert problem and words in problem and not store.writable
    _play(TableController(2, mode=Mode.HOTSEAT, on_change=store.save), 10)


def test_the_disk_fills_up_in_the_middle_of_a_game(tmp_path, monkeypatch) -> None:
    before = _saved_game(tmp_path)
    store = SaveStore(tmp_path, durable=False)
    assert store.open() is None
    ctl = store.load(on_change=store.save)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.json, "dump", full)
    while not ctl.human_to_act:
        ctl.computer.step()
    _play(ctl, 1)  # the person's move: its save fails and the table says so
    assert not store.writable and "No space left" in store.problem
    assert any("Autosave is off" in m and "No space left" in m for m in ctl.messages)
    _play(ctl, 10)  # and the game goes on
    assert store.path.read_bytes() == before  # the last good save is kept
    assert not list(tmp_path.glob(".*.tmp"))


# ------------------------------------------------------------------------------ temp files
def test_temp_files_of_a_killed_game_are_cleaned(tmp_path) -> None:
    """A writer killed with SIGKILL in the middle of saving: the next game finds a valid save
    (old or new, never torn) and no temp files."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[2]); import numpy as np; "
        "from ui.saved.autosave import SaveStore; from ui.table.controller import TableController; "
        "s = SaveStore(sys.argv[1], durable=False); s.open(); "
        "c = TableController(3, mode='hotseat', on_change=s.save); r = np.random.default_rng(0)\n"
        "print('go', flush=True)\n"
        "while True:\n"
        "    c.restart() if c.game.is_over else None\n"
        "    c.show.skip(); legal = c.game.legal_actions(); c.decide(int(legal[r.integers(len(legal))]))\n"
    )
    (tmp_path / "history").mkdir()
    (tmp_path / "history" / ".game-1.json.abc.tmp").write_text("{")
    for delay in (0.3, 0.7):
        p = subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path), str(ROOT)], stdout=subprocess.PIPE
        )
        assert p.stdout.readline().strip() == b"go"
        # Kill only once the writer is saving (a loaded machine may take a while to get there).
        deadline = time.monotonic() + 30
        while not (tmp_path / "autosave.json").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
    (tmp_path / ".autosave.json.left.tmp").write_text('{"torn')
    store = SaveStore(tmp_path)
    assert store.open() is None
    assert not list(tmp_path.glob(".*.tmp")) and not list((tmp_path / "history").glob(".*.tmp"))
    if store.exists():
        assert store.load().game is not None
    else:  # killed between a finished game's archiving and the next game's first save
        assert list((tmp_path / "history").glob("game-*.json"))
    store.close()


def test_a_game_that_does_not_hold_the_lock_removes_nothing(tmp_path) -> None:
    first = SaveStore(tmp_path)
    first.open()
    tmp = tmp_path / ".autosave.json.busy.tmp"
    tmp.write_text("{")  # the first game's write in flight
    assert SaveStore(tmp_path).open() is not None
    assert tmp.exists()
    first.close()


# ------------------------------------------------------------------------------ reading files
def test_replay_refuses_devices_pipes_and_huge_files_at_once(tmp_path, capsys) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(100 * 1024 * 1024)  # 100 MB (sparse)
    for path, words in (
        ("/dev/zero", "is a device"),
        (fifo, "is a pipe"),
        (huge, "too big"),
        (tmp_path, "is a folder"),
    ):
        tracemalloc.start()
        t0 = time.perf_counter()
        code = main(["replay", str(path), "--text"])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        err = capsys.readouterr().err
        assert code == 2 and words in err and "Traceback" not in err, err
        assert time.perf_counter() - t0 < 5 and peak < 20 * 1024 * 1024


def test_a_file_growing_past_the_cap_is_refused_while_streaming(tmp_path, monkeypatch) -> None:
    path = tmp_path / "grows.json"
    path.write_text("[" + "1," * 1000 + "1]")
    with pytest.raises(UnreadableFile, match="too big"):
        read_text(path, limit=1000)


def test_save_that_is_a_pipe_or_device_is_refused(tmp_path) -> None:
    os.mkfifo(tmp_path / "autosave.json")
    store = SaveStore(tmp_path)
    with pytest.raises(SaveError, match="pipe"):
        store.load()


def test_a_5000_digit_integer_in_a_save_or_a_record(tmp_path, capsys) -> None:
    store = SaveStore(tmp_path)
    store.path.write_text(
        '{"format": "cribbage-env/autosave", "version": 1, "seed": ' + "7" * 5000 + "}"
    )
    with pytest.raises(SaveError, match="digits"):
        store.load()
    record = tmp_path / "r.json"
    record.write_text('{"format": "cribbage-env/record", "seed": ' + "7" * 5000 + "}")
    assert main(["replay", str(record), "--text"]) == 2
    err = capsys.readouterr().err
    assert "digits" in err and "Traceback" not in err


def test_a_seed_too_big_for_the_results_store_is_refused_in_a_save() -> None:
    data = TableController(1, mode=Mode.HOTSEAT).to_save()
    data["seed"] = 2**63
    with pytest.raises(SaveError, match="seed"):
        TableController.from_save(data)


def _a_record(tmp_path: Path) -> Path:
    ctl = TableController(5, mode=Mode.WATCH, agents=("random", "random"), agent_seed=1)
    _play(ctl, 30)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(ctl.game.to_record()))
    return path


def test_replay_screenshots_into_a_file_and_delay_nan(tmp_path, capsys) -> None:
    record = _a_record(tmp_path)
    afile = tmp_path / "shots.png"
    afile.write_text("x")
    assert main(["replay", str(record), "--screenshots", str(afile)]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and "Traceback" not in err
    for bad in (["--delay", "nan"], ["--delay", "inf"], ["--every", "0"]):
        with pytest.raises(SystemExit) as exc:
            main(["replay", str(record), *bad])
        assert exc.value.code == 2
        assert "expected" in capsys.readouterr().err
    assert afile.read_text() == "x"


def test_play_screenshots_into_a_file(tmp_path, capsys) -> None:
    afile = tmp_path / "shots"
    afile.write_text("x")
    assert main(["play", "--autoplay", "3", "--screenshots", str(afile)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


# ------------------------------------------------------------------------------ trusted code
@pytest.mark.parametrize(
    ("spec", "trusted"),
    [
        ("greedy", True),
        ("hard", True),
        ("expert:sims=200,rollout=heuristic", True),
        ("expectimax:counter=0.5", True),
        ("maskable_ppo:path=/tmp/model.zip", False),
        ("maskable_ppo", False),
        ("my_bots.v1:Bot", False),
        ("some_plugin", False),
        ("expert:sims=../../x", False),
        ("discarder:strategy=evil:run", False),
        (None, False),
        (7, False),
    ],
)
def test_which_specs_a_save_may_build_without_asking(spec, trusted) -> None:
    assert trusted_spec(spec) is trusted


def test_a_save_naming_a_model_file_is_shown_and_built_only_when_confirmed(
    tmp_path, monkeypatch
) -> None:
    built = []

    def spy(spec):
        built.append(spec)
        return RandomAgent()

    store = SaveStore(tmp_path)
    data = TableController(6, mode=Mode.COMPUTER, opponent="random").to_save()
    monkeypatch.setattr(seats_module, "_make_agent", spy)
    planted = "maskable_ppo:path=/tmp/planted.zip"
    data["agents"][1] = planted
    store.path.write_text(json.dumps(data))
    with pytest.raises(UntrustedSave) as exc:
        store.load()
    assert exc.value.specs == (planted,) and planted in str(exc.value)
    assert built == []  # nothing imported, nothing loaded
    ctl = store.load(trusted=exc.value.specs)  # the person said yes to exactly this spec
    assert built == [planted] and ctl.seats[1].spec == planted
    data["agents"][1] = "maskable_ppo:path=/tmp/other.zip"  # swapped after the question
    store.path.write_text(json.dumps(data))
    with pytest.raises(UntrustedSave):
        store.load(trusted=exc.value.specs)
