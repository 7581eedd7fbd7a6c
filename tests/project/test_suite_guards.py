"""The test suite cannot hang: a test over its time limit fails and the run goes on (xdist
included), and a sealed seat a failing test opened is closed by the suite, not left running."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_fast_tier_has_a_per_test_time_limit(request) -> None:
    limit = float(request.config.getini("timeout") or 0)
    assert 0 < limit <= 600, limit


@pytest.mark.integration  # two xdist workers start: seconds, more on a loaded machine
def test_a_hung_test_fails_and_the_run_ends_under_xdist(pytester) -> None:
    pytester.makepyfile(
        test_hang="""
        import time

        def test_hangs():
            time.sleep(3600)

        def test_passes():
            assert True
        """
    )
    t0 = time.monotonic()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-o", "timeout=3")
    result.assert_outcomes(passed=1, failed=1)
    assert time.monotonic() - t0 < 90
    assert "Timeout" in result.stdout.str()


def _alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def test_a_seat_a_failing_test_opened_is_closed(pytester, monkeypatch) -> None:
    """The project's conftest in a session of its own: a test opens a sealed seat, starts its
    bot and fails; by the next test the bot's process group is gone (the session goes on: a seat
    left open lives as long as the run, and a run that hangs keeps it for good)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "tests"), str(ROOT)]))
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text())
    pytester.makepyfile(
        test_seat="""
        import os, time
        import numpy as np
        import cribbage_env as ce
        from agents.arena.seat import SealedSeat

        def test_1_fails_with_a_seat_open():
            seat = SealedSeat("random", 20.0)
            g = ce.new_game(1)
            seat.act(g.view(g.to_act), np.random.default_rng(0))
            open("pid.txt", "w").write(str(seat._proc.pid))
            assert False, "failed with its seat open"

        def test_2_the_seat_is_gone():
            pid = int(open("pid.txt").read())
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                return
            raise AssertionError("the seat outlived the test that opened it")
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "0")
    pid = int((pytester.path / "pid.txt").read_text())
    if _alive(pid):
        os.killpg(pid, signal.SIGKILL)
    result.assert_outcomes(failed=1, passed=1)


@pytest.mark.integration
def test_integration_tests_get_the_longer_limit(request) -> None:
    from conftest import INTEGRATION_TIMEOUT

    marker = request.node.get_closest_marker("timeout")
    assert marker is not None and marker.args[0] == INTEGRATION_TIMEOUT
