"""The table's agents learn nothing of the deck from their generators.

The computer's generator (and the hint's, and the autoplay pilot's) used to be
``default_rng([game_seed, stream, decision])``: its seed sequence handed any agent the game seed,
hence both hands, the crib and the starter. Now it is :func:`cribbage_env.seeding.agent_rng` of an
independent agent seed, kept in the save so Continue, undo/redo and Restart stay exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from cheater_agent import Cheated, CheaterAgent, rebuild

from cribbage_env.rules.core import Phase
from ui.table.computer import Computer
from ui.table.controller import Mode, TableController
from ui.table.teaching import hints


def _play_first_discards(c: TableController) -> None:
    """Both discards of the first deal: the person's at random, the computer's by its agent."""
    rng = np.random.default_rng(0)
    while c.game.deal_no < 1 and not c.game.is_over:
        c.show.skip()
        if c.computer.to_act:
            c.computer.step()
            continue
        if c.phase is not Phase.DISCARD:
            if c.phase is Phase.PLAY:
                return
            c.selection.cut_at(int(rng.integers(52)))
            continue
        legal = c.game.legal_actions()
        c.decide(int(legal[int(rng.integers(len(legal)))]))


def _cheater_table(seed: int) -> TableController:
    c = TableController(seed, mode=Mode.COMPUTER, opponent="random", interactive_cuts=False)
    c.seats[1].agent = CheaterAgent()
    return c


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
def test_the_computer_cannot_rebuild_the_deck(seed: int) -> None:
    c = _cheater_table(seed)
    _play_first_discards(c)  # raises Cheated if the generator gave the deal away
    assert c.phase is Phase.PLAY


def test_the_cheater_catches_the_old_generator(monkeypatch) -> None:
    """Guard: with the old derivation the same cheater rebuilds the deal."""

    def old_rng(self, stream: int) -> np.random.Generator:
        ctl = self._ctl
        return np.random.default_rng([ctl.seed, stream, ctl.history.cursor])

    monkeypatch.setattr(Computer, "rng", old_rng)
    with pytest.raises(Cheated):
        _play_first_discards(_cheater_table(7))


def test_the_hint_generator_does_not_carry_the_seed(monkeypatch) -> None:
    seen = []
    original = hints.hint_for

    def spy(view, rng):
        seen.append(rebuild(view, rng))
        return original(view, rng)

    monkeypatch.setattr(hints, "hint_for", spy)
    c = TableController(11, mode=Mode.COMPUTER, opponent="random", interactive_cuts=False)
    while not c.human_to_act or c.phase is not Phase.DISCARD:
        c.computer.step()
    assert c.coach.request_hint() is not None
    assert seen == [None]


def test_the_agent_seed_is_fresh_recorded_and_resumed() -> None:
    a = TableController(5, mode=Mode.COMPUTER, opponent="random")
    b = TableController(5, mode=Mode.COMPUTER, opponent="random")
    assert a.agent_seed != b.agent_seed  # from OS entropy
    data = a.to_save()
    assert data["agent_seed"] == a.agent_seed
    resumed = TableController.from_save(data)
    assert resumed.agent_seed == a.agent_seed
    old = dict(data)
    del old["agent_seed"]  # a save written before the agent seed existed still resumes
    assert TableController.from_save(old).game == a.game


def test_restart_replays_the_computer_exactly() -> None:
    """Same agent seed: the computer makes the same choices after a restart (R11.6)."""
    c = TableController(3, mode=Mode.COMPUTER, opponent="random", interactive_cuts=False)
    rng = np.random.default_rng(1)
    for _ in range(25):
        if c.computer.to_act:
            c.computer.step()
        elif c.human_to_act:
            legal = c.game.legal_actions()
            c.decide(int(legal[int(rng.integers(len(legal)))]))
        c.show.skip()
    first = c.decisions
    humans = [a for a, who in zip(first, c.history.actors, strict=True) if who == 0]
    assert c.restart()
    it = iter(humans)
    while len(c.decisions) < len(first):
        c.show.skip()
        if c.computer.to_act:
            c.computer.step()
        else:
            c.decide(next(it))
    assert c.decisions == first
