"""What names an agent in a tournament: a spec string, an agent instance, or a factory.

Specs (``"expert:sims=200"``) travel to every backend as text. An *instance* (anything with
``act(view, rng)``) is used as it is, in both seats; a *factory* (a class, or a function
returning an agent) is called once per seat and process, like a spec. Objects reach pool
workers and Ray by pickling: define them at module level in an importable module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ..base import AgentSpecError
from ..registry import make_agent

#: a spec string, an agent instance (has ``act``), or a factory (class or function -> agent).
AgentSource = object


def is_factory(src: object) -> bool:
    return isinstance(src, type) or (callable(src) and not hasattr(src, "act"))


def agent_label(src: AgentSource) -> str:
    """How reports name an agent: its spec, else its ``spec``/``name`` attribute, else its type."""
    if isinstance(src, str):
        return src
    for attr in ("spec", "name"):
        value = getattr(src, attr, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return getattr(src, "__qualname__", None) or type(src).__name__


def label_agents(agents: Sequence[AgentSource]) -> tuple[tuple[str, ...], tuple[AgentSource, ...]]:
    """A label per agent; equal specs (or the same object) share one, others get ``#2``, ``#3``."""
    owner: dict[str, AgentSource] = {}
    labels = []
    for src in agents:
        base = label = agent_label(src)
        k = 1
        while label in owner and not (
            owner[label] is src or (isinstance(src, str) and owner[label] == src)
        ):
            k += 1
            label = f"{base}#{k}"
        owner[label] = src
        labels.append(label)
    sources = tuple(owner[label] for label in labels)
    return tuple(labels), (sources if any(not isinstance(s, str) for s in sources) else ())


def check_source(label: str, src: Any) -> None:
    if isinstance(src, str):
        make_agent(src)  # AgentSpecError (a ValueError) with the known names
        return
    agent = src
    if is_factory(src):
        try:
            agent = cast(Callable[[], object], src)()
        except Exception as exc:
            raise AgentSpecError(f"agent factory {label!r} failed when called: {exc!r}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(
            f"agent {label!r} is not an agent: expected a spec string, an object with "
            f"act(view, rng), or a class/function returning one; got {agent!r}"
        )
