"""The rules screen as data: the rules of ``docs/RULES.md`` (R1-R11) in the table's language,
laid out in pages with Previous / Next / Back.

The English text is the R1-R11 part of ``docs/RULES.md`` (R11: the table's own rules; a test
keeps the copy in ``ui/rules/en.md`` identical); Spanish and French carry the same rule numbers,
R11 in the rule cards' own words.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...table.commands import Act
from ...words.i18n import Catalog
from ..scene import GOLD, HEIGHT, SOFT, WHITE, WIDTH, Label, Rect, Scene, act_button, wrapped_rows

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
TEXT_W = 1080
#: Characters a line of TEXT_W holds: a rule at 14 pt, a heading at 18 pt bold (Liberation Sans
#: averages about 0.5 em a character in these languages; the estimate errs long).
CHARS_PER_LINE, HEADING_CHARS = 108, 76
PAGE_TOP, PAGE_BOTTOM = HEIGHT - 110, 120


@lru_cache(maxsize=8)
def rules_text(lang: str) -> tuple[tuple[str, str], ...]:
    """(kind, text) items: ("h", "R1 Cards") headings and ("r", "R1.1 ...") rules."""
    path = RULES_DIR / f"{lang}.md"
    if not path.exists():
        path = RULES_DIR / "en.md"
    items: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            items.append(("h", line[3:].strip()))
        elif line.startswith("- "):
            items.append(("r", line[2:].strip()))
        elif line.startswith("  ") and items and items[-1][0] == "r":  # a continued rule
            items[-1] = ("r", items[-1][1] + " " + line.strip())
    return tuple(items)


def _height(kind: str, text: str) -> float:
    if kind == "h":
        return 46 + 26 * (wrapped_rows(text, HEADING_CHARS) - 1)
    return 8 + 21 * wrapped_rows(text, CHARS_PER_LINE)


@lru_cache(maxsize=8)
def pages(lang: str) -> tuple[tuple[tuple[str, str, float], ...], ...]:
    """The items of each page with their heights; a heading never ends a page."""
    out: list[list[tuple[str, str, float]]] = [[]]
    room = PAGE_TOP - PAGE_BOTTOM
    used = 0.0
    items = rules_text(lang)
    for i, (kind, text) in enumerate(items):
        h = _height(kind, text)
        need = h + (_height(*items[i + 1]) if kind == "h" and i + 1 < len(items) else 0)
        if used + need > room and out[-1]:
            out.append([])
            used = 0.0
        out[-1].append((kind, text, h))
        used += h
    return tuple(tuple(p) for p in out)


def rules_scene(lang: str, page: int) -> Scene:
    """One page of the rules, with Previous / Next / Back buttons (>= 48 px, R11.7)."""
    tr = Catalog(lang).tr
    all_pages = pages(lang)
    page = max(0, min(page, len(all_pages) - 1))
    s = Scene()
    s.labels.append(Label(tr("Rules"), WIDTH / 2, HEIGHT - 50, 30, GOLD, bold=True))
    s.labels.append(Label(f"{page + 1} / {len(all_pages)}", WIDTH - 60, HEIGHT - 50, 14, SOFT))
    y: float = PAGE_TOP
    left = (WIDTH - TEXT_W) / 2
    for kind, text, h in all_pages[page]:
        if kind == "h":  # wrapped (a long heading): its lines centred in its height
            s.labels.append(Label(text, left, y - 3 - (h - 6) / 2, 18, GOLD, "left", bold=True,
                                  width=TEXT_W))  # fmt: skip
        else:
            s.labels.append(Label(text, left, y - h / 2, 14, WHITE, "left", width=TEXT_W,
                                  tag="rule"))  # fmt: skip
        y -= h
    s.buttons.append(act_button(Act.PAGE, tr("Previous"), Rect(WIDTH / 2 - 400, 24, 240, 64),
                                page > 0, arg=-1, name="rules:prev"))  # fmt: skip
    s.buttons.append(act_button(Act.PAGE, tr("Next"), Rect(WIDTH / 2 - 120, 24, 240, 64),
                                page < len(all_pages) - 1, primary=True, arg=1,
                                name="rules:next"))  # fmt: skip
    s.buttons.append(act_button(Act.BACK, tr("Back"), Rect(WIDTH / 2 + 160, 24, 240, 64),
                                name="rules:back"))  # fmt: skip
    return s
