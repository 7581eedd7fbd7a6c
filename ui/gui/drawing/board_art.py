"""The cribbage board painted once into a texture (Pillow), then drawn as one quad per frame.

Holes, hole numbers, the start holes, the game hole and the skunk lines come from
:mod:`ui.table.board`, so what is painted is exactly what the tests check. Painting at twice the
virtual size keeps the board sharp when the window is scaled up to full screen.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import arcade
from PIL import Image, ImageDraw, ImageFont

from ...scenes.scene import PLAYER_COLORS
from ...table.board import (
    STANDARD_BOARD,
    BoardRect,
    BoardShape,
    hole_position,
    lane_offset,
    number_positions,
    skunk_lines,
    street_x,
)

SCALE = 2
WOOD = (168, 112, 58)
WOOD_DARK = (120, 76, 36)
STREET = (150, 98, 48)
HOLE = (44, 26, 12)
INK = (60, 34, 14)
SKUNK = (150, 24, 20)
FONT_FILE = "Liberation_Sans_Bold.ttf"


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    root = Path(arcade.__file__).parent / "resources" / "system" / "fonts" / "ttf" / "Liberation"
    try:
        return ImageFont.truetype(str(root / FONT_FILE), size)
    except OSError:  # pragma: no cover - fonts ship with arcade
        return ImageFont.load_default()


#: The board's wood and its edge by theme (the Settings panel's Board).
WOODS = {"wood": (WOOD, WOOD_DARK), "dark": ((96, 58, 30), (60, 34, 16)),
         "light": ((206, 160, 104), (150, 106, 60))}  # fmt: skip


@lru_cache(maxsize=8)
def board_image(
    w: float, h: float, shape: BoardShape = STANDARD_BOARD, theme: str = "wood"
) -> Image.Image:
    """The empty board of ``shape`` for a board rectangle of ``w`` x ``h`` virtual pixels; wider
    than high, the upright board turned a quarter clockwise, its numbers written upright."""
    if w <= h:
        img = _wood(w, h, shape, theme)
        _numbers(ImageDraw.Draw(img), w, h, shape, lambda x, y: (x, y))
        return img
    img = _wood(h, w, shape, theme).rotate(-90, expand=True)
    _numbers(ImageDraw.Draw(img), h, w, shape, lambda x, y: (y, h - x))
    return img


def _wood(w: float, h: float, shape: BoardShape, theme: str) -> Image.Image:
    """The upright board's wood, streets, lane threads, holes and skunk lines (no numbers)."""
    fill, edge = WOODS.get(theme, WOODS["wood"])
    b = BoardRect(0, 0, w, h)
    img = Image.new("RGBA", (round(w * SCALE), round(h * SCALE)), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    def px(x: float, y: float) -> tuple[float, float]:
        return x * SCALE, (h - y) * SCALE

    d.rounded_rectangle((0, 0, img.width - 1, img.height - 1), radius=14 * SCALE, fill=fill,
                        outline=edge, width=3 * SCALE)  # fmt: skip
    half = lane_offset(b) * 2.1
    top, bottom = px(0, h - 10)[1], px(0, 34)[1]
    for s in range(shape.streets):  # the streets, one darker strip each, both lanes on it
        x0, _ = px(street_x(b, s, shape) - half, 0)
        x1, _ = px(street_x(b, s, shape) + half, 0)
        d.rounded_rectangle((x0, top, x1, bottom), radius=6 * SCALE, fill=STREET)
    for p in (0, 1):  # a thread of the player's colour along each lane
        color = PLAYER_COLORS[p][:3] + (150,)
        for s in range(shape.streets):
            x, _ = hole_position(b, p, s * 30 + 1, shape)
            d.line((px(x, 0)[0], top + 6 * SCALE, px(x, 0)[0], bottom - 6 * SCALE), fill=color,
                   width=SCALE)  # fmt: skip
    r = 2.9 * SCALE
    for p in (0, 1):
        for hole in range(-1, shape.holes + 1):
            x, y = px(*hole_position(b, p, hole, shape))
            rr = r * 1.25 if hole <= 0 else r
            d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=HOLE)
    gx, gy = px(*hole_position(b, 0, shape.game_hole, shape))
    d.ellipse((gx - 9 * SCALE, gy - 9 * SCALE, gx + 9 * SCALE, gy + 9 * SCALE), outline=INK,
              width=2 * SCALE)  # fmt: skip
    d.ellipse((gx - 5 * SCALE, gy - 5 * SCALE, gx + 5 * SCALE, gy + 5 * SCALE), fill=HOLE)
    for _past, x0, x1, y in skunk_lines(b, shape):
        a, yy = px(x0, y)
        c, _ = px(x1, y)
        d.line((a, yy, c, yy), fill=SKUNK, width=2 * SCALE)
    return img


def _numbers(d: ImageDraw.ImageDraw, w: float, h: float, shape: BoardShape, place) -> None:
    """The hole numbers, the skunk lines' numbers, 0 and the game hole's number of the upright
    ``w`` x ``h`` board, each written upright where ``place`` puts a point of it."""
    b = BoardRect(0, 0, w, h)
    tall = max(place(0, 0)[1], place(w, h)[1])  # the painted image's height (virtual px)

    def px(x: float, y: float) -> tuple[float, float]:
        u, v = place(x, y)
        return u * SCALE, (tall - v) * SCALE

    lying = place(0, 0) != (0, 0)
    font, small = _font(9 * SCALE), _font(8 * SCALE)
    for n, x, y in number_positions(b, shape):
        d.text(px(x, y), str(n), fill=INK, font=font, anchor="mm")
    for past, x0, _x1, y in skunk_lines(b, shape):
        a, yy = px(x0 - 2, y)
        d.text((a, yy), str(past), fill=SKUNK, font=small, anchor="ms" if lying else "rm")
    sx, sy = px(street_x(b, 0, shape) - lane_offset(b) * 2 - 9, 17)
    d.text((sx, sy), "0", fill=INK, font=small, anchor="mm")
    gx, gy = px(*hole_position(b, 0, shape.game_hole, shape))
    if lying:
        d.text((gx, gy - 11 * SCALE), str(shape.game_hole), fill=INK, font=small, anchor="ms")
    else:
        d.text((gx - 15 * SCALE, gy), str(shape.game_hole), fill=INK, font=small, anchor="rm")


_textures: dict[tuple[float, float, BoardShape, str], arcade.Texture] = {}


def board_texture(
    w: float, h: float, shape: BoardShape = STANDARD_BOARD, theme: str = "wood"
) -> arcade.Texture:
    tex = _textures.get((w, h, shape, theme))
    if tex is None:
        name = f"cribbage-board-{w}x{h}-{shape.holes}-{theme}"
        tex = arcade.Texture(board_image(w, h, shape, theme), hash=name)
        _textures[(w, h, shape, theme)] = tex
    return tex
