"""Report tables widen their name column to the longest agent spec: a name is never cut, since
specs such as ``module.path:Name`` or ``maskable_ppo:path=...`` differ only at their end."""

from __future__ import annotations

from ui.cli.cmd_results import _format_compare, compare
from ui.reports.bench_report import format_summary

A, B = "tests.plugin_agents:RandomLegal", "tests.plugin_agents:FirstLegal"
PAIRING = f"{A} vs {B}"


def _run_dict(run_id: int, win_rate: float) -> dict:
    pairing = {
        "agents": [A, B],
        "games": 40,
        "win_rate": win_rate,
        "win_rate_ci": [win_rate - 0.15, win_rate + 0.15],
        "mean_margin": 3.0,
    }
    return {"id": run_id, "params": {}, "summary": {"pairings": [pairing]}}


def test_compare_table_prints_whole_names_in_line_with_the_headings() -> None:
    r1, r2 = _run_dict(1, 0.5), _run_dict(2, 0.6)
    lines = _format_compare(r1, r2, compare(r1, r2)).splitlines()
    header = next(line for line in lines if line.startswith("pairing (A vs B)"))
    (row,) = (line for line in lines if line.startswith(PAIRING))
    assert row[len(PAIRING)] == " "
    for heading, figure in (("run 1 win% A", "50.0 [35,65]"), ("run 2 win% A", "60.0 [45,75]")):
        end = header.index(heading) + len(heading)
        assert row[end - len(figure) : end] == figure


def _summary() -> dict:
    luck = {"units": 40, "plain_win": 0.55, "plain_win_ci": [0.4, 0.7], "win": 0.52,
            "win_ci": [0.45, 0.59], "margin": 2.5, "margin_ci": [1.0, 4.0],
            "variance_ratio": 2.5}  # fmt: skip
    pairing = {"agents": [A, B], "games": 80, "wins": [44, 36], "win_rate": 0.55,
               "win_rate_ci": [0.44, 0.66], "mean_margin": 3.0, "mean_margin_ci": [0.5, 5.5],
               "match_points": [50, 40], "first_dealer_win_rate": 0.5, "mean_deals": 9.0,
               "luck_adjusted": luck}  # fmt: skip
    role = {"deals": 360, "pegging": 3.0, "hand": 4.5, "crib": 4.0}
    return {
        "pairings": [pairing],
        "agents": {A: {"dealer": role, "pone": role}, B: {"dealer": role, "pone": role}},
        "games_played": 80,
        "games_planned": 80,
        "ratings": [{"agent": A, "elo": 35.0}, {"agent": B, "elo": -35.0}],
        "ratings_method": "Bradley-Terry",
    }


def test_bench_summary_tables_print_whole_names_in_line_with_the_headings() -> None:
    lines = format_summary(_summary()).splitlines()
    rows = [line for line in lines if line.startswith(PAIRING + " ")]
    assert len(rows) == 2  # the results table and the luck-adjusted one
    for heading, figure, row in (("win% A", "55.0", rows[0]), ("var. ratio", "2.50", rows[1])):
        header = lines[lines.index(row) - 1]
        end = header.index(heading) + len(heading)
        assert row[end - len(figure) : end] == figure, (header, row)
    for name in (A, B):
        assert any(line.startswith(name + " ") for line in lines)  # points per deal by role
        assert any(line.strip().startswith(name + " ") for line in lines)  # ratings
