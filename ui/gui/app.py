"""The Arcade window: draws :mod:`ui.scene` scenes and forwards input to the controller.

Nothing here decides anything about the game: the :class:`~ui.controller.TableController` does,
and :func:`ui.scene.table_scene` lays it out on a 1280x800 virtual table that is scaled to fit
the window (letterboxed), so every target keeps its size relative to the table.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import arcade
from arcade.shape_list import ShapeElementList, create_ellipse_filled

from cribbage_env.engine import Phase

from ..controller import Mode, SaveError, TableController
from ..i18n import LANGUAGES
from ..saves import SaveStore
from ..scene import (
    FELT,
    GOLD,
    HEIGHT,
    PLAYER_COLORS,
    TABLE_RIGHT,
    WIDTH,
    Board,
    Label,
    Scene,
    StartOptions,
    apply_click,
    hit,
    hole_position,
    start_scene,
    table_scene,
)

_SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FONT = ("Liberation Sans", "Arial", "DejaVu Sans")


@dataclass
class Settings:
    """How the window behaves (command-line options)."""

    computer_delay: float = 0.6  # seconds before the computer's move appears
    show_delay: float = 1.0  # seconds per combination said in the show
    threaded: bool = True  # compute the computer's move in a worker thread
    seed: int | None = None
    watch: tuple[str, str] | None = None


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
        self._textures: dict[int | None, arcade.Texture] = {}
        self._texts: dict[tuple, arcade.Text] = {}
        self._sprite_cache: dict[int, tuple[Scene, arcade.SpriteList]] = {}
        self._board_shapes: ShapeElementList | None = None
        self._board_rect = None

    def texture(self, card: int | None) -> arcade.Texture:
        tex = self._textures.get(card)
        if tex is None:
            if card is None:
                path = ":resources:images/cards/cardBack_blue2.png"
            else:
                path = f":resources:images/cards/card{_SUITS[card // 13]}{_RANKS[card % 13]}.png"
            tex = arcade.load_texture(path)
            self._textures[card] = tex
        return tex

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
                align="center" if label.width else "left",
                font_name=FONT,
                bold=label.bold,
                anchor_x=label.anchor_x,
                anchor_y="center",
                multiline=bool(label.width),
            )
            self._texts[key] = t
        return t

    def _sprites_for(self, scene: Scene, slot: int) -> arcade.SpriteList:
        """The card sprites of a scene layer, rebuilt only when the scene changes."""
        cached = self._sprite_cache.get(slot)
        if cached is not None and cached[0] is scene:
            return cached[1]
        sprites = arcade.SpriteList()
        for item in scene.cards:
            sp = arcade.Sprite(self.texture(item.card))
            sp.width, sp.height = item.rect.w, item.rect.h
            sp.center_x, sp.center_y = item.rect.cx, item.rect.cy
            if item.dimmed:
                sp.color = (120, 120, 120, 255)
            sprites.append(sp)
        self._sprite_cache[slot] = (scene, sprites)
        return sprites

    def _board(self, board: Board) -> None:
        if self._board_shapes is None or self._board_rect != board.rect:
            r = board.rect
            shapes = ShapeElementList()
            for p in (0, 1):
                for hole in range(0, 122):
                    x, y = hole_position(r, p, hole)
                    size = 9 if hole in (0, 121) else 6
                    shapes.append(
                        create_ellipse_filled(x, y, size, size, (50, 30, 14), num_segments=8)
                    )
            self._board_shapes = shapes
            self._board_rect = board.rect
        r = board.rect
        self.fill(r.x, r.y, r.w, r.h, (160, 108, 58))
        self._board_shapes.draw()
        r = board.rect
        for p in (0, 1):
            front, back = board.pegs[p]
            for hole, rad in ((back, 6.0), (front, 7.5)):
                x, y = hole_position(r, p, min(hole, 121))
                arcade.draw_circle_filled(x, y, rad, PLAYER_COLORS[p])
                arcade.draw_circle_outline(x, y, rad, (20, 20, 20), 1)
        for p in (0, 1):  # peg colour beside each score line
            arcade.draw_circle_filled(r.x + 12, HEIGHT - 28 - p * 32, 8, PLAYER_COLORS[p])

    def fill(self, x: float, y: float, w: float, h: float, color) -> None:
        """A filled rectangle. Opaque ones are scissored clears (a memset for the software
        renderer, far cheaper than blending a quad); translucent ones are drawn."""
        win = self.window
        if win is not None and (len(color) == 3 or color[3] == 255):
            sx, sy = win.to_screen(x, y)
            s = win.scale_
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


class ScaledWindow(arcade.Window):
    """A resizable window showing the 1280x800 virtual table scaled to fit (letterboxed)."""

    def __init__(
        self,
        width: int = WIDTH,
        height: int = HEIGHT,
        *,
        fullscreen: bool = False,
        title: str = "Cribbage",
    ) -> None:
        super().__init__(width, height, title, resizable=True, fullscreen=fullscreen)
        self.camera = arcade.Camera2D()
        self._redraw = True
        self._drawn_key: tuple | None = None
        self._scene_key: tuple | None = None
        self.scale_ = 1.0
        self.offset = (0.0, 0.0)
        self._fit(self.width, self.height)

    def _fit(self, width: int, height: int) -> None:
        s = min(width / WIDTH, height / HEIGHT)
        ox, oy = (width - WIDTH * s) / 2, (height - HEIGHT * s) / 2
        self.scale_, self.offset = s, (ox, oy)
        self.camera.viewport = arcade.LBWH(int(ox), int(oy), int(WIDTH * s), int(HEIGHT * s))
        self.camera.projection = arcade.LRBT(-WIDTH / 2, WIDTH / 2, -HEIGHT / 2, HEIGHT / 2)
        self.camera.position = (WIDTH / 2, HEIGHT / 2)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._fit(width, height)
        self._redraw = True

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        """Window pixels -> virtual table coordinates."""
        ox, oy = self.offset
        return (x - ox) / self.scale_, (y - oy) / self.scale_

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.offset
        return x * self.scale_ + ox, y * self.scale_ + oy

    def screenshot(self, path: Path | str) -> None:
        """Save what the window shows now as a PNG."""
        self.on_draw()
        img = arcade.get_image(0, 0, self.width, self.height)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        img.save(str(path))

    def pump(self, dt: float = 1 / 60) -> None:
        """One frame without arcade.run(): deliver queued events, update, draw."""
        self.dispatch_events()
        self.on_update(dt)
        self.on_draw()


class GameWindow(ScaledWindow):
    """The game: a start screen and the table."""

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        store: SaveStore | None = None,
        options: StartOptions | None = None,
        fullscreen: bool = False,
        size: tuple[int, int] = (WIDTH, HEIGHT),
    ) -> None:
        super().__init__(*size, fullscreen=fullscreen)
        self.settings = settings or Settings()
        self.store = store
        self.options = options or StartOptions()
        self.renderer = Renderer(self)
        self.ctl: TableController | None = None
        self.scene: Scene | None = None
        self._scene_key: tuple | None = None
        self._pool = cf.ThreadPoolExecutor(max_workers=1) if self.settings.threaded else None
        self._future: cf.Future | None = None
        self._ticket: int | None = None
        self._wait = 0.0
        self._show_wait = 0.0
        self.on_menu: Callable[[], None] | None = None
        self.options.has_save = bool(store and store.exists())
        self.errors: list[str] = []

    # ------------------------------------------------------------------------ screens
    def start_table(self, ctl: TableController) -> None:
        self.ctl = ctl
        if self.store is not None and ctl.on_change is None and ctl.mode.value != "watch":
            ctl.on_change = self.store.save
        self._future = None
        self._wait = 0.0
        self._show_wait = 0.0
        self._scene_key = None

    def new_game(self, seed: int | None = None) -> None:
        from agents import LEVELS

        o = self.options
        if seed is None:
            seed = int(time.time_ns() % 2_000_000_000)
        spec = LEVELS.get(o.level, "random")
        ctl = TableController(
            seed, mode="hotseat" if o.hotseat else "computer", opponent=spec, lang=o.lang
        )
        self.start_table(ctl)  # saved from its first decision on

    def continue_saved(self) -> None:
        if self.store is None:
            return
        try:
            ctl = self.store.load()
        except SaveError as exc:
            from ..i18n import Catalog

            self.options.message = Catalog(self.options.lang).tr(
                "The saved game could not be resumed (the file is left as it was): {error}",
                error=str(exc),
            )
            self.options.has_save = False
            self._scene_key = None
            return
        if ctl.lang != self.options.lang:  # the language chosen on the start screen wins
            ctl.set_language(self.options.lang)
        self.options.hotseat = ctl.mode is Mode.HOTSEAT
        from agents import LEVELS

        level = {spec: name for name, spec in LEVELS.items()}.get(str(ctl.seats[1].spec))
        if level is not None:
            self.options.level = level
        self.start_table(ctl)

    def show_menu(self) -> None:
        self.ctl = None
        self.options.has_save = bool(self.store and self.store.exists())
        self._scene_key = None

    # ------------------------------------------------------------------------ frame
    def current_scene(self) -> Scene:
        ctl = self.ctl
        if ctl is None:
            key = (
                "start",
                self.options.level,
                self.options.hotseat,
                self.options.lang,
                self.options.has_save,
                self.options.message,
            )
            if key != self._scene_key or self.scene is None:
                self.scene = start_scene(self.options)
                self._scene_key = key
            return self.scene
        key = ("table", id(ctl), ctl.version)
        if key != self._scene_key or self.scene is None:
            self.scene = table_scene(ctl)
            self._scene_key = key
        return self.scene

    def on_draw(self) -> None:
        self.ctx.screen.use()
        color_clear(self, FELT, (0, 0, *self.get_framebuffer_size()))  # felt + letterbox bars
        scene = self.current_scene()
        with self.camera.activate():
            self.renderer.draw(scene)
        self._drawn_key = self._scene_key
        self._redraw = False

    def draw(self, dt: float) -> None:
        """Called by the event loop every frame: the table is redrawn (and the buffers swapped)
        only when something on it changed, so an idle table costs almost nothing. Skipping the
        swap leaves the last frame on screen."""
        self.current_scene()
        if self._redraw or self._scene_key != self._drawn_key:
            self.switch_to()
            self.on_draw()
            self.flip()

    def on_expose(self) -> None:
        self._redraw = True

    def on_show(self) -> None:
        self._redraw = True

    def on_update(self, delta_time: float) -> None:
        ctl = self.ctl
        if ctl is None:
            return
        if ctl.show_running:
            self._show_wait += delta_time
            step = ctl.show_step
            pause = self.settings.show_delay * (
                1.6 if step is not None and step.points and not step.highlight else 1
            )
            if self._show_wait >= pause:
                self._show_wait = 0.0
                ctl.advance_show()
            return
        self._show_wait = 0.0
        if self._future is not None:
            if self._future.done():
                fut, self._future = self._future, None
                try:
                    ctl.apply_computer(fut.result(), self._ticket)
                except Exception as exc:  # noqa: BLE001 - an agent bug must not kill the window
                    self._agent_failed(ctl, exc)
            return
        if ctl.computer_should_move:
            self._wait += delta_time
            if self._wait >= self.settings.computer_delay:
                self._wait = 0.0
                ticket, job = ctl.computer_job()
                self._ticket = ticket
                if self._pool is not None:
                    self._future = self._pool.submit(job)
                else:
                    try:
                        ctl.apply_computer(job(), ticket)
                    except Exception as exc:  # noqa: BLE001 - see _agent_failed
                        self._agent_failed(ctl, exc)
        else:
            self._wait = 0.0

    def _agent_failed(self, ctl: TableController, exc: Exception) -> None:
        """An agent raised or answered an illegal move: keep the game going with the first legal
        move of its own view, and keep the error (tests assert there are none)."""
        self.errors.append(f"computer move failed: {exc!r}")
        if ctl.computer_to_act:
            legal = ctl.game.view(ctl.to_act).legal_actions
            if legal:
                ctl.apply_computer(int(legal[0]))

    # ------------------------------------------------------------------------ input
    def click(self, wx: float, wy: float) -> str | None:
        """A click in virtual coordinates (tests and the mouse handler)."""
        scene = self.current_scene()
        if self.ctl is None:
            what = hit(scene, wx, wy)
            self._start_click(what)
            return what
        what = apply_click(self.ctl, scene, wx, wy)
        if what == "menu":
            self.show_menu()
        elif what == "newgame":
            self.next_game()
        return what

    def next_game(self) -> None:
        """New game after a game over: the same seats (two agents keep watching each other; a
        replayed record starts again)."""
        ctl = self.ctl
        if ctl is not None and ctl.mode is Mode.WATCH:
            if ctl.script is not None:
                ctl.restart()
                return
            seed = int(time.time_ns() % 2_000_000_000)
            self.start_table(
                TableController(
                    seed, mode=Mode.WATCH, lang=ctl.lang, agents=[str(s.spec) for s in ctl.seats]
                )
            )
            return
        self.new_game()

    def _start_click(self, what: str | None) -> None:
        o = self.options
        if what is None:
            return
        o.message = ""
        if what.startswith("level:"):
            o.level = what[6:]
        elif what == "mode:computer":
            o.hotseat = False
        elif what == "mode:hotseat":
            o.hotseat = True
        elif what.startswith("lang:") and what[5:] in LANGUAGES:
            o.lang = what[5:]
        elif what == "play":
            self.new_game(self.settings.seed)
        elif what == "continue":
            self.continue_saved()
        self._scene_key = None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        # Any button and any touch: no right-click-only actions (R11.7).
        self.click(*self.to_world(x, y))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        ctl = self.ctl
        k = arcade.key
        if ctl is None:
            if symbol in (k.ENTER, k.RETURN, k.SPACE):
                self._start_click("play")
            return
        ctrl = modifiers & (k.MOD_CTRL | k.MOD_COMMAND)
        if ctrl and symbol == k.Z:
            ctl.redo() if modifiers & k.MOD_SHIFT else ctl.undo()
        elif ctrl and symbol == k.Y:
            ctl.redo()
        elif symbol == k.ESCAPE:
            self.show_menu()
        elif ctl.show_running:
            if symbol in (k.ENTER, k.RETURN, k.SPACE):
                ctl.advance_show()
        elif ctl.game.is_over:
            if symbol in (k.ENTER, k.RETURN, k.SPACE):
                self.next_game()
        elif ctl.needs_reveal:
            if symbol in (k.ENTER, k.RETURN, k.SPACE):
                ctl.reveal()
        elif k.KEY_1 <= symbol <= k.KEY_6 or k.NUM_1 <= symbol <= k.NUM_6:
            base = k.KEY_1 if k.KEY_1 <= symbol <= k.KEY_6 else k.NUM_1
            ctl.select_position(symbol - base)
        elif symbol in (k.LEFT, k.RIGHT):
            ctl.move_focus(-1 if symbol == k.LEFT else 1)
        elif symbol in (k.UP, k.DOWN):
            ctl.select_position(ctl.focus)
        elif symbol == k.H:
            ctl.clear_hint() if ctl.hint else ctl.request_hint()
        elif symbol in (k.ENTER, k.RETURN, k.SPACE, k.NUM_ENTER):
            if ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
                ctl.cut_at(26 if ctl.phase is not Phase.STARTER_CUT else 20)
            elif not ctl.confirm() and symbol == k.SPACE:
                ctl.select_position(ctl.focus)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        super().close()


# ---------------------------------------------------------------------------- headless autoplay
def autoplay(
    window: GameWindow,
    decisions: int,
    outdir: Path | str | None,
    *,
    pilot: str = "random",
    seed: int = 0,
    every: int = 1,
) -> list[Path]:
    """Play ``decisions`` decisions on the table without a person, clicking the cards and
    buttons the way a player would, and save screenshots (for tests and documentation).

    The person's seat is steered by the agent ``pilot`` through the scene's own targets, so the
    screenshots show real selections (preview), confirmations, the show and the hotseat screen.
    """
    import numpy as np

    from agents import make_agent
    from cribbage_env.actions import discard_cards, is_cut, is_discard

    agent = make_agent(pilot)
    rng = np.random.default_rng(seed)
    out = Path(outdir) if outdir is not None else None
    shots: list[Path] = []
    made = 0
    frame = 0

    def shot(tag: str) -> None:
        nonlocal frame
        frame += 1
        if out is not None and (frame % every == 0 or tag == "over"):
            path = out / f"{len(shots) + 1:04d}-{tag}.png"
            window.screenshot(path)
            shots.append(path)

    def center_of(target_id: str) -> tuple[float, float] | None:
        scene = window.current_scene()
        b = scene.button(target_id)
        if b is not None:
            return b.rect.cx, b.rect.cy
        for t in scene.targets:
            if t.id == target_id:
                return t.rect.cx, t.rect.cy
        return None

    def press(target_id: str) -> bool:
        pos = center_of(target_id)
        if pos is None:
            return False
        sx, sy = window.to_screen(*pos)
        window.dispatch_event("on_mouse_press", int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
        window.dispatch_event("on_mouse_release", int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
        window.dispatch_events()  # drawn only when a screenshot is taken
        return True

    while made < decisions:
        ctl = window.ctl
        if ctl is None:
            break
        if ctl.game.is_over:
            if ctl.show_running:
                shot("show")
                ctl.advance_show()
                continue
            shot("over")
            break
        if ctl.show_running:
            step = ctl.show_step
            if step is not None and (step.highlight or not step.line):
                shot("show")
            press("next")
            continue
        if ctl.needs_reveal:
            shot("reveal")
            press("reveal")
            continue
        if ctl.computer_to_act:
            if ctl.mode is Mode.WATCH:
                shot("move")
            ctl.step_computer()
            made += 1
            continue
        view = ctl.game.view(ctl.to_act)
        action = int(agent.act(view, rng))
        if is_cut(action):
            shot("cut")
            scene = window.current_scene()
            t = next(t for t in scene.targets if t.id.startswith("spread:"))
            depth = rng.uniform(0.1, 0.9)
            sx, sy = window.to_screen(t.rect.x + depth * t.rect.w, t.rect.cy)
            window.dispatch_event("on_mouse_press", int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
            window.dispatch_events()
        else:
            cards = discard_cards(action) if is_discard(action) else (action,)
            for c in cards:
                press(f"card:{c}")
            if made % 3 == 0:
                ctl.request_hint()
            shot("select")
            press("confirm")
        made += 1
    ctl = window.ctl
    if ctl is not None and ctl.game.is_over and not any(p.stem.endswith("-over") for p in shots):
        while ctl.show_running:  # the last count, then the game-over screen
            shot("show")
            ctl.advance_show()
        shot("over")
    return shots
