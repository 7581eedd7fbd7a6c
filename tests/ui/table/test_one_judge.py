"""One judge: the Review, the game-over panel and Statistics give the same figure for the same
game and player, on games saved to the table's history (one computation, cached under the
game's review key)."""

from __future__ import annotations

import json

import pytest
from table_play import play_out

import agents.review as review_mod
from agents.coaching.judge import DEFAULT_SAMPLES
from agents.review import review_game, review_key
from ui.reports.player_stats import (
    CACHE_NAME,
    error_rates,
    load_history,
    player_stats,
    remember_review,
)
from ui.saved.autosave import SaveStore
from ui.scenes.screens.stats_scene import stats_scene
from ui.scenes.summary_scene import error_line
from ui.table.controller import Mode, TableController
from ui.words.i18n import Catalog


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Two games played at the table to 61 against greedy, archived to the history as the
    table does at game over, and the table's own review of each (the judge's defaults)."""
    store = SaveStore(tmp_path_factory.mktemp("data"), durable=False)
    reviews = []
    for seed in (6, 7):
        ctl = TableController(seed, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1,
                              rules="short")  # fmt: skip
        play_out(ctl, seed)
        store.archive(ctl)
        reviews.append(review_game(ctl.game))
    return store, reviews


def _history(store: SaveStore):
    games, skipped = load_history(store.history)
    assert not skipped and len(games) == 2
    return games


def test_statistics_reads_the_tables_review_and_reviews_nothing(saved, monkeypatch) -> None:
    store, reviews = saved
    cache = store.dir / CACHE_NAME
    for rev in reviews:  # what the table does once its review is done
        remember_review(cache, rev)

    def no_second_review(*args, **kwargs):
        raise AssertionError("Statistics reviewed a game the table had reviewed")

    monkeypatch.setattr(review_mod, "review_game", no_second_review)
    games = _history(store)
    rates = error_rates(games, cache)
    by_seed = {rev.key: rev for rev in reviews}
    for hg, rate in zip(games, rates, strict=True):
        rev = by_seed[review_key(hg.game)]
        assert rate == rev.seat_summary(hg.seat)["error_rate"]
        # the game-over panel's line prints the same figure (in per cent)
        line = error_line(rev, hg.seat, "You", Catalog("en"))
        assert Catalog("en").percent(rate, digits=2) in line
    # the Statistics screen plots it (thousandths, as `cribbage review` prints it)
    labels = [lb.text for lb in stats_scene(player_stats(games, rates), "en").labels]
    for rate in rates:
        assert f"{1000 * rate:.1f}" in labels


def test_without_a_cache_statistics_judges_as_the_review_does(saved, tmp_path) -> None:
    """No cache (a history copied elsewhere): Statistics reviews with the judge's own settings,
    so its figure is the Review's, never a cheaper second opinion."""
    store, reviews = saved
    games = _history(store)
    cache = tmp_path / CACHE_NAME
    rates = error_rates(games, cache)
    expected = {rev.key: rev for rev in reviews}
    for hg, rate in zip(games, rates, strict=True):
        rev = expected[review_key(hg.game, samples=DEFAULT_SAMPLES)]
        assert rate == rev.seat_summary(hg.seat)["error_rate"]
    assert set(json.loads(cache.read_text())) == set(expected)  # kept under the game's key


def test_the_cache_follows_the_game_not_the_file_name(saved, tmp_path) -> None:
    """A figure cached for a game is found whatever its file is called, and an entry under
    another judge's settings (fewer guesses) is never read as this judge's."""
    store, reviews = saved
    games = _history(store)
    cache = tmp_path / CACHE_NAME
    key8 = review_key(games[0].game, samples=8)
    cache.write_text(json.dumps({key8: [0.5, 0.5], games[0].path.name + "|8|61": [0.5, 0.5]}))
    rates = error_rates(games, cache)
    assert 0.5 not in rates
    assert (
        rates[0]
        == next(r for r in reviews if r.key == review_key(games[0].game)).seat_summary(
            games[0].seat
        )["error_rate"]
    )
