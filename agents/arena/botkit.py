"""Any Python agent as a protocol bot: ``serve(agent)`` answers the host on stdin and stdout.

``python -m agents.seat_server SPEC`` serves an agent built from its spec; a script
of one's own can call :func:`serve` with any object that has ``act(view, rng)``. The protocol
uses private copies of the two descriptors: the agent's own ``print`` goes to standard error
(the host's log) and ``input`` reads nothing.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

from . import protocol


def set_rng_state(rng: np.random.Generator, s: list[int]) -> None:
    """Give ``rng`` the PCG64 state a request carries."""
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": s[0], "inc": s[1]},
        "has_uint32": s[2],
        "uinteger": s[3],
    }


def answer(agent: Any, msg: dict, rng: np.random.Generator) -> dict:
    """The reply to one request (an agent's exception is its seat's forfeit, not a crash)."""
    if msg.get("type") != "act":
        return {"error": f"unknown request type {str(msg.get('type'))[:40]}"}
    view = protocol.read_view(msg)
    if msg.get("rng") is not None:
        set_rng_state(rng, msg["rng"])
    try:
        action = agent.act(view, rng)
    except Exception as exc:  # the agent's bug: its seat loses the game, the run goes on
        return {"error": f"{type(exc).__name__}: {exc}"[:500]}
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return {"error": f"act() returned {type(action).__name__}, not an action id"}
    return {"action": int(action)}


def private_channels() -> tuple[Any, int]:
    """The protocol's input and output, with stdin on /dev/null and stdout on stderr after."""
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # the agent's prints must not corrupt the protocol
    sys.stdout = sys.stderr
    return proto_in, proto_out


def reply(out: int, obj: dict) -> None:
    """Write one message (one write: a pipe takes 64 KiB at once)."""
    data = protocol.encode(obj)
    while data:
        data = data[os.write(out, data) :]


def serve(agent: Any, channels: tuple[Any, int] | None = None) -> int:
    """Say hello as ``agent`` and answer requests until the host closes the input."""
    proto_in, out = channels or private_channels()
    name = str(getattr(agent, "name", type(agent).__name__))[:100]
    reply(out, {"bot": name, "protocol": protocol.VERSION})
    rng = np.random.Generator(np.random.PCG64())  # its state comes with a game's first request
    for line in proto_in:
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError as exc:
            reply(out, {"error": str(exc)})
            continue
        reply(out, answer(agent, msg, rng))
    return 0
