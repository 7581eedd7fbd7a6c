"""The start screen's Settings panel: one row a setting of
:class:`~ui.scenes.preferences.Preferences` (its title, and a button showing its value that steps
to the next on a click), over the start screen.
"""

from __future__ import annotations

from dataclasses import fields

from ...table.commands import Act, Command
from ..preferences import CHOICES, Preferences
from ..scene import GOLD, HEIGHT, PANEL, SOFT, WHITE, WIDTH, Button, Label, Rect, Scene, act_button


def settings_layer(base: Scene, prefs: Preferences, tr) -> None:
    """The Settings panel over the start screen: one row a setting (its title, then a button
    showing its value: a click steps to the next), and Back."""
    layer = Scene(modal=True)
    panel = Rect(140, 70, WIDTH - 280, HEIGHT - 140)
    layer.panels.append((Rect(0, 0, WIDTH, HEIGHT), (0, 0, 0, 150)))
    layer.panels.append((panel, PANEL))
    layer.labels.append(Label(tr("Settings"), WIDTH / 2, panel.y + panel.h - 40, 26, GOLD,
                              bold=True))  # fmt: skip
    y = panel.y + panel.h - 110
    for f in fields(Preferences):
        title, values = CHOICES[f.name]
        words = dict(values)
        now = getattr(prefs, f.name)
        layer.labels.append(Label(tr(title), panel.x + 60, y, 17, WHITE, "left", bold=True))
        rect = Rect(panel.x + 520, y - 26, 360, 52)
        cmd = Command(Act.PREF, name=f.name)
        layer.buttons.append(Button(f"pref:{f.name}", tr(words.get(now, str(now))), rect,
                                    command=cmd))  # fmt: skip
        y -= 62
    note = tr("Kept for your next games.")
    layer.labels.append(Label(note, panel.x + 60, panel.y + 48, 14, SOFT, "left"))
    layer.buttons.append(act_button(Act.BACK, tr("Back"), Rect(panel.x + panel.w - 280, panel.y + 20,
                                    240, 60), primary=True, name="settings:back"))  # fmt: skip
    base.layer = layer
