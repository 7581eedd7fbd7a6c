"""One number for one thing: at a seat's decision in a saved game, the winning-chance indicator,
the hint and the review show the same winning chance; after its discard the indicator shows the
discard taken as the review rates it; every shown loss is the shown difference."""

from __future__ import annotations

import json

import pytest

import cribbage_env as ce
from agents.coaching.chance import seat_chance
from agents.coaching.judge import judge
from agents.review import Review, review_game
from agents.tournament.play import play_game
from ui.table.teaching.chances import discard_taken
from ui.table.teaching.hints import hint_rng
from ui.words.i18n import Catalog


@pytest.fixture(scope="module")
def saved() -> list[tuple[ce.GameState, Review]]:
    """A game written to a record and read back, as the table saves and reopens it, and its
    review."""
    games = [play_game("greedy", "expectimax", 6, agent_seed=6, rules="short")]
    back = [ce.GameState.from_record(json.loads(json.dumps(g.to_record()))) for g in games]
    return [(g, review_game(g)) for g in back]


def _positions(game: ce.GameState):
    """(index, state before, action) of every decision of ``game``."""
    g = ce.new_game(game.seed, interactive_cuts=game.interactive_cuts, rules=game.rules)
    for i, a in enumerate(game.decisions):
        yield i, g.clone(), a
        g.apply(a)


def test_indicator_hint_and_review_agree_at_every_decision(saved) -> None:
    for game, review in saved:
        rows = {r.index: r for r in review.ratings}
        checked = 0
        for i, g, _ in _positions(game):
            r = rows.get(i)
            if r is None or r.options <= 1 or r.seat != 0:
                continue
            view = g.view(0)
            hint = round(judge(view, hint_rng(view))[0].chance, 3)
            assert seat_chance(view) == hint == r.best_chance
            checked += 1
        assert checked > 4


def test_after_a_discard_the_indicator_shows_the_discard_taken(saved) -> None:
    for game, review in saved:
        discards = [r for r in review.ratings if r.phase == "discard" and r.seat == 0]
        seen = 0
        for i, g, a in _positions(game):
            if g.phase is not ce.Phase.DISCARD or g.to_act != 0:
                continue
            g.apply(a)
            (r,) = [x for x in discards if x.index == i]
            assert discard_taken(g, 0) == r.chance == pytest.approx(r.best_chance - r.loss)
            seen += 1
        assert seen == len(discards) > 1


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_every_shown_loss_is_the_shown_difference(saved, lang: str) -> None:
    cat = Catalog(lang)

    def shown(x: float) -> float:
        text = cat.percent(x).replace("\u00a0", "").rstrip("%").replace(",", ".")
        return float(text)

    for _, review in saved:
        for r in review.ratings:
            if r.options > 1:
                assert round(shown(r.best_chance) - shown(r.chance), 1) == shown(r.loss)
