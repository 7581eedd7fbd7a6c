"""A resizable Arcade window that shows the 1280x800 virtual table scaled to fit (letterboxed)."""

from __future__ import annotations

from pathlib import Path

import arcade

from ...scenes.scene import HEIGHT, WIDTH


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
        self.scale_ = 1.0
        self.offset = (0.0, 0.0)
        self._fit(self.width, self.height)

    @property
    def pixel_ratio(self) -> float:
        """Framebuffer pixels per window unit (2 on a high-DPI screen, 1 elsewhere)."""
        fb_w = self.get_framebuffer_size()[0]
        return fb_w / self.width if self.width and fb_w else 1.0

    def _fit(self, width: int, height: int) -> None:
        """Scale the virtual table to the window, letterboxed. Mouse positions and ``offset``
        are in window units; the viewport (like scissor boxes) is in framebuffer pixels."""
        s = min(width / WIDTH, height / HEIGHT)
        ox, oy = (width - WIDTH * s) / 2, (height - HEIGHT * s) / 2
        self.scale_, self.offset = s, (ox, oy)
        r = self.ratio = self.pixel_ratio
        self.camera.viewport = arcade.LBWH(
            int(ox * r), int(oy * r), int(WIDTH * s * r), int(HEIGHT * s * r)
        )
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
