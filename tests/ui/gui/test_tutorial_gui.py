"""The tutorial's lessons in step with the motion of the table (a headless window, motion on):
a lesson is drawn only once the cards it talks about have landed, and the cards keep moving while
it waits to be read."""

from __future__ import annotations

import pytest
from gui_window import open_window

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    w = open_window(SaveStore(tmp_path_factory.mktemp("saves")), motion=True)
    yield w
    w.close()


def _hand_faces(scene) -> int:
    """Face-up cards in the person's hand row, where they have landed."""
    return sum(1 for i in scene.cards if i.card is not None and i.rect.y < 60)


def _backs_above(scene) -> int:
    """The computer's cards in its row (backs at the top of the table)."""
    return sum(1 for i in scene.cards if i.card is None and i.rect.y > 600)


def test_each_lesson_waits_for_the_cards_it_talks_about(window) -> None:
    window.start_tutorial()
    view = window.current_view
    t = view.tutorial
    t.start()
    seen = {}
    for _ in range(400):
        frame = view.frame_scene()
        lesson = t.lesson()
        if frame.layer is not None and not frame.layer.modal:  # a lesson's panel in sight
            seen.setdefault(lesson.key, (_hand_faces(frame), _backs_above(frame)))
        if lesson.key == "play":
            break
        view.on_update(0.05)  # a twentieth of a second: the motion goes on while it waits
        if view.transition is not None:
            continue
        c = t.ctl
        if t.waiting:  # read once it is in sight (the next frame)
            if frame.layer is not None:
                t.got_it()
        elif c.computer.to_act or view.future is not None:
            continue
        elif c.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            c.selection.cut_at(10)
        elif c.phase is Phase.DISCARD:
            hand = c.game.view(0).hand
            c.selection.toggle(hand[0])
            c.selection.toggle(hand[1])
            c.confirm()
    # the discard lesson over the six cards dealt, not over an empty hand row
    assert seen["discard"][0] == 6
    # "Both have discarded": the computer holds four cards, as the person does
    assert seen["starter_cut"] == (4, 4)
