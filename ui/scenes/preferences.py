"""The table's settings as a value: the pace (how long the computer waits before its move, how
fast the show is counted, whether the deal summary goes on by itself, whether a forced card is
played by itself) and the look (felt, card backs, board), with the values each may take.
:mod:`ui.scenes.screens.settings_scene` lays out their panel; :mod:`ui.saved.preferences` remembers them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..words.i18n import N_


@dataclass(frozen=True)
class Preferences:
    """What the Settings panel sets (each field one of :data:`CHOICES`' values)."""

    computer: str = "normal"  # the pause before the computer's move
    show: str = "normal"  # the pause per combination counted in the show
    auto_continue: bool = False  # the deal summary goes on by itself after a pause
    forced_card: bool = False  # a card that is the only one to play is played by itself
    felt: str = "green"
    backs: str = "blue"
    board: str = "wood"


#: Each setting: its title and its values with their words, in the order a click steps through.
CHOICES: dict[str, tuple[str, tuple[tuple[object, str], ...]]] = {
    "computer": (
        N_("Computer's pace"),
        (("fast", N_("Fast")), ("normal", N_("Normal")), ("slow", N_("Slow"))),
    ),
    "show": (
        N_("Counting pace"),
        (("fast", N_("Fast")), ("normal", N_("Normal")), ("slow", N_("Slow"))),
    ),
    "auto_continue": (
        N_("After each deal"),
        ((False, N_("Wait for Continue")), (True, N_("Go on by itself"))),
    ),
    "forced_card": (
        N_("A forced card"),
        ((False, N_("Wait for me")), (True, N_("Play it by itself"))),
    ),
    "felt": (N_("Felt"), (("green", N_("Green")), ("blue", N_("Blue")), ("red", N_("Burgundy")))),
    "backs": (N_("Card backs"), (("blue", N_("Blue")), ("red", N_("Red")), ("green", N_("Green")))),
    "board": (
        N_("Board"),
        (("wood", N_("Wood")), ("dark", N_("Dark wood")), ("light", N_("Light wood"))),
    ),
}
#: Seconds before the computer's move, and per combination of the show, by pace.
COMPUTER_DELAY = {"fast": 0.2, "normal": 0.6, "slow": 1.2}
SHOW_DELAY = {"fast": 0.45, "normal": 1.0, "slow": 1.8}
#: The felt's colour by theme (the table's background).
FELTS: dict[str, tuple[int, int, int]] = {
    "green": (22, 92, 58),
    "blue": (24, 62, 102),
    "red": (98, 30, 42),
}


def next_value(prefs: Preferences, field: str) -> Preferences:
    """``prefs`` with ``field`` stepped to its next value.

    >>> next_value(Preferences(), "felt").felt, next_value(Preferences(), "forced_card").forced_card
    ('blue', True)
    """
    values = [v for v, _ in CHOICES[field][1]]
    now = getattr(prefs, field)
    k = values.index(now) if now in values else -1
    changed: dict = {field: values[(k + 1) % len(values)]}
    return replace(prefs, **changed)
