"""Never throw work away: Restart asks first and can be undone; New game keeps
the game under way in a list of unfinished games to resume."""

from __future__ import annotations

import json
import os

import pytest

import cribbage_env as ce
from ui.saved.autosave import SaveStore
from ui.saved.shelf import shelve, take_from_shelf, unfinished, unfinished_label
from ui.scenes.scene import apply_click
from ui.scenes.table_scene import table_scene
from ui.table.controller import Mode, TableController


def _played(seed: int = 5, n: int = 6, **kw) -> TableController:
    kw = {"opponent": "random", **kw}
    ctl = TableController(seed, mode=Mode.COMPUTER, agent_seed=3, **kw)
    while len(ctl.decisions) < n:
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
        else:
            ctl.decide(ctl.game.legal_actions()[0])
    return ctl


def _click(ctl: TableController, bid: str) -> None:
    s = table_scene(ctl)
    b = s.button(bid)
    assert b is not None and b.enabled, bid
    apply_click(ctl, s, b.rect.cx, b.rect.cy)


def test_restart_asks_first_while_a_game_is_under_way() -> None:
    ctl = _played()
    before = ctl.decisions
    _click(ctl, "restart")
    assert ctl.guard.asking == "restart" and ctl.decisions == before  # only a question so far
    layer = table_scene(ctl).layer
    assert layer is not None and layer.modal
    _click(ctl, "ask:no")
    assert ctl.guard.asking is None and ctl.decisions == before
    _click(ctl, "restart")
    _click(ctl, "ask:yes")
    assert ctl.decisions == () and ctl.game == ce.new_game(5, interactive_cuts=True)


def test_undo_right_after_restart_brings_the_game_back() -> None:
    ctl = _played(n=9)
    before, state = ctl.decisions, ctl.game.fingerprint()
    ctl.restart()
    assert ctl.decisions == () and ctl.can_undo
    assert ctl.undo()
    assert ctl.decisions == before and ctl.game.fingerprint() == state


def test_a_decision_after_restart_forgets_the_old_game() -> None:
    ctl = _played(n=9)
    ctl.restart()
    while not ctl.human_to_act:
        ctl.computer.step()
    ctl.decide(ctl.game.legal_actions()[0])
    while ctl.undo():  # undoes the new decisions only: the old game is not brought back
        assert len(ctl.decisions) < 9
    assert ctl.decisions == ()


def test_restart_before_any_decision_does_not_ask() -> None:
    ctl = TableController(5, mode=Mode.COMPUTER, opponent="random")
    _click(ctl, "restart")
    assert ctl.guard.asking is None


def _save(store: SaveStore, ctl: TableController) -> None:
    store.save(ctl)
    assert store.exists()


def test_a_new_game_keeps_the_unfinished_one_on_the_shelf(tmp_path) -> None:
    store = SaveStore(tmp_path, durable=False)
    a = _played(5, opponent="greedy")
    _save(store, a)
    first = json.loads(store.path.read_text())
    kept = shelve(store)
    assert kept is not None and not store.exists()
    assert json.loads(kept.read_text()) == first  # moved whole, nothing rewritten
    b = _played(6, rules="short")
    _save(store, b)
    games = unfinished(store)
    assert [g.current for g in games] == [True, False]
    assert games[0].target == 61 and games[0].scores == b.game.scores
    assert games[1].opponent == "greedy" and games[1].scores == a.game.scores
    for lang in ("en", "fr", "es"):
        assert "61" in unfinished_label(games[0], lang)
    take_from_shelf(store, games[1].path)  # resume a: b goes to the shelf in turn
    resumed = store.load()
    assert resumed.game == a.game and resumed.seed == 5
    games = unfinished(store)
    assert len(games) == 2 and games[0].scores == a.game.scores
    assert games[1].scores == b.game.scores and games[1].target == 61


def test_the_shelf_takes_only_its_own_files(tmp_path) -> None:
    store = SaveStore(tmp_path / "data", durable=False)
    store.dir.mkdir()
    other = tmp_path / "elsewhere.json"
    other.write_text("{}")
    with pytest.raises(ValueError):
        take_from_shelf(store, other)
    assert other.exists()


def test_a_broken_shelved_file_is_listed_and_left_alone(tmp_path) -> None:
    store = SaveStore(tmp_path, durable=False)
    (tmp_path / "unfinished").mkdir()
    bad = tmp_path / "unfinished" / "game-20260101-000000.json"
    bad.write_text("{broken")
    games = unfinished(store)
    assert len(games) == 1 and games[0].error and bad.read_text() == "{broken"


def test_the_start_screen_asks_before_a_new_game_and_lists_the_unfinished(tmp_path) -> None:
    os.environ["ARCADE_HEADLESS"] = "1"
    pytest.importorskip("arcade")
    from gui_window import click_id, open_window

    store = SaveStore(tmp_path, durable=False)
    w = open_window(store)
    try:
        w.new_game(seed=21)
        first = w.ctl
        while len(first.decisions) < 3:
            first.show.skip()
            first.computer.step() if first.computer.to_act else first.decide(
                first.game.legal_actions()[0]
            )
        click_id(w, "menu")
        assert w.options.has_save
        click_id(w, "play")
        assert w.ctl is None and w.options.confirm_new and w.options.message  # asked first
        click_id(w, "play")
        second = w.ctl
        assert second is not None and second.seed != 21
        second.show.skip()
        while len(second.decisions) < 2:
            second.computer.step() if second.computer.to_act else second.decide(
                second.game.legal_actions()[0]
            )
        click_id(w, "menu")
        assert len(w.options.unfinished) == 2
        click_id(w, "list")
        assert w.current_scene().layer is not None
        click_id(w, "resume:1")  # the first game, kept
        assert w.ctl is not None and w.ctl.seed == 21 and w.ctl.decisions == first.decisions
    finally:
        w.close()
