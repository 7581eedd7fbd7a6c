"""What ``cribbage agents`` says about each agent: its kind, where it comes from, its summary
and its parameters, for the built-ins, the game levels and the installed plug-ins.

Kept apart from :mod:`agents.registry` (which builds agents from specs): describing an agent
loads it and reads its docstring and parameters, and builds nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from .base import AgentSpecError
from .params import Param, params_of
from .registry import AGENTS, LEVELS, import_target, known_names, load_plugin, plugins, read_spec


@dataclass(frozen=True)
class AgentInfo:
    """What ``cribbage agents`` prints about one agent."""

    name: str
    kind: str  # built-in, level, plug-in, import path
    source: str  # "module:attr", or the spec a level stands for
    summary: str
    doc: str = ""
    params: tuple[Param, ...] = ()
    error: str | None = None


def _describe(name: str, kind: str, source: str, load: Callable[[], object]) -> AgentInfo:
    try:
        obj = load()
    except AgentSpecError as exc:
        return AgentInfo(name, kind, source, f"(cannot load: {exc})", error=str(exc))
    doc = inspect.getdoc(obj) or ""
    init_doc = inspect.getdoc(getattr(obj, "__init__", None)) if inspect.isclass(obj) else None
    if init_doc and init_doc != inspect.getdoc(object.__init__):
        doc = f"{doc}\n\n{init_doc}".strip()
    summary = doc.split("\n\n")[0].replace("\n", " ").strip() if doc else "(no description)"
    params = params_of(obj)[0] if callable(obj) else ()
    return AgentInfo(name, kind, source, summary, doc, params)


def list_agents() -> list[AgentInfo]:
    """Every agent: built-in, then game levels, then installed plug-ins."""
    out = [_describe(n, "built-in", t, partial(import_target, t)) for n, t in AGENTS.items()]
    out += [
        AgentInfo(n, "level", lv.spec, f"game level {lv.label!r}: the same as {lv.spec!r}")
        for n, lv in LEVELS.items()
        if n not in AGENTS
    ]
    for n, ep in sorted(plugins().items()):
        if n in AGENTS or n in LEVELS:
            continue  # built-ins win over a plug-in of the same name
        dist = getattr(getattr(ep, "dist", None), "name", None)
        out.append(
            _describe(
                n,
                f"plug-in ({dist})" if dist else "plug-in",
                ep.value,
                partial(load_plugin, ep),
            )
        )
    return out


def agent_info(spec: str) -> AgentInfo:
    """The help of one agent named as any spec would name it."""
    s = read_spec(spec)
    if s.target is not None:
        return _describe(s.target, "import path", s.target, partial(import_target, s.target))
    if s.name in LEVELS and LEVELS[s.name].spec != s.name:
        level = LEVELS[s.name]
        base = agent_info(level.spec)
        return replace(
            base,
            name=s.name,
            kind="level",
            source=level.spec,
            summary=f"game level {level.label!r}: the same as {level.spec!r}: {base.summary}",
        )
    for info in list_agents():
        if info.name == s.name:
            return info
    raise AgentSpecError(f"unknown agent {s.name!r}; known: {', '.join(known_names())}")
