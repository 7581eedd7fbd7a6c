"""The guided first deal: reachable from the start screen, played with clicks
in the headless window in three languages, a lesson citing the numbered rules at every step, and
nothing of it saved."""

from __future__ import annotations

import re

import numpy as np
import pytest
from layout_boxes import inside, text_box

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.scenes.scene import overlaps
from ui.scenes.tutorial_scene import tutorial_scene
from ui.table.teaching.tutorial import SHORT, TEXTS, Tutorial, Where
from ui.words.i18n import Catalog

RULE = re.compile(r"\bR(\d+)(\.\d+)?\b")
STEPS = ["cut_for_deal", "deal_cut", "discard", "starter_cut", "play", "show", "done"]


def test_every_lesson_cites_a_numbered_rule_and_is_translated() -> None:
    for lang in ("es", "fr"):
        cat = Catalog(lang)
        for msgid in [t for v in TEXTS.values() for t in v] + list(SHORT.values()):
            assert cat.tr(msgid) != msgid, (lang, msgid)
            # the same rule numbers in every language
            assert RULE.findall(cat.tr(msgid)) == RULE.findall(msgid), (lang, msgid)
    for key in STEPS:
        cited = RULE.findall(" ".join(TEXTS[key][1:]) + SHORT.get(key, ""))
        assert cited and all(1 <= int(n) <= 11 for n, _ in cited), key


def _drive(t: Tutorial, rng) -> list[str]:
    """Play the tutorial's deal through the controller, reading every lesson; the keys seen."""
    seen: list[str] = []
    c = t.ctl
    t.start()
    for _ in range(500):
        lesson = t.lesson()
        if not seen or seen[-1] != lesson.key:
            seen.append(lesson.key)
        if t.done:
            return seen
        if not t.step_alone():
            _person_moves(c, rng, random_discard=True)
    raise AssertionError("the tutorial's deal did not end")


def _person_moves(c, rng, *, random_discard: bool) -> None:
    """The person's decision: a (random) discard, the first legal card, a random cut."""
    legal = c.game.legal_actions()
    if c.phase is Phase.DISCARD and random_discard:
        c.decide(legal[int(rng.integers(len(legal)))])
    elif c.phase in (Phase.DISCARD, Phase.PLAY):
        c.decide(legal[0])
    else:
        c.selection.cut_at(int(rng.integers(4, 30)))


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_lessons_follow_the_deal_and_never_hide_what_is_played(lang) -> None:
    t = Tutorial(lang)
    assert t.lesson().key == "welcome" and t.waiting
    s = tutorial_scene(t)
    assert s.layer is not None and s.layer.modal and s.layer.button("tutorial:start")
    seen = _drive(t, np.random.default_rng(1))
    assert [k for k in STEPS if k in seen] == [k for k in seen if k in STEPS]  # in order
    assert {"cut_for_deal", "discard", "play", "show", "done"} <= set(seen)
    assert t.ctl.game.deal_no == 1 and not t.ctl.game.is_over


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_a_lesson_covers_no_card_or_target_and_no_line_in_part(lang) -> None:
    t = Tutorial(lang)
    t.start()
    c = t.ctl
    rng = np.random.default_rng(2)
    checked = set()
    for _ in range(500):
        if t.done:
            break
        lesson = t.lesson()
        s = tutorial_scene(t)
        layer = s.layer
        whole = layer is not None and not layer.modal and not lesson.read
        panels = [r for r, _ in (layer.panels if whole else [])]
        if lesson.where != Where.SHOW and lesson.read:  # folded: stays while the deal goes on
            panels = [r for r, _ in s.panels if r.w > 600]
        for panel in panels:
            for item in s.cards:  # a lesson being read may hide backs, never the hand or a face
                hand = item.rect.y < 200  # (the play lesson leaves the starter in sight)
                hidden = whole and not hand and item.card is None
                assert not overlaps(item.rect, panel) or hidden, (lesson.key, item)
            for tg in s.targets:
                assert not overlaps(tg.rect, panel), (lesson.key, tg.id)
            for lb in s.labels:
                box = text_box(lb)
                if lb.tag != "lesson":
                    assert not overlaps(box, panel) or inside(box, panel), (lesson.key, lb.text)
        checked.add((lesson.key, lesson.read))
        if not t.step_alone():
            _person_moves(c, rng, random_discard=False)
    assert {("discard", False), ("discard", True), ("play", True)} <= checked


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    from gui_window import open_window

    w = open_window(SaveStore(tmp_path_factory.mktemp("tutorial"), durable=False))
    yield w
    w.close()


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_tutorial_is_played_with_clicks_from_the_start_screen(window, lang) -> None:
    from gui_window import click, click_id

    window.options.lang = lang
    window.show_menu()
    assert window.current_scene().button("tutorial").label == Catalog(lang).tr("Learn to play")
    click_id(window, "tutorial")
    t = window.current_view.tutorial
    c = t.ctl
    assert c.lang == lang and c.on_change is None  # never saved over the person's game
    window.on_update(1.0)
    assert c.history.cursor == 0  # the table waits while the welcome is read
    click_id(window, "tutorial:start")
    rng = np.random.default_rng(3)
    for _ in range(600):
        if t.done:
            break
        window.on_update(0.05)
        scene = window.current_scene()
        if t.waiting:
            click_id(window, "tutorial:ok")
        elif c.show.running:
            click_id(window, "next")
        elif c.human_to_act and c.phase is Phase.DISCARD:
            for card in sorted(c.view(0).hand)[:2]:
                click_id(window, f"card:{card}")
            click_id(window, "confirm")
        elif c.human_to_act and c.phase is Phase.PLAY:
            card = next(x for x in c.view(0).hand if c.selection.selectable(x))
            click_id(window, f"card:{card}")
            click_id(window, "confirm")
        elif c.human_to_act:
            spread = next(tg for tg in scene.targets if tg.id.startswith("spread:"))
            click(window, spread.rect.x + spread.rect.w * rng.random(), spread.rect.cy)
    assert t.done and window.errors == []
    assert not window.store.exists()  # nothing saved
    click_id(window, "tutorial:play")  # on to a real game
    assert window.ctl is not None and window.ctl is not c and window.ctl.lang == lang
    window.options.lang = "en"
