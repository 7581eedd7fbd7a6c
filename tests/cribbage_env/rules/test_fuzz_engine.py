"""Stateful fuzzing of the engine: random legal and illegal actions, clones, undo by
replaying a prefix and record round trips, with every invariant checked after every step.

``CRIBBAGE_FUZZ_EXAMPLES=500`` (and ``CRIBBAGE_FUZZ_STEPS``) run a long fuzz; the integration
tier runs the machine with more examples than the default."""

from __future__ import annotations

import os

import hypothesis.strategies as st
import pytest
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import cribbage_env as ce
from cribbage_env.invariants import check_state, check_view


class EngineMachine(RuleBasedStateMachine):
    @rule(seed=st.integers(0, 2**32 - 1), cuts=st.booleans())
    def start(self, seed: int, cuts: bool) -> None:
        self.g = ce.new_game(seed, interactive_cuts=cuts)
        self.prev = self.g.scores
        self.clones: list[ce.GameState] = []

    def _started(self) -> bool:
        return hasattr(self, "g")

    @precondition(lambda self: self._started() and not self.g.is_over)
    @rule(pick=st.integers(0, 10_000))
    def legal_action(self, pick: int) -> None:
        legal = self.g.legal_actions()
        self.prev = self.g.scores
        self.g.apply(legal[pick % len(legal)])

    @precondition(lambda self: self._started())
    @rule(action=st.one_of(st.integers(-5, 3100), st.none(), st.floats(), st.text(max_size=3)))
    def illegal_or_odd_action(self, action) -> None:
        """Anything not legal is refused with IllegalActionError and changes nothing."""
        if isinstance(action, int) and not isinstance(action, bool) and self.g.is_legal(action):
            return
        before = self.g.clone()
        try:
            self.g.apply(action)
        except ce.IllegalActionError as exc:
            assert "legal" in str(exc)
        else:  # pragma: no cover - a failure
            raise AssertionError(f"{action!r} was accepted")
        assert self.g == before

    @precondition(lambda self: self._started())
    @rule()
    def clone_is_independent(self) -> None:
        c = self.g.clone()
        assert c == self.g
        if not c.is_over:
            c.apply(c.legal_actions()[0])
            assert c != self.g
        self.clones.append(self.g.clone())

    @precondition(lambda self: self._started() and len(self.g.decisions) > 0)
    @rule(back=st.integers(1, 20))
    def undo_by_replay_then_redo(self, back: int) -> None:
        """Undo = rebuild from a prefix of the decisions; redo the rest = the identical state."""
        d = self.g.decisions
        cut = max(0, len(d) - back)
        earlier = ce.replay(self.g.seed, d[:cut], interactive_cuts=self.g.interactive_cuts)
        for a in d[cut:]:
            earlier.apply(a)
        assert earlier == self.g

    @precondition(lambda self: self._started())
    @rule()
    def record_round_trip(self) -> None:
        assert ce.GameState.from_record(self.g.to_record()) == self.g

    @invariant()
    def invariants_hold(self) -> None:
        if self._started():
            check_state(self.g, self.prev)
            check_view(self.g, 0)
            check_view(self.g, 1)
            for c in self.clones:
                check_state(c)


EngineMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("CRIBBAGE_FUZZ_EXAMPLES", "15")),
    stateful_step_count=int(os.environ.get("CRIBBAGE_FUZZ_STEPS", "60")),
    deadline=None,
)
TestEngineFuzz = EngineMachine.TestCase


class TestEngineFuzzLonger(EngineMachine.TestCase):  # type: ignore[misc,valid-type]
    """The same machine, more examples: the integration tier."""

    pytestmark = pytest.mark.integration
    settings = settings(max_examples=80, stateful_step_count=60, deadline=None)
