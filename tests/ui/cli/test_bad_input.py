"""Bad input everywhere: broken record and save files, CLI misuse, odd env actions.

- Corrupt, truncated, wrong-version and hand-edited records (illegal decisions included) given
  to ``cribbage replay FILE --text`` exit non-zero with a clear message and leave the file
  byte-for-byte unchanged (and unmodified on disk).
- Misuse of every subcommand exits 2 with a usage message (``python -m ui`` subprocesses).
- The PettingZoo env's ``step`` treats out-of-range ints, floats, None, bools and strings as the
  docs say (the Gymnasium env's are in tests/cribbage_env/envs/test_env_gym.py).
- A corrupt autosave is refused with a clear message and left untouched.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import numpy as np
import pytest
from cli_process import cribbage

import cribbage_env as ce
from cribbage_env.encoding import InvalidActionError
from ui.cli.cli import main
from ui.saved.autosave import SaveStore
from ui.table.saves import SaveError


@pytest.fixture(scope="module")
def record() -> dict:
    g = ce.new_game(7)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g.to_record()


def _edit(record: dict, fn) -> str:
    r = copy.deepcopy(record)
    fn(r)
    return json.dumps(r)


def _set(key, value):
    return lambda r: r.__setitem__(key, value)


def _decision(i, value):
    return lambda r: r["decisions"].__setitem__(i, value)


# (name, content maker, fragment the message must contain)
EDITS = [
    ("version 2", _set("version", 2), "version 2 is not supported"),
    ("version 0", _set("version", 0), "version 0 is not supported"),
    ("version as text", _set("version", "1"), "version '1' is not supported"),
    ("version as float", _set("version", 1.0), "version 1.0 is not supported"),
    ("version as bool", _set("version", True), "version True is not supported"),
    ("version missing", lambda r: r.pop("version"), "version None is not supported"),
    ("other format", _set("format", "chess-pgn"), "not a cribbage-env game record"),
    ("negative seed", _set("seed", -3), "seed must be a non-negative integer"),
    ("seed as text", _set("seed", "7"), "seed must be a non-negative integer"),
    ("decisions not a list", _set("decisions", "5H"), "no list of decisions"),
    ("card not in hand", _decision(0, "KS KH"), "decision 0"),
    ("unreadable card", _decision(3, "ZZ"), "decision 3"),
    ("number for a decision", _decision(2, 5), "decision 2"),
    ("null decision", _decision(4, None), "decision 4"),
    ("cut in a game without cuts", _decision(5, "cut 99"), "decision 5"),
    (
        "two decisions swapped",
        lambda r: r["decisions"].__setitem__(slice(0, 2), [r["decisions"][1], r["decisions"][0]]),
        "decision 0",
    ),
    ("decision after the end", lambda r: r["decisions"].append("AS"), "the game is over"),
    (
        "last decisions removed",
        lambda r: r.__setitem__("decisions", r["decisions"][:-5]),
        "does not match the replay",
    ),
    ("score raised", lambda r: r["scores"].__setitem__(1, r["scores"][1] + 10), ".scores[1]: "),
    (
        "hand card changed",
        lambda r: r["deals"][0]["hands"][0].__setitem__(0, "KS"),
        ".deals[0].hands[0][0]",
    ),
    (
        "pegging points changed",
        lambda r: r["deals"][0]["play"][0].__setitem__("points", 99),
        ".deals[0].play[0].points",
    ),
    ("winner swapped", lambda r: r.__setitem__("winner", 1 - r["winner"]), ".winner"),
    ("extra field", _set("comment", "edited by hand"), ".comment: present in only one"),
    ("deal removed", lambda r: r["deals"].pop(), ".deals"),
]

RAW = [
    ("empty file", b"", "not valid JSON"),
    ("not JSON", b"cribbage!", "not valid JSON"),
    ("binary garbage", bytes(range(256)), "cannot read"),
    ("JSON list", b"[1, 2, 3]", "a record is a JSON object"),
    ("JSON null", b"null", "a record is a JSON object"),
    ("deeply nested", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
]


def _check_refused(path: Path, content: bytes, code: int, err: str, fragment: str) -> None:
    assert code == 2, err  # a bad record is bad input, as for review
    assert err.startswith("cribbage replay: ") and fragment in err, err
    assert "Traceback" not in err
    assert path.read_bytes() == content  # the file is only ever read


@pytest.mark.parametrize(("name", "edit", "fragment"), EDITS, ids=[e[0] for e in EDITS])
def test_hand_edited_records_are_refused_and_left_alone(
    tmp_path, capsys, record, name, edit, fragment
) -> None:
    path = tmp_path / "game.json"
    content = _edit(record, edit).encode()
    path.write_bytes(content)
    mtime = path.stat().st_mtime_ns
    code = main(["replay", str(path), "--text"])
    out, err = capsys.readouterr()
    _check_refused(path, content, code, err, fragment)
    assert out == "" and path.stat().st_mtime_ns == mtime


@pytest.mark.parametrize(("name", "content", "fragment"), RAW, ids=[r[0] for r in RAW])
def test_corrupt_record_files_are_refused_and_left_alone(
    tmp_path, capsys, name, content, fragment
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    code = main(["replay", str(path), "--text"])
    _check_refused(path, content, code, capsys.readouterr().err, fragment)


def test_every_truncation_of_a_record_is_refused(tmp_path, capsys, record) -> None:
    """A record cut short anywhere (a crash while copying it, say) is never half-read."""
    full = json.dumps(record).encode()
    path = tmp_path / "game.json"
    for cut in sorted({1, 2, 10, 50, len(full) // 3, len(full) // 2, len(full) - 2, len(full) - 1}):
        path.write_bytes(full[:cut])
        code = main(["replay", str(path), "--text"])
        _check_refused(path, full[:cut], code, capsys.readouterr().err, "not valid JSON")


def test_replay_refusals_from_the_command_line(tmp_path, record) -> None:
    """The same refusals through `python -m ui` (what `cribbage replay FILE --text` runs)."""
    cases = {
        "truncated.json": json.dumps(record).encode()[:500],
        "v9.json": _edit(record, _set("version", 9)).encode(),
        "illegal.json": _edit(record, _decision(1, "KS KH")).encode(),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        r = cribbage("replay", str(path), "--text")
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.startswith("cribbage replay: ") and "Traceback" not in r.stderr
        assert path.read_bytes() == content
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert cribbage("replay", str(good), "--text").returncode == 0


def test_record_loader_raises_only_record_errors_for_deep_json() -> None:
    with pytest.raises(ce.RecordError, match="nested too deeply"):
        ce.GameState.from_record("[" * 100_000 + "]" * 100_000)


# ------------------------------------------------------------------------------------ CLI misuse
MISUSE = [
    [],
    ["nonsense"],
    ["--bogus"],
    ["analyze"],
    ["analyze", "5H 5D JS QC 2C 3D"],  # neither --dealer nor --pone
    ["analyze", "5H 5D JS QC 2C", "--dealer"],  # five cards
    ["analyze", "5H 5D JS QC 2C ZZ", "--pone"],
    ["analyze", "5H 5D JS QC 2C 3D", "--dealer", "--pone"],
    ["bench"],
    ["bench", "random"],
    ["bench", "random", "wizard"],
    ["bench", "random", "random", "--games", "0"],
    ["bench", "random", "random", "--games", "3"],
    ["bench", "random", "random", "--seed", "-1"],
    ["bench", "random", "random", "--backend", "cloud"],
    ["bench", "random", "random", "--record-every", "2"],
    ["bench", "random", "random", "--record-every", "0", "--records", "x"],
    ["results", "0"],
    ["results", "abc"],
    ["results", "--csv"],
    ["replay"],
    ["replay", "a.json", "b.json"],
    ["replay", "a.json", "--lang", "xx"],
    ["replay", "a.json", "--delay", "soon"],
    ["play", "--opponent", "wizard"],
    ["play", "--watch", "random"],
    ["play", "--watch", "random", "wizard"],
    ["play", "--seed", "-1"],
    ["play", "--seed", "x"],
    ["play", "--autoplay", "-3"],
    ["play", "--autoplay", "0"],
    ["play", "--size", "big"],
    ["play", "--size", "10x10"],
    ["play", "--delay", "-1"],
    ["play", "--show-delay", "nan"],
    ["play", "--lang", "xx"],
    ["play", "--screenshots", "shots"],
]


def _assert_usage_error(code: int, out: str, err: str, args: list[str]) -> None:
    assert code == 2, (code, err)
    assert "usage: cribbage" in err and "Traceback" not in err
    if args:  # says what was wrong, not just the usage
        assert "error" in err or "bad card" in err or "needs exactly" in err
    assert out == ""


@pytest.mark.parametrize("args", MISUSE, ids=[" ".join(a) or "(none)" for a in MISUSE])
def test_cli_misuse_exits_2_with_a_usage_message(tmp_path, monkeypatch, capsys, args) -> None:
    monkeypatch.setenv("CRIBBAGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    out, err = capsys.readouterr()
    _assert_usage_error(code, out, err, args)
    assert not list(tmp_path.iterdir())  # nothing saved or written by a refused command


#: One misuse per subcommand through real `python -m ui` processes (run two at a time).
MISUSE_SUBPROCESS = [
    [],
    ["analyze", "5H 5D JS QC 2C", "--dealer"],
    ["bench", "random"],
    ["results", "0"],
    ["replay"],
    ["play", "--seed", "-1"],
    ["play", "--opponent", "wizard"],
    ["play", "--autoplay", "-3"],
]


def test_cli_misuse_exits_2_through_python_m_ui(tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    env = dict(os.environ, CRIBBAGE_DATA_DIR=str(tmp_path / "data"), ARCADE_HEADLESS="1")
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda a: cribbage(*a, env=env), MISUSE_SUBPROCESS))
    for args, r in zip(MISUSE_SUBPROCESS, results, strict=True):
        _assert_usage_error(r.returncode, r.stdout, r.stderr, args)
    assert not (tmp_path / "data").exists()


# ------------------------------------------------------------------------------------ env step
def test_aec_step_refuses_odd_actions_as_documented() -> None:
    """PettingZoo env: out-of-range ints, floats (even 3.0), None, bools, strings and arrays of
    several values raise InvalidActionError (a ValueError) and change nothing; numpy ints play."""
    from cribbage_env.envs.aec import raw_env

    env = raw_env()
    env.reset(seed=2)
    before = env.game.fingerprint()
    agent = env.agent_selection
    for bad in (
        52,
        -1,
        2**70,
        3.0,
        np.float32(3),
        None,
        True,
        np.bool_(True),
        "5H",
        np.array([1, 2]),
        np.array(3.0),
    ):
        with pytest.raises(InvalidActionError) as err:
            env.step(bad)
        assert isinstance(err.value, ValueError) and "0..51" in str(err.value)
    assert env.game.fingerprint() == before and env.agent_selection == agent
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    env.step(np.int64(legal[0]))
    env.step(np.array([legal[1]], dtype=np.uint8))  # a one-element integer array is an action
    assert ce.discard_action(int(legal[0]), int(legal[1])) in env.game.decisions


def test_gym_step_takes_unsigned_and_one_element_arrays() -> None:
    from cribbage_env.envs.single import CribbageEnv

    env = CribbageEnv("random")
    obs, _ = env.reset(seed=4)
    legal = np.flatnonzero(obs["action_mask"])
    _, _, _, _, info = env.step(np.uint8(legal[0]))
    assert not info["illegal_action"]
    with pytest.raises(InvalidActionError):
        env.step(np.array([legal[1], legal[2]]))


# ------------------------------------------------------------------------------------ autosave
@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": 1, "mode": "hotseat",'
        b' "agents": [null, null], "decisions": "cut 3", "cursor": 1}',
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": 1, "mode": "computer",'
        b' "agents": [null, "wizard"], "decisions": [], "cursor": 0}',
        b'{"format": "cribbage-env/autosave", "version": "1"}',
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": 1, "mode": "chess",'
        b' "agents": [null, null], "decisions": [], "cursor": 0}',
    ],
    ids=[
        "deeply nested",
        "decisions a string",
        "unknown opponent",
        "version as text",
        "unknown mode",
    ],
)
def test_corrupt_autosave_is_refused_and_left_untouched(tmp_path, content: bytes) -> None:
    store = SaveStore(tmp_path)
    store.path.write_bytes(content)
    with pytest.raises(SaveError, match="saved game"):
        store.load()
    assert store.path.read_bytes() == content


# ------------------------------------------------------------------------------------ history
def _finished_table_game(tmp_path: Path) -> Path:
    from ui.table.controller import Mode, TableController

    ctl = TableController(12, mode=Mode.WATCH, agents=("random", "greedy"))
    while not ctl.game.is_over:
        ctl.show.skip()
        assert ctl.computer.step()
    return SaveStore(tmp_path).archive(ctl)


def test_a_finished_table_game_from_history_replays_as_text(tmp_path, capsys) -> None:
    """Games played at the table are kept in history/ and `cribbage replay` reads them."""
    path = _finished_table_game(tmp_path)
    content = path.read_bytes()
    record = json.loads(content)["record"]
    assert main(["replay", str(path), "--text", "--lang", "en"]) == 0
    a, b = (min(v, 121) for v in record["scores"])  # the points past 121 do not count
    assert f"Final score: {a} – {b}" in capsys.readouterr().out
    assert path.read_bytes() == content


def test_an_edited_history_file_is_refused_and_left_alone(tmp_path, capsys) -> None:
    path = _finished_table_game(tmp_path)
    data = json.loads(path.read_bytes())
    data["record"]["scores"][0] += 1
    content = json.dumps(data).encode()
    path.write_bytes(content)
    code = main(["replay", str(path), "--text"])
    _check_refused(path, content, code, capsys.readouterr().err, ".scores[0]")
