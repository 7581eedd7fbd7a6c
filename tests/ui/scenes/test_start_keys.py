"""The start screen by keyboard: every choice reachable with Tab and the arrows, the focus drawn,
Enter pressing the focused button, Esc asking before the window quits."""

from __future__ import annotations

import pytest

from ui.scenes.screens.start_scene import StartOptions, focusable, move_focus, start_scene
from ui.words.i18n import LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tab_reaches_every_enabled_button_and_arrows_move_along_rows(lang: str) -> None:
    s = start_scene(StartOptions(lang=lang, has_save=True))
    ids = [b.id for b in focusable(s)]
    for want in ("level:hard", "mode:hotseat", "lang:fr", "play", "continue", "tutorial",
                 "rules", "variant", "coach", "quit"):  # fmt: skip
        assert want in ids
    seen, at = [], "play"
    for _ in ids:
        seen.append(at)
        at = move_focus(s, at, "next")
    assert sorted(seen) == sorted(ids) and at == "play"  # Tab goes round every button once
    assert move_focus(s, "play", "prev") == ids[ids.index("play") - 1]
    assert move_focus(s, "level:easy", "right") == "level:medium"
    assert move_focus(s, "level:easy", "left") == "level:easy"  # the row's end
    assert move_focus(s, "play", "up").startswith("lang:")
    assert move_focus(s, "lang:en", "up").startswith("mode:")
    assert move_focus(s, "mode:computer", "up").startswith("level:")
    assert move_focus(s, "play", "down") in {"rules", "stats", "variant"}
    marked = [b.id for b in s.buttons if b.focused]
    assert marked == ["play"]  # one button shows the focus


def _key(w, symbol: int, modifiers: int = 0) -> None:
    w.dispatch_event("on_key_press", symbol, modifiers)
    w.dispatch_event("on_key_release", symbol, modifiers)
    w.dispatch_events()


@pytest.mark.gui
def test_keys_choose_level_language_and_esc_asks_before_quitting(window) -> None:
    import arcade

    k = arcade.key
    o = window.options
    o.focus, o.lang, o.level = "level:easy", "en", "medium"
    _key(window, k.RIGHT)
    _key(window, k.RIGHT)
    _key(window, k.ENTER)
    assert o.level == "hard"
    for _ in range(2):
        _key(window, k.DOWN)  # to the players, then the languages
    while not o.focus.startswith("lang:fr"):
        _key(window, k.RIGHT)
    _key(window, k.SPACE)
    assert o.lang == "fr"
    from ui.saved.choices import load_choices

    remembered = load_choices(window.store.dir)  # for the next launch
    assert remembered["lang"] == "fr" and remembered["level"] == "hard"
    assert [b.id for b in window.current_scene().buttons if b.focused] == ["lang:fr"]
    _key(window, k.ESCAPE)  # asks first; Enter then keeps playing
    assert o.confirm_quit and window.current_scene().layer is not None
    _key(window, k.ENTER)
    assert not o.confirm_quit and window.current_view is not None
    _key(window, k.ESCAPE)
    _key(window, k.ESCAPE)  # Esc on the question: no
    assert not o.confirm_quit
    o.lang = "en"
