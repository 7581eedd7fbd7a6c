"""Test-session setup that must precede every test module's imports.

Arcade picks its window system when it is first imported: headless (EGL) only if
``ARCADE_HEADLESS`` is set by then. A test module that imports Arcade early (for instance through
``pytest.importorskip("arcade")``) would otherwise fix a windowed Arcade for the whole session and
the GUI tests after it would skip, so the outcome depended on test order.
Subprocess tests that need it unset build their own environment. The GUI tests share a
headless `window` fixture.

No test can hold the run: each has a time limit (``timeout`` in pyproject.toml, pytest-timeout;
the integration tier's is longer, set here), and every sealed seat a test opens is closed when
the test ends, whether it passed or failed (:func:`_sealed_seats_closed`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

pytest_plugins = ("pytester",)

#: seconds an integration test may take (the fast tier's limit is pyproject.toml's ``timeout``)
INTEGRATION_TIMEOUT = 1800
#: words of a test module that may open a sealed seat (directly, by spec, or isolated tables)
_SEAT_WORDS = ("SealedSeat", "sealed", "isolate")
_opens_seats: dict[str, bool] = {}


#: names the folder where the kernels compiled ahead say they are done (set for the workers)
_AHEAD = "CRIBBAGE_TEST_KERNELS_AHEAD"
#: the two halves of ``cribbage warmup`` (about even: 13 and 16 s of one core from an empty cache)
_HALVES = ("table", "batch")
_ahead: list[subprocess.Popen] = []


def pytest_configure(config) -> None:
    """With several workers, the first to meet a kernel compiles it and the others wait for it
    (the kernel's compile lock), after their collection. The run starts compiling instead, in
    two child processes (``cribbage warmup``'s halves, side by side on the two cores), while the
    workers collect; a test waits for the half it may use (:func:`_kernels_compiled_ahead`).
    From a full cache the children load and exit in a second."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", 0):
        return
    if config.option.collectonly or os.environ.get(_AHEAD):
        return
    folder = Path(tempfile.mkdtemp(prefix="cribbage-kernels-"))
    os.environ[_AHEAD] = str(folder)  # the workers start after this, with it
    for half in _HALVES:
        child = subprocess.Popen(
            [sys.executable, "-m", "ui", "warmup", "--what", half],
            cwd=Path(__file__).resolve().parents[1],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _ahead.append(child)
        threading.Thread(target=_say_done, args=(child, folder / half), daemon=True).start()


def _say_done(child: subprocess.Popen, flag: Path) -> None:
    flag.write_text(str(child.wait()))


def pytest_unconfigure(config) -> None:
    for child in _ahead:
        if child.poll() is None:
            child.kill()
            child.wait()
    if _ahead:
        shutil.rmtree(os.environ.pop(_AHEAD), ignore_errors=True)


#: test folders whose modules step the batched env (its kernels are the "batch" half): the
#: others start once the table's half is compiled
_BATCH_USERS = ("cribbage_env", "docs")


@pytest.fixture(autouse=True)
def _kernels_compiled_ahead(request) -> None:
    """A test waits for the kernels the run compiles ahead that it may use (at most 10 minutes:
    then it compiles what it needs itself)."""
    folder = os.environ.get(_AHEAD)
    if not folder:
        return
    parts = Path(str(request.path)).resolve().relative_to(Path(__file__).resolve().parents[1]).parts
    room = parts[1] if parts[0] == "tests" else parts[0]  # a test's folder, or a doctest's package
    halves = _HALVES if room in _BATCH_USERS else ("table",)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not all((Path(folder) / h).exists() for h in halves):
        time.sleep(0.1)


#: the longest test modules first (then the rest in their order): a worker free late gets a short
#: one, so no worker ends the run alone with a long one
LONG_FIRST = (
    "agents/arena/test_isolate.py",
    "ui/gui/test_no_overlap.py",
    "agents/players/test_agents.py",
    "ui/cli/test_trust_small.py",
    "ui/cli/test_cli_bench.py",
    "ui/gui/test_ui_gui.py",
    "cribbage_env/envs/test_vecenv.py",
    "ui/cli/test_ui_cli.py",
    "docs/test_docs_snippets.py",
    "ui/gui/test_ui_gui_review.py",
    "cribbage_env/analysis/test_luck.py",
    "agents/tournament/test_tournament.py",
    "agents/tournament/test_bench_api.py",
    "project/test_architecture.py",
    "ui/table/test_trust_game.py",
    "ui/cli/test_bad_input.py",
    "ui/cli/test_bad_args_matrix.py",
)


def pytest_collection_modifyitems(config, items) -> None:
    here = Path(__file__).resolve().parent
    rank = {name: i for i, name in enumerate(LONG_FIRST)}

    def order(item) -> int:
        path = Path(str(item.path)).resolve()
        inside = path.is_relative_to(here)
        return rank.get(path.relative_to(here).as_posix(), len(rank)) if inside else len(rank)

    items.sort(key=order)  # stable: the same order on every worker
    for item in items:
        if item.get_closest_marker("integration") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(INTEGRATION_TIMEOUT))


def _may_open_seats(path: Path) -> bool:
    key = str(path)
    if key not in _opens_seats:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        _opens_seats[key] = any(w in text for w in _SEAT_WORDS)
    return _opens_seats[key]


@pytest.fixture(autouse=True)
def _sealed_seats_closed(request, monkeypatch):
    """Every sealed seat the test opens in this process is closed when it ends, even when it
    fails or times out (its bot's processes end with it)."""
    if "agents.arena.seat" not in sys.modules and not _may_open_seats(request.path):
        yield
        return
    from agents.arena.seat import SealedSeat

    opened: list[SealedSeat] = []
    real = SealedSeat.__init__

    def tracked(self, *args, **kwargs) -> None:
        opened.append(self)
        real(self, *args, **kwargs)

    monkeypatch.setattr(SealedSeat, "__init__", tracked)
    yield
    for seat in opened:
        try:
            seat.close()
        except Exception:  # noqa: BLE001 - a seat half made: close what there is
            pass


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    """A headless window for a module's GUI tests (see ``gui_window.open_window``); a module
    that wants another one defines its own ``window``."""
    from gui_window import open_window

    from ui.saved.autosave import SaveStore

    w = open_window(SaveStore(tmp_path_factory.mktemp("saves")))
    yield w
    w.close()


@pytest.fixture
def tmp_path(tmp_path):
    """pytest's folder, readable by others: a root host's sealed seat runs as the user
    'nobody', which may read a bot's folder only as others may (pytest makes it private)."""
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.fixture(autouse=True)
def _signal_handlers_kept():
    """A test leaves the process's Ctrl-C and SIGTERM handlers as it found them: a handler left
    behind (a flag setter, an ignore) would make a later test's real Ctrl-C do nothing."""
    import signal

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    if before[signal.SIGINT] == signal.SIG_IGN:  # a run started in the background ignores Ctrl-C:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a test's Ctrl-C is a terminal's
    yield
    expected = {**before, signal.SIGINT: signal.default_int_handler}
    if before[signal.SIGINT] != signal.SIG_IGN:
        expected = before
    changed = {s.name: signal.getsignal(s) for s, h in expected.items() if signal.getsignal(s) != h}
    for s, h in before.items():
        signal.signal(s, h)
    # A library's own handler (ray.init sets SIGTERM's and keeps it) is put back, not blamed.
    ours = {name: h for name, h in changed.items() if not _a_librarys(h)}
    assert not ours, f"the test left signal handlers changed: {ours}"


def _a_librarys(handler: object) -> bool:
    """Whether ``handler`` is a library's function (an ignore or a default is any test's doing)."""
    import signal

    if isinstance(handler, signal.Handlers) or handler is signal.default_int_handler:
        return False
    module = getattr(handler, "__module__", None) or ""
    return module.split(".")[0] not in ("", "cribbage_env", "agents", "ui") and not (
        module.startswith("test_") or module.startswith("tests.")
    )
