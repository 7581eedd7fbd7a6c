"""Driving a table controller in tests: the computer's moves and random ones for the person."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import cribbage_env as ce
from ui.table.controller import Mode, TableController
from ui.table.saves import SAVE_FORMAT, SAVE_VERSION


def random_step(ctl: TableController, rng: np.random.Generator) -> None:
    """One move: the computer's if it is to act, else a random legal decision for the person."""
    if ctl.computer.to_act:
        ctl.computer.step()
    else:
        legal = ctl.game.legal_actions()
        ctl.decide(legal[int(rng.integers(len(legal)))])


def play_until(
    ctl: TableController, rng: np.random.Generator, done: Callable[[], bool], *, skip: bool = True
) -> None:
    """Random moves until ``done()``; shows are skipped (``skip``) or left running."""
    while not done():
        if skip:
            ctl.show.skip()
        random_step(ctl, rng)


def play_out(ctl: TableController, seed: int = 0) -> None:
    """Random moves to the end of the game, its last show counted."""
    play_until(ctl, np.random.default_rng(seed), lambda: ctl.game.is_over)
    ctl.show.skip()


def resumed_table(
    seed: int, decisions: list[int], mode: Mode, lang: str, opponent: str | None = None
) -> TableController:
    """The table of a saved game of ``seed`` after ``decisions`` (the agents' seed pinned to
    ``seed``: the same choices give the same run), loaded as the table loads a save."""
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "seed": seed,
        "agent_seed": seed,
        "mode": mode.value,
        "agents": [None, opponent],
        "lang": lang,
        "decisions": [ce.action_str(a) for a in decisions],
        "cursor": len(decisions),
        "finished": False,
    }
    return TableController.from_save(data)
