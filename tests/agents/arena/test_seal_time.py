"""A fair share of the machine: a seat's time limits count its own processes' CPU time, its
start-up counts against the game's budget, its life against the run's, and each forfeit names
the limit it broke.

The attack: a neighbour that starts 12 spinning children to make an honest seat time out.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena.client import ProtocolBot, SeatForfeit

SPIN = (
    "import time\n"
    "def spin(s):\n"
    "    t = time.process_time()\n"
    "    while time.process_time() - t < s:\n"
    "        pass\n"
)


def _bot(tmp_path: Path, before_hello: float, per_decision: float) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text(
        "import json, sys\n" + SPIN + f"spin({before_hello})\n"
        "print(json.dumps({'bot': 'spin', 'protocol': 1}), flush=True)\n"
        "for line in sys.stdin:\n"
        f"    spin({per_decision})\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n"
    )
    return [sys.executable, str(path)]


def _decide(bot: ProtocolBot, n: int) -> None:
    g, rng = ce.new_game(1), np.random.default_rng(0)
    for _ in range(n):
        p = g.to_act
        g.apply(bot.act(g.view(p), rng), p)


def test_start_up_counts_against_the_games_budget(tmp_path: Path) -> None:
    bot = ProtocolBot(_bot(tmp_path, 0.6, 0.0), timeout=5.0, game_budget=0.5)
    try:
        with pytest.raises(SeatForfeit, match=r"used its game budget of 0.5 s \(CPU time\)"):
            _decide(bot, 1)
    finally:
        bot.close()


def test_the_run_budget_counts_every_process_of_the_seat(tmp_path: Path) -> None:
    """0.3 s of CPU a decision, 0.5 s for the run: the third decision is refused, and a new
    process (after that forfeit) starts with the run's count, not a fresh one."""
    bot = ProtocolBot(_bot(tmp_path, 0.0, 0.3), timeout=5.0, run_budget=0.5)
    try:
        with pytest.raises(SeatForfeit, match=r"used its run budget of 0.5 s of CPU time"):
            _decide(bot, 4)
        with pytest.raises(SeatForfeit, match="run budget"):
            _decide(bot, 1)
    finally:
        bot.close()


def test_the_decision_limit_counts_cpu_not_waiting(tmp_path: Path) -> None:
    """A bot that computes 0.4 s breaks a 0.3 s limit, naming it; one that sleeps 0.5 s (no
    CPU) within 3 times the limit answers."""
    bot = ProtocolBot(_bot(tmp_path, 0.0, 0.4), timeout=0.3)
    try:
        with pytest.raises(SeatForfeit, match=r"CPU time deciding: past the decision timeout"):
            _decide(bot, 1)
    finally:
        bot.close()
    path = tmp_path / "sleepy.py"
    path.write_text(
        "import json, sys, time\n"
        "print(json.dumps({'bot': 'sleepy', 'protocol': 1}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    time.sleep(0.5)\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n"
    )
    sleepy = ProtocolBot([sys.executable, str(path)], timeout=0.3)
    try:
        _decide(sleepy, 2)
    finally:
        sleepy.close()


@pytest.mark.integration
def test_a_starving_neighbour_does_not_make_an_honest_seat_forfeit() -> None:
    """Sealed ``expert`` with a 2 s decision timeout against a neighbour that starts 12
    spinning children, over the same games as against an honest neighbour: the same (no)
    forfeits of expert's."""
    from agents.bench import run_tournament

    def expert_forfeits(other: str) -> int:
        out = run_tournament(["expert", other], 4, seed=3, agent_seed=1, backend="serial",
                             isolate=2.0, keep_results=True)  # fmt: skip
        assert out.status == "complete"
        return sum("expert" in r.forfeit.split(" (seat")[0] for r in out.results if r.forfeit)

    assert expert_forfeits("cheater_agent:Starver") == expert_forfeits("random") == 0
