"""Agents for cribbage-env: one protocol from random to expert."""

from __future__ import annotations

from .base import Agent, AgentSpecError, Hint, Option
from .registry import AGENTS, LEVELS, make_agent, parse_spec

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpecError",
    "Hint",
    "Option",
    "make_agent",
    "parse_spec",
]
