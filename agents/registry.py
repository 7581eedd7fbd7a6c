"""Build agents from specs: ``"random"``, ``"expectimax"`` or ``"name:key=value,key=value"``.

Specs are plain strings so worker processes, the env and the GUI can all build agents by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Agent, AgentSpecError

#: name -> "module:Class" (imported lazily so cheap agents stay cheap to build).
AGENTS: dict[str, str] = {
    "random": "agents.random_agent:RandomAgent",
    "novice": "agents.greedy:NoviceAgent",
    "greedy": "agents.greedy:GreedyAgent",
    "expectimax": "agents.expectimax:ExpectimaxAgent",
    "expert": "agents.expert:ExpertAgent",
    "maskable_ppo": "agents.maskable_ppo_agent:MaskablePPOAgent",  # extra "rl"; path=model.zip
    "neural": "agents.neural:NeuralAgent",  # learned Q net, numpy only; path=weights.npz
}
#: difficulty levels of the game -> agent spec: easy = random discard + greedy pegging,
#: medium = greedy (best hand EV, most points now), hard = expectimax (analyzer discard,
#: one-ply expectimax pegging), expert = search pegging, neural = the learned Q network.
LEVELS: dict[str, str] = {
    "easy": "novice",
    "medium": "greedy",
    "hard": "expectimax",
    "expert": "expert",
    "neural": "neural",
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:k=v,k2=v2"`` into the name and its parameters.

    >>> parse_spec("expert:sims=200,seed=3")
    ('expert', {'sims': '200', 'seed': '3'})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec is a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(
                f"bad parameter {part!r} in agent spec {spec!r}: expected key=value"
            )
        params[key.strip()] = value.strip()
    return name.strip().lower(), params


def make_agent(spec: str | Agent | Callable) -> Agent:
    """An agent from a spec string (or an agent instance, returned as is).

    >>> make_agent("random").name
    'random'
    >>> make_agent("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agents.base.AgentSpecError: unknown agent 'nope'; known: ...random...
    """
    if not isinstance(spec, str):
        if hasattr(spec, "act"):
            return spec  # type: ignore[return-value]
        raise AgentSpecError(
            f"an agent is a spec string or an object with act(view, rng), got {spec!r}"
        )
    name, params = parse_spec(spec)
    if name in LEVELS and LEVELS[name] != name:
        # A level with parameters ("hard:counter=1") passes them to the agent it names.
        base, _, base_params = LEVELS[name].partition(":")
        extra = ",".join(f"{k}={v}" for k, v in params.items())
        return make_agent(
            base
            + (":" if base_params or extra else "")
            + ",".join(filter(None, (base_params, extra)))
        )
    target = AGENTS.get(name)
    if target is None:
        raise AgentSpecError(
            f"unknown agent {name!r}; known: {', '.join(sorted({**AGENTS, **LEVELS}))}"
        )
    module, _, cls_name = target.partition(":")
    cls = getattr(importlib.import_module(module), cls_name)
    try:
        agent = cls(**params)
    except TypeError as exc:
        raise AgentSpecError(f"bad parameters for agent {name!r} in {spec!r}: {exc}") from None
    agent.spec = spec
    return agent
