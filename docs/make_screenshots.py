"""Regenerate the README screenshots (headless): ``python docs/make_screenshots.py``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["ARCADE_HEADLESS"] = "1"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from cribbage_env.engine import Phase  # noqa: E402
from ui.controller import Mode, TableController  # noqa: E402
from ui.gui.app import GameWindow, Settings  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def step(c: TableController, rng: np.random.Generator) -> None:
    c.skip_show()
    if c.computer_to_act:
        c.step_computer()
    elif c.needs_reveal:
        c.reveal()
    else:
        legal = c.game.legal_actions()
        c._decide(legal[int(rng.integers(len(legal)))])


def main() -> None:
    w = GameWindow(settings=Settings(threaded=False))
    rng = np.random.default_rng(0)
    w.options.has_save = True
    w.screenshot(OUT / "start.png")

    c = TableController(11, mode=Mode.COMPUTER, lang="en")
    w.start_table(c)
    while not (c.phase is Phase.DISCARD and c.human_to_act):
        step(c, rng)
    hint = c.request_hint()
    for card in hint.cards:
        c.toggle(card)
    w.screenshot(OUT / "discard_hint_en.png")

    while not (
        c.phase is Phase.PLAY
        and c.human_to_act
        and len(c.game.seq) >= 3
        and any(not c.selectable(x) for x in c.game.hands[0])
    ):
        step(c, rng)
    c.toggle(c.game.legal_actions()[0])
    w.screenshot(OUT / "pegging_en.png")

    while not c.show_steps:
        step(c, rng)
    while c.show_step is not None and len(c.show_step.said) < 3:
        c.advance_show()
    w.screenshot(OUT / "show_en.png")

    h = TableController(3, mode=Mode.HOTSEAT, lang="fr")
    w.start_table(h)
    while not (h.phase is Phase.DISCARD and h.needs_reveal):
        step(h, rng) if not h.needs_reveal else None
    w.screenshot(OUT / "hotseat_fr.png")

    e = TableController(5, mode=Mode.COMPUTER, lang="es")
    w.start_table(e)
    while not e.game.is_over:
        step(e, rng)
    e.skip_show()
    w.screenshot(OUT / "game_over_es.png")
    w.close()
    print("\n".join(str(p.relative_to(ROOT)) for p in sorted(OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
