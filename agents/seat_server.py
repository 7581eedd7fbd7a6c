"""A Python agent as a protocol bot: ``python -m agents.seat_server SPEC``.

A fresh interpreter (never a fork: a forked child would hold a copy of the engine's memory, the
true game state included) builds one agent from its spec and serves it over the bot protocol
(:mod:`agents.arena.botkit`). It is how ``--isolate`` runs a Python plug-in (sealed like any
other bot, :mod:`agents.seats.isolate`), and how one turns an agent into a bot for
another host. When the spec does not build it says ``{"error": WHY}`` and exits.
"""

from __future__ import annotations

import sys

from .arena import botkit


def _set_parent_death_signal() -> None:
    """Linux: die with the parent (a seat stuck in its agent's code would outlive it)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].strip():
        print("usage: python -m agents.seat_server SPEC (one agent spec)", file=sys.stderr)
        return 2
    _set_parent_death_signal()
    channels = botkit.private_channels()
    from .arena.seat_caches import copy_seat_caches

    copy_seat_caches()  # the host's compiled kernels, before the agent imports numba
    try:
        from .registry import make_agent

        agent = make_agent(argv[0])
    except BaseException as exc:  # noqa: BLE001 - any failure to build is reported, one line
        botkit.reply(channels[1], {"error": f"cannot build agent {argv[0]!r}: {exc}"[:500]})
        return 1
    return botkit.serve(agent, channels)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
