"""A headless Arcade window for the GUI tests: no delays, no threads, motion only if asked."""

from __future__ import annotations

import os

import numpy as np
import pytest

from cribbage_env.rules.core import Phase
from ui.saved.autosave import SaveStore
from ui.table.controller import Mode, TableController


def open_window(store: SaveStore, motion: bool = False):
    """A headless window without delays or threads (skips when there is no GL)."""
    os.environ["ARCADE_HEADLESS"] = "1"  # before the first import of arcade
    pytest.importorskip("arcade")
    from ui.gui.app import GameWindow, Settings

    try:
        return GameWindow(
            settings=Settings(computer_delay=0.0, show_delay=0.0, threaded=False, motion=motion),
            store=store,
        )
    except Exception as exc:  # noqa: BLE001 - no EGL/GL on this machine
        pytest.skip(f"cannot open a headless Arcade window: {exc}")


def click(w, wx: float, wy: float) -> None:
    """A left click at virtual table coordinates, through the window's event queue."""
    import arcade

    sx, sy = w.to_screen(wx, wy)
    w.dispatch_event("on_mouse_press", int(round(sx)), int(round(sy)), arcade.MOUSE_BUTTON_LEFT, 0)
    w.dispatch_event(
        "on_mouse_release", int(round(sx)), int(round(sy)), arcade.MOUSE_BUTTON_LEFT, 0
    )
    w.dispatch_events()


def press_new_game(w) -> None:
    """New game on the start screen: a second press when it asks first (a game under way is
    kept in the unfinished games)."""
    click_id(w, "play")
    if w.ctl is None:
        assert w.options.confirm_new
        click_id(w, "play")


def click_id(w, target: str) -> None:
    scene = w.current_scene()
    b = scene.button(target)
    rect = b.rect if b is not None else next(t.rect for t in scene.targets if t.id == target)
    click(w, rect.cx, rect.cy)


def key(w, symbol: int, modifiers: int = 0) -> None:
    w.dispatch_event("on_key_press", symbol, modifiers)
    w.dispatch_event("on_key_release", symbol, modifiers)
    w.dispatch_events()


def image(w) -> np.ndarray:
    import arcade

    w.on_draw()
    img = np.asarray(arcade.get_image(0, 0, w.width, w.height).convert("RGB"))
    return img[::-1]  # row 0 = bottom, like the table's coordinates


def finish_game(window, seed: int, rng: np.random.Generator) -> TableController:
    """A game against the computer on the table, played to its end (the person at random) and
    its last show clicked through."""
    ctl = TableController(seed, mode=Mode.COMPUTER)
    window.start_table(ctl)
    while not ctl.game.is_over:
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(20)
        else:
            legal = ctl.game.legal_actions()
            ctl.decide(legal[int(rng.integers(len(legal)))])
    window.pump(0.1)
    while ctl.show.running:
        click_id(window, "next")
    return ctl


def patch(img: np.ndarray, w, rect, fx: float = 0.5, fy: float = 0.5, r: int = 3) -> np.ndarray:
    sx, sy = w.to_screen(rect.x + rect.w * fx, rect.y + rect.h * fy)
    x, y = int(sx), int(sy)
    return img[y - r : y + r + 1, x - r : x + r + 1].reshape(-1, 3).mean(axis=0)
