"""`cribbage play` / `cribbage replay` from the outside, and autosave surviving SIGKILL."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import cribbage

import cribbage_env as ce
from ui.cli.cli import main as cli_main
from ui.saved.autosave import SaveStore
from ui.table.controller import TableController

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> Path:
    g = ce.new_game(7)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    p = tmp_path_factory.mktemp("rec") / "game.json"
    p.write_text(json.dumps(g.to_record()), encoding="utf-8")
    return p


def test_replay_text_explains_every_score(record_file: Path) -> None:
    r = cribbage("replay", str(record_file), "--text", "--lang", "en")
    assert r.returncode == 0, r.stderr
    g = ce.GameState.from_record(record_file.read_text())
    out = r.stdout
    assert out.count("Deal ") >= g.deal_no + 1
    assert "fifteen" in out and "wins!" in out
    assert f"{g.scores[0]} – {g.scores[1]}" in out
    scored = [e for e in g.events if e.points]
    # Every scoring event shows the scores after it, so the account can be followed point by point.
    assert sum(out.count(f"[{e.scores[0]}–{e.scores[1]}]") > 0 for e in scored) == len(
        {e.scores for e in scored}
    )


def test_replay_text_in_spanish(record_file: Path) -> None:
    r = cribbage("replay", str(record_file), "--text", "--lang", "es")
    assert r.returncode == 0 and "Reparto 1" in r.stdout and "quince" in r.stdout


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not json",
        "[]",
        '{"format": "something else"}',
        '{"format": "cribbage-env/game-record", "version": 0, "seed": 1, "decisions": []}',
    ],
)
def test_replay_refuses_bad_records_and_leaves_them(tmp_path: Path, content: str, capsys) -> None:
    p = tmp_path / "bad.json"
    p.write_text(content, encoding="utf-8")
    assert cli_main(["replay", str(p), "--text"]) != 0
    err = capsys.readouterr().err
    assert "cribbage replay:" in err and str(p) in err
    assert p.read_text(encoding="utf-8") == content


def test_replay_refuses_illegal_decisions(tmp_path: Path, record_file: Path) -> None:
    rec = json.loads(record_file.read_text())
    rec["decisions"][5] = "cut 99"
    p = tmp_path / "edited.json"
    text = json.dumps(rec)
    p.write_text(text)
    r = cribbage("replay", str(p), "--text")
    assert r.returncode == 2 and "decision 5" in r.stderr and p.read_text() == text


def test_replay_missing_file() -> None:
    r = cribbage("replay", "/nonexistent/game.json", "--text")
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_play_without_display_says_so() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")
    }
    r = cribbage("play", env=env)
    assert r.returncode == 1
    assert "no display" in r.stderr and "Traceback" not in r.stderr
    r = cribbage("play", env=dict(env, ARCADE_HEADLESS="1"))  # an invisible window: refused
    assert r.returncode == 1 and "--autoplay" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--opponent", "nope"],
        ["play", "--size", "big"],
        ["play", "--screenshots", "x"],
        ["play", "--lang", "xx"],
    ],
)
def test_play_misuse_exits_2(args: list[str], capsys) -> None:
    try:
        code = cli_main(args)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2 and capsys.readouterr().err


# ------------------------------------------------------------------------------------ SIGKILL
CHILD = r"""
import sys
import numpy as np
from ui.cli.cli import main as cli_main
from ui.table.controller import TableController
from ui.saved.autosave import SaveStore
sys.path.insert(0, sys.argv[2])
from table_play import advance
store = SaveStore(sys.argv[1])
rng = np.random.default_rng(0)
seed = 100
while True:
    c = TableController(seed, opponent="random", on_change=store.save)
    while not c.game.is_over:
        advance(c, rng)
        print(seed, " ".join(map(str, c.decisions)), flush=True)
    seed += 1
"""


@pytest.mark.parametrize("delay", [0.1, 0.8])
def test_autosave_survives_sigkill(tmp_path: Path, delay: float) -> None:
    """Kill an autosaving game at an arbitrary moment; the save resumes at the last decision."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(ROOT / "tests")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    # Wait for at least one completed decision, then kill without warning.
    first = proc.stdout.readline()
    assert first, proc.stderr.read()
    os.kill(proc.pid, signal.SIGKILL)
    rest = proc.stdout.read()
    proc.wait()
    lines = [ln for ln in (first + rest).splitlines() if ln.strip()]
    last_seed, *last = lines[-1].split(" ")
    store = SaveStore(tmp_path)
    assert not list(tmp_path.glob(".autosave.json.*.tmp")) or store.exists()
    if not store.exists():  # killed just as a game finished: it is in the history
        assert list(store.history.glob("*.json"))
        return
    ctl = store.load()  # never a torn or corrupt file
    saved = [str(a) for a in ctl.decisions]
    if ctl.seed == int(last_seed):
        assert saved[: len(last)] == last  # everything reported done is saved
        assert len(saved) - len(last) <= 1  # at most the decision being reported when killed
    else:
        assert ctl.seed == int(last_seed) + 1 and len(saved) <= 1
    assert ctl.game == ce.replay(ctl.seed, ctl.decisions, interactive_cuts=True)
    # And play goes on from there.
    ctl.show.skip()
    assert isinstance(ctl, TableController) and not ctl.game.is_over


def test_autoplay_screenshots_headless(tmp_path: Path) -> None:
    if importlib.util.find_spec("arcade") is None:  # not imported here: the GUI tests need
        pytest.skip("arcade is not installed")  # it imported headless first
    env = dict(os.environ, CRIBBAGE_DATA_DIR=str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    SaveStore(tmp_path / "data").save(TableController(5, mode="hotseat"))  # a person's game
    before = SaveStore(tmp_path / "data").path.read_bytes()
    shots_dir = str(tmp_path / "shots")
    args = ("--autoplay", "12", "--screenshots", shots_dir, "--seed", "3", "--four-colour")
    r = cribbage("play", *args, "--no-motion", env=env)
    if r.returncode != 0 and ("cannot open a window" in r.stderr):
        pytest.skip(f"no headless GL here: {r.stderr.strip()}")
    assert r.returncode == 0, r.stderr
    shots = sorted((tmp_path / "shots").glob("*.png"))
    assert len(shots) >= 4
    assert shots[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Autoplay is not the person's game: their autosave is left exactly as it was.
    assert SaveStore(tmp_path / "data").path.read_bytes() == before


REAL_LOOP = r"""
import sys
import arcade, pyglet
from ui.gui import prepare
prepare()
from ui.gui.app import GameWindow, Settings
from ui.table.controller import TableController, Mode
w = GameWindow(settings=Settings(computer_delay=0.05, show_delay=0.05))
w.start_table(TableController(3, mode=Mode.WATCH, agents=("hard", "medium")))
draws = [0]
draw = w.on_draw
def counted():
    draws[0] += 1
    draw()
w.on_draw = counted
import time
t0 = time.monotonic()
def check(dt):  # at least 3 s, then until five decisions (a loaded machine is slower), at most 60 s
    elapsed = time.monotonic() - t0
    if (elapsed >= 3.0 and len(w.ctl.decisions) >= 5) or elapsed >= 60.0:
        arcade.exit()
pyglet.clock.schedule_interval(check, 0.1)
arcade.run()
print(time.monotonic() - t0, draws[0], len(w.ctl.decisions), len(w.errors))
"""


@pytest.mark.gui
@pytest.mark.integration  # an X server and the whole window's loop: seconds of start-up
def test_real_event_loop_under_xvfb() -> None:
    """The window in Arcade's real event loop (X server in memory): the computer moves from its
    worker thread, and frames are drawn only when something changed."""
    import shutil

    if shutil.which("xvfb-run") is None or importlib.util.find_spec("arcade") is None:
        pytest.skip("xvfb-run or arcade not installed")
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    r = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, "-c", REAL_LOOP],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if r.returncode != 0 and "cannot" in r.stderr.lower() and "display" in r.stderr.lower():
        pytest.skip(f"no X server: {r.stderr.strip()[-200:]}")
    assert r.returncode == 0, r.stderr[-2000:]
    seconds, *counts = r.stdout.split()[-4:]
    draws, decisions, errors = map(int, counts)
    assert decisions >= 5 and errors == 0
    assert (
        0 < draws < float(seconds) * 60
    )  # fewer frames drawn than the loop ran: idle ones skipped


def test_replay_on_the_table_headless(tmp_path: Path, record_file: Path) -> None:
    if importlib.util.find_spec("arcade") is None:
        pytest.skip("arcade is not installed")
    r = cribbage("replay", str(record_file), "--screenshots", str(tmp_path), "--every", "40")
    if r.returncode != 0 and "cannot open a window" in r.stderr:
        pytest.skip(f"no headless GL here: {r.stderr.strip()}")
    assert r.returncode == 0, r.stderr
    g = ce.GameState.from_record(record_file.read_text())
    assert f"replayed {len(g.decisions)} decisions" in r.stdout
    assert list(tmp_path.glob("*-over.png"))  # the game-over screen of the replay
