"""The boxes a laid-out scene's texts and controls take, measured with the font the window draws
(Liberation Sans, shipped with Arcade) at a window's scale, without a window.

The window draws the 1280x800 virtual table scaled to fit, letterboxed (:mod:`ui.gui.drawing.window`):
the layout is the same at every size, but a font drawn small rounds to whole pixels, so a text's
width in virtual pixels is measured at the pixel size the window renders it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ui.scenes.scene import HEIGHT, WIDTH, Label, Rect, Scene, overlaps

#: The window sizes the table must read well at (a small laptop, the default, full HD).
SIZES = ((1024, 640), (1280, 800), (1920, 1080))


def scale_of(size: tuple[int, int]) -> float:
    """The window's scale for ``size`` (as :meth:`ui.gui.drawing.window.ScaledWindow._fit` computes)."""
    return min(size[0] / WIDTH, size[1] / HEIGHT)


@cache
def _font(bold: bool, px: int):
    import arcade
    from PIL import ImageFont

    name = "Liberation_Sans_Bold.ttf" if bold else "Liberation_Sans_Regular.ttf"
    root = Path(arcade.__file__).parent / "resources" / "system" / "fonts" / "ttf" / "Liberation"
    return ImageFont.truetype(str(root / name), max(px, 1))


def text_width(text: str, size: float, bold: bool = False, scale: float = 1.0) -> float:
    """Virtual pixels ``text`` advances at ``size`` points, drawn at ``scale``."""
    return _font(bold, round(size * 4 / 3 * scale)).getlength(text) / scale


def wrapped_lines(text: str, width: float, size: float, bold: bool, scale: float) -> list[str]:
    """The lines of a text wrapped to ``width`` (word by word, as pyglet wraps)."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size, bold, scale) > width:
            lines, line = [*lines, line], word
        else:
            line = trial
    return [*lines, line]


def label_box(lb: Label, scale: float = 1.0) -> Rect:
    """The box of a label's ink (one line: the glyphs' own extent; wrapped: its lines' height
    and the widest line, centred in the width unless anchored left), placed as pyglet places a
    text anchored at its vertical centre."""
    font = _font(lb.bold, round(lb.size * 4 / 3 * scale))
    ascent, descent = font.getmetrics()
    if lb.width:
        lines = wrapped_lines(lb.text, lb.width, lb.size, lb.bold, scale)
        w = max(text_width(line, lb.size, lb.bold, scale) for line in lines)
        h = len(lines) * (ascent + descent) / scale
        x = lb.x if lb.anchor_x == "left" else lb.x - lb.width if lb.anchor_x == "right" else (
            lb.x - w / 2)  # fmt: skip
        return Rect(x, lb.y - h / 2, w, h)
    x0, y0, x1, y1 = font.getbbox(lb.text)  # from the line's top, y down, in pixels
    w = font.getlength(lb.text) / scale
    left = {"left": lb.x, "right": lb.x - w}.get(lb.anchor_x, lb.x - w / 2)
    top = lb.y + (ascent + descent) / 2 / scale  # the line's top
    return Rect(left + x0 / scale, top - y1 / scale, (x1 - x0) / scale, (y1 - y0) / scale)


def _inside(inner: Rect, outer: Rect, slack: float = 2.0) -> bool:
    return (
        inner.x >= outer.x - slack
        and inner.y >= outer.y - slack
        and inner.x + inner.w <= outer.x + outer.w + slack
        and inner.y + inner.h <= outer.y + outer.h + slack
    )


def escapes(level: Scene, scale: float) -> list[str]:
    """Texts and bars that start inside a panel (smaller than the screen) and run out of it:
    a line past the game-over panel, a chart's bar into the next chart."""
    out = []
    panels = [r for r, _ in level.panels if r.w < WIDTH - 40 and r.h > 30 and r.w > 60]
    panels.sort(key=lambda r: r.w * r.h)
    for lb in level.labels:
        if not lb.text.strip():
            continue
        box = label_box(lb, scale)
        home = next((r for r in panels if r.contains(box.cx, box.cy)), None)
        if home is not None and not _inside(box, home):
            out.append(f"{lb.text!r} runs out of its panel")
    bars = [r for r, _ in level.panels if r.h <= 30]
    for bar in bars:
        home = next((r for r in panels if r.contains(bar.x + 1, bar.cy)), None)
        if home is not None and not _inside(bar, home):
            out.append(f"a bar at ({bar.x:.0f}, {bar.y:.0f}) runs out of its panel")
    return out


def clashes(scene: Scene, scale: float = 1.0) -> list[str]:
    """Texts that run into each other, into a control (a button, a place that answers a tap) or
    off the screen, or out of the panel they start in, in the scene and, separately, in its
    layer."""
    out = []
    for level in (scene, scene.layer):
        if level is None:
            continue
        out += escapes(level, scale)
        texts = [(lb.text, label_box(lb, scale)) for lb in level.labels if lb.text.strip()]
        for i, (a, ra) in enumerate(texts):
            if ra.x < 0 or ra.y < 0 or ra.x + ra.w > WIDTH or ra.y + ra.h > HEIGHT:
                out.append(f"{a!r} runs off the screen")
            for b, rb in texts[i + 1 :]:
                if overlaps(ra, rb):
                    out.append(f"{a!r} runs into {b!r}")
            for btn in level.buttons:
                if overlaps(ra, btn.rect):
                    out.append(f"{a!r} runs into the button {btn.label!r}")
            for tg in level.targets:  # a place that answers a tap (a card, the pile, the crib)
                if overlaps(ra, tg.rect):
                    out.append(f"{a!r} runs into the target {tg.id!r}")
            for card in level.cards:  # a card drawn over a text, or a text over a card
                if overlaps(ra, card.rect):
                    out.append(f"{a!r} runs into the card {card.key or card.card!r}")
    return out


def text_box(lb: Label) -> Rect:
    """A generous box around a label's ink (font px = 4/3 pt; descenders included)."""
    h = lb.size * 4 / 3 * 1.25
    w = lb.width or len(lb.text) * lb.size * 0.66
    x = {"left": lb.x, "right": lb.x - w}.get(lb.anchor_x, lb.x - w / 2)
    return Rect(x, lb.y - h / 2, w, h)


def inside(a: Rect, b: Rect) -> bool:
    return b.x <= a.x and a.x + a.w <= b.x + b.w and b.y <= a.y and a.y + a.h <= b.y + b.h


def straddling(s: Scene) -> list[str]:
    """Labels of the table that a non-modal layer's panel covers only in part."""
    layer = s.layer
    assert layer is not None and not layer.modal
    out = []
    for panel, _ in layer.panels:
        for lb in s.labels:
            box = text_box(lb)
            if overlaps(box, panel) and not inside(box, panel):
                out.append(lb.text)
    return out
