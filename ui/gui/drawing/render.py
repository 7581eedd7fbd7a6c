"""Draws :mod:`ui.scenes.scene` scenes with Arcade: cached card textures, sprites and text objects.

The renderer knows nothing about the game; it draws rectangles, cards, labels, buttons and the
board that :func:`ui.scenes.scene.table_scene` laid out on the 1280x800 virtual table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import pyglet
from arcade.shape_list import ShapeElementList, create_rectangle_filled

from ...scenes.preferences import FELTS, Preferences
from ...scenes.scene import GOLD, HEIGHT, PLAYER_COLORS, TABLE_RIGHT, Board, Label, Scene, overlaps
from ...table.board import hole_position
from .board_art import board_texture
from .card_art import CardTextures

if TYPE_CHECKING:
    from .window import ScaledWindow

FONT = ("Liberation Sans", "Arial", "DejaVu Sans")
#: Opaque fills at least this large (virtual px²) stay scissored clears (a memset for the
#: software renderer); smaller ones are batched into one draw per layer (each scissored clear
#: costs the software renderer a draw of its own).
BIG_FILL = 200_000
BORDER = (20, 40, 30)


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
        self.felt: tuple[int, int, int] = FELTS["green"]  # the table's colour (the theme's)
        self.board_theme = "wood"
        self._texts: dict[tuple, arcade.Text] = {}
        self._sprite_cache: dict[int, tuple[Scene, arcade.SpriteList]] = {}
        #: Per layer: what its text was (labels, buttons) and one batch with all of it.
        self._batches: dict[int, tuple[tuple, pyglet.graphics.Batch]] = {}
        self._placed: dict[tuple, arcade.Text] = {}  # text objects placed in a layer's batch
        #: Per layer and kind ("panels", "faces"): the rectangles and one shape list of them.
        self._shapes: dict[tuple[int, str], tuple[tuple, ShapeElementList]] = {}

    def theme(self, prefs: Preferences) -> None:
        """The look the Settings panel chose: felt, card backs, board."""
        self.felt = FELTS.get(prefs.felt, FELTS["green"])
        self.cards.set_back(prefs.backs)
        self.board_theme = prefs.board

    def texture(self, card: int | None, faces: tuple[str, str, str] = ("J", "Q", "K")):
        return self.cards.get(card, faces, self.four_colour)

    def text(self, label) -> arcade.Text:
        """A text object for ``label``: to measure it, or to draw a pop-up (everything else is
        drawn through the layer's batch)."""
        key = (label.text, label.size, label.color, label.anchor_x, label.bold, label.width)
        t = self._texts.get(key)
        if t is None:
            if len(self._texts) > 600:
                self._texts.clear()
            t = self._texts[key] = self._new_text(label)
        return t

    def _sprites_for(self, scene: Scene, slot: int) -> arcade.SpriteList:
        """The card sprites of a scene layer: updated in place only when the scene changes (a
        new decision, or every frame while something moves)."""
        cached = self._sprite_cache.get(slot)
        if cached is not None and cached[0] is scene:
            return cached[1]
        if cached is not None:
            sprites = cached[1]
        else:  # cards are opaque but for their corners, which the alpha test leaves out:
            sprites = arcade.SpriteList()  # no blending (the software renderer's dearest part)
            sprites.blend = False
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

    def _board(self, board: Board, dots: bool = True) -> None:
        """The painted board (one textured quad), then the four pegs on it; ``dots``: a peg's
        colour beside each score line (the table's board, not the large one over it)."""
        r = board.rect
        tex = board_texture(r.w, r.h, board.shape, self.board_theme)
        arcade.draw_texture_rect(tex, arcade.LBWH(r.x, r.y, r.w, r.h))
        k = max(min(r.w, r.h) / 250, 0.9)  # pegs grow with the board (ui.scenes.board_scene)
        for p in (0, 1):  # each player's last move: the holes the front peg passed, marked
            front, back = board.pegs[p]
            for hole in range(back + 1, front):
                x, y = hole_position(r, p, hole, board.shape)
                arcade.draw_circle_filled(x, y, 2.8 * k, PLAYER_COLORS[p])
        for p in (0, 1):
            front, back = board.pegs[p]
            for hole, rad in ((back, 5.0 * k), (front, 6.0 * k)):
                x, y = hole_position(r, p, hole, board.shape)
                arcade.draw_circle_filled(x, y, rad, PLAYER_COLORS[p])
                arcade.draw_circle_outline(x, y, rad, (20, 20, 20), 1.5 * k)
        if dots:
            self._score_dots()

    def _score_dots(self) -> None:
        """A peg's colour beside each score line."""
        for p in (0, 1):
            arcade.draw_circle_filled(TABLE_RIGHT + 32, HEIGHT - 28 - p * 32, 8, PLAYER_COLORS[p])

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
        board = scene.board
        covered = (layer is not None and layer.modal and board is not None
                   and any(overlaps(r, board.rect) for r, _ in layer.panels))  # fmt: skip
        self._draw_layer(scene, 0, hide_table=hide_table, board=not covered)
        if layer is not None:
            self._draw_layer(layer, 1)

    def _draw_layer(
        self, scene: Scene, slot: int, *, hide_table: bool = False, board: bool = True
    ) -> None:
        """Draw one layer; under a modal layer the table itself is not drawn (only the board
        and the buttons beside it), which keeps those frames cheap. All its text is one batch,
        built when the scene changes (a few draw calls instead of one per label)."""
        panels = [(r.x, r.y, r.w, r.h, c) for r, c in scene.panels
                  if not hide_table or r.x >= TABLE_RIGHT]  # fmt: skip
        self._fills(slot, "panels", panels)
        if scene.board is not None and board:  # not peeking out from under a panel
            self._board(scene.board, dots=slot == 0)
        elif scene.board is not None and slot == 0:
            self._score_dots()
        if not hide_table:
            self._sprites_for(scene, slot).draw()
            self._outlines(scene)
        self._fills(slot, "faces", self._button_faces(scene, hide_table))
        self._text_batch_draw(scene, slot, hide_table)

    def _fills(self, slot: int, kind: str, rects: list[tuple]) -> None:
        """Filled rectangles in order: the leading big opaque ones as clears, the rest as one
        batched draw (rebuilt only when they change)."""
        i = 0
        while i < len(rects) and self.window is not None:
            x, y, w, h, color = rects[i]
            if w * h < BIG_FILL or len(color) == 4 and color[3] != 255:
                break
            self.fill(x, y, w, h, color)
            i += 1
        rest = tuple(rects[i:])
        if not rest:
            return
        opaque = all(len(c) == 3 or c[3] == 255 for *_, c in rest)
        cached = self._shapes.get((slot, kind))
        if cached is None or cached[0] != rest:
            # opaque: nothing under it is read
            shapes: ShapeElementList = ShapeElementList(blend=not opaque)
            for x, y, w, h, color in rest:
                c = color if len(color) == 4 else (*color, 255)
                shapes.append(create_rectangle_filled(x + w / 2, y + h / 2, w, h, c))
            cached = self._shapes[(slot, kind)] = (rest, shapes)
        if opaque and self.window is not None:
            self.window.ctx.disable(self.window.ctx.BLEND)
        cached[1].draw()

    def _outlines(self, scene: Scene) -> None:
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

    def _text_batch(self, scene: Scene, slot: int, hide_table: bool) -> pyglet.graphics.Batch:
        """One batch with every label and button text of the layer, rebuilt only when the
        text changes (not while cards fly: held labels stay the same). Point pop-ups, which
        rise and fade every frame, are drawn one by one after it (:meth:`_text_batch_draw`)."""
        labels = tuple(
            lb
            for lb in scene.labels
            if (not hide_table or lb.x >= TABLE_RIGHT) and lb.tag != "popup"
        )
        buttons = tuple(self._buttons(scene, hide_table))
        key = (labels, buttons)
        cached = self._batches.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        batch = pyglet.graphics.Batch()
        seen: dict[tuple, int] = {}
        if len(self._placed) + len(labels) + len(buttons) > 800:
            # The texts are the batches' only strong references: emptying the cache in the
            # middle of a batch dropped its first texts (a screen drawn with labels missing).
            self._placed.clear()
            self._batches.clear()
        for label in labels + tuple(self._button_label(b) for b in buttons):
            tkey = (label.text, label.size, label.color, label.anchor_x, label.bold, label.width)
            n = seen[tkey] = seen.get(tkey, -1) + 1  # the same text twice: two objects
            pkey = (slot, n, *tkey)
            placed = self._placed.get(pkey)
            if placed is None:
                placed = self._new_text(label)
                self._placed[pkey] = placed
            placed.position = (label.x, label.y)
            placed.batch = batch
        self._batches[slot] = (key, batch)
        return batch

    def _text_batch_draw(self, scene: Scene, slot: int, hide_table: bool) -> None:
        self._text_batch(scene, slot, hide_table).draw()
        if not hide_table:
            for label in scene.labels:
                if label.tag == "popup":
                    t = self.text(label)
                    t.position = (label.x, label.y)
                    t.draw()

    def _new_text(self, label: Label) -> arcade.Text:
        return arcade.Text(
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

    @staticmethod
    def _button_colors(b):
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
        return fill, fg

    @staticmethod
    def _buttons(scene: Scene, hide_table: bool) -> list:
        """The buttons drawn: under a modal layer only those beside the board (the only ones
        that still answer clicks, see :func:`ui.scenes.scene.hit`)."""
        return [b for b in scene.buttons if not hide_table or b.rect.x >= TABLE_RIGHT]

    def _button_faces(self, scene: Scene, hide_table: bool = False) -> list[tuple]:
        """Each button's border and face, as rectangles (x, y, w, h, colour)."""
        out = []
        for b in self._buttons(scene, hide_table):
            r = b.rect
            fill, _ = self._button_colors(b)
            if b.focused:  # the keyboard's focus: a gold ring around the button
                out.append((r.x - 5, r.y - 5, r.w + 10, r.h + 10, GOLD))
            out += [(r.x, r.y, r.w, r.h, BORDER), (r.x + 2, r.y + 2, r.w - 4, r.h - 4, fill)]
        return out

    def _button_label(self, b) -> Label:
        """The button's caption, shrunk until it fits (long translations)."""
        r = b.rect
        _, fg = self._button_colors(b)
        size = 17 if r.h >= 60 else 15
        t = self.text(Label(b.label, 0, 0, size, fg, "center", bold=True))
        while t.content_width > r.w - 14 and size > 9:
            size -= 1
            t = self.text(Label(b.label, 0, 0, size, fg, "center", bold=True))
        return Label(b.label, r.cx, r.cy, size, fg, "center", bold=True)
