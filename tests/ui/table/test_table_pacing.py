"""Pacing and presentation at the table, through the controller, the scenes
and the headless window."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest
from layout_boxes import SIZES, label_box, scale_of
from table_play import play_out, play_until, random_step

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.scenes.motion import Transition
from ui.scenes.scene import Label, overlaps
from ui.scenes.summary_scene import error_line
from ui.scenes.table_layout import DECK, STARTER
from ui.scenes.table_scene import table_scene
from ui.table.controller import Mode, TableController
from ui.table.show import points_by_part
from ui.words.i18n import Catalog

_PERCENT = Catalog("en").percent  # these games are told in English
_NUMBER = Catalog("en").number


def _to_show(ctl: TableController, rng) -> None:
    """Play random moves until a show is being counted."""
    play_until(ctl, rng, lambda: ctl.show.running, skip=False)


def _labels(scene) -> list[str]:
    return [lb.text for lb in scene.all_labels()]


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_show_ends_on_a_deal_summary_that_adds_up(lang) -> None:
    ctl = TableController(8, mode=Mode.COMPUTER, opponent="greedy", lang=lang, agent_seed=1)
    rng = np.random.default_rng(1)
    _to_show(ctl, rng)
    deal_start = ctl.show.steps[0].scores  # before the first hand is counted...
    summary = ctl.show.summary
    assert summary is not None
    end = ctl.show.steps[-1].scores
    pegging = [summary[p].pegging for p in (0, 1)]
    # ...which already includes the deal's pegging; the summary adds up to the board
    for p in (0, 1):
        assert deal_start[p] + summary[p].hand + summary[p].crib == end[p]
        assert summary[p].total == summary[p].hand + summary[p].crib + pegging[p]
    while not ctl.show.at_end:
        ctl.show.advance()
    s = table_scene(ctl)
    ids = {b.id for b in s.layer.buttons}
    assert ids == {"next"}  # Continue only
    assert ctl.tr("Deal summary") in _labels(s) and ctl.tr("Continue") in {
        b.label for b in s.layer.buttons
    }
    assert str(summary[0].total) in _labels(s)
    ctl.show.advance()
    assert not ctl.show.running


def test_the_game_over_summary_has_points_by_part_and_the_error_rate() -> None:
    from agents.review import review_game

    ctl = TableController(9, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1, rules="short")
    play_out(ctl, 2)
    pts = points_by_part(ctl.game.events, ctl.game.rules)
    assert (pts[0].total, pts[1].total) == tuple(ctl.game.rules.counted(v) for v in ctl.game.scores)
    s = table_scene(ctl)
    assert "Reviewing the game…" in _labels(s)
    ctl.game_review = review_game(ctl.game)
    ctl.version += 1
    labels = _labels(table_scene(ctl))
    sm = ctl.game_review.seat_summary(0)
    assert error_line(ctl.game_review, 0, "You", ctl.cat) in labels
    line = next(t for t in labels if t.startswith("You: "))
    assert f"in {sm['decisions']} decision" in line and _PERCENT(sm["error_rate"], digits=2) in line


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_table_names_the_level_and_pop_ups_name_the_scorer(lang) -> None:
    ctl = TableController(3, mode=Mode.COMPUTER, opponent="expectimax", lang=lang)
    hard = ctl.tr("Hard")
    assert any(hard in t and ctl.name(1) in t for t in _labels(table_scene(ctl)))
    from cribbage_env.rules.cards import parse_cards
    from cribbage_env.rules.scoring import ScoreItem, ScoreKind

    text = ctl.scorer_text(1, (ScoreItem(ScoreKind.FIFTEEN, tuple(parse_cards("5H TD")), 2),))
    assert text.startswith(ctl.short_name(1)) and "2" in text


def test_the_prompt_waits_with_the_count_during_motion() -> None:
    ctl = TableController(4, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1)
    rng = np.random.default_rng(0)
    play_until(ctl, rng, lambda: ctl.phase is Phase.PLAY and ctl.human_to_act)
    old = table_scene(ctl)
    ctl.decide(ctl.game.legal_actions()[0])
    ctl.computer.step()
    new = table_scene(ctl)
    mid = Transition(old, new, ()).frame(0.05)
    tagged = {lb.tag: lb.text for lb in mid.labels if lb.tag in ("prompt", "count")}
    before = {lb.tag: lb.text for lb in old.labels if lb.tag in ("prompt", "count")}
    assert tagged == before  # the old count beside the old prompt, never the new prompt


@pytest.mark.parametrize(("seed", "person_deals"), [(3, True), (2, False)])
def test_the_first_deals_cut_cards_stay_until_the_person_goes_on(seed, person_deals) -> None:
    """Both cut cards stay face up, named, through the deal's cut; when the person won the cut,
    the computer cuts the deck only after the person's Continue (they vanished at once)."""
    from ui.table.commands import Act, Command, run

    ctl = TableController(seed, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1, rules="short")
    while ctl.phase is Phase.CUT_FOR_DEAL:
        ctl.computer.step() if ctl.computer.to_act else ctl.selection.cut_at(5)
    assert ctl.phase is Phase.DEAL_CUT and (ctl.game.dealer == 0) is person_deals
    scene = table_scene(ctl)
    shown = [c for c in scene.cards if c.key.startswith("first-cut")]
    assert sorted(c.card for c in shown) == sorted(ctl.cut.cards)  # face up, both
    names = {lb.text for lb in scene.labels if lb.tag == "first-cut"}
    assert names == {"You", "Computer"}
    for lang in ("en", "es", "fr"):  # the log's lines saying the cut end before the cards
        cat = Catalog(lang)
        said = (cat.tr("{name} cut lower and deals first", name=cat.tr("Computer")),
                cat.tr("You cut lower and deal first"))  # fmt: skip
        for text, size in itertools.product(said, SIZES):
            box = label_box(Label(text, 370, 566, 14, anchor_x="left"), scale_of(size))
            assert box.x + box.w < min(c.rect.x for c in shown), (lang, size, text)
    buttons = [b for b in scene.buttons if b.command == Command(Act.READ_CUT)]
    if person_deals:  # the computer (pone) waits for the person's Continue
        assert ctl.computer.to_act and not ctl.computer.should_move and buttons
        prompt = next(lb.text for lb in scene.labels if lb.tag == "prompt")
        assert prompt == "You cut lower and deal first"  # not "Computer thinking"
        run(ctl, Command(Act.READ_CUT))
        after = table_scene(ctl).buttons
        assert ctl.computer.should_move and not [
            b for b in after if b.command == buttons[0].command
        ]
        ctl.computer.step()
    else:
        assert not buttons and ctl.human_to_act
        ctl.selection.cut_at(5)
    assert ctl.phase is Phase.DISCARD
    assert not [c for c in table_scene(ctl).cards if c.key.startswith("first-cut")]


def test_the_hand_over_panel_leaves_the_deck_and_starter_uncovered() -> None:
    ctl = TableController(5, mode=Mode.HOTSEAT)
    while not ctl.needs_reveal:
        if ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(10)
    s = table_scene(ctl)
    panel = s.layer.panels[0][0]
    assert not overlaps(panel, DECK) and not overlaps(panel, STARTER)


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    os.environ["ARCADE_HEADLESS"] = "1"
    pytest.importorskip("arcade")
    from gui_window import open_window

    w = open_window(SaveStore(tmp_path_factory.mktemp("pace"), durable=False))
    yield w
    w.close()


def test_the_show_waits_for_continue_in_the_window(window) -> None:
    from gui_window import click_id

    window.settings.show_delay = 0.01
    try:
        window.new_game(seed=14)
        ctl = window.ctl
        _to_show(ctl, np.random.default_rng(3))
        for _ in range(400):
            window.on_update(0.05)
        assert ctl.show.at_end  # waited for the person
        click_id(window, "next")
        assert not ctl.show.running
    finally:
        window.settings.show_delay = 0.0


def test_the_computer_cuts_the_deck_after_the_persons_continue_in_the_window(window) -> None:
    """The person won the first cut: however long the window runs, the cut cards stay and the
    computer waits; the Continue button lets it cut the deck."""
    from gui_window import click_id

    window.new_game(seed=3)
    ctl = window.ctl
    for _ in range(20):
        if ctl.phase is not Phase.CUT_FOR_DEAL:
            break
        ctl.selection.cut_at(5) if ctl.human_to_act else window.on_update(0.05)
    for _ in range(40):
        window.on_update(0.05)
    assert ctl.phase is Phase.DEAL_CUT and ctl.game.dealer == 0 and ctl.computer.to_act
    assert any(c.key.startswith("first-cut") for c in window.current_scene().cards)
    click_id(window, "read_cut")
    for _ in range(40):
        window.on_update(0.05)
    assert ctl.phase is Phase.DISCARD


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_prompts_never_run_into_the_players_label(window, lang) -> None:
    """Every prompt of a played game, measured with the real font beside the name."""
    window.options.lang = lang
    window.new_game(seed=31)
    ctl = window.ctl
    r = window.renderer
    rng = np.random.default_rng(4)
    for _ in range(60):
        ctl.show.skip()
        s = table_scene(ctl)
        prompt = next(lb for lb in s.labels if lb.tag == "prompt")
        name = next(lb for lb in s.labels if lb.y == 250 and lb.anchor_x == "left")
        left = prompt.x - r.text(prompt).content_width / 2
        assert name.x + r.text(name).content_width < left, (name.text, prompt.text)
        if ctl.game.is_over:
            break
        random_step(ctl, rng)
    window.options.lang = "en"


def test_export_at_game_over_is_confirmed_on_the_panel(window, tmp_path) -> None:
    window.new_game(seed=12)
    ctl = window.ctl
    play_out(ctl, 5)
    view = window.current_view
    view.frame_scene()  # the game-over panel is on the screen
    path = view.export()
    assert path is not None and path.exists()
    frame = view.frame_scene()
    assert frame.layer is not None
    note = [lb.text for lb in frame.layer.labels if "exports folder" in lb.text]
    assert note and str(path.parent) not in note[0]  # where, in words (no machine path)


def test_the_game_over_summary_sets_luck_beside_skill_as_the_review_does() -> None:
    from agents.review import review_game
    from ui.scenes.review_scene import ReviewBrowser, review_scene

    ctl = TableController(6, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1, rules="short")
    play_out(ctl, 6)
    ctl.game_review = rev = review_game(ctl.game)
    ctl.version += 1
    labels = _labels(table_scene(ctl))
    assert "Luck and decisions, in points of winning chance" in labels
    for seat in (0, 1):
        sp = rev.split(seat)
        change, luck, own, other, rest = sp.points()
        assert change == pytest.approx(luck + own + other + rest, abs=1e-9)  # the parts add up
        assert change == (50.0 if ctl.game.winner == seat else -50.0)
        line = next(t for t in labels if t.startswith(f"{ctl.short_name(seat)}: from 50% to "))
        name = ctl.short_name(seat)
        assert (
            f"luck {_NUMBER(luck, sign=True)}, decisions: {name} {_NUMBER(own, sign=True)}," in line
        )
        assert "of a win" not in line
        # the same sentence as on the Review screen
        names = (ctl.short_name(0), ctl.short_name(1))
        shown = review_scene(ReviewBrowser(rev, ctl.game), ctl.narrator, names)
        assert any(line in t for t in _labels(shown))


def test_the_tables_review_is_kept_for_statistics(window) -> None:
    """At game over the window reviews the game once and keeps its figures beside the history,
    under the game's review key: Statistics reads them instead of judging again."""
    import json

    from agents.review import review_key
    from ui.reports.player_stats import CACHE_NAME

    window.new_game(seed=9)
    ctl = window.ctl
    play_out(ctl, 2)
    for _ in range(3):
        window.on_update(0.05)
    rev = ctl.game_review
    assert rev and rev.key == review_key(ctl.game)
    cache = json.loads((window.store.dir / CACHE_NAME).read_text())
    assert cache[rev.key] == [rev.seat_summary(s)["error_rate"] for s in (0, 1)]
