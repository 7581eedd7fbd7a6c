"""``cribbage agents [NAME]``: every agent (built-in, game level, installed plug-in) with a
one-line description and its parameters; with NAME (any spec, ``module.path:Name`` too) its help.

Parameters come from the same declaration the spec parser validates against, so what is shown
here is exactly what a spec accepts.
"""

from __future__ import annotations

import argparse
import json
import sys

from agents.agent_info import AgentInfo, agent_info, list_agents
from agents.base import AgentSpecError
from agents.params import Param


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "name",
        nargs="?",
        default=None,
        metavar="NAME",
        help="show one agent's help: a name, a level or module.path:Name",
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def _param_json(p: Param) -> dict:
    return {
        "name": p.name,
        "type": p.kind.__name__,
        "default": None if p.required else p.default,
        "required": p.required,
        "allowed": p.allowed(),
        "help": p.help,
    }


def _info_json(i: AgentInfo) -> dict:
    return {
        "name": i.name,
        "kind": i.kind,
        "source": i.source,
        "summary": i.summary,
        "doc": i.doc,
        "params": [_param_json(p) for p in i.params],
        "error": i.error,
    }


def _plugin_summary(ep) -> str:
    """``plug-in (dist): first line of its docstring`` (or why it does not load)."""
    import inspect

    from agents.registry import load_plugin

    dist = getattr(getattr(ep, "dist", None), "name", None) or ep.value
    try:
        doc = inspect.getdoc(load_plugin(ep, "discard strategy")) or "(no description)"
    except AgentSpecError as exc:
        doc = f"(cannot load: {exc})"
    return f"plug-in ({dist}): {doc.splitlines()[0]}"


def _listing(infos: list[AgentInfo]) -> str:
    from agents.discards.strategies import BUILTIN
    from agents.registry import DISCARD_GROUP, plugins

    w = max(len(i.name) for i in infos)
    lines = [
        "Agents (use NAME or NAME:key=value,... wherever an agent is asked for; your own as "
        "module.path:Name):",
        "",
    ]
    for i in infos:
        lines.append(f"  {i.name:<{w}}  {i.kind:<10} {i.summary}")
        if i.params:
            lines.append(
                f"  {'':<{w}}  {'':<10} parameters: " + " ".join(p.describe() for p in i.params)
            )
    lines += [
        "",
        "Discard strategies (cribbage discards STRATEGY...; also agent:SPEC or "
        "module.path:function):",
        "",
    ]
    names = {
        **BUILTIN,
        **{n: _plugin_summary(ep) for n, ep in plugins(DISCARD_GROUP).items() if n not in BUILTIN},
    }
    ws = max(len(n) for n in names)
    lines += [f"  {n:<{ws}}  {d}" for n, d in names.items()]
    lines += ["", "cribbage agents NAME shows an agent's help and the allowed values."]
    return "\n".join(lines)


def _help(i: AgentInfo) -> str:
    lines = [f"{i.name} ({i.kind}, {i.source})", ""]
    lines.append(i.doc or i.summary)
    if i.kind == "level":
        lines.append(f"\nParameters given to a level go to the agent it names ({i.source}).")
    lines += ["", "Parameters:" if i.params else "Parameters: none"]
    w = max((len(p.name) for p in i.params), default=0)
    for p in i.params:
        default = "required" if p.required else f"default {p.describe().partition('=')[2]}"
        lines.append(f"  {p.name:<{w}}  {p.allowed()}; {default}")
        if p.help:
            lines.append(f"  {'':<{w}}  {p.help}")
    if i.params:
        example = ",".join(p.describe().split(" ")[0] for p in i.params[:2])
        lines += ["", f"Example: {i.name}:{example}"]
    return "\n".join(lines)


def _strategy_help(name: str) -> str | None:
    """The help of a discard strategy by name (built-in or plug-in), if NAME is one."""
    from agents.discards.strategies import BUILTIN
    from agents.registry import DISCARD_GROUP, plugins

    key = name.strip().lower()
    if key in BUILTIN:
        return f"{key} (built-in discard strategy): {BUILTIN[key]}\n\ncribbage discards {key} ..."
    ep = plugins(DISCARD_GROUP).get(key)
    if ep is None:
        return None
    return f"{key} (plug-in discard strategy, {ep.value})\n\ncribbage discards {key} ..."


def run(args: argparse.Namespace) -> int:
    try:
        if args.name is None:
            infos = list_agents()
            print(json.dumps([_info_json(i) for i in infos]) if args.json else _listing(infos))
            return 0
        info = agent_info(args.name)
    except AgentSpecError as exc:
        strategy = _strategy_help(args.name)
        if strategy:
            print(strategy)
            return 0
        print(f"cribbage agents: {exc}", file=sys.stderr)
        return 2
    if info.error:  # named, but it does not load: what was wrong, in one line
        print(f"cribbage agents: {info.error}", file=sys.stderr)
        return 2
    print(json.dumps(_info_json(info)) if args.json else _help(info))
    return 0
