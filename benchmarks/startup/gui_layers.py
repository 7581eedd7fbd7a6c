"""What the software rasteriser charges for the parts of a play frame, and for copying a whole
frame from an offscreen framebuffer: is drawing the static parts once and
copying them each frame cheaper than drawing them?

Headless Arcade (Mesa llvmpipe), 1280x800, the play screen of ``benchmarks/startup/gui_frame.py``. Each
row is the median process CPU time per frame (all threads: the rasteriser's too, which is the
steadier figure on a loaded machine), ``--frames`` frames, ``--rounds`` rounds in turns:

- the frame as the window draws it (``on_draw``);
- the same with the card sprites blended (as before they were drawn without blending);
- the colour clear of the whole window alone (the floor of any frame);
- a copy of a finished frame from an offscreen framebuffer: ``glBlitFramebuffer``, and a
  full-window textured quad without blending (what caching the static parts would cost at
  least, before anything that moves is drawn on it).

    nice -n 10 python benchmarks/startup/gui_layers.py [--frames 150] [--rounds 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["ARCADE_HEADLESS"] = "1"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "startup"))

import numpy as np  # noqa: E402

_QUAD_VS = """#version 330
in vec2 in_vert; in vec2 in_uv; out vec2 uv;
void main() { gl_Position = vec4(in_vert, 0.0, 1.0); uv = in_uv; }"""
_QUAD_FS = """#version 330
uniform sampler2D t; in vec2 uv; out vec4 f;
void main() { f = texture(t, uv); }"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("--frames", 150), ("--rounds", 3)):  # frames per round, rounds
        ap.add_argument(name, type=int, default=default)
    ap.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = ap.parse_args(argv)

    from arcade.gl.geometry import quad_2d_fs
    from gui_frame import drive, time_frames
    from pyglet import gl

    from cribbage_env.rules.core import Phase
    from ui.gui.app import GameWindow, Settings
    from ui.gui.drawing import render
    from ui.table.controller import Mode, TableController

    window = GameWindow(settings=Settings(threaded=False, motion=True), size=(1280, 800))
    ctl = TableController(11, mode=Mode.COMPUTER)
    window.start_table(ctl)
    drive(ctl, np.random.default_rng(11),
          lambda c: c.phase is Phase.PLAY and c.human_to_act and len(c.game.seq) >= 2)  # fmt: skip
    time_frames(window, 20)
    ctx = window.ctx
    w, h = window.get_framebuffer_size()
    tex = ctx.texture((w, h), components=4)
    tex.filter = (ctx.NEAREST, ctx.NEAREST)
    fbo = ctx.framebuffer(color_attachments=[tex])
    with fbo.activate():
        window.on_draw()
    quad, prog = quad_2d_fs(), ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_QUAD_FS)

    def cpu_ms(draw) -> float:
        out = []
        for _ in range(args.frames):
            c = time.process_time()
            draw()
            ctx.finish()
            out.append((time.process_time() - c) * 1000)
            window.flip()
        return statistics.median(out)

    plain = render.Renderer._sprites_for

    def blended(self, scene, slot):
        sprites = plain(self, scene, slot)
        sprites.blend = True
        return sprites

    def clear() -> None:
        ctx.screen.use()
        gl.glClearColor(0.1, 0.35, 0.24, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)

    def textured_quad() -> None:
        ctx.screen.use()
        ctx.disable(ctx.BLEND)
        tex.use(0)
        quad.render(prog)

    def as_drawn_blended() -> None:
        render.Renderer._sprites_for = blended  # type: ignore[method-assign]
        try:
            window.on_draw()
        finally:
            render.Renderer._sprites_for = plain  # type: ignore[method-assign]
            for _, sprites in window.renderer._sprite_cache.values():
                sprites.blend = False

    rows = {
        "frame as drawn": window.on_draw,
        "frame, cards blended": as_drawn_blended,
        "colour clear alone": clear,
        "copy: glBlitFramebuffer": lambda: ctx.copy_framebuffer(fbo, ctx.screen),
        "copy: textured quad, no blending": textured_quad,
    }
    runs: dict[str, list[float]] = {k: [] for k in rows}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, draw in rows.items():
            runs[name].append(cpu_ms(draw))
    loads.append(os.getloadavg()[0])
    window.close()
    print(f"process CPU per frame, median of {args.rounds} rounds (load {loads[0]:.1f} -> "
          f"{loads[1]:.1f}):")  # fmt: skip
    for name, v in runs.items():
        print(f"  {name:36s} {statistics.median(v):6.2f} ms   rounds {[round(x, 2) for x in v]}")
    if args.out:
        from agents.store.atomic import atomic_write_json

        atomic_write_json(args.out, {"frames": args.frames, "load": loads, "cpu_ms": runs})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
