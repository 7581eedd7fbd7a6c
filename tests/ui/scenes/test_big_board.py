"""The larger central board: a tap on the side board, or B, shows the same
board, pegs and scores large in the middle of the table; Close, or B, puts it back."""

from __future__ import annotations

import numpy as np
import pytest
from table_play import play_until

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.scenes.board_scene import BIG_BOARD
from ui.scenes.table_layout import BOARD_RECT
from ui.table.board import hole_position


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    from gui_window import open_window

    w = open_window(SaveStore(tmp_path_factory.mktemp("board"), durable=False))
    yield w
    w.close()


def _play_some(ctl, rng, deals: int) -> None:
    def at_play() -> bool:
        return ctl.phase is Phase.PLAY and ctl.game.deal_no >= deals and ctl.human_to_act

    play_until(ctl, rng, at_play)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_board_is_shown_large_with_a_tap_and_put_back(window, lang) -> None:
    from gui_window import click, click_id, image, key, patch

    window.options.lang = lang
    window.new_game(seed=17)
    ctl = window.ctl
    _play_some(ctl, np.random.default_rng(1), 2)
    small = window.current_scene().board
    click(window, BOARD_RECT.cx, BOARD_RECT.cy)  # a tap on the board beside the table
    s = window.current_scene()
    assert s.layer is not None and s.layer.modal and s.layer.board is not None
    big = s.layer.board
    assert big.rect == BIG_BOARD and BIG_BOARD.h > 1.4 * BOARD_RECT.h  # twice the area
    assert (big.pegs, big.scores, big.shape) == (small.pegs, small.scores, small.shape)
    labels = {lb.text for lb in s.layer.labels}
    assert {str(ctl.display_scores[0]), str(ctl.display_scores[1])} <= labels
    assert s.layer.button("board").label == ctl.tr("Close")
    # drawn: the wood of the board where the large board lies, a peg where a front peg is
    img = image(window)
    wood = patch(img, window, BIG_BOARD, 0.5, 0.985, 2)
    assert wood[0] > wood[2] + 40, wood
    x, y = hole_position(BIG_BOARD, 0, big.pegs[0][0], big.shape)
    sx, sy = window.to_screen(x, y)
    r, g, b = img[int(sy * window.ratio), int(sx * window.ratio)]
    assert r > 180 and g < 110, (r, g, b)  # the red peg
    decisions = ctl.history.cursor
    click_id(window, "board")  # Close
    assert window.current_scene().layer is None or window.current_scene().layer.board is None
    key(window, __import__("arcade").key.B)
    assert window.current_scene().layer.board is not None
    key(window, __import__("arcade").key.B)
    assert ctl.history.cursor == decisions  # looking at the board changes nothing
    window.options.lang = "en"
