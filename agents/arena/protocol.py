"""The bot protocol (version :data:`VERSION`): JSON lines over a bot's standard input and output.

One JSON object per line, UTF-8, each way (docs/BOTS.md is the full text):

- the bot speaks first: ``{"bot": NAME, "protocol": 1}``;
- each decision the host sends ``{"type": "act", "view": VIEW, "legal": [ACTIONS], "rng": R}``:
  ``VIEW`` holds the seat's :class:`~cribbage_env.rules.views.PlayerView` by field name (what
  the seat may know, nothing else), ``R`` the seat's own generator's PCG64 state
  ``[state, inc, has_uint32, uinteger]`` at a game's first decision and ``null`` after (a bot
  may ignore it: it is there so a Python agent makes the same decisions as in-process);
- the bot answers ``{"action": A}`` with ``A`` one of ``legal``, or ``{"error": WHY}``;
- the host closes the bot's input when it is done; the bot then exits.

An illegal, malformed, over-long (:data:`MAX_LINE`), too deeply nested (:data:`MAX_DEPTH`),
early or late answer, an ``error`` or a crash forfeits the game; nothing a bot sends can do more
(every failure to read it is a :class:`ProtocolError`, and its words reach a message only
through :func:`quote`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields

from cribbage_env.rules.views import PlayerView, view_from_data, view_to_data

from ..errors import AgentError

#: The protocol's version: a bot names it in its hello; the host refuses any other.
VERSION = 1
#: Longest line either side sends (a view is about 600 bytes).
MAX_LINE = 8192
#: Deepest nesting of arrays and objects a line may have (a message needs 3).
MAX_DEPTH = 8
#: The view's fields as they travel, one entry a :class:`PlayerView` field (``rules`` as
#: ``{"target": T, "skunk": S, "double_skunk": D}``).
FIELDS = tuple(f.name for f in fields(PlayerView))


class ProtocolError(AgentError, ValueError):
    """A line that is not a message of this protocol."""


def encode(obj: object) -> bytes:
    """One protocol line."""
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> dict:
    """A message object from one line (ProtocolError when it is not one: whatever the bytes).

    >>> decode(b'{"action": 3}')
    {'action': 3}
    >>> decode(b"[" * 5000)
    Traceback (most recent call last):
    ...
    agents.arena.protocol.ProtocolError: a line nested deeper than 8
    """
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    if _depth(line) > MAX_DEPTH:
        raise ProtocolError(f"a line nested deeper than {MAX_DEPTH}")
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError("a line that is not JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a line that is not a JSON object")
    return msg


def _depth(line: bytes) -> int:
    """The deepest nesting of brackets outside strings (read before the JSON parser, which
    recurses)."""
    depth = most = 0
    in_string = escaped = False
    for byte in line:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            most = max(most, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return most


def quote(value: object, most: int = 300) -> str:
    r"""A bot's words (a decoded JSON value) as a message may show them: control and format
    characters escaped (no terminal escape reaches the person), at most ``most`` long.

    >>> quote("no \x1b[2J way"), quote([1, "\u202e"]), quote("x" * 500)[-3:]
    ('no \\x1b[2J way', '[1, "\\u202e"]', '...')
    """
    text = repr(value)[1:-1] if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def view_message(view: PlayerView, rng_state: list[int] | None) -> dict:
    """The ``act`` request for ``view``.

    >>> from cribbage_env.rules.engine import new_game
    >>> g = new_game(3)
    >>> msg = view_message(g.view(g.to_act), None)
    >>> msg["type"], msg["view"]["seat"] == g.to_act, len(msg["legal"])
    ('act', True, 15)
    >>> read_view(msg) == g.view(g.to_act)
    True
    """
    data = view_to_data(view)
    # Every line stated, so a bot needs no default of its own: e.g. {"target": 121, ...}.
    data["rules"] = {f.name: getattr(view.rules, f.name) for f in fields(view.rules)}
    return {
        "type": "act",
        "view": data,
        "legal": data["legal_actions"],
        "rng": rng_state,
    }


def read_view(msg: Mapping) -> PlayerView:
    """The view of an ``act`` request (a bot's side: the host is trusted)."""
    return view_from_data({f: msg["view"][f] for f in FIELDS})


def read_action(msg: Mapping, legal: Sequence[int], phase: str) -> int:
    """The action of an answer (ProtocolError naming what is wrong: an ``error``, an illegal
    or missing action).

    >>> read_action({"action": 3}, [1, 3], "play")
    3
    >>> read_action({"action": True}, [1], "play")
    Traceback (most recent call last):
    ...
    agents.arena.protocol.ProtocolError: chose an illegal action true in play
    """
    if "error" in msg:
        raise ProtocolError(f"raised {quote(msg['error'])}")
    action = msg.get("action")
    if type(action) is not int or action not in legal:
        raise ProtocolError(f"chose an illegal action {quote(action, 40)} in {phase}")
    return action


def check_hello(msg: Mapping) -> str:
    """The bot's name from its hello line (ProtocolError when it is not one of ours)."""
    version = msg.get("protocol")
    if type(version) is not int or version != VERSION:
        raise ProtocolError(
            f"the bot speaks protocol {quote(version, 20)}, this host speaks {VERSION}"
        )
    name = msg.get("bot")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("the bot's hello has no name")
    return quote(name.strip()[:100], 100)
