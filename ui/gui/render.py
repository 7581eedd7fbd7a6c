"""Draws :mod:`ui.scene` scenes with Arcade: cached card textures, sprites and text objects.

The renderer knows nothing about the game; it draws rectangles, cards, labels, buttons and the
board that :func:`ui.scene.table_scene` laid out on the 1280x800 virtual table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from ..board import hole_position
from ..scene import GOLD, HEIGHT, PLAYER_COLORS, TABLE_RIGHT, Board, Label, Scene
from .board_art import board_texture
from .card_art import CardTextures

if TYPE_CHECKING:
    from .window import ScaledWindow

FONT = ("Liberation Sans", "Arial", "DejaVu Sans")


def color_clear(window: arcade.Window, color, box: tuple[int, int, int, int]) -> None:
    """Clear only the colour buffer inside ``box`` (window pixels). Arcade's clear also clears
    the depth buffer, which the table never uses and which costs the software renderer as much
    again as the colour."""
    from pyglet import gl

    gl.glClearColor(color[0] / 255, color[1] / 255, color[2] / 255, 1.0)
    gl.glScissor(*box)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT)
    screen = window.ctx.screen
    screen.scissor = screen.scissor  # back to arcade's own scissor state


class Renderer:
    """Draws a Scene with cached textures, sprites and text objects."""

    def __init__(self, window: ScaledWindow | None = None) -> None:
        arcade.resources.load_liberation_fonts()
        self.window = window
        self.cards = CardTextures()
        self.four_colour = False
        self._texts: dict[tuple, arcade.Text] = {}
        self._sprite_cache: dict[int, tuple[Scene, arcade.SpriteList]] = {}

    def texture(self, card: int | None, faces: tuple[str, str, str] = ("J", "Q", "K")):
        return self.cards.get(card, faces, self.four_colour)

    def text(self, label) -> arcade.Text:
        key = (label.text, label.size, label.color, label.anchor_x, label.bold, label.width)
        t = self._texts.get(key)
        if t is None:
            if len(self._texts) > 600:
                self._texts.clear()
            t = arcade.Text(
                label.text,
                0,
                0,
                label.color,
                label.size,
                width=label.width or 0,
                align="left" if label.anchor_x == "left" or not label.width else "center",
                font_name=FONT,
                bold=label.bold,
                anchor_x=label.anchor_x,
                anchor_y="center",
                multiline=bool(label.width),
            )
            self._texts[key] = t
        return t

    def _sprites_for(self, scene: Scene, slot: int) -> arcade.SpriteList:
        """The card sprites of a scene layer: updated in place only when the scene changes (a
        new decision, or every frame while something moves)."""
        cached = self._sprite_cache.get(slot)
        if cached is not None and cached[0] is scene:
            return cached[1]
        sprites = cached[1] if cached is not None else arcade.SpriteList()
        while len(sprites) > len(scene.cards):
            sprites.pop()
        while len(sprites) < len(scene.cards):
            sprites.append(arcade.Sprite(self.texture(None)))
        for sp, item in zip(sprites, scene.cards, strict=True):
            tex = self.texture(item.card, scene.faces)
            if sp.texture is not tex:
                sp.texture = tex
            sp.width, sp.height = item.rect.w, item.rect.h
            sp.center_x, sp.center_y = item.rect.cx, item.rect.cy
            sp.color = (120, 120, 120, 255) if item.dimmed else (255, 255, 255, 255)
        self._sprite_cache[slot] = (scene, sprites)
        return sprites

    def _board(self, board: Board) -> None:
        """The painted board (one textured quad), then the four pegs on it."""
        r = board.rect
        tex = board_texture(r.w, r.h, board.shape)
        arcade.draw_texture_rect(tex, arcade.LBWH(r.x, r.y, r.w, r.h))
        for p in (0, 1):
            front, back = board.pegs[p]
            for hole, rad in ((back, 5.0), (front, 6.0)):
                x, y = hole_position(r, p, hole, board.shape)
                arcade.draw_circle_filled(x, y, rad, PLAYER_COLORS[p])
                arcade.draw_circle_outline(x, y, rad, (20, 20, 20), 1.5)
        for p in (0, 1):  # peg colour beside each score line
            arcade.draw_circle_filled(r.x + 12, HEIGHT - 28 - p * 32, 8, PLAYER_COLORS[p])

    def fill(self, x: float, y: float, w: float, h: float, color) -> None:
        """A filled rectangle. Opaque ones are scissored clears (a memset for the software
        renderer, far cheaper than blending a quad); translucent ones are drawn."""
        win = self.window
        if win is not None and (len(color) == 3 or color[3] == 255):
            r = win.ratio  # framebuffer pixels per window unit (high-DPI)
            sx, sy = win.to_screen(x, y)
            sx, sy, s = sx * r, sy * r, win.scale_ * r
            x0, y0 = round(sx), round(sy)
            vp = (x0, y0, max(round(sx + w * s) - x0, 0), max(round(sy + h * s) - y0, 0))
            if vp[2] and vp[3]:
                color_clear(win, color, vp)
        else:
            arcade.draw_lbwh_rectangle_filled(x, y, w, h, color)

    def draw(self, scene: Scene) -> None:
        layer = scene.layer
        hide_table = layer is not None and layer.modal
        self._draw_layer(scene, 0, hide_table=hide_table)
        if layer is not None:
            self._draw_layer(layer, 1)

    def _draw_layer(self, scene: Scene, slot: int, *, hide_table: bool = False) -> None:
        """Draw one layer; under a modal layer the table itself is not drawn (only the board
        and the buttons beside it), which keeps those frames cheap."""
        for r, color in scene.panels:
            self.fill(r.x, r.y, r.w, r.h, color)
        if scene.board is not None:
            self._board(scene.board)
        if hide_table:
            for label in scene.labels:
                if label.x >= TABLE_RIGHT:
                    t = self.text(label)
                    t.x, t.y = label.x, label.y
                    t.draw()
            self._draw_buttons(scene)
            return
        self._sprites_for(scene, slot).draw()
        for item in scene.cards:
            r = item.rect
            if item.selected or item.highlight:
                arcade.draw_lbwh_rectangle_outline(r.x - 3, r.y - 3, r.w + 6, r.h + 6, GOLD, 5)
            if item.hinted:
                arcade.draw_lbwh_rectangle_outline(
                    r.x - 7, r.y - 7, r.w + 14, r.h + 14, (90, 210, 255), 4
                )
            if item.focus:
                arcade.draw_lbwh_rectangle_filled(r.x + 10, r.y - 14, r.w - 20, 6, (255, 255, 255))
        for label in scene.labels:
            t = self.text(label)
            t.x, t.y = label.x, label.y
            t.draw()
        self._draw_buttons(scene)

    def _draw_buttons(self, scene: Scene) -> None:
        for b in scene.buttons:
            r = b.rect
            if b.primary:
                fill = (230, 170, 40) if b.enabled else (90, 90, 80)
            elif b.toggled:
                fill = (40, 120, 200)
            else:
                fill = (236, 232, 220) if b.enabled else (110, 116, 112)
            if not b.enabled:
                fg = (200, 200, 195)
            elif b.toggled:
                fg = (255, 255, 255)
            else:
                fg = (25, 25, 25)
            self.fill(r.x, r.y, r.w, r.h, (20, 40, 30))
            self.fill(r.x + 2, r.y + 2, r.w - 4, r.h - 4, fill)
            size = 17 if r.h >= 60 else 15
            t = self.text(Label(b.label, 0, 0, size, fg, "center", bold=True))
            while t.content_width > r.w - 14 and size > 9:  # long translations shrink to fit
                size -= 1
                t = self.text(Label(b.label, 0, 0, size, fg, "center", bold=True))
            t.x, t.y = r.cx, r.cy
            t.draw()
