"""The Settings panel: pace and look chosen on the start screen, applied to the window and
remembered across launches (``settings.json``, read with the checked reader)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from cribbage_env.rules.core import Phase
from ui.saved.preferences import MAX_BYTES, PREFERENCES_NAME, load_preferences, save_preferences
from ui.scenes.preferences import CHOICES, FELTS, Preferences, next_value
from ui.table.controller import Mode, TableController
from ui.table.selection import forced_card


def test_settings_survive_a_restart_and_bad_files_give_the_defaults(tmp_path) -> None:
    chosen = Preferences("fast", "slow", True, True, "red", "green", "dark")
    save_preferences(tmp_path, chosen, durable=False)
    assert load_preferences(tmp_path) == chosen
    path = tmp_path / PREFERENCES_NAME
    path.write_text(json.dumps({"felt": "purple", "forced_card": 1, "computer": "fast"}))
    assert load_preferences(tmp_path) == Preferences(computer="fast")  # 1 is no True
    path.write_text(" " * (MAX_BYTES + 1))
    assert load_preferences(tmp_path) == Preferences()
    path.unlink()
    os.mkfifo(path)  # never waited on
    assert load_preferences(tmp_path) == Preferences()
    assert load_preferences(tmp_path / "missing") == Preferences()


def test_every_setting_steps_through_its_values_and_back() -> None:
    for field, (_, values) in CHOICES.items():
        p = Preferences()
        seen = [getattr(p, field)]
        for _ in values:
            p = next_value(p, field)
            seen.append(getattr(p, field))
        assert seen[0] == seen[-1] and sorted(map(str, seen[:-1])) == sorted(
            str(v) for v, _ in values
        )


def test_a_forced_card_is_the_only_legal_move_in_the_play() -> None:
    ctl = TableController(5, mode=Mode.COMPUTER, opponent="greedy", rules="short", agent_seed=1)
    rng = np.random.default_rng(5)
    found = 0
    while not ctl.game.is_over and found < 3:
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
            continue
        if ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(3)
            continue
        if ctl.game.is_over:
            break
        legal = ctl.game.legal_actions()
        forced = forced_card(ctl)
        if ctl.phase is Phase.PLAY and len(legal) == 1:
            assert forced == legal[0]
            found += 1
        else:
            assert forced is None
        ctl.decide(legal[int(rng.integers(len(legal)))])
    assert found


@pytest.mark.gui
def test_the_settings_panel_changes_the_table_and_is_remembered(tmp_path) -> None:
    from gui_window import click_id, image, open_window

    from ui.saved.autosave import SaveStore

    store = SaveStore(tmp_path)
    store.open()
    w = open_window(store)
    try:
        w.pump(0.05)
        before = image(w)
        click_id(w, "settings")
        assert w.options.settings_open and w.current_scene().layer is not None
        click_id(w, "pref:felt")  # green to blue
        click_id(w, "pref:backs")
        click_id(w, "settings:back")
        assert not w.options.settings_open
        assert w.renderer.felt == FELTS["blue"]
        assert not np.array_equal(before, image(w))
        assert load_preferences(store.dir) == Preferences(felt="blue", backs="red")
    finally:
        w.close()
        store.close()


@pytest.mark.gui
def test_the_table_plays_a_forced_card_and_goes_on_after_a_deal_by_itself(tmp_path) -> None:
    """With the two pace settings on, the person's only legal move in the play is made after
    the computer's delay, and the deal summary goes on without Continue."""
    from gui_window import open_window

    from ui.saved.autosave import SaveStore

    store = SaveStore(tmp_path)
    store.open()
    w = open_window(store)
    try:
        w.options.prefs = Preferences(forced_card=True, auto_continue=True)
        w.settings.show_delay = 0.05
        ctl = TableController(5, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1)
        w.start_table(ctl)
        rng = np.random.default_rng(5)
        forced_seen = summary_passed = False
        for _ in range(3000):
            if ctl.game.is_over or (forced_seen and summary_passed):
                break
            if ctl.show.running:
                at_end = False
                for _ in range(400):
                    at_end |= ctl.show.at_end  # the deal summary reached...
                    w.on_update(0.05)
                    if not ctl.show.running:
                        break
                summary_passed |= at_end and not ctl.show.running  # ...and left, no click
                continue
            if ctl.computer.to_act or ctl.phase in (
                Phase.CUT_FOR_DEAL,
                Phase.DEAL_CUT,
                Phase.STARTER_CUT,
            ):
                if ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT) and (
                    ctl.human_to_act
                ):
                    ctl.selection.cut_at(3)
                else:
                    w.on_update(1.0)
                continue
            forced = forced_card(ctl)
            if forced is not None:
                before = len(ctl.decisions)
                w.on_update(1.0)  # past the computer's delay: played for the person
                assert len(ctl.decisions) == before + 1 and ctl.decisions[-1] == forced
                forced_seen = True
                continue
            legal = ctl.game.legal_actions()
            ctl.decide(legal[int(rng.integers(len(legal)))])
        assert forced_seen and summary_passed
    finally:
        w.close()
        store.close()
