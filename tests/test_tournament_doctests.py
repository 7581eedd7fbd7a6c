"""Run the doctests of the tournament modules (pytest collects doctests only under cribbage_env)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["agents.stats", "agents.tournament", "agents.runner", "agents.registry"]
)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0
