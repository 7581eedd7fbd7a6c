"""Smoke test of the MaskablePPO example (runs only with the optional 'rl' extra installed)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from extras import needs_training

ROOT = Path(__file__).resolve().parents[3]


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "train_maskable_ppo", ROOT / "benchmarks" / "strength" / "train_maskable_ppo.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_a_few_thousand_steps_and_reports_win_rates(tmp_path) -> None:
    needs_training("sb3_contrib")  # here, not at import: collecting imports no torch
    script = _load_script()
    out = tmp_path / "ppo.json"
    code = script.main(
        ["--timesteps", "2048", "--n-steps", "512", "--eval-games", "4", "--out", str(out)]
    )
    assert code == 0
    result = json.loads(out.read_text())
    assert result["timesteps"] >= 2048
    for key in ("before", "after"):
        r = result[key]
        assert r["games"] == 4 and 0 <= r["wins"] <= 4
        assert r["win_rate"] == r["wins"] / 4
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]


def test_wilson_interval_matches_a_known_value() -> None:
    """Wilson 95% interval of 50/100 is about 0.404-0.596 (textbook value)."""
    lo, hi = _load_script().wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
