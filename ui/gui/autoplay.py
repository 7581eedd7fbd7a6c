"""Headless autoplay: a pilot agent plays the person's seat by clicking the table's own targets.

Used by ``cribbage play --autoplay N --screenshots DIR``, ``cribbage replay --screenshots`` and
the GUI tests. Motion is switched off while it runs, so screenshots are deterministic.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from ..table.controller import Mode

if TYPE_CHECKING:
    from .app import GameWindow

#: The pilot's stream of agent randomness (the table's own streams are 77 and 1000 + seat).
PILOT_STREAM = 3


class _Pilot:
    """Clicks the window's scene targets and keeps the screenshots it was asked for."""

    def __init__(self, window: GameWindow, outdir: Path | str | None, every: int) -> None:
        self.window = window
        self.out = Path(outdir) if outdir is not None else None
        self.every = every
        self.shots: list[Path] = []
        self.frame = 0

    def shot(self, tag: str) -> None:
        self.frame += 1
        if self.out is not None and (self.frame % self.every == 0 or tag == "over"):
            path = self.out / f"{len(self.shots) + 1:04d}-{tag}.png"
            self.window.screenshot(path)
            self.shots.append(path)

    def center_of(self, target_id: str) -> tuple[float, float] | None:
        scene = self.window.current_scene()
        b = scene.button(target_id)
        if b is not None:
            return b.rect.cx, b.rect.cy
        for t in scene.targets:
            if t.id == target_id:
                return t.rect.cx, t.rect.cy
        return None

    def tap(self, x: float, y: float, *, release: bool = True) -> None:
        w = self.window
        sx, sy = w.to_screen(x, y)
        w.dispatch_event("on_mouse_press", int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
        if release:
            w.dispatch_event("on_mouse_release", int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
        w.dispatch_events()  # drawn only when a screenshot is taken

    def press(self, target_id: str) -> bool:
        pos = self.center_of(target_id)
        if pos is None:
            return False
        self.tap(*pos)
        return True

    def finish(self) -> None:
        """The last count, then the game-over screen, if the loop stopped before them."""
        ctl = self.window.ctl
        if ctl is None or not ctl.game.is_over:
            return
        if any(p.stem.endswith("-over") for p in self.shots):
            return
        while ctl.show.running:
            self.shot("show")
            ctl.show.advance()
        self.shot("over")


def autoplay(
    window: GameWindow,
    decisions: int,
    outdir: Path | str | None,
    *,
    pilot: str = "random",
    seed: int = 0,
    every: int = 1,
    motion: bool = False,
) -> list[Path]:
    """Play ``decisions`` decisions on the table without a person, clicking the cards and
    buttons the way a player would, and save screenshots (for tests and documentation).

    The person's seat is steered by the agent ``pilot`` through the scene's own targets, so the
    screenshots show real selections (preview), confirmations, the show and the hotseat screen.
    Motion is off unless ``motion`` (then the clicks land while cards are still moving).
    """
    from agents import make_agent
    from cribbage_env.seeding import agent_rng

    agent = make_agent(pilot)
    # The pilot is an agent too: its generator must not carry the game seed.
    table = window.ctl
    rng = agent_rng(table.agent_seed if table is not None else 0, seed, PILOT_STREAM)
    p = _Pilot(window, outdir, every)
    saved, window.settings.motion = window.settings.motion, motion
    try:
        _play(window, p, decisions, agent, rng)
    finally:
        window.settings.motion = saved
    p.finish()
    return p.shots


def _play(window: GameWindow, p: _Pilot, decisions: int, agent, rng) -> None:
    from cribbage_env.rules.actions import discard_cards, is_cut, is_discard

    made = 0
    while made < decisions:
        ctl = window.ctl
        if ctl is None:
            break
        if ctl.game.is_over:
            if ctl.show.running:
                p.shot("show")
                ctl.show.advance()
                continue
            p.shot("over")
            break
        if ctl.show.running:
            step = ctl.show.step
            if step is not None and (step.highlight or not step.line):
                p.shot("show")
            p.press("next")
            continue
        if ctl.needs_reveal:
            p.shot("reveal")
            p.press("reveal")
            continue
        if ctl.computer.to_act:
            if ctl.mode is Mode.WATCH:
                p.shot("move")
            ctl.computer.step()
            made += 1
            continue
        assert ctl.to_act is not None  # a person's turn
        action = int(agent.act(ctl.game.view(ctl.to_act), rng))
        if is_cut(action):
            p.shot("cut")
            t = next(t for t in window.current_scene().targets if t.id.startswith("spread:"))
            p.tap(t.rect.x + rng.uniform(0.1, 0.9) * t.rect.w, t.rect.cy, release=False)
        else:
            for c in discard_cards(action) if is_discard(action) else (action,):
                p.press(f"card:{c}")
            if made % 3 == 0:
                ctl.coach.request_hint()
            p.shot("select")
            p.press("confirm")
        made += 1
        if window.settings.motion:
            window.on_update(0.1)  # time passes: the motion started by the click runs on
