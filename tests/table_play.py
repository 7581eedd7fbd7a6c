"""Driving a table controller in tests: the computer's moves and random ones for the person."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np

import cribbage_env as ce
from agents.tournament.play import play_game
from cribbage_env.rules.actions import discard_cards, is_discard
from cribbage_env.rules.core import Phase
from ui.table.controller import Mode, TableController
from ui.table.saves import SAVE_FORMAT, SAVE_VERSION

#: the phases where the person cuts the deck
CUT_PHASES = (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT)


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


def human_move(ctl: TableController, rng: np.random.Generator) -> None:
    """Make the person's decision the way the table does: select cards, then confirm."""
    if ctl.needs_reveal:
        ctl.reveal()
    g = ctl.game
    if g.phase in CUT_PHASES:
        assert ctl.selection.cut_at(int(rng.integers(0, 52)))
        return
    legal = g.legal_actions()
    action = legal[int(rng.integers(len(legal)))]
    cards = discard_cards(action) if is_discard(action) else (action,)
    for c in cards:
        assert ctl.selection.toggle(c)
    assert ctl.selection.pending_action == action
    assert ctl.confirm()


def advance(ctl: TableController, rng: np.random.Generator) -> None:
    """One step of the table: the show is skipped, the computer moves, or the person does."""
    ctl.show.skip()
    if ctl.computer.to_act:
        ctl.computer.step()
    else:
        human_move(ctl, rng)


def history_folder(tmp_path, n=3):
    """A history folder of ``n`` finished games of a random "person" against expectimax, one
    watched game (computer against computer) and one broken file."""
    folder = tmp_path / "history"
    folder.mkdir()
    games = []
    for i in range(n):
        g = play_game("random", "expectimax", 40 + i, agent_seed=0)  # the "person" is random
        data = {
            "format": SAVE_FORMAT,
            "version": 1,
            "seed": g.seed,
            "mode": "computer",
            "agents": [None, "expectimax"],
            "decisions": [],
            "cursor": 0,
            "finished": True,
            "record": g.to_record(),
        }
        (folder / f"game-2026120{i}-000000-seed{g.seed}.json").write_text(json.dumps(data))
        games.append(g)
    watched = dict(data, agents=["greedy", "expectimax"])
    (folder / "game-20261209-000000-seed1.json").write_text(json.dumps(watched))
    (folder / "game-20261210-000000-seed2.json").write_text("{broken")
    return folder, games
