"""A panel drawn over the table (coach mode's question, Restart's question, the hand-over) covers
what it lies on entirely or not at all: no line of the table may peek out from under its edge
(a hint line's descender showed below the coach's panel)."""

from __future__ import annotations

import pytest
from layout_boxes import straddling

from agents.coaching.judge import judge, position_rng
from cribbage_env.rules.actions import discard_cards
from cribbage_env.rules.core import Phase
from ui.scenes.table_scene import table_scene
from ui.table.controller import Mode, TableController


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_coach_panel_hides_no_part_of_a_line(lang) -> None:
    ctl = TableController(11, mode=Mode.COMPUTER, opponent="greedy", lang=lang, agent_seed=1)
    while not (ctl.phase is Phase.DISCARD and ctl.human_to_act):
        if ctl.computer.to_act:
            ctl.computer.step()
        else:
            ctl.selection.cut_at(20)
    for card in ctl.coach.request_hint().cards:  # the hint's lines are on the table
        ctl.selection.toggle(card)
    ctl.coach.set_limit(0.02)
    view = ctl.game.view(0)
    worst = judge(view, position_rng(view))[-1].action
    ctl.selection.cards = ()
    for card in discard_cards(worst):
        ctl.selection.toggle(card)
    assert not ctl.confirm() and ctl.coach.shown_warning is not None
    assert straddling(table_scene(ctl)) == []


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_hand_over_panel_hides_no_part_of_a_line(lang) -> None:
    ctl = TableController(5, mode=Mode.HOTSEAT, lang=lang)
    seen = 0
    for _ in range(200):
        if ctl.needs_reveal:
            assert straddling(table_scene(ctl)) == []
            seen += 1
            ctl.reveal()
        elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(10)
        elif ctl.show.running:
            ctl.show.skip()
        else:
            ctl.decide(ctl.game.legal_actions()[0])
    assert seen >= 5
