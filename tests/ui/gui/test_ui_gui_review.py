"""The review, statistics and winning-chance screens in the real (headless) Arcade window:
reached by clicks and keys the way a player would, and drawn."""

from __future__ import annotations

import numpy as np
import pytest
from gui_window import click, click_id, finish_game, image, key, open_window

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.table.controller import Mode, TableController

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    store = SaveStore(tmp_path_factory.mktemp("saves"))
    store.open()  # finished games go to the history the statistics read
    w = open_window(store)
    yield w
    w.close()


def _finish(window, seed: int = 4) -> TableController:
    return finish_game(window, seed, np.random.default_rng(seed))


def test_review_from_the_game_over_screen_and_back(window) -> None:
    from ui.gui.review_view import ReviewView
    from ui.gui.table_view import TableView

    ctl = _finish(window)
    click_id(window, "review")
    view = window.screen
    assert isinstance(view, ReviewView) and view.browser is not None
    b = view.browser
    assert b.seats == (0,)  # against the computer: the person's own decisions
    first = b.current
    labels = " ".join(lb.text for lb in window.current_scene().labels)
    assert "Deal" in labels and "% lost" in labels
    before = image(window)
    if b.can_step(1):
        click_id(window, "review:next")
        assert b.current > first
        assert not np.array_equal(before, image(window))  # another position drawn
        key(window, __import__("arcade").key.LEFT)
        assert b.current == first
    click_id(window, "review:mistakes")
    assert not b.mistakes_only
    from ui.scenes.review_scene import CHART

    click(window, CHART.x + 2, CHART.cy)  # the chart's first column: the first decision
    assert b.current == 0
    click_id(window, "review:back")
    assert isinstance(window.screen, TableView) and window.ctl is ctl


def test_review_key_at_game_over(window) -> None:
    import arcade

    from ui.gui.review_view import ReviewView

    _finish(window, 6)
    key(window, arcade.key.R)
    assert isinstance(window.screen, ReviewView)
    key(window, arcade.key.ESCAPE)
    assert not isinstance(window.screen, ReviewView)


def test_winning_chance_toggle_draws_the_bar(window) -> None:
    import arcade

    from ui.scenes.table_layout import CHANCE_BAR

    ctl = TableController(12, mode=Mode.COMPUTER)
    window.start_table(ctl)
    while not (ctl.phase is Phase.DISCARD and ctl.human_to_act):
        ctl.selection.cut_at(20) if ctl.human_to_act else ctl.computer.step()
    window.pump(0.05)
    assert not window.current_scene().button("chances").toggled  # off by default
    assert not any(lb.tag == "chance" for lb in window.current_scene().labels)
    click_id(window, "chances")
    window.pump(0.05)  # the estimate runs (synchronously here) and the bar appears
    scene = window.current_scene()
    assert scene.button("chances").toggled
    label = next(lb for lb in scene.labels if lb.tag == "chance")
    assert label.text.startswith("Winning chance — You:") and label.text.endswith("%")
    img = image(window)
    sx, sy = window.to_screen(CHANCE_BAR.x + 2, CHANCE_BAR.cy)
    assert img[int(sy), int(sx)][0] > 150  # the person's red on the left of the bar
    key(window, arcade.key.W)
    window.pump(0.05)
    assert not any(lb.tag == "chance" for lb in window.current_scene().labels)


def test_statistics_screen_from_the_start_screen(window) -> None:
    from ui.gui.stats_view import StatsView

    _finish(window, 7)  # finished at the table: archived in the history
    window.show_menu()
    window.pump(0.05)
    click_id(window, "stats")
    view = window.screen
    assert isinstance(view, StatsView) and view.games
    window.pump(0.05)
    assert view.done == len(view.games)  # reviewed (synchronously here)
    text = " ".join(lb.text for lb in window.current_scene().labels)
    assert f"Games {len(view.games)}:" in text and "Error rate" in text
    image(window)
    click_id(window, "stats:back")
    assert window.screen is window.start_view


def test_past_games_open_in_the_review_and_replay(window) -> None:
    """Statistics, Past games: a finished game opens in the Review (Back returns to the list)
    and replays on the table from its first decision."""
    from ui.gui.review_view import ReviewView
    from ui.gui.stats_view import PastGamesView
    from ui.gui.table_view import TableView

    ctl = _finish(window, 9)
    window.show_menu()
    window.pump(0.05)
    click_id(window, "stats")
    click_id(window, "stats:past")
    past = window.screen
    assert isinstance(past, PastGamesView) and past.games
    newest = past.games[0]
    assert newest.scores == tuple(ctl.rules.counted(x) for x in ctl.game.scores)
    image(window)
    click_id(window, "past:review:0")
    review = window.screen
    assert isinstance(review, ReviewView)
    window.pump(0.05)
    assert review.browser is not None and review.ctl.game.scores == ctl.game.scores
    image(window)
    click_id(window, "review:back")
    assert window.screen is past
    click_id(window, "past:replay:0")
    assert isinstance(window.screen, TableView)
    replay = window.ctl
    assert replay is not None and replay.mode is Mode.WATCH and not replay.game.is_over
