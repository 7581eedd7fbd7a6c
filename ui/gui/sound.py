"""Sound effects: a card laid, points scored, a game won. Off unless asked for, never headless.

The sounds are Arcade's bundled Kenney effects, loaded on first use; without an audio device
(or headless) :attr:`Sounds.available` is False and every call does nothing.
"""

from __future__ import annotations

import os

import arcade

EFFECTS = {
    "card": ":resources:sounds/hit3.wav",
    "points": ":resources:sounds/coin1.wav",
    "win": ":resources:sounds/upgrade1.wav",
}


class Sounds:
    """Plays named effects when on; ``on`` is the player's mute toggle."""

    def __init__(self) -> None:
        self.available = not os.environ.get("ARCADE_HEADLESS")
        self.on = False
        self._loaded: dict[str, arcade.Sound] = {}

    def play(self, name: str) -> None:
        if not (self.on and self.available):
            return
        try:
            snd = self._loaded.get(name)
            if snd is None:
                snd = self._loaded[name] = arcade.load_sound(EFFECTS[name])
            arcade.play_sound(snd, volume=0.4)
        except Exception:  # noqa: BLE001 - no audio device: stay silent for good
            self.available = False
