"""Text tables and CSV for tournament summaries (shared by ``cribbage bench`` and ``results``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from agents.tournament.luck_stats import MIN_UNITS
from cribbage_env import Rules, RulesError


def rules_spec(params: dict) -> str:
    """The rules a run was played by, as ``--rules`` names them (``standard``, ``short``,
    ``target=91``): a run's figures mean something only beside them."""
    try:
        return Rules.from_json(params.get("rules") or {}).spec
    except RulesError:
        return "unreadable"


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{100 * x:5.1f}"


def _num(x: float | None, fmt: str = "{:+.2f}") -> str:
    return "-" if x is None else fmt.format(x)


def pairing_rows(summary: dict) -> list[dict]:
    """Flat rows, one per pairing, for CSV and comparisons."""
    out = []
    for p in summary["pairings"]:
        a, b = p["agents"]
        out.append(
            {
                "agent_a": a,
                "agent_b": b,
                "games": p["games"],
                "wins_a": p["wins"][0],
                "wins_b": p["wins"][1],
                "win_rate_a": p["win_rate"],
                "win_rate_ci_low": p["win_rate_ci"][0],
                "win_rate_ci_high": p["win_rate_ci"][1],
                "mean_margin": p["mean_margin"],
                "mean_margin_ci_low": p["mean_margin_ci"][0],
                "mean_margin_ci_high": p["mean_margin_ci"][1],
                "match_points_a": p["match_points"][0],
                "match_points_b": p["match_points"][1],
                "skunks_a": p["skunks"][0],
                "skunks_b": p["skunks"][1],
                "first_dealer_win_rate": p["first_dealer_win_rate"],
                "mean_deals": p["mean_deals"],
                **_luck_columns(p.get("luck_adjusted")),
            }
        )
    return out


def _luck_columns(la: dict | None) -> dict:
    la = la or {}
    ci, mci = la.get("win_ci") or [None, None], la.get("margin_ci") or [None, None]
    return {
        "luck_adjusted_win_a": la.get("win"),
        "luck_adjusted_win_ci_low": ci[0],
        "luck_adjusted_win_ci_high": ci[1],
        "luck_adjusted_margin": la.get("margin"),
        "luck_adjusted_margin_ci_low": mci[0],
        "luck_adjusted_margin_ci_high": mci[1],
        "variance_ratio": la.get("variance_ratio"),
    }


def format_luck(summary: dict) -> list[str]:
    """The luck-adjusted lines: plain (over duplicate pairs) and adjusted win rates with 95%
    intervals, and the variance ratio (how many times fewer games the adjusted one needs);
    "too few games" below :data:`~agents.tournament.luck_stats.MIN_UNITS` pairs, no ratio from
    a zero variance. Names are never cut."""
    rows = [(p["agents"], p.get("luck_adjusted")) for p in summary["pairings"]]
    if not any(la for _, la in rows):
        return []
    pw = max([34] + [len(" vs ".join(agents)) for agents, _ in rows])
    lines = [
        "",
        "luck-adjusted (the result minus the luck of the cut, the deals and the starters; "
        "docs/guide/luck.md)",
        "normal intervals over duplicate pairs; the adjusted estimate is unbiased (over many runs "
        "it averages to the true win rate), not bounded: a figure or interval may leave "
        f"[0, 100%]; shown from {MIN_UNITS} pairs",
        f"{'pairing (A vs B)':<{pw}} {'plain win% A (95% CI)':>22} {'adjusted win% A (95% CI)':>25} "
        f"{'adj. margin (95% CI)':>22} {'var. ratio':>10}",
    ]
    for agents, la in rows:
        name = " vs ".join(agents)
        if not la:
            lines.append(f"{name:<{pw}} {'luck not recorded':>22}")
            continue
        if la.get("units", 0) < MIN_UNITS:  # from the units: summaries stored before say none
            lines.append(
                f"{name:<{pw}} too few games: {la['units']} duplicate pairs, "
                f"the estimate needs {MIN_UNITS}"
            )
            continue
        plo, phi = la["plain_win_ci"]
        lo, hi = la["win_ci"]
        mlo, mhi = la["margin_ci"]
        plain = f"{_pct(la['plain_win'])} [{_pct(plo).strip()}, {_pct(phi).strip()}]"
        adj = f"{_pct(la['win'])} [{_pct(lo).strip()}, {_pct(hi).strip()}]"
        margin = f"{_num(la['margin'])} [{_num(mlo, '{:+.1f}')}, {_num(mhi, '{:+.1f}')}]"
        ratio = _num(la["variance_ratio"] or None, "{:.2f}")  # 0: a zero variance, stored before
        lines.append(f"{name:<{pw}} {plain:>22} {adj:>25} {margin:>22} {ratio:>10}")
    return lines


def to_csv(rows: Sequence[dict]) -> str:
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return buf.getvalue()


def format_summary(summary: dict) -> str:
    """The human report: pairings, points per deal by role, ratings. Name columns widen to the
    longest agent spec: names are never cut (``maskable_ppo:path=...`` specs differ at the end)."""
    lines = []
    pw = max([34] + [len(" vs ".join(p["agents"])) for p in summary["pairings"]])
    aw = max([26] + [len(a) for a in summary["agents"]])
    played, planned = summary["games_played"], summary["games_planned"]
    if played != planned:
        lines.append(f"PARTIAL: {played} of {planned} games played")
    lines.append(
        f"{'pairing (A vs B)':<{pw}} {'games':>6} {'wins A-B':>11} {'win% A':>7} {'95% CI':>15} "
        f"{'margin A-B (95% CI)':>22} {'match pts':>11} {'1st dlr':>7} {'deals':>5}"
    )
    for p in summary["pairings"]:
        a, b = p["agents"]
        lo, hi = p["win_rate_ci"]
        mlo, mhi = p["mean_margin_ci"]
        ci = f"[{_pct(lo).strip()}, {_pct(hi).strip()}]" if p["games"] else "-"
        margin = (
            f"{_num(p['mean_margin'])} [{_num(mlo, '{:+.1f}')}, {_num(mhi, '{:+.1f}')}]"
            if p["games"]
            else "-"
        )
        lines.append(
            f"{a + ' vs ' + b:<{pw}} {p['games']:>6} {p['wins'][0]:>5}-{p['wins'][1]:<5} "
            f"{_pct(p['win_rate']):>7} {ci:>15} {margin:>22} "
            f"{p['match_points'][0]:>5}-{p['match_points'][1]:<5} {_pct(p['first_dealer_win_rate']):>7} "
            f"{_num(p['mean_deals'], '{:.1f}'):>5}"
        )
    for p in summary["pairings"]:
        if p.get("forfeits"):
            a, b = p["agents"]
            lines.append(
                f"forfeits (an isolated agent crashed, hung or answered illegally): "
                f"{a} {p['forfeits'][0]}, {b} {p['forfeits'][1]}"
            )
    lines.extend(format_luck(summary))
    lines.append("")
    lines.append("points per deal by role (pegging includes go, last card and his heels)")
    lines.append(
        f"{'agent':<{aw}} {'role':<6} {'deals':>7} {'pegging':>8} {'hand':>6} {'crib':>6} {'total':>6}"
    )
    for agent, roles in summary["agents"].items():
        for role in ("dealer", "pone"):
            r = roles[role]
            if not r["deals"]:
                continue
            total = sum(x for x in (r["pegging"], r["hand"], r["crib"]) if x is not None)
            lines.append(
                f"{agent:<{aw}} {role:<6} {r['deals']:>7} {r['pegging']:>8.2f} {r['hand']:>6.2f} "
                f"{r['crib']:>6.2f} {total:>6.2f}"
            )
    if summary.get("ratings"):
        lines.append("")
        lines.append(f"ratings ({summary['ratings_method']})")
        for r in summary["ratings"]:
            lines.append(f"  {r['agent']:<{max(40, aw)}} {r['elo']:+8.1f}")
    elif summary.get("rating_error"):
        lines.append(f"ratings: {summary['rating_error']}")
    return "\n".join(lines)
