"""Agents for cribbage-env: one protocol from random to expert.

The names in ``__all__`` are the public API: the agent protocol and registry (imported with the
package), and tournaments, training helpers and the sealed seat's limits (imported on first use,
so ``import agents`` stays light). The modules in the rooms below are the implementation and may
move; the public modules beside these names are listed in the API reference.
"""

from __future__ import annotations

from .agent_info import list_agents
from .base import Agent, AgentSpecError, Hint, Option
from .errors import AgentError
from .moved import install_moved as _install_moved
from .params import Param
from .registry import AGENTS, LEVELS, make_agent, parse_spec, read_spec

#: Public names whose modules are imported on first use (tournaments pull in the results store
#: and the process pools; training helpers and the seat their own modules).
_LAZY = {
    "TournamentRun": "bench",
    "run_tournament": "bench",
    "play_plan": "bench",
    "resume_tournament": "bench",
    "TournamentPlan": "tournament.tournament",
    "make_plan": "tournament.tournament",
    "SeatLimits": "arena.seat",
    "save_untrained": "learn.fit",
    "save_policy": "players.policy_net",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


# The flat layout's module paths (agents.expert, agents.runner, ...) import for one more release.
_install_moved()

__all__ = [
    "AgentError",
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpecError",
    "Hint",
    "Option",
    "Param",
    "list_agents",
    "make_agent",
    "parse_spec",
    "read_spec",
    # tournaments
    "TournamentPlan",
    "TournamentRun",
    "make_plan",
    "play_plan",
    "resume_tournament",
    "run_tournament",
    "SeatLimits",
    # training helpers
    "save_policy",
    "save_untrained",
]
