"""The keyboard as a table: which key does what, in which state of the table (RULES R11.7).

Keys are optional aids; every action also has a click target. A row matches when the table is
in one of its states, the key is one of its symbols and the modifiers fit; the first matching
row wins, so the rows read from the most specific to the most general.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade

from ..table.commands import Act, Command

k = arcade.key
CTRL = k.MOD_CTRL | k.MOD_COMMAND
ENTER = (k.ENTER, k.RETURN, k.SPACE)
ANY = frozenset({"show", "over", "reveal", "turn"})


@dataclass(frozen=True)
class Binding:
    """``symbols`` in ``states`` do ``command``; ``ctrl``/``shift`` None = either way."""

    states: frozenset[str]
    symbols: tuple[int, ...]
    command: Command
    ctrl: bool | None = None
    shift: bool | None = None

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
        rows.append(Binding(turn, (k.KEY_1 + i, k.NUM_1 + i), Command(Act.SELECT, i)))
    return tuple(rows)


TABLE_KEYS: tuple[Binding, ...] = (
    Binding(ANY, (k.Z,), Command(Act.REDO), ctrl=True, shift=True),
    Binding(ANY, (k.Z,), Command(Act.UNDO), ctrl=True),
    Binding(ANY, (k.Y,), Command(Act.REDO), ctrl=True),
    Binding(ANY, (k.ESCAPE,), Command(Act.MENU)),
    Binding(ANY, (k.F1,), Command(Act.RULES)),
    Binding(ANY, (k.M,), Command(Act.MUTE)),
    Binding(ANY, (k.W,), Command(Act.CHANCES)),
    Binding(ANY, (k.B,), Command(Act.BOARD)),
    Binding(frozenset({"over"}), (k.R,), Command(Act.REVIEW)),
    Binding(frozenset({"show"}), ENTER, Command(Act.NEXT)),
    Binding(frozenset({"over"}), ENTER, Command(Act.NEWGAME)),
    Binding(frozenset({"reveal"}), ENTER, Command(Act.REVEAL)),
    *_positions(),
    Binding(frozenset({"turn"}), (k.LEFT,), Command(Act.FOCUS, -1)),
    Binding(frozenset({"turn"}), (k.RIGHT,), Command(Act.FOCUS, 1)),
    Binding(frozenset({"turn"}), (k.UP, k.DOWN), Command(Act.SELECT_FOCUS)),
    Binding(frozenset({"turn"}), (k.H,), Command(Act.HINT)),
    Binding(frozenset({"turn"}), (k.SPACE,), Command(Act.GO_OR_SELECT)),
    Binding(frozenset({"turn"}), (k.ENTER, k.RETURN, k.NUM_ENTER), Command(Act.GO)),
)


#: The rules and review screens' keys: a page (a decision) back or on, and Back.
PAGE_KEYS: dict[int, Command] = {
    **dict.fromkeys((k.LEFT, k.PAGEUP, k.UP), Command(Act.PAGE, -1)),
    **dict.fromkeys((k.RIGHT, k.PAGEDOWN, k.DOWN, k.SPACE), Command(Act.PAGE, 1)),
    **dict.fromkeys((k.ESCAPE, k.BACKSPACE, k.ENTER, k.RETURN), Command(Act.BACK)),
}


def lookup(table: tuple[Binding, ...], state: str, symbol: int, modifiers: int) -> Binding | None:
    """The first row of ``table`` that matches, or None (the key does nothing here)."""
    return next((b for b in table if b.matches(state, symbol, modifiers)), None)
