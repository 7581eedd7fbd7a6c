"""One sealed path everywhere: every path that plays a seat outside this process deals from a
secret, and no seat (the start-up check's included) reads the results database, wherever it
lies.

The attacks: a seat that reads the database when it is built (resume's start-up check was built
without the list of hidden files; a database in a subfolder of a folder the seat reads is not
found by the top-level scan); ``sealed:`` and ``cmd:`` agents in a plain run (``cribbage
exploit``) dealt from the public seed; a Gym opponent that deals the seeds ``reset`` is given.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.bench import resume_tournament, run_tournament
from agents.tournament.tournament import game_seeds, make_plan
from cribbage_env.envs.single import CribbageEnv


def _db_below_the_import_path(tmp_path: Path, monkeypatch) -> Path:
    sub = tmp_path / "runs"
    sub.mkdir()
    sub.chmod(0o755)
    run_tournament(["random", "random"], 2, seed=1, agent_seed=1, backend="serial",
                   store=sub / "old.sqlite")  # fmt: skip
    monkeypatch.syspath_prepend(str(tmp_path))
    return sub


@pytest.mark.integration
def test_no_seat_reads_the_results_on_start_run_and_resume(tmp_path: Path, monkeypatch) -> None:
    """A run stopped after its first block and resumed: the start-up checks and every playing
    seat are built with the run's database hidden (here below a folder the seat reads)."""
    sub = _db_below_the_import_path(tmp_path, monkeypatch)
    db = sub / "old.sqlite"
    spec = f"cheater_agent:StartPeek:folder={sub}"
    out = run_tournament([spec, "random"], 8, seed=2, agent_seed=1, backend="serial", store=db,
                         isolate=20.0, block=2, on_block=lambda block: False)  # fmt: skip
    assert out.status != "complete" and out.games_played == 4
    again = resume_tournament(out.run_id, store=db, backend="serial", keep_results=True,
                              agents=[spec, "random"])  # fmt: skip
    assert again.status == "complete" and again.games_played == 4
    assert [r.forfeit for r in again.results] == [""] * len(again.results)


def test_a_sealed_agent_in_a_plain_run_is_dealt_from_a_secret() -> None:
    """``sealed:`` and ``cmd:`` agents (the exploit's target) make a plan keyed like
    ``--isolate``; in-process agents keep the public deals."""
    for spec in ("sealed:greedy", "cmd:/bin/true"):
        a = make_plan([spec, "random"], 4, seed=5, check_agents=False)
        assert a.deal_key and list(a.seeds) != game_seeds(5, 2)
    assert make_plan(["greedy", "random"], 4, seed=5).deal_key == ""


def test_a_sealed_seed_replayer_finds_nothing_in_a_plain_run() -> None:
    """The replayer knows the public derivation for root seed 1: in-process it finds the deal
    (and raises), as ``sealed:`` in a plain run (no ``--isolate``) it does not."""
    spec = "cheater_agent:SeedReplayer:loud=1,roots=1,games=4"
    control = run_tournament([spec, "random"], 2, seed=1, agent_seed=1, backend="serial")
    assert control.status == "failed" and "replayed the deal" in str(control.error)
    out = run_tournament([f"sealed:{spec}", "random"], 2, seed=1, agent_seed=1,
                         backend="serial", keep_results=True)  # fmt: skip
    assert out.status == "complete" and [r.forfeit for r in out.results] == ["", ""]


def test_a_gym_opponent_outside_the_process_cannot_replay_the_deals() -> None:
    """The replayer deals the seeds ``reset`` is given: it names the learner's hand at every
    discard it makes first, unless it plays outside the process (then the env keys the deals)."""
    from cheater_agent import EnvSeedReplayer

    for secret in (False, True):
        opp = EnvSeedReplayer(secret_deals=secret)
        env = CribbageEnv(opponent=opp, seat=0)
        named = 0
        for s in range(200):  # secret deals: whether it discards first is the key's chance
            before = len(opp.found)
            env.reset(seed=s)
            if len(opp.found) > before:
                truth = tuple(sorted(env.game.hands[0]))  # type: ignore[union-attr]
                named += opp.found[-1] == truth
            if len(opp.found) >= 3:
                break
        assert len(opp.found) >= 3
        assert named == (0 if secret else len(opp.found))


def test_a_sealed_gym_opponent_gets_keyed_deals() -> None:
    """``opponent="sealed:random"``: the env draws a key and ``reset(seed=s)`` no longer deals
    the public game of ``s``; the same env repeats its deals."""
    from gymnasium.utils import seeding

    from cribbage_env.envs.episode import episode_seed

    env = CribbageEnv(opponent="sealed:random", seat=0)
    try:
        env.reset(seed=3)
        first = sorted(env.game.hands[0])  # type: ignore[union-attr]
        gen, _ = seeding.np_random(3)
        assert first != sorted(ce.new_game(episode_seed(gen)).hands[0])
        env.reset(seed=3)
        assert sorted(env.game.hands[0]) == first  # type: ignore[union-attr]
    finally:
        env.close()


def test_the_aec_env_deals_from_a_secret_when_asked() -> None:
    pytest.importorskip("pettingzoo")
    from cribbage_env.envs.aec import raw_env

    hands = []
    for secret in (False, True, True):
        env = raw_env(secret_deals=secret)
        env.reset(seed=3)
        hands.append(sorted(env.game.hands[0]))  # type: ignore[union-attr]
    assert hands[0] != hands[1] and hands[1] != hands[2]
    np.testing.assert_equal(len(hands[0]), 6)
