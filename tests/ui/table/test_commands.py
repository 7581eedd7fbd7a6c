"""GUI commands are typed values: every button and target of the table carries
a :class:`ui.table.commands.Command`, every key binding too, and one table says what each does."""

from __future__ import annotations

import pytest

import cribbage_env as ce
from ui.scenes.scene import Rect, Target, apply_click, hit_command
from ui.scenes.table_scene import table_scene
from ui.table.commands import TABLE, Act, Command, run
from ui.table.controller import Mode, TableController


def _table(seed: int = 4) -> TableController:
    return TableController(seed, mode=Mode.COMPUTER, opponent="random", agent_seed=1)


def test_every_button_and_target_of_the_table_carries_a_command() -> None:
    ctl = _table()
    seen: set[Act] = set()
    for _ in range(60):  # cuts, discards, the play, a show: the table's layers
        s = table_scene(ctl)
        for sc in (s, s.layer):
            if sc is None:
                continue
            for b in sc.buttons:
                assert b.command is not None, b.id
                seen.add(b.command.act)
            for t in sc.targets:
                assert t.command is not None, t.id
                seen.add(t.command.act)
        if ctl.show.running:
            ctl.show.skip()
        elif ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.human_to_act:
            ctl.decide(ctl.game.legal_actions()[0])
    assert {Act.CUT, Act.UNDO, Act.MENU, Act.HINT} <= seen


def test_a_click_on_a_card_is_a_typed_toggle_and_a_cut_is_where_it_lands() -> None:
    ctl = _table()
    s = table_scene(ctl)
    spread = next(t for t in s.targets if t.spread)
    left = hit_command(s, spread.rect.x + 1, spread.rect.cy)
    right = hit_command(s, spread.rect.x + spread.rect.w - 1, spread.rect.cy)
    assert left == Command(Act.CUT, 0) and right == Command(Act.CUT, spread.spread)
    while not (ctl.human_to_act and ctl.phase is ce.Phase.DISCARD):
        ctl.show.skip()
        ctl.computer.step() if ctl.computer.to_act else ctl.selection.cut_at(20)
    s = table_scene(ctl)
    t = s.targets[0]
    cmd = apply_click(ctl, s, t.rect.cx, t.rect.cy)
    assert cmd is not None and cmd.act is Act.TOGGLE and ctl.selection.cards == (cmd.arg,)


def _screen_tables() -> dict[str, set[Act]]:
    pytest.importorskip("arcade")
    from ui.gui.review_view import REVIEW_COMMANDS
    from ui.gui.rules_view import RULES_COMMANDS
    from ui.gui.start_view import START_COMMANDS
    from ui.gui.stats_view import PAST_COMMANDS, STATS_COMMANDS

    return {"start": set(START_COMMANDS), "rules": set(RULES_COMMANDS),
            "review": set(REVIEW_COMMANDS), "stats": set(STATS_COMMANDS),
            "past": set(PAST_COMMANDS)}  # fmt: skip


def test_one_table_each_controller_and_window_commands_cover_every_act() -> None:
    pytest.importorskip("arcade")
    from ui.gui.keys import PAGE_KEYS, TABLE_KEYS
    from ui.gui.table_view import WINDOW_COMMANDS
    from ui.gui.tutorial_view import LESSON_COMMANDS

    tables = (set(TABLE), set(WINDOW_COMMANDS), set(LESSON_COMMANDS))
    assert sum(map(len, tables)) == len(set().union(*tables))  # one table each
    assert set().union(*tables, *_screen_tables().values()) == set(Act)
    assert all(isinstance(b.command, Command) for b in TABLE_KEYS)
    assert all(isinstance(c, Command) for c in PAGE_KEYS.values())


def test_every_button_of_the_other_screens_carries_a_command_its_screen_answers() -> None:
    """The start (with its list of unfinished games), rules, statistics and review screens: no
    button is dispatched on its id, and the chart's click says where along it it fell."""
    from ui.scenes.review_scene import waiting_scene
    from ui.scenes.screens.rules_scene import rules_scene
    from ui.scenes.screens.start_scene import StartOptions, start_scene
    from ui.scenes.screens.stats_scene import stats_scene

    tables = _screen_tables()
    opts = StartOptions(unfinished=("a", "b"), listing=True, has_save=True)
    start = start_scene(opts)
    scenes = {"start": [start, start.layer], "rules": [rules_scene("en", 0)],
              "stats": [stats_scene(None, "en")], "review": [waiting_scene(_table().narrator, "…")]}  # fmt: skip
    for screen, found in scenes.items():
        for sc in found:
            assert sc is not None and sc.buttons
            for b in sc.buttons:
                assert b.command is not None and b.command.act in tables[screen], (screen, b.id)
    assert start.button("level:hard").command == Command(Act.LEVEL, name="hard")
    assert start.button("resume:1").command == Command(Act.RESUME, 1)
    chart = Target("chart", Rect(100, 0, 200, 10), Command(Act.CHART), along=True)
    assert chart.command_at(150) == Command(Act.CHART, at=0.25)


def test_run_refuses_a_window_command() -> None:
    ctl = _table()
    assert not run(ctl, Command(Act.MENU)) and run(ctl, Command(Act.UNDO))
