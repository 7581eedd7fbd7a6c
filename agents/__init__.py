"""Agents for cribbage-env: one protocol from random to expert."""

from __future__ import annotations

from .base import Agent, AgentSpecError, Hint, Option
from .errors import AgentError
from .params import Param
from .registry import AGENTS, LEVELS, make_agent, parse_spec, read_spec

__all__ = [
    "AgentError",
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpecError",
    "Hint",
    "Option",
    "Param",
    "make_agent",
    "parse_spec",
    "read_spec",
]
