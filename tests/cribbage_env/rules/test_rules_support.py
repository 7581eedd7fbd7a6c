"""No rule ignored: every consumer of ``Rules`` declares the fields it implements (beside it, with
:func:`cribbage_env.rules.core.implements`), refuses a value setting any other in one line, and a
field added to ``Rules`` that no consumer declares fails here."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from cribbage_env.rules.core import SUPPORTS, Rules, RulesError, RuleSupport

#: consumer -> (the module that declares it, the declaration's name there)
CONSUMERS = {
    "the engine": ("cribbage_env.rules.engine", "ENGINE"),
    "the compiled kernels": ("cribbage_env.kernels.simkernel", "KERNELS"),
    "the searches": ("agents.search.peg_search", "SEARCHES"),
    "the envs": ("cribbage_env.envs.episode", "ENVS"),
    "the equity table": ("cribbage_env.equity", "EQUITY"),
    "the table": ("ui.table.board", "TABLE"),
}


def _declared() -> dict[str, RuleSupport]:
    for module, _ in CONSUMERS.values():
        importlib.import_module(module)
    return dict(SUPPORTS)


def undeclared(cls: type) -> set[str]:
    """The fields of the rules class ``cls`` that no consumer declares."""
    supports = _declared().values()
    return {f.name for f in dataclasses.fields(cls)} - {n for s in supports for n in s.fields}


def test_every_consumer_declares_its_fields() -> None:
    declared = _declared()
    assert set(CONSUMERS) <= set(declared)
    for consumer, (module, name) in CONSUMERS.items():
        assert getattr(importlib.import_module(module), name) is declared[consumer]


def test_a_field_no_consumer_declares_fails() -> None:
    assert undeclared(Rules) == set()
    grown = dataclasses.make_dataclass(
        "GrownRules", [("muggins", bool, False)], bases=(Rules,), frozen=True
    )
    assert undeclared(grown) == {"muggins"}  # what this test says when Rules grows a field


def test_a_declaration_of_an_unknown_field_is_refused() -> None:
    from cribbage_env.rules.core import implements

    with pytest.raises(RulesError, match="unknown rule fields"):
        implements("a test consumer", "target", "muggins")
    SUPPORTS.pop("a test consumer", None)


def _engine(r):
    from cribbage_env.rules.engine import new_game

    return [lambda: new_game(1, rules=r)]


def _kernels(r):
    from cribbage_env.kernels import simkernel

    return [lambda: simkernel.put_rules(np.zeros(simkernel.SIZE, dtype=np.int64), r)]


def _searches(r):
    from agents.players.expectimax import ExpectimaxAgent
    from agents.players.expert import ExpertAgent
    from cribbage_env.rules.engine import new_game

    g = new_game(1, rules=r)
    view, rng = g.view(g.to_act), np.random.default_rng(0)
    return [lambda: ExpectimaxAgent().act(view, rng), lambda: ExpertAgent().act(view, rng)]


def _envs(r):
    from cribbage_env.envs import aec
    from cribbage_env.envs.batched import CribbageVectorEnv
    from cribbage_env.envs.single import CribbageEnv

    return [lambda: CribbageEnv(rules=r), lambda: CribbageVectorEnv(2, rules=r),
            lambda: aec.raw_env(rules=r)]  # fmt: skip


def _equity(r):
    from cribbage_env.equity import dealer_table

    return [lambda: dealer_table(r)]


def _table(r):
    from ui.table.board import BoardShape

    return [lambda: BoardShape.of(r)]


ENTRIES = {"the engine": _engine, "the compiled kernels": _kernels, "the searches": _searches,
           "the envs": _envs, "the equity table": _equity, "the table": _table}  # fmt: skip


@pytest.mark.parametrize("consumer", list(CONSUMERS))
def test_a_rule_a_consumer_does_not_implement_is_refused_in_one_line(monkeypatch, consumer):
    """Each consumer made to implement the target alone refuses a value that sets a skunk line,
    at its entry point, naming the rule."""
    module, name = CONSUMERS[consumer]
    narrow = RuleSupport(consumer, frozenset({"target"}))
    monkeypatch.setattr(importlib.import_module(module), name, narrow)
    if consumer == "the searches":  # imported by name into each search
        for m in ("agents.players.expectimax", "agents.players.expert"):
            monkeypatch.setattr(importlib.import_module(m), name, narrow)
    for call in ENTRIES[consumer](Rules(skunk=100)):
        with pytest.raises(RulesError) as exc:
            call()
        text = str(exc.value)
        assert "\n" not in text and f"{consumer} does not implement the rule skunk=100" in text
    for call in ENTRIES[consumer](Rules(target=61)):
        call()  # the fields it implements pass
