"""Stateful fuzzing of the table controller (issue 8.4): random selections, hints, confirms,
cuts, reveals, undos, redos, restarts and show steps, with the invariants checked after every
step (RULES R10, R11.2, R11.4, R11.5, R11.6)."""

from __future__ import annotations

import os

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_ui_controller import advance

import cribbage_env as ce
from ui.controller import Mode, TableController
from ui.scene import table_scene

EXAMPLES = int(os.environ.get("CRIBBAGE_FUZZ_EXAMPLES", "15"))


class TableMachine(RuleBasedStateMachine):
    mode = Mode.COMPUTER

    @initialize(seed=st.integers(0, 10_000), lang=st.sampled_from(["en", "es", "fr"]))
    def start(self, seed: int, lang: str) -> None:
        self.ctl = TableController(seed, mode=self.mode, lang=lang, opponent="random")

    # ---------------------------------------------------------------- previews (R11.2)
    @rule(i=st.integers(0, 5))
    def select(self, i: int) -> None:
        before = self.ctl.game.fingerprint()
        self.ctl.select_position(i)
        assert self.ctl.game.fingerprint() == before

    @rule(step=st.sampled_from([-1, 1]))
    def focus(self, step: int) -> None:
        before = self.ctl.game.fingerprint()
        self.ctl.move_focus(step)
        assert self.ctl.game.fingerprint() == before

    @rule()
    def hint(self) -> None:
        before = self.ctl.game.fingerprint()
        h = self.ctl.request_hint()
        assert self.ctl.game.fingerprint() == before
        if h is not None:
            assert h.action in self.ctl.game.legal_actions()

    # ---------------------------------------------------------------- decisions
    @rule()
    def confirm(self) -> None:
        pending = self.ctl.pending_action
        n = len(self.ctl.decisions)
        done = self.ctl.confirm()
        assert done == (pending is not None)
        if done:
            assert self.ctl.decisions[n] == pending

    @rule(n=st.integers(1, 40), seed=st.integers(0, 1000))
    def play_on(self, n: int, seed: int) -> None:
        """Legal moves through the table's own selection/confirm path, to reach deep states."""
        rng = np.random.default_rng(seed)
        for _ in range(n):
            if self.ctl.game.is_over:
                return
            self.ctl.selection = ()
            advance(self.ctl, rng)

    @rule(depth=st.integers(-5, 60))
    def cut(self, depth: int) -> None:
        self.ctl.cut_at(depth)

    @rule()
    def reveal(self) -> None:
        self.ctl.reveal()

    @rule()
    def computer(self) -> None:
        self.ctl.step_computer()

    @rule()
    def show(self) -> None:
        self.ctl.advance_show()

    @rule()
    def skip(self) -> None:
        self.ctl.skip_show()

    # ---------------------------------------------------------------- history (R11.5, R11.6)
    @rule()
    def undo(self) -> None:
        self.ctl.undo()

    @rule()
    def redo(self) -> None:
        self.ctl.redo()

    @rule()
    def undo_all_redo_all(self) -> None:
        if self.ctl.can_redo:
            return
        before = self.ctl.game.fingerprint()
        while self.ctl.undo():
            pass
        while self.ctl.redo():
            pass
        assert self.ctl.game.fingerprint() == before

    @rule()
    def restart(self) -> None:
        self.ctl.restart()
        assert self.ctl.game == ce.new_game(self.ctl.seed, interactive_cuts=True)

    # ---------------------------------------------------------------- invariants
    @invariant()
    def game_is_its_decisions(self) -> None:
        c = self.ctl
        assert c.game == ce.replay(c.seed, c.decisions, interactive_cuts=True)

    @invariant()
    def scores_stop_at_the_win(self) -> None:
        g = self.ctl.game
        if g.is_over:
            assert g.scores[g.winner] >= 121 and g.scores[1 - g.winner] < 121
        else:
            assert max(g.scores) < 121

    @invariant()
    def hidden_hands_stay_hidden(self) -> None:
        c = self.ctl
        scene = table_scene(c)
        up = {i.card for i in scene.all_cards() if i.card is not None}
        if c.mode is Mode.COMPUTER and not c.show_running:
            assert not (up & set(c.game.hands[1]))
        if c.needs_reveal:
            assert not (up & (set(c.game.hands[0]) | set(c.game.hands[1])))


class HotseatMachine(TableMachine):
    mode = Mode.HOTSEAT


_settings = settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
TestTableFuzz = TableMachine.TestCase
TestTableFuzz.settings = _settings
TestHotseatFuzz = HotseatMachine.TestCase
TestHotseatFuzz.settings = _settings
