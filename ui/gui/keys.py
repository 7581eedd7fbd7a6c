"""The keyboard as a table: which key does what, in which state of the table (RULES R11.7).

Keys are optional aids; every action also has a click target. A row matches when the table is
in one of its states, the key is one of its symbols and the modifiers fit; the first matching
row wins, so the rows read from the most specific to the most general.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade

k = arcade.key
CTRL = k.MOD_CTRL | k.MOD_COMMAND
ENTER = (k.ENTER, k.RETURN, k.SPACE)
ANY = frozenset({"show", "over", "reveal", "turn"})


@dataclass(frozen=True)
class Binding:
    """``symbols`` in ``states`` do ``action``; ``ctrl``/``shift`` None = either way."""

    states: frozenset[str]
    symbols: tuple[int, ...]
    action: str
    ctrl: bool | None = None
    shift: bool | None = None
    arg: int = 0

    def matches(self, state: str, symbol: int, modifiers: int) -> bool:
        if state not in self.states or symbol not in self.symbols:
            return False
        if self.ctrl is not None and bool(modifiers & CTRL) != self.ctrl:
            return False
        return self.shift is None or bool(modifiers & k.MOD_SHIFT) == self.shift


def _positions() -> tuple[Binding, ...]:
    turn = frozenset({"turn"})
    rows = []
    for i in range(6):
        rows.append(Binding(turn, (k.KEY_1 + i, k.NUM_1 + i), "select", arg=i))
    return tuple(rows)


TABLE_KEYS: tuple[Binding, ...] = (
    Binding(ANY, (k.Z,), "redo", ctrl=True, shift=True),
    Binding(ANY, (k.Z,), "undo", ctrl=True),
    Binding(ANY, (k.Y,), "redo", ctrl=True),
    Binding(ANY, (k.ESCAPE,), "menu"),
    Binding(ANY, (k.F1,), "rules"),
    Binding(ANY, (k.M,), "mute"),
    Binding(ANY, (k.W,), "chances"),
    Binding(ANY, (k.B,), "board"),
    Binding(frozenset({"over"}), (k.R,), "review"),
    Binding(frozenset({"show"}), ENTER, "next"),
    Binding(frozenset({"over"}), ENTER, "newgame"),
    Binding(frozenset({"reveal"}), ENTER, "reveal"),
    *_positions(),
    Binding(frozenset({"turn"}), (k.LEFT,), "focus", arg=-1),
    Binding(frozenset({"turn"}), (k.RIGHT,), "focus", arg=1),
    Binding(frozenset({"turn"}), (k.UP, k.DOWN), "select_focus"),
    Binding(frozenset({"turn"}), (k.H,), "hint"),
    Binding(frozenset({"turn"}), (k.SPACE,), "go_or_select"),
    Binding(frozenset({"turn"}), (k.ENTER, k.RETURN, k.NUM_ENTER), "go"),
)

START_KEYS: tuple[Binding, ...] = (Binding(frozenset({"start"}), ENTER, "play"),)


def lookup(table: tuple[Binding, ...], state: str, symbol: int, modifiers: int) -> Binding | None:
    """The first row of ``table`` that matches, or None (the key does nothing here)."""
    return next((b for b in table if b.matches(state, symbol, modifiers)), None)
