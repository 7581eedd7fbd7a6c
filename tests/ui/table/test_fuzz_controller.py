"""Stateful fuzzing of the table controller (RULES R10, R11.2, R11.4-R11.6).

A hypothesis state machine drives :class:`ui.table.controller.TableController` (pure Python, no
Arcade) the way a person at the table can: random card selections (any card id, by position,
focus moves), hints, confirms, cuts at any spot, computer moves, undos, redos, restarts, "See my
hand" presses in pass-and-play, show steps and skips, language switches, stale computer moves and
save/resume, in both seated modes (against the computer, hotseat) and every language.

After every step it checks, independently of the controller's own bookkeeping:

- the game is exactly the replay of the decisions the controller reports (R11.6) and every
  engine invariant holds (card conservation, counts, views: ``cribbage_env.invariants``);
- scores never go down except through undo or restart, and the game stops at the win (R10):
  nobody can act, confirm or cut after it;
- previews (selection, hint, focus, show steps, reveal, language) never change the game or the
  redo tail (R11.2);
- undo lands before a person's decision and undo-all then redo-all returns the identical state
  (R11.5); restart is a fresh game with the seed (R11.6), in pass and play only before the
  first decision or after the game (``tests/ui/table/test_hotseat_privacy.py`` attacks it);
- in hotseat no hand is face up unless that player pressed "See my hand" and still holds the
  screen, and nothing about a hand (selection, hint) exists before the press (R11.4).

``CRIBBAGE_FUZZ_EXAMPLES=500`` (and ``CRIBBAGE_FUZZ_STEPS``) run a long fuzz; the default is
short; the integration tier runs the machine with more examples.
"""

from __future__ import annotations

import os

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from random_games import random_game
from table_play import resumed_table

import cribbage_env as ce
from cribbage_env.invariants import check_state, check_view
from cribbage_env.rules.actions import CUT_BASE, discard_cards, is_cut, is_discard
from cribbage_env.rules.core import Phase
from ui.scenes.table_scene import table_scene
from ui.table.controller import Mode, TableController
from ui.table.teaching.coach import Coach
from ui.words.i18n import LANGUAGES

CUT_PHASES = (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT)
OPPONENTS = ("random", "greedy", "novice")


def _random_prefix(seed: int, n: int) -> list[int]:
    """Up to ``n`` legal decisions of a game with interactive cuts, chosen by a seeded rng."""
    rng = np.random.default_rng([seed, 7])
    return list(random_game(seed, rng, interactive_cuts=True, stop=n).decisions)


class TableMachine(RuleBasedStateMachine):
    """One table, driven by random gestures; the model keeps only what a person could see."""

    # ----------------------------------------------------------------------------- set-up
    @initialize(
        seed=st.integers(0, 2**31),
        mode=st.sampled_from([Mode.COMPUTER, Mode.HOTSEAT]),
        lang=st.sampled_from(LANGUAGES),
        opponent=st.sampled_from(OPPONENTS),
        cuts=st.booleans(),
        head_start=st.sampled_from([0, 0, 40, 120, 250, 400]),
    )
    def start(
        self, seed: int, mode: Mode, lang: str, opponent: str, cuts: bool, head_start: int
    ) -> None:
        if head_start:
            # Resume a saved game part-way (often near 121) so that games reach the win.
            decisions = _random_prefix(seed, head_start)
            agent = opponent if mode is Mode.COMPUTER else None
            self.ctl = resumed_table(seed, decisions, mode, lang, agent)
            assert self.ctl.decisions == tuple(decisions)
        else:
            self.ctl = TableController(
                seed,
                mode=mode,
                opponent=opponent,
                lang=lang,
                interactive_cuts=cuts,
                agent_seed=seed,
            )
            assert self.ctl.game == ce.new_game(seed, interactive_cuts=cuts)
        self.rng = np.random.default_rng(seed)
        self.prev_scores = self.ctl.game.scores
        self.shown: int | None = None  # who pressed "See my hand" and still holds the screen

    # ----------------------------------------------------------------------------- helpers
    def _snapshot(self) -> tuple:
        c = self.ctl
        return (c.game.clone(), c.decisions, tuple(c.history.actions), c.history.cursor)

    def _assert_unchanged(self, snap: tuple) -> None:
        game, decisions, actions, cursor = snap
        c = self.ctl
        assert c.game == game, "a preview changed the game"
        assert (
            c.decisions == decisions
            and tuple(c.history.actions) == actions
            and c.history.cursor == cursor
        ), "a preview changed the decisions or the redo tail"

    def _after_decision(self, before: tuple[int, ...], actor: int | None) -> None:
        """One decision was added; hands go face down when the screen passes (R11.4)."""
        c = self.ctl
        assert c.decisions[:-1] == before and len(c.decisions) == len(before) + 1
        assert not c.can_redo, "a new decision must drop the redo tail"
        if c.to_act != self.shown or actor != self.shown:
            self.shown = None

    def _history_reset(self) -> None:
        self.prev_scores = self.ctl.game.scores
        self.shown = None

    def _human_move(self) -> None:
        c = self.ctl
        if c.needs_reveal:
            c.reveal()
            self.shown = c.to_act
        g = c.game
        if g.phase in CUT_PHASES:
            before, actor = c.decisions, c.to_act
            assert c.selection.cut_at(int(self.rng.integers(-3, 56)))
            self._after_decision(before, actor)
            return
        for card in c.selection.cards:  # start from an empty selection
            assert c.selection.toggle(card)
        assert c.selection.cards == ()
        legal = g.legal_actions()
        action = legal[int(self.rng.integers(len(legal)))]
        for card in discard_cards(action) if is_discard(action) else (action,):
            assert c.selection.toggle(card)
        assert c.selection.pending_action == action
        before, actor = c.decisions, c.to_act
        assert c.confirm()
        assert c.decisions[-1] == action
        self._after_decision(before, actor)

    # ----------------------------------------------------------------------------- previews
    @rule(card=st.integers(-2, 53))
    def toggle_any_card(self, card: int) -> None:
        snap = self._snapshot()
        hidden = self.ctl.mode is Mode.HOTSEAT and self.ctl.needs_reveal
        ok = self.ctl.selection.toggle(card)
        self._assert_unchanged(snap)
        if hidden:
            assert not ok and self.ctl.selection.cards == ()
        if ok:
            assert card in self.ctl.game.hands[self.ctl.to_act]

    @rule(pick=st.integers(0, 5))
    def toggle_own_card(self, pick: int) -> None:
        c = self.ctl
        if c.to_act is None:
            return
        hand = c.game.hands[c.to_act]
        if not hand:
            return
        snap = self._snapshot()
        c.selection.toggle(hand[pick % len(hand)])
        self._assert_unchanged(snap)
        assert set(c.selection.cards) <= set(hand)
        assert len(c.selection.cards) <= (2 if c.phase is Phase.DISCARD else 1)

    @rule(index=st.integers(-1, 7))
    def select_position(self, index: int) -> None:
        snap = self._snapshot()
        self.ctl.selection.select_position(index)
        self._assert_unchanged(snap)

    @rule(step=st.sampled_from([-1, 1]))
    def move_focus(self, step: int) -> None:
        snap = self._snapshot()
        self.ctl.selection.move_focus(step)
        self._assert_unchanged(snap)

    @rule()
    def hint(self) -> None:
        c = self.ctl
        snap = self._snapshot()
        hidden = c.needs_reveal
        h = c.coach.request_hint()
        self._assert_unchanged(snap)
        if hidden:
            assert h is None and c.coach.hint is None
        if h is not None:
            assert c.game.is_legal(h.action) and h.lines
            expected = discard_cards(h.action) if is_discard(h.action) else (h.action,)
            assert tuple(h.cards) == tuple(expected)

    @rule()
    def clear_hint(self) -> None:
        snap = self._snapshot()
        self.ctl.coach.clear_hint()
        self._assert_unchanged(snap)
        assert self.ctl.coach.hint is None

    @rule()
    def advance_show(self) -> None:
        snap = self._snapshot()
        self.ctl.show.advance()
        self._assert_unchanged(snap)

    @rule()
    def skip_show(self) -> None:
        snap = self._snapshot()
        self.ctl.show.skip()
        self._assert_unchanged(snap)
        assert not self.ctl.show.running

    @rule()
    def see_my_hand(self) -> None:
        c = self.ctl
        snap = self._snapshot()
        needed = c.needs_reveal
        c.reveal()
        self._assert_unchanged(snap)
        if needed:
            self.shown = c.to_act
            assert c.hand_visible(c.to_act) and not c.needs_reveal

    @rule(lang=st.sampled_from(LANGUAGES))
    def switch_language(self, lang: str) -> None:
        snap = self._snapshot()
        self.ctl.set_language(lang)
        self._assert_unchanged(snap)
        assert self.ctl.lang == lang

    # ----------------------------------------------------------------------------- decisions
    @rule()
    def confirm(self) -> None:
        c = self.ctl
        pending = c.selection.pending_action
        before, actor = c.decisions, c.to_act
        snap = self._snapshot()
        ok = c.confirm()
        assert ok == (pending is not None)
        if not ok:
            self._assert_unchanged(snap)
            return
        assert c.decisions[-1] == pending and c.is_human(actor)
        self._after_decision(before, actor)

    @rule(depth=st.integers(-5, 60))
    def cut(self, depth: int) -> None:
        c = self.ctl
        can = c.human_to_act and c.phase in CUT_PHASES
        before, actor = c.decisions, c.to_act
        snap = self._snapshot()
        ok = c.selection.cut_at(depth)
        assert ok == can
        if not ok:
            self._assert_unchanged(snap)
            return
        assert is_cut(c.decisions[-1]) and c.decisions[-1] >= CUT_BASE
        self._after_decision(before, actor)

    @rule()
    def computer_moves(self) -> None:
        c = self.ctl
        can = c.computer.to_act
        before, actor = c.decisions, c.to_act
        snap = self._snapshot()
        ok = c.computer.step()
        assert ok == can
        if not ok:
            self._assert_unchanged(snap)
            return
        assert not c.is_human(actor)
        self._after_decision(before, actor)

    @precondition(lambda self: self.ctl.computer.to_act)
    @rule()
    def stale_computer_move_after_undo(self) -> None:
        """A computer move computed before an undo is never applied after it (R11.5)."""
        c = self.ctl
        ticket, job = c.computer.job()
        action = job()
        if c.undo():
            self._history_reset()
            snap = self._snapshot()
            assert not c.computer.apply(action, ticket)
            self._assert_unchanged(snap)
        else:
            before, actor = c.decisions, c.to_act
            assert c.computer.apply(action, ticket)
            self._after_decision(before, actor)

    @rule(steps=st.integers(1, 150))
    def autopilot(self, steps: int) -> None:
        """Play on like a person who confirms moves (and the computer replies), checking as we go."""
        c = self.ctl
        for _ in range(steps):
            if c.game.is_over:
                break
            c.show.skip()
            if c.computer.to_act:
                before, actor = c.decisions, c.to_act
                assert c.computer.step()
                self._after_decision(before, actor)
            else:
                self._human_move()
            self.check()

    # ----------------------------------------------------------------------------- history
    @rule()
    def undo(self) -> None:
        c = self.ctl
        before = c.decisions
        can, restarted = c.can_undo, c.guard.can_undo
        ok = c.undo()
        assert ok == can
        if not ok:
            assert c.decisions == before
            return
        if restarted:  # right after a restart: the game comes back
            assert before == () and c.decisions and not c.guard.can_undo
            self._history_reset()
            return
        assert len(c.decisions) < len(before) and before[: len(c.decisions)] == c.decisions
        # Back to the moment before a person's decision: the person is to act again.
        assert (
            c.is_human(c.to_act) and c.history.actions[len(c.decisions)] == before[len(c.decisions)]
        )
        assert c.can_redo
        self._history_reset()

    @rule()
    def redo(self) -> None:
        c = self.ctl
        before, tail = c.decisions, tuple(c.history.actions)
        can = c.can_redo
        ok = c.redo()
        assert ok == can
        if ok:
            assert len(c.decisions) > len(before) and c.decisions == tail[: len(c.decisions)]
            self._history_reset()
        else:
            assert c.decisions == before

    @precondition(lambda self: not self.ctl.can_redo and not self.ctl.guard.can_undo)
    @rule()
    def undo_all_then_redo_all(self) -> None:
        """Undo everything, redo everything: the identical state (R11.5)."""
        c = self.ctl
        game, decisions = c.game.clone(), c.decisions
        n = len(decisions)
        moved = False
        while c.undo():
            assert len(c.decisions) < n
            n = len(c.decisions)
            moved = True
        assert not c.can_undo
        while c.redo():
            assert len(c.decisions) > n
            n = len(c.decisions)
        assert c.game == game and c.decisions == decisions
        if moved:
            self._history_reset()

    @rule()
    def restart(self) -> None:
        c = self.ctl
        tail = tuple(c.history.actions)
        allowed = c.can_restart
        snap = self._snapshot()
        if not c.restart():
            # Pass and play restarts only before the first decision or after the game (a
            # restart mid-game would replace the other person's moves).
            assert not allowed and c.mode is Mode.HOTSEAT and c.decisions and not c.game.is_over
            self._assert_unchanged(snap)
            return
        assert allowed and c.decisions == ()
        assert c.game == ce.new_game(c.seed, interactive_cuts=c.interactive_cuts)
        # Undo right after a restart brings the game back as it was, and only that.
        assert c.can_undo == bool(snap[1])
        if c.can_undo:
            assert c.undo() and c.game == snap[0] and c.decisions == snap[1]
            assert c.restart() and c.decisions == ()
        # R11.6 asks only for the same deals; the redo list is either empty or the decisions
        # made before the restart (both designs have been used), never anything else.
        assert tuple(c.history.actions) in ((), tail) and c.can_redo == bool(c.history.actions)
        self._history_reset()

    @precondition(lambda self: self.ctl.interactive_cuts)
    @rule()
    def save_and_resume(self) -> None:
        """The autosave data resumes the same game, cursor and redo tail."""
        c = self.ctl
        d = TableController.from_save(c.to_save())
        assert (
            d.game == c.game
            and d.decisions == c.decisions
            and d.history.actions == c.history.actions
        )
        # the game kept for an undo of a restart lives only at the table (not in the save)
        assert d.can_undo == (c.can_undo and not c.guard.can_undo)
        assert d.can_redo == c.can_redo and d.mode is c.mode

    # ----------------------------------------------------------------------------- invariants
    @invariant()
    def check(self) -> None:
        c = self.ctl
        g = c.game
        # The game is a pure function of (seed, decisions) (R11.6) and every rule invariant holds.
        assert g == ce.replay(c.seed, c.decisions, interactive_cuts=c.interactive_cuts)
        check_state(g, self.prev_scores)  # card conservation, counts, scores never go down
        check_view(g, 0)
        check_view(g, 1)
        self.prev_scores = g.scores
        shown = c.display_scores
        assert all(0 <= shown[p] <= g.scores[p] for p in (0, 1))
        assert isinstance(c.prompt(), str) and c.prompt()
        if g.is_over:  # R10: the game stops at the win
            event(f"game over ({c.mode.value})")
            assert max(g.scores) >= g.rules.target > min(g.scores)
            assert g.scores[g.winner] >= g.rules.target
            assert not c.human_to_act and not c.computer.to_act
            assert c.selection.pending_action is None and not c.selection.can_confirm
            assert len(c.game_over_lines()) >= 2
        else:  # someone can always move on: the person, the computer, or the show being counted
            assert c.human_to_act or c.computer.to_act or c.show.running
        # What the table draws face up: never a hand that may not be seen (R11.4). (The show
        # overlay draws the last deal's counted cards, which may share ids with the new hands.)
        scene = table_scene(c)
        drawn = scene.cards if c.show.running else scene.all_cards()
        face_up = {item.card for item in drawn if item.card is not None}
        for seat in (0, 1):
            if not c.hand_visible(seat):
                assert not face_up & set(g.hands[seat]), f"seat {seat}'s hidden hand is drawn"
        # Hotseat: a hand is face up only for the player who pressed "See my hand" (R11.4).
        if c.mode is Mode.HOTSEAT:
            for seat in (0, 1):
                if c.hand_visible(seat):
                    assert self.shown == seat, f"seat {seat}'s hand shown without 'See my hand'"
            if c.needs_reveal:
                assert not c.hand_visible(c.to_act)
                assert (
                    c.selection.cards == ()
                    and c.coach.hint is None
                    and c.selection.pending_action is None
                )
        elif c.mode is Mode.COMPUTER:
            assert not c.hand_visible(1)  # never the computer's hand
        # A selection holds only cards of the hand to act; a complete one is a legal action.
        if c.selection.cards:
            assert c.to_act is not None and set(c.selection.cards) <= set(g.hands[c.to_act])
        if c.selection.pending_action is not None:
            assert g.is_legal(c.selection.pending_action)


TableMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("CRIBBAGE_FUZZ_EXAMPLES", "12")),
    stateful_step_count=int(os.environ.get("CRIBBAGE_FUZZ_STEPS", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestControllerFuzz = TableMachine.TestCase


class TestControllerFuzzLonger(TableMachine.TestCase):  # type: ignore[misc,valid-type]
    """The same machine, more examples: the integration tier."""

    pytestmark = pytest.mark.integration
    settings = settings(
        max_examples=60,
        stateful_step_count=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def test_fuzz_can_fail_when_a_preview_mutates_the_game(monkeypatch) -> None:
    """The machine must catch a preview that changes the game (guards the checks above)."""
    original = Coach.request_hint

    def leaky_hint(self):
        h = original(self)
        if h is not None:
            self._ctl.decide(h.action)  # a "hint" that plays the move
        return h

    monkeypatch.setattr(Coach, "request_hint", leaky_hint)
    m = TableMachine()
    m.start(seed=5, mode=Mode.COMPUTER, lang="en", opponent="random", cuts=False, head_start=0)
    while m.ctl.computer.to_act:
        m.ctl.computer.step()
    assert m.ctl.human_to_act
    try:
        m.hint()
    except AssertionError as exc:
        assert "preview" in str(exc)
    else:  # pragma: no cover - a failure
        raise AssertionError("a mutating hint went unnoticed")
