"""Every file the table reads at launch is bounded (size, nesting, regular files only); one that
fails is set aside with a one-line notice and the game starts: the start screen's choices and the
autosave, read by ``cribbage play`` before its window opens."""

from __future__ import annotations

import json
import os
import signal
import sys
import types

import pytest

from ui.saved.autosave import SaveStore
from ui.saved.choices import CHOICES_NAME

DEEP = "[" * 2000 + "]" * 2000  # 4 KB: under the size cap, deeper than any reader goes


class _Hung(Exception):
    pass


@pytest.fixture
def no_hang():
    """A read that blocks (a FIFO opened for reading) fails the test in 5 s instead of hanging."""

    def hung(*_):
        raise _Hung("the read blocked")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _bad(tmp_path, name: str, kind: str):
    path = tmp_path / name
    if kind == "deep":
        path.write_text(DEEP)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge":
        path.write_text(json.dumps({"lang": "fr", "pad": "x" * (5 << 20)}))
    return path


KINDS = ["deep", "fifo", "folder", "huge"]
WORDS = {"deep": "nested too deeply (2000 levels", "fifo": "is a pipe", "folder": "is a folder",
         "huge": "too big"}  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_bad_choices_file_is_set_aside_with_a_notice(tmp_path, no_hang, kind) -> None:
    from ui.saved.choices import read_choices

    _bad(tmp_path, CHOICES_NAME, kind)
    choices, notice = read_choices(tmp_path)
    assert choices == {} and notice is not None and "\n" not in notice
    assert WORDS[kind] in notice and "set aside as choices.json.bad-" in notice
    assert not os.path.lexists(tmp_path / CHOICES_NAME)
    assert len(list(tmp_path.glob("choices.json.bad-*"))) == 1
    assert read_choices(tmp_path) == ({}, None)  # the next launch starts clean


@pytest.mark.parametrize("kind", KINDS)
def test_a_bad_autosave_is_set_aside_with_a_notice(tmp_path, no_hang, kind) -> None:
    _bad(tmp_path, "autosave.json", kind)
    store = SaveStore(tmp_path, durable=False)
    assert store.open() is None and store.writable
    assert store.notice is not None and WORDS[kind] in store.notice
    assert not os.path.lexists(store.path) and list(tmp_path.glob("autosave.json.bad-*"))


def test_a_save_that_reads_but_does_not_replay_stays(tmp_path) -> None:
    (tmp_path / "autosave.json").write_text('{"format": "something else"}')
    store = SaveStore(tmp_path, durable=False)
    assert store.open() is None and store.notice is None and store.exists()


@pytest.mark.parametrize("name", [CHOICES_NAME, "autosave.json"])
@pytest.mark.parametrize("kind", ["deep", "fifo"])
def test_play_starts_and_says_so_in_one_line(tmp_path, monkeypatch, capsys, no_hang, name,
                                             kind) -> None:  # fmt: skip
    """``cribbage play`` up to its window: the window is opened with the notice on the start
    screen, and stderr has the notice in one line, no traceback."""
    from ui.cli import cmd_play
    from ui.cli.cli import main

    _bad(tmp_path, name, kind)
    opened = []

    class Window:
        def __init__(self, *, options, **_):
            opened.append(options)
            raise RuntimeError("no window in this test")

    app = types.ModuleType("ui.gui.app")
    app.GameWindow, app.Settings = Window, lambda **kw: types.SimpleNamespace(**kw)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ui.gui.app", app)
    monkeypatch.setattr(cmd_play, "_gui_ready", lambda headless: True)
    assert main(["play", "--data-dir", str(tmp_path)]) == 1  # the fake window's refusal
    err = capsys.readouterr().err
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if WORDS[kind] in line]
    assert len(said) == 1 and f"set aside as {name}.bad-" in said[0]
    assert len(opened) == 1 and WORDS[kind] in opened[0].message
