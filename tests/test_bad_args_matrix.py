"""Issue 23: every option and argument of every ``cribbage`` subcommand, given bad values, exits 2
with one line that says what was wrong: no traceback, nothing written, nothing started.

The matrix is built from the parsers themselves (every option of every subcommand, whatever is
added later), each value of a kind chosen to be wrong for any option of that kind.
"""

from __future__ import annotations

import argparse
import os
import signal

import pytest

from ui.cli import argtypes
from ui.cli.cli import COMMANDS, build_parser, main

#: A small valid command per subcommand, to which one bad value is added (cheap if accepted).
BASE = {
    "play": ["--autoplay", "1", "--no-motion"],
    "analyze": ["5H 5D JS QC 2C 3D", "--dealer"],
    "bench": ["random", "random", "--games", "2", "--backend", "serial"],
    "results": [],
    "replay": ["{missing}", "--text"],
    "equity": ["100", "100"],
    "review": ["{missing}"],
    "stats": ["--no-review"],
    "agents": [],
    "warmup": [],
    "discards": ["analyzer", "--deals", "2", "--backend", "serial"],
    "train": "--method dmc --shards 1 --games-per-shard 1 --epochs 1 --eval-games 0 "
    "--workers 1 --no-progress".split(),
}
INTS = ["-1", "x", "1.5", "9" * 5000, ""]
FLOATS = ["x", "nan", "inf", "-1", "1e999"]
TEXT = ["nope.mod:X", ":", "\x00"]
PATHS = ["{file}/x", "\x00"]
#: (subcommand, option) whose value is not used by the base command: a headless autoplay never
#: touches the data folder, a training without evaluations never opens the results database.
UNUSED = {("play", "data_dir"), ("train", "db")}


def _kind(action: argparse.Action) -> list[str]:
    t = action.type
    if action.choices:
        return ["nope"]
    name = getattr(t, "__qualname__", "")
    if t is float or "real_number" in name:
        return FLOATS
    if t is int or "whole_number" in name or name == "parse":
        return INTS
    if t is argtypes.path:
        return PATHS
    return TEXT


def _cases() -> list[tuple[str, list[str], str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for name in COMMANDS:
        p = sub.choices[name]
        for action in p._actions:
            if isinstance(action, argparse._HelpAction) or action.nargs == 0:
                continue
            if (name, action.dest) in UNUSED:
                continue
            for value in _kind(action):
                out.append((name, action.option_strings[:1], value))
    return [(n, o, v) for n, o, v in out]


CASES = _cases()


def _argv(name: str, option: list[str], value: str, tmp) -> list[str]:
    base = [a.format(missing=tmp / "missing.json", file=tmp / "file.txt") for a in BASE[name]]
    value = value.format(file=tmp / "file.txt")
    if option:
        return [name, *base, *option, value]
    return [name, value, *base[1:]] if name in ("replay", "review", "analyze") else [name, value]


class _Slow(Exception):
    pass


def _alarm(*_):
    raise _Slow


@pytest.mark.parametrize(
    ("name", "option", "value"),
    CASES,
    ids=[f"{n} {' '.join(o) or 'ARG'} {v[:12]!r}" for n, o, v in CASES],
)
def test_bad_values_exit_2_with_one_line(tmp_path, monkeypatch, capsys, name, option, value):
    monkeypatch.setenv("CRIBBAGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ARCADE_HEADLESS", "1")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("x")
    argv = _argv(name, option, value, tmp_path)
    if name in ("bench", "discards", "results"):
        argv += ["--db", str(tmp_path / "r.sqlite")] if "--db" not in option else []
    if name == "train" and "--run-dir" not in option:
        argv += ["--run-dir", str(tmp_path / "run")]
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    except _Slow:
        pytest.fail(f"{argv} was accepted and ran for a minute")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    said = [line for line in err.splitlines() if line.startswith("cribbage")]
    # A path is refused when it is opened: a run-time failure (exit 1) for the commands that
    # document it so, a usage error (exit 2) for the others; always one line.
    assert len(said) == 1, (argv, code, err)
    assert code == 2 or (code == 1 and value in PATHS), (argv, code, err)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["file.txt"] or set(left) <= {"file.txt", "data"}, (argv, left)
    assert not os.path.exists(tmp_path / "r.sqlite")


# --- exploit: its base command, and the bad inputs of its own (nothing run, nothing written)
BASE["exploit"] = ["random", "--games", "2", "--backend", "serial"]
EXPLOIT_BAD = [
    (["exploit", "nosuch"], "unknown agent"),
    (["exploit", "nope.mod:X"], "cannot import"),
    (["exploit", "random", "--games", "0"], "--games"),
    (["exploit", "random", "--games", "3"], "even"),
    (["exploit", "random", "--json", "{tmp}/no/x.json"], "no folder"),
    (["exploit", "random", "--json", "{tmp}"], "not a file"),
    (["exploit", "random", "--method", "psychic"], "--method"),
    (["exploit", "random", "--address", "h:1"], "--address"),
]


@pytest.mark.parametrize(
    ("argv", "said"), EXPLOIT_BAD, ids=[" ".join(a[1:]) for a, _ in EXPLOIT_BAD]
)
def test_exploit_bad_input_exits_2_with_one_line(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.chdir(tmp_path)
    try:
        code = main([a.format(tmp=tmp_path) for a in argv])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("cribbage")]
    assert code == 2 and len(lines) == 1 and said in lines[0], err
    assert not list(tmp_path.iterdir())
