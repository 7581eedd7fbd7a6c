"""Tournament runner: duplicate pairing, point classification, summaries, backend equivalence."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents.tournament.backends import BackendError, make_backend
from agents.tournament.game_result import GameResult, SeatStats, seat_stats
from agents.tournament.play import play_game
from agents.tournament.runner import run_plan
from agents.tournament.summary import summarize, summarize_pairing
from agents.tournament.tournament import (
    AgentFailure,
    Pairing,
    TournamentError,
    game_seeds,
    make_plan,
)
from cribbage_env.rules.scoring import ScoreItem, ScoreKind


def test_seeds_are_seedsequence_spawn_children() -> None:
    children = np.random.SeedSequence(42).spawn(3)
    expected = [int(c.generate_state(1, np.uint64)[0]) >> 1 for c in children]
    assert game_seeds(42, 3) == expected
    assert len(set(game_seeds(42, 1000))) == 1000


def test_plan_validation_says_what_is_allowed() -> None:
    with pytest.raises(TournamentError, match="even"):
        make_plan(["random", "random"], 3)
    with pytest.raises(TournamentError, match="positive"):
        make_plan(["random", "random"], 0)
    with pytest.raises(TournamentError, match="two agent"):
        make_plan(["random"], 2)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        make_plan(["random", "nobody"], 2)
    assert make_plan(["random", "random"], 3, duplicate=False).total_games == 3


def test_round_robin_pairs_every_agent_once() -> None:
    plan = make_plan(["random", "random:", "random"], 4, seed=1)
    assert [(p.a, p.b) for p in plan.pairings] == [
        ("random", "random:"),
        ("random", "random"),
        ("random:", "random"),
    ]
    assert plan.total_games == 12


def _ev(kind, player=None, points=0, what="", reasons=()):
    return ce.Event(kind, 0, player, (), points, reasons, (0, 0), what)


def test_points_are_classified_by_role_with_heels_as_dealer_pegging() -> None:
    """R5.2 his heels goes to the dealer's pegging (and to `heels`); R9 shows split hand/crib."""
    K = ce.EventKind
    heels = (ScoreItem(ScoreKind.HIS_HEELS, (10,), 2),)
    events = [
        _ev(K.DEAL, player=0),  # seat 0 deals
        _ev(K.SCORE, 0, 2, reasons=heels),
        _ev(K.PLAY, 1, 2),
        _ev(K.PLAY, 0, 0),
        _ev(K.SCORE, 1, 1),
        _ev(K.SHOW, 1, 8, "hand"),
        _ev(K.SHOW, 0, 4, "hand"),
        _ev(K.SHOW, 0, 6, "crib"),
        _ev(K.DEAL, player=1),  # seat 1 deals
        _ev(K.PLAY, 0, 3),
        _ev(K.SHOW, 0, 5, "hand"),
    ]
    s0, s1 = seat_stats(events)
    assert s0 == SeatStats(
        deals_dealer=1,
        deals_pone=1,
        peg_dealer=2,
        peg_pone=3,
        hand_dealer=4,
        hand_pone=5,
        crib=6,
        heels=2,
    )
    assert s1 == SeatStats(
        deals_dealer=1,
        deals_pone=1,
        peg_dealer=0,
        peg_pone=3,
        hand_dealer=0,
        hand_pone=8,
        crib=0,
        heels=0,
    )


def test_classified_points_add_up_to_the_final_scores() -> None:
    from agents.tournament.game_result import seat_stats_fast

    heels = 0
    for seed in range(60):
        g = play_game("random", "random", seed)
        stats = seat_stats(g.events)
        assert seat_stats_fast(g) == stats  # the raw-log fast path agrees with typed events
        heels += stats[0].heels + stats[1].heels
        for seat in (0, 1):
            s = stats[seat]
            assert (
                s.peg_dealer + s.peg_pone + s.hand_dealer + s.hand_pone + s.crib == g.scores[seat]
            )
        assert stats[0].deals_dealer + stats[0].deals_pone == g.deal_no + 1
    assert heels > 0  # the sample exercises his heels (R5.2)


def test_duplicate_pairs_share_seed_cards_and_first_dealer_seat() -> None:
    """Same seed, seats swapped: each agent gets the other's cards and first deal (R2, R3)."""
    out = run_plan(make_plan(["random", "random"], 20, seed=5, block=3), backend="serial")
    rows = out.results
    assert [r.key for r in rows] == [(0, i, s) for i in range(10) for s in (False, True)]
    for straight, swapped in zip(rows[0::2], rows[1::2], strict=True):
        assert straight.seed == swapped.seed
        assert straight.first_dealer == swapped.first_dealer  # same seat deals first...
        assert straight.seat_a != swapped.seat_a  # ...held by A in one game, B in the other
        g1, g2 = ce.replay(straight.seed, straight.moves), ce.replay(swapped.seed, swapped.moves)
        deal1 = next(e for e in g1.events if e.kind is ce.EventKind.DEAL)
        deal2 = next(e for e in g2.events if e.kind is ce.EventKind.DEAL)
        assert deal1.cards == deal2.cards and deal1.player == deal2.player


def test_an_agent_against_itself_splits_every_duplicate_pair_exactly() -> None:
    """Agents' generators follow the seat, so the swapped game mirrors the first one."""
    out = run_plan(make_plan(["random", "random"], 30, seed=9), backend="serial")
    for straight, swapped in zip(out.results[0::2], out.results[1::2], strict=True):
        assert straight.moves == swapped.moves
        assert straight.a_won != swapped.a_won
        assert straight.margin_a == -swapped.margin_a
    p = out.summary()["pairings"][0]
    assert p["wins"] == [15, 15] and p["mean_margin"] == 0


def _game(index, swapped, winner, scores, first_dealer=0, deals=9):
    seats = (
        SeatStats(
            deals_dealer=5,
            deals_pone=4,
            peg_dealer=10,
            peg_pone=8,
            hand_dealer=40,
            hand_pone=30,
            crib=20,
            heels=2,
        ),
        SeatStats(
            deals_dealer=4,
            deals_pone=5,
            peg_dealer=12,
            peg_pone=5,
            hand_dealer=35,
            hand_pone=25,
            crib=15,
            heels=0,
        ),
    )
    return GameResult(0, index, swapped, 1000 + index, winner, scores, first_dealer, deals, seats)


def test_pairing_summary_against_hand_computed_values() -> None:
    rows = [
        _game(0, False, 0, (121, 111)),  # A (seat 0) wins by 10
        _game(0, True, 1, (85, 121)),  # A (seat 1) wins by 36, loser < 91: skunk (2 points)
        _game(1, False, 0, (121, 116), first_dealer=1),  # A wins by 5
        _game(
            1, True, 0, (121, 55), first_dealer=1, deals=11
        ),  # B (seat 0) wins by 66: double skunk
    ]
    s = summarize_pairing(Pairing(0, "x", "y"), rows, ce.STANDARD)
    assert s["games"] == 4 and s["pairs"] == 2
    assert s["wins"] == [3, 1]
    assert s["win_rate_ci"] == [pytest.approx(0.3006, abs=1e-4), pytest.approx(0.9544, abs=1e-4)]
    # Margins for A: +10, +36, +5, -66; pair means +23 and -30.5: mean -3.75,
    # sample sd |23 - -30.5| / sqrt(2) = 37.830, se = 37.830 / sqrt(2) = 26.75.
    assert s["mean_margin"] == pytest.approx(-3.75)
    assert s["mean_margin_ci"][0] == pytest.approx(-3.75 - 1.959964 * 26.75, abs=1e-3)
    assert s["mean_margin_ci"][1] == pytest.approx(-3.75 + 1.959964 * 26.75, abs=1e-3)
    assert s["match_points"] == [1 + 2 + 1, 3]
    assert s["skunks"] == [1, 1] and s["double_skunks"] == [0, 1]
    # The first dealer (seat 0, 0, 1, 1) won only game 0.
    assert s["first_dealer_win_rate"] == pytest.approx(
        1 / 4
    )  # only game 0: winner 0 == first dealer 0
    assert s["mean_deals"] == pytest.approx((9 + 9 + 9 + 11) / 4)
    # A sat in seat 0 in games 0 and 2, seat 1 in games 1 and 3: dealer pegging (10+12+10+12)/(5+4+5+4).
    assert s["points_per_deal"]["a"]["dealer"]["pegging"] == pytest.approx(44 / 18, abs=1e-4)
    assert s["points_per_deal"]["a"]["pone"]["hand"] == pytest.approx(
        (30 + 25 + 30 + 25) / 18, abs=1e-4
    )


def test_summary_rates_a_round_robin() -> None:
    plan = make_plan(["random", "random:", "random"], 4, seed=2)
    out = run_plan(plan, backend="serial")
    s = summarize(plan, out.results)
    assert s["games_played"] == 12 and len(s["pairings"]) == 3
    assert {r["agent"] for r in s["ratings"]} == {"random", "random:"}


class _Cheat:
    name = "cheat"

    def act(self, view, rng):
        return 9999


def test_an_illegal_agent_action_names_the_agent_and_seed(monkeypatch) -> None:
    import agents.tournament.play as t

    monkeypatch.setitem(t._AGENT_CACHE, ("cheat-spec", 1), _Cheat())
    with pytest.raises(AgentFailure, match="cheat-spec.*seed 7"):
        play_game("random", "cheat-spec", 7)


def test_serial_and_pool_backends_give_identical_results() -> None:
    plan = make_plan(["random", "random:"], 12, seed=11, block=2)
    serial = run_plan(plan, backend="serial")
    pool = run_plan(plan, backend="pool", workers=2)
    assert pool.results == serial.results
    assert pool.summary() == serial.summary()
    # Block size is scheduling too: it must not change anything.
    other = run_plan(
        make_plan(["random", "random:"], 12, seed=11, block=5, agent_seed=plan.agent_seed),
        backend="serial",
    )
    assert other.results == serial.results


@pytest.mark.integration  # every agent on both backends: seconds of pool start-up
def test_registered_agents_are_backend_independent() -> None:
    """Agents are cached per worker process: their choices must not depend on earlier games."""
    plan = make_plan(["expectimax", "greedy", "novice"], 6, seed=8, block=1)
    serial = run_plan(plan, backend="serial")
    pool = run_plan(plan, backend="pool", workers=2)
    assert pool.results == serial.results
    # Reversed task order within one process: a fresh cache must give the same games too.
    import agents.tournament.play as t

    t._AGENT_CACHE.clear()
    reversed_rows = [g for task in reversed(plan.tasks()) for g in t.play_task(task)]
    assert sorted(reversed_rows, key=lambda r: r.key) == list(serial.results)


@pytest.mark.integration  # a local Ray runtime: seconds of start-up, mostly waiting
def test_ray_backend_gives_identical_results() -> None:
    pytest.importorskip("ray")
    plan = make_plan(["random", "random:"], 8, seed=11, block=2)
    serial = run_plan(plan, backend="serial")
    ray_out = run_plan(plan, backend="ray", workers=2)
    assert ray_out.results == serial.results


def test_unreachable_ray_address_is_a_clear_error() -> None:
    pytest.importorskip("ray")
    with pytest.raises(BackendError, match="cannot reach the Ray cluster at 127.0.0.1:1"):
        make_backend("ray", 1, "127.0.0.1:1")


def test_interrupt_keeps_the_finished_blocks() -> None:
    plan = make_plan(["random", "random"], 10, seed=1, block=1)
    seen = []

    def stop_after_two(block):
        seen.append(block)
        if len(seen) == 2:
            raise KeyboardInterrupt

    out = run_plan(plan, backend="serial", on_block=stop_after_two)
    assert out.interrupted
    assert len(out.results) == 4  # two blocks of one duplicate pair
    assert out.summary()["games_played"] == 4
