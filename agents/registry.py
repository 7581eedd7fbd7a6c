"""Build agents from specs, the one spec parser of every tool (bench, play, the envs, training).

A spec is a plain string, so worker processes, Ray, the env and the GUI can all build agents:

- ``name`` or ``name:key=value,key=value``: a built-in agent (:data:`AGENTS`), a game level
  (:data:`LEVELS`) or an installed plug-in (entry-point group :data:`AGENT_GROUP`);
- ``module.path:Name`` or ``module.path:Name:key=value,...``: the user's own agent, a class or a
  factory that returns an object with ``act(view, rng)``;
- ``cmd:COMMAND ARGS``: an executable in any language that speaks the bot protocol
  (:mod:`agents.arena.protocol`), played from its own process;
- ``sealed:SPEC``: the agent of ``SPEC`` (any of the above) in a sealed seat
  (:mod:`agents.arena.seat`: its own process in the sandbox, limits of time and memory). The current working directory is
  importable while resolving (appended to ``sys.path``, so installed modules win), in every
  process that resolves the spec: pool and Ray workers find the user's file too.

Parameters are typed and validated (:mod:`agents.params`); anything that does not import or does
not build an agent raises :class:`~agents.base.AgentSpecError`, which the CLI reports with exit 2.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from .base import Agent, AgentSpecError
from .params import bind, params_of

#: name -> "module:Class" (imported lazily so cheap agents stay cheap to build).
AGENTS: dict[str, str] = {
    "random": "agents.players.random_agent:RandomAgent",
    "novice": "agents.players.greedy:NoviceAgent",
    "greedy": "agents.players.greedy:GreedyAgent",
    "expectimax": "agents.players.expectimax:ExpectimaxAgent",
    "expert": "agents.players.expert:ExpertAgent",
    "master": "agents.players.master:MasterAgent",  # learned Q + win-aware search; path=weights.npz
    "coach": "agents.coaching.coach:CoachAgent",  # plays the table's hint at every decision
    "maskable_ppo": "agents.players.maskable_ppo_agent:MaskablePPOAgent",  # extra "rl"; path=model.zip
    "policy_net": "agents.players.policy_net:PolicyNetAgent",  # a numpy net over env observations
    "neural": "agents.players.neural:NeuralAgent",  # learned Q net, numpy only; path=weights.npz
    "zero": "agents.players.policy_net:ZeroAgent",  # taught itself from random weights; numpy only
    "discarder": "agents.discard_bench:DiscarderAgent",  # a discard strategy + expectimax pegging
    "ismcts": "agents.players.openspiel_bots:ISMCTSAgent",  # extra "openspiel": OpenSpiel's ISMCTS
}


@dataclass(frozen=True)
class Level:
    """A difficulty level of the game: the agent spec it plays and the name people see (the
    command line shows it, the game translates it)."""

    spec: str
    label: str


#: difficulty levels of the game, in order: easy = random discard + greedy pegging,
#: medium = greedy (best hand EV, most points now), hard = expectimax (analyzer discard,
#: one-ply expectimax pegging), expert = search pegging, neural = the learned Q network,
#: master = the learned Q network inside win-aware search (the strongest).
LEVELS: dict[str, Level] = {
    "easy": Level("novice", "Easy"),
    "medium": Level("greedy", "Medium"),
    "hard": Level("expectimax", "Hard"),
    "expert": Level("expert", "Expert"),
    "neural": Level("neural", "Neural"),
    "master": Level("master", "Master"),
}
#: A spec that starts so names a command that speaks the bot protocol (``cmd:./mybot --fast``).
COMMAND_PREFIX = "cmd:"
#: A spec that starts so plays the rest of the spec in a sealed seat (``sealed:my_bot:Bot``).
SEALED_PREFIX = "sealed:"
#: Entry-point groups installed packages register in (``name = "module:attr"``).
AGENT_GROUP = "cribbage_env.agents"
DISCARD_GROUP = "cribbage_env.discards"


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: a registered ``name`` or an import ``target`` ("module:attr"), and the
    parameters as text."""

    text: str
    name: str | None
    target: str | None
    params: dict[str, str] = field(default_factory=dict)


def _is_attr_path(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def read_spec(spec: str) -> AgentSpec:
    """Parse a spec (see the module doc); values may contain ``:`` (``path=C:/m.zip``).

    >>> read_spec("expert:sims=200").name, read_spec("expert:sims=200").params
    ('expert', {'sims': '200'})
    >>> s = read_spec("my_bots.v1:Bot:depth=2")
    >>> s.target, s.params
    ('my_bots.v1:Bot', {'depth': '2'})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec is a non-empty string, got {spec!r}")
    text = spec.strip()
    head, _, rest = text.partition(":")
    head = head.strip()
    attr, sep, after = rest.partition(":")
    target = None
    registered = head.lower() in AGENTS or head.lower() in LEVELS
    if rest and "=" not in attr and not registered and head.lower() not in plugins():
        if not (_is_attr_path(head) and _is_attr_path(attr.strip())):
            raise AgentSpecError(
                f"bad agent spec {spec!r}: expected name[:key=value,...] or "
                f"module.path:Name[:key=value,...]"
            )
        target, rest = f"{head}:{attr.strip()}", after if sep else ""
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise AgentSpecError(
                f"bad parameter {part!r} in agent spec {spec!r}: expected key=value"
            )
        if key in params:
            raise AgentSpecError(f"parameter {key!r} is given twice in agent spec {spec!r}")
        params[key] = value.strip()
    if target is not None:
        return AgentSpec(text, None, target, params)
    if not head:
        raise AgentSpecError(f"bad agent spec {spec!r}: no agent name before ':'")
    return AgentSpec(text, head.lower(), None, params)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:k=v,k2=v2"`` into the name (or import target) and its parameters.

    >>> parse_spec("expert:sims=200,seed=3")
    ('expert', {'sims': '200', 'seed': '3'})
    """
    s = read_spec(spec)
    return (s.name or s.target or ""), s.params


# ------------------------------------------------------------------------------ importing


def _with_cwd() -> None:
    """Make the current working directory importable (after everything installed)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
        importlib.invalidate_caches()


def import_target(target: str, what: str = "agent") -> object:
    """The object named by ``"module.path:Name"`` (``Name`` may be dotted), the current working
    directory importable; AgentSpecError says what was wrong."""
    module_name, _, attr = target.partition(":")
    _with_cwd()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise AgentSpecError(
                f"cannot import {module_name!r} for {what} {target!r}: no such module in the "
                f"current folder ({os.getcwd()}) or on the Python path"
            ) from None
        raise AgentSpecError(
            f"importing {module_name!r} for {what} {target!r} failed: {exc}"
        ) from None
    except Exception as exc:  # noqa: BLE001 - the user's module: a syntax error, anything
        raise AgentSpecError(
            f"importing {module_name!r} for {what} {target!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            names = sorted(
                n
                for n, v in vars(module).items()
                if not n.startswith("_")
                and callable(v)
                and getattr(v, "__module__", None) == module.__name__
            )
            where = getattr(module, "__file__", None) or module_name
            raise AgentSpecError(
                f"{module_name!r} ({where}) has no {attr!r} for {what} "
                f"{target!r}; it defines: {', '.join(names) or 'nothing callable'}"
            )
        obj = getattr(obj, part)
    return obj


def plugins(group: str = AGENT_GROUP) -> dict[str, importlib.metadata.EntryPoint]:
    """Installed entry points of ``group`` by lower-case name (first one wins on a clash)."""
    out: dict[str, importlib.metadata.EntryPoint] = {}
    for ep in importlib.metadata.entry_points(group=group):
        out.setdefault(ep.name.strip().lower(), ep)
    return out


def load_plugin(ep: importlib.metadata.EntryPoint, what: str = "agent") -> object:
    _with_cwd()
    try:
        return ep.load()
    except Exception as exc:  # noqa: BLE001 - a broken plug-in is reported, not raised through
        dist = getattr(getattr(ep, "dist", None), "name", "?")
        raise AgentSpecError(
            f"the {what} plug-in {ep.name!r} ({ep.value}, from {dist}) does not "
            f"load: {type(exc).__name__}: {exc}"
        ) from None


# ------------------------------------------------------------------------------ building


def known_names() -> list[str]:
    return sorted({**AGENTS, **LEVELS, **plugins()})


def resolve(spec: AgentSpec) -> tuple[Callable, str]:
    """The class or factory a spec names, and how to call it in messages."""
    if spec.target is not None:
        return _callable(import_target(spec.target), spec.target), spec.target
    name = spec.name or ""
    if name in AGENTS:
        return import_target(AGENTS[name]), name  # type: ignore[return-value]
    eps = plugins()
    if name in eps:
        return _callable(load_plugin(eps[name]), name), name
    raise AgentSpecError(
        f"unknown agent {name!r}; known: {', '.join(known_names())} (or your "
        f"own as module.path:Name)"
    )


def _callable(obj: object, label: str) -> Callable:
    if callable(obj):
        return obj
    if hasattr(obj, "act"):
        raise AgentSpecError(
            f"{label} is an agent instance; name its class or a factory function "
            f"instead, so that every seat and process builds its own"
        )
    raise AgentSpecError(
        f"{label} is a {type(obj).__name__}, not an agent class or a factory returning one"
    )


def make_agent(spec: str | Agent | Callable) -> Agent:
    """An agent from a spec string (or an agent instance, returned as is).

    >>> make_agent("random").name
    'random'
    >>> make_agent("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agents.base.AgentSpecError: unknown agent 'nope'; known: ...random...
    >>> make_agent("expert:sims=abc")
    Traceback (most recent call last):
    ...
    agents.base.AgentSpecError: expert: sims must be an integer in 1..5000; got 'abc'
    """
    if not isinstance(spec, str):
        if hasattr(spec, "act"):
            return spec  # type: ignore[return-value]
        raise AgentSpecError(
            f"an agent is a spec string or an object with act(view, rng), got {spec!r}"
        )
    if spec.strip().startswith(COMMAND_PREFIX):
        return command_bot(spec.strip())
    if spec.strip().startswith(SEALED_PREFIX):
        from .arena.seat import SealedSeat

        return SealedSeat(spec.strip()[len(SEALED_PREFIX) :])
    s = read_spec(spec)
    if s.name in LEVELS and LEVELS[s.name].spec != s.name:
        # A level with parameters ("hard:counter=1") passes them to the agent it names.
        base = read_spec(LEVELS[s.name].spec)
        merged = {**base.params, **s.params}
        return make_agent(
            base.text.partition(":")[0]
            + (":" if merged else "")
            + ",".join(f"{k}={v}" for k, v in merged.items())
        )
    factory, label = resolve(s)
    declared, extra = params_of(factory)
    kwargs = bind(declared, s.params, extra=extra, who=label)
    try:
        agent = factory(**kwargs)
    except AgentSpecError:
        raise
    except Exception as exc:  # noqa: BLE001 - the user's constructor: report what it said
        raise AgentSpecError(
            f"{label} could not be built from {spec!r}: {type(exc).__name__}: {exc}"
        ) from None
    act = getattr(agent, "act", None)
    if not callable(act):
        raise AgentSpecError(
            f"{label} returned {type(agent).__name__}, which has no act(view, rng) method"
        )
    if not isinstance(getattr(agent, "name", None), str):
        _set(agent, "name", s.name or (s.target or "").rpartition(":")[2])
    _set(agent, "spec", s.text)
    return agent


def command_bot(spec: str) -> Agent:
    """The protocol bot a ``cmd:COMMAND ARGS`` spec names (its own process, see
    :mod:`agents.arena.protocol`), not sealed: ``--isolate`` seals it."""
    from .arena.client import ProtocolBot

    argv = shlex.split(spec[len(COMMAND_PREFIX) :])
    if not argv:
        raise AgentSpecError(f"bad agent spec {spec!r}: no command after {COMMAND_PREFIX!r}")
    exe = shutil.which(argv[0]) if os.sep not in argv[0] else argv[0]
    if exe is None or not os.access(exe, os.X_OK) or os.path.isdir(exe):
        raise AgentSpecError(f"bad agent spec {spec!r}: {argv[0]!r} is not an executable")
    bot = ProtocolBot([os.path.abspath(exe), *argv[1:]])
    bot.spec = spec
    return bot


def _set(agent: object, key: str, value: str) -> None:
    try:
        setattr(agent, key, value)
    except (AttributeError, TypeError):  # slots or frozen: the user's choice
        pass
