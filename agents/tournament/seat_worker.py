"""An isolated seat's process: ``python -m agents.tournament.seat_worker SPEC`` (started by :mod:`agents.tournament.isolate`).

A fresh interpreter (never a fork: a forked child would hold a copy of the engine's memory, the
true game state included) builds one agent from its spec and answers decisions over its standard
input and output, one JSON line each way:

- it first says ``{"ok": NAME}`` (or ``{"e": WHY}`` when the spec does not build, then exits);
- each request is ``{"v": VIEW, "s": RNG}``: the seat's view as
  :func:`cribbage_env.rules.views.view_to_data` wrote it and its generator's PCG64 state
  ``[state, inc, has_uint32, uinteger]``, or ``null`` for "the generator of the previous
  decision, as you left it" (the rest of a game: one seat, one generator); the answer is
  ``{"a": ACTION}`` or ``{"e": WHY}`` when the agent raised.

That is all the process ever receives: no game state, no seed, no other seat. The protocol uses
private copies of the two descriptors; the agent's own ``print`` and ``input`` go to standard
error and ``/dev/null``. The process exits at the end of its input (its parent is gone).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

from cribbage_env.rules.views import view_from_data


def _set_parent_death_signal() -> None:
    """Linux: die with the parent (a seat stuck in its agent's code would outlive it)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def rng_state(rng: np.random.Generator) -> list[int]:
    """A PCG64 generator's state as four integers (what travels in ``"s"``)."""
    st = rng.bit_generator.state
    return [st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"]]


def set_rng_state(rng: np.random.Generator, s: list[int]) -> None:
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": s[0], "inc": s[1]},
        "has_uint32": s[2],
        "uinteger": s[3],
    }


def _answer(agent: Any, msg: dict, rng: np.random.Generator) -> dict:
    view = view_from_data(msg["v"])
    if msg["s"] is not None:
        set_rng_state(rng, msg["s"])
    try:
        action = agent.act(view, rng)
    except Exception as exc:  # the agent's bug: its seat loses the game, the run goes on
        return {"e": f"{type(exc).__name__}: {exc}"[:500]}
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return {"e": f"act() returned {type(action).__name__}, not an action id"}
    return {"a": int(action)}


def main(argv: list[str]) -> int:
    _set_parent_death_signal()
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # the agent's prints must not corrupt the protocol
    sys.stdout = sys.stderr

    def reply(obj: dict) -> None:
        data = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        while data:  # one write for an answer (a pipe takes 64 KiB at once)
            data = data[os.write(proto_out, data) :]

    try:
        from ..registry import make_agent

        agent = make_agent(argv[0])
    except BaseException as exc:  # noqa: BLE001 - any failure to build is reported, one line
        reply({"e": f"cannot build agent {argv[0]!r}: {exc}"[:500]})
        return 1
    reply({"ok": str(getattr(agent, "name", type(agent).__name__))[:100]})
    rng = np.random.Generator(np.random.PCG64())  # its state comes with every request
    for line in proto_in:
        reply(_answer(agent, json.loads(line), rng))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
