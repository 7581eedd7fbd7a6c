"""Card faces in the player's language and, as an option, a four-colour deck.

The faces are Arcade's bundled card images; their J/Q/K indices are repainted with the face
letters of the table's catalog (French V/D/R), and the four-colour deck recolours diamonds blue
and clubs green. Each variant is built once with Pillow and kept as a texture.
"""

from __future__ import annotations

from pathlib import Path

import arcade
import numpy as np
from PIL import Image, ImageDraw, ImageFont

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BACK = ":resources:images/cards/cardBack_blue2.png"
#: The card backs by theme (the Settings panel's Card backs; Arcade ships these).
BACKS = {"blue": BACK, "red": ":resources:images/cards/cardBack_red2.png",
         "green": ":resources:images/cards/cardBack_green2.png"}  # fmt: skip
#: Four-colour deck: clubs green, diamonds blue (hearts red, spades black as usual).
FOUR_COLOURS = {0: (0, 128, 48), 1: (20, 90, 210)}
_LETTER_BOX = (8, 9, 35, 38)  # where the art's rank letter sits (140x190 image)
_RED = (220, 62, 58)
_BLACK = (30, 30, 30)
_FONT_DIR = Path(arcade.__file__).parent / "resources" / "system" / "fonts" / "ttf" / "Liberation"


def _font(size: int):
    try:
        return ImageFont.truetype(str(_FONT_DIR / "Liberation_Sans_Bold.ttf"), size)
    except OSError:  # pragma: no cover - fonts ship with arcade
        return ImageFont.load_default()


def _load(card: int) -> Image.Image:
    name = f":resources:images/cards/card{SUITS[card // 13]}{RANKS[card % 13]}.png"
    return Image.open(arcade.resources.resolve(name)).convert("RGBA")


def _recolour(img: Image.Image, suit: int) -> Image.Image:
    """Paint the suit's ink (red for diamonds, black for clubs) in its four-colour colour,
    keeping the anti-aliasing: each pixel's distance from white becomes the new ink's share."""
    a = np.asarray(img).astype(np.float32)
    rgb = a[..., :3]
    ink = np.array(_RED if suit == 1 else _BLACK, dtype=np.float32)
    new = np.array(FOUR_COLOURS[suit], dtype=np.float32)
    white = np.float32(255.0)
    share = np.clip((white - rgb.min(axis=2)) / (white - ink.min()), 0, 1)
    # only pixels of the suit's own ink (reddish for diamonds, greyish for clubs)
    spread = rgb.max(axis=2) - rgb.min(axis=2)
    mask = spread > 60 if suit == 1 else spread < 40
    out = white - share[..., None] * (white - new)
    rgb[mask] = out[mask]
    a[..., :3] = rgb
    return Image.fromarray(a.astype(np.uint8))


def _letter(img: Image.Image, letter: str, color: tuple[int, int, int]) -> None:
    """Replace the rank letter in the top-left index and, upside down, in the bottom-right."""
    x0, y0, x1, y1 = _LETTER_BOX
    w, h = x1 - x0, y1 - y0
    patch = Image.new("RGBA", (w, h), (255, 255, 255, 255))
    d = ImageDraw.Draw(patch)
    font = _font(30 if len(letter) == 1 else 22)
    d.text((w / 2, h / 2 + 1), letter, fill=color + (255,), font=font, anchor="mm")
    img.paste(patch, (x0, y0))
    img.paste(patch.rotate(180), (img.width - x1, img.height - y1))


def card_image(card: int, faces: tuple[str, str, str], four_colour: bool) -> Image.Image:
    """The face of ``card`` with the given J/Q/K letters, optionally in four colours."""
    img = _load(card)
    suit, rank = divmod(card, 13)
    if four_colour and suit in FOUR_COLOURS:
        img = _recolour(img, suit)
    if rank >= 10 and faces[rank - 10] != RANKS[rank]:
        if four_colour and suit in FOUR_COLOURS:
            color = FOUR_COLOURS[suit]
        else:
            color = _RED if suit in (1, 2) else _BLACK
        _letter(img, faces[rank - 10], color)
    return img


class CardTextures:
    """Textures of card faces by (card, face letters, four colours); the back is shared."""

    def __init__(self) -> None:
        self._cache: dict[tuple, arcade.Texture] = {}
        self._back = arcade.load_texture(BACK)
        self._backs = {"blue": self._back}

    def set_back(self, theme: str) -> None:
        """The back every face-down card shows (a theme of :data:`BACKS`)."""
        if theme not in self._backs and theme in BACKS:
            self._backs[theme] = arcade.load_texture(BACKS[theme])
        self._back = self._backs.get(theme, self._back)

    def get(self, card: int | None, faces: tuple[str, str, str] = ("J", "Q", "K"),
            four_colour: bool = False) -> arcade.Texture:  # fmt: skip
        if card is None:
            return self._back
        rank = card % 13
        plain = not four_colour and (rank < 10 or faces[rank - 10] == RANKS[rank])
        key = (card,) if plain else (card, faces[rank - 10] if rank >= 10 else "", four_colour)
        tex = self._cache.get(key)
        if tex is None:
            if plain:
                name = f":resources:images/cards/card{SUITS[card // 13]}{RANKS[rank]}.png"
                tex = arcade.load_texture(name)
            else:
                img = card_image(card, faces, four_colour)
                tex = arcade.Texture(img, hash="cribbage-card-" + "-".join(map(str, key)))
            self._cache[key] = tex
        return tex
