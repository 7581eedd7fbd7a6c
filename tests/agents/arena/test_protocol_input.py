"""Protocol input cannot hurt the harness: whatever a bot sends (nested, huge, malformed, early,
late, unicode) forfeits that game at most.

The reader is fuzzed with Hypothesis (any bytes, any JSON); real bots send a 2 KB nested answer,
a nested hello and terminal escapes, and the run goes on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cribbage_env as ce
from agents.arena import protocol
from agents.arena.client import ProtocolBot, SeatForfeit

NESTED = "[" * 3000 + "]" * 3000  # 6 KB: deeper than the JSON parser's recursion


def _check_line(line: bytes, legal: list[int]) -> None:
    """What the host does with one line: an action in ``legal`` or a ProtocolError."""
    try:
        msg = protocol.decode(line)
        action = protocol.read_action(msg, legal, "play")
        protocol.check_hello(msg)
    except protocol.ProtocolError as exc:
        text = str(exc)
        assert len(text) < 500 and "\x1b" not in text
        return
    assert action in legal


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=9000))
def test_any_bytes_are_a_message_or_a_protocol_error(line: bytes) -> None:
    _check_line(line, [1, 2, 3])


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),  # fmt: skip
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["action", "error", "bot", "protocol", "x"]), _json,
                       max_size=4))  # fmt: skip
def test_any_json_object_is_an_action_or_a_protocol_error(msg: dict) -> None:
    _check_line(json.dumps(msg).encode(), [1, 2, 3])


@pytest.mark.parametrize(
    "line",
    [NESTED.encode(), ("{\"a\":" * 3000).encode(), b'{"action": 1' + b"0" * 5000 + b"}",
     b'{"action": 1e999}', b"\xff\xfe", b'{"error": "\\u001b[2J\\ud800"}', b"[" * 8000],
)  # fmt: skip
def test_hostile_lines_are_protocol_errors(line: bytes) -> None:
    with pytest.raises(protocol.ProtocolError):
        msg = protocol.decode(line)
        protocol.read_action(msg, [1], "play")


def _bot(tmp_path: Path, hello: str, answer: str) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text(
        "import sys\n"
        f"print({hello!r}, flush=True)\n"
        "for line in sys.stdin:\n"
        f"    print({answer!r}, flush=True)\n"
    )
    return [sys.executable, str(path)]


@pytest.mark.parametrize(
    ("hello", "answer", "reason"),
    [
        (NESTED, "{}", "nested deeper than 8 starting"),
        ('{"bot": "x", "protocol": 1}', NESTED, "nested deeper than 8 deciding"),
        ('{"bot": "x", "protocol": 1}', '{"error": "\\u001b[2Jgone"}', r"raised \\x1b\[2Jgone"),
        ('{"bot": "\\u001b[31mred", "protocol": 1}', '{"error": "x"}', "raised x"),
    ],
)
def test_a_hostile_bot_forfeits_the_game_only(tmp_path: Path, hello, answer, reason) -> None:
    bot = ProtocolBot(_bot(tmp_path, hello, answer))
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit, match=reason):
            bot.act(g.view(g.to_act), np.random.default_rng(0))
        assert "\x1b" not in bot.name
    finally:
        bot.close()


def test_a_nested_answer_forfeits_each_game_and_the_run_completes(tmp_path: Path) -> None:
    from agents.bench import run_tournament

    cmd = "cmd:" + " ".join(_bot(tmp_path, '{"bot": "x", "protocol": 1}', NESTED))
    out = run_tournament([cmd, "random"], 2, seed=1, agent_seed=1, backend="serial",
                         keep_results=True)  # fmt: skip
    assert out.status == "complete" and out.games_played == 2
    assert all("nested deeper than 8" in r.forfeit for r in out.results)
