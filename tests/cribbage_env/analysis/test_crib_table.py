"""benchmarks/tables/crib_table.py: the simulated crib values are exact crib scores (R9.5 crib flush,
R9.6 nobs) of the sampled discards (checked with score_hand, itself checked against the
brute-force reference in test_scoring/test_batch), and a tiny run writes a loadable table."""

from __future__ import annotations

import importlib.util
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from cribbage_env.analysis.discard import CribTable
from cribbage_env.rules.scoring import score_hand

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def crib_table_module():
    spec = importlib.util.spec_from_file_location(
        "crib_table_script", ROOT / "benchmarks" / "tables" / "crib_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["crib_table_script"] = module
    spec.loader.exec_module(module)
    return module


def test_one_sample_equals_brute_force_crib_scores(crib_table_module) -> None:
    ct = crib_table_module
    table = CribTable.zeros()
    total, count = ct.sample_cells(np.random.default_rng(11), True, table)
    # Replay the same sample by hand: same generator, same policy.
    deck = np.random.default_rng(11).permutation(52)
    o1, o2 = ct.policy_discard(deck[:6].astype(np.intp), False, table)
    rest = sorted(int(c) for c in deck[6:])
    exp_total = np.zeros(338)
    exp_count = np.zeros(338)
    for a, b in combinations(rest, 2):
        starters = [s for s in rest if s not in (a, b)]
        mean = sum(score_hand([o1, o2, a, b], s, crib=True) for s in starters) / len(starters)
        r1, r2 = sorted((a % 13, b % 13))
        cell = (r1 * 13 + r2) * 2 + int(a // 13 == b // 13)
        exp_total[cell] += mean
        exp_count[cell] += 1
    assert np.array_equal(count, exp_count)
    assert np.allclose(total, exp_total, atol=1e-9)


def test_tiny_run_writes_a_loadable_table(crib_table_module, tmp_path) -> None:
    out = tmp_path / "crib.json"
    assert (
        crib_table_module.main(
            ["--samples", "3", "--iterations", "2", "--seed", "1", "--out", str(out)]
        )
        == 0
    )
    t = CribTable.from_json(out)
    assert t.params["samples"] == 3 and t.params["iterations"] == 2
    assert len(t.params["history"]) == 2
    assert np.allclose(t.dealer, t.dealer.transpose(1, 0, 2))
