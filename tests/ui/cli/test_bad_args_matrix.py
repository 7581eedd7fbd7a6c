"""Every option and argument of every ``cribbage`` subcommand, given bad values, exits 2
with one line that says what was wrong: no traceback, nothing written, nothing started.

The matrix is built from the parsers themselves (every option of every subcommand, whatever is
added later), each value of a kind chosen to be wrong for any option of that kind.
"""

from __future__ import annotations

import argparse
import os
import signal

import pytest

from ui.cli.args import argtypes
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
UNUSED = {("play", "data_dir")}


def _kind(action: argparse.Action) -> list[str]:
    t = action.type
    if action.choices:
        return ["nope"]
    name = getattr(t, "__qualname__", "")
    if t is float or "real_number" in name:
        return FLOATS
    if t is int or "whole_number" in name or name == "parse":
        return INTS
    if t in (argtypes.path, argtypes.db_file):
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
    # A bad value, a path included (a database under a file too), is bad input for every
    # command: exit 2, one line.
    assert len(said) == 1, (argv, code, err)
    assert code == 2, (argv, code, err)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["file.txt"] or set(left) <= {"file.txt", "data"}, (argv, left)
    assert not os.path.exists(tmp_path / "r.sqlite")


# ------------------------------------------------------------------ one contract for every command
#: (argv, code, what the one line says): options a command will not use, inputs out of range,
#: outputs that cannot be written and inputs that name nothing, for every subcommand. ``{rec}`` is
#: a finished game's record, ``{bad}`` a JSON file that is not one, ``{db}`` a results database
#: with one run, ``{dir}`` an existing folder, ``{long}`` a name no system takes.
CONTRACT = [
    (["play", "--screenshots", "{dir}/s"], 2, "--screenshots needs --autoplay"),
    (["analyze", "5H 5D JS QC 2C", "--dealer"], 2, "exactly 6 cards"),
    (
        ["bench", "random", "random", "--until-separated", "--ci-width", "0.05"],
        2,
        "two stopping rules",
    ),
    (["bench", "random", "random", "--games", "2", "--csv", "{dir}"], 2, "not a file"),
    (["bench", "random", "random", "--games", "2", "--csv", "{long}"], 2, "between slashes"),
    (["results", "99", "--db", "{db}"], 2, "no run 99"),
    (["results", "1", "--per-game", "--db", "{db}"], 2, "give --csv FILE or --json"),
    (["results", "1", "--csv", "{dir}", "--db", "{db}"], 2, "not a file"),
    (["results", "--db", "{dir}/none.sqlite"], 2, "does not exist"),
    (["replay", "{rec}", "--text", "--every", "3"], 2, "--text prints it instead"),
    (["replay", "{rec}", "--text", "--delay", "0"], 2, "--text prints it instead"),
    (["replay", "{rec}", "--every", "3"], 2, "give --screenshots too"),
    (["replay", "{bad}", "--text"], 2, "not a valid game record"),
    (["review", "{bad}"], 2, "not a valid game record"),
    (["replay", "{dir}/none.json", "--text"], 2, "none.json"),
    (["review", "{dir}/none.json"], 2, "none.json"),
    (["equity", "130", "3", "--dealer", "me"], 2, "under the target 121"),
    (["equity", "50", "61", "--dealer", "me", "--rules", "short"], 2, "under the target 61"),
    (["stats", "--data-dir", "{long}", "--no-review"], 2, "between slashes"),
    (["stats", "--dir", "{dir}/none", "--no-review"], 2, "no game history"),
    (["agents", "nope.mod:X"], 2, "nope"),
    (["discards", "analyzer", "--deals", "2", "--workers", "2"], 2, "only act on the games"),
    (["train", "--method", "nope"], 2, "invalid choice"),
    (["warmup", "--nope"], 2, "unrecognized arguments"),
    (["exploit", "random", "--games", "3"], 2, "--games is even"),
]


@pytest.fixture(scope="module")
def contract_files(tmp_path_factory) -> dict[str, str]:
    """The files the CONTRACT rows name (one results run of two games, one finished game)."""
    import json

    import numpy as np

    import cribbage_env as ce

    tmp = tmp_path_factory.mktemp("contract")
    db = tmp / "r.sqlite"
    argv = ["bench", "random", "random", "--games", "2", "--backend", "serial", "--db", str(db)]
    assert main(argv) == 0
    g, rng = ce.new_game(4), np.random.default_rng(4)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    (tmp / "rec.json").write_text(json.dumps(g.to_record()))
    (tmp / "bad.json").write_text('{"format": "something else"}')
    (tmp / "dir").mkdir()
    return {"rec": str(tmp / "rec.json"), "bad": str(tmp / "bad.json"), "db": str(db),
            "dir": str(tmp / "dir"), "long": "/" + "a" * 5000}  # fmt: skip


def test_the_contract_covers_every_subcommand() -> None:
    assert {row[0][0] for row in CONTRACT} == set(COMMANDS)


@pytest.mark.parametrize(("argv", "code", "says"), CONTRACT, ids=[" ".join(r[0]) for r in CONTRACT])
def test_every_command_keeps_the_contract(contract_files, monkeypatch, capsys, tmp_path, argv,
                                          code, says) -> None:  # fmt: skip
    monkeypatch.setenv("CRIBBAGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ARCADE_HEADLESS", "1")
    monkeypatch.chdir(tmp_path)
    args = [a.format(**contract_files) for a in argv]
    if args[0] in ("bench", "discards") and "--db" not in args:
        args += ["--db", str(tmp_path / "r.sqlite")]
    if args[0] == "train":
        args += ["--run-dir", str(tmp_path / "run")]
    try:
        got = main(args)
    except SystemExit as exc:
        got = exc.code
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    said = [line for line in err.splitlines() if line.startswith("cribbage")]
    assert got == code and len(said) == 1 and says in said[0], (args, got, err)
    assert not (tmp_path / "r.sqlite").exists()  # nothing was run
    assert not os.path.exists(contract_files["dir"] + "/none.sqlite")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_an_interruption_is_130_for_every_command(monkeypatch, capsys, name) -> None:
    import importlib

    module = importlib.import_module(f"ui.cli.cmd_{name}")

    def interrupted(args) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "run", interrupted)
    argv = [a.format(missing="x.json", file="x.txt") for a in BASE[name]]
    assert main([name, *argv]) == 130
    assert capsys.readouterr().err.strip() == "cribbage: interrupted"


def test_an_unwritable_csv_is_refused_before_any_game(monkeypatch, capsys, tmp_path) -> None:
    """A folder no file can be written in (read-only, full): refused in one line, nothing played.
    Root writes into read-only folders, so the refusal of the system is what is simulated."""
    import tempfile

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refused)
    argv = ["bench", "random", "random", "--games", "2", "--backend", "serial",
            "--csv", str(tmp_path / "out" / "x.csv"), "--db", str(tmp_path / "r.sqlite")]  # fmt: skip
    (tmp_path / "out").mkdir()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err
    assert not (tmp_path / "r.sqlite").exists() and not list((tmp_path / "out").iterdir())


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_is_refused_before_any_game(capsys, tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        argv = ["bench", "random", "random", "--games", "2", "--backend", "serial",
                "--csv", str(out / "x.csv"), "--db", str(tmp_path / "r.sqlite")]  # fmt: skip
        assert main(argv) == 2
        assert "cannot write" in capsys.readouterr().err
        assert not (tmp_path / "r.sqlite").exists()
    finally:
        out.chmod(0o755)


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
