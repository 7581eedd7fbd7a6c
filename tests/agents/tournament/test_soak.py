"""The soak benchmark in its short form: every agent pair, invariants after every
decision, zero violations."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "checks"))

import pytest  # noqa: E402
import soak  # noqa: E402


@pytest.mark.integration  # 40 games of every agent pair: the README tier plays one (below)
def test_short_soak_has_no_violations(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    assert soak.main(["--games", "40", "--record-every", "5", "--out", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["violations"] == 0
    assert summary["games"] == 40 and summary["decisions"] > 40 * 60
    assert summary["events"] > summary["decisions"]  # deals, shows, go points are events too


def test_soak_reports_a_violating_agent(tmp_path: Path) -> None:
    """The soak must be able to fail: an agent that plays an illegal card is reported."""

    class Cheater:
        name = "cheater"

        def act(self, view, rng):
            return 200  # never a legal action

    n, problems = soak.soak_game(1, ("random", "random"), False, False)
    assert not problems and n > 0
    import agents.registry as reg

    real = reg.make_agent
    try:
        soak.make_agent = lambda spec: Cheater() if spec == "cheater" else real(spec)
        _, problems = soak.soak_game(1, ("cheater", "random"), False, False)
    finally:
        soak.make_agent = real
    assert problems and "illegal" in problems[0]
