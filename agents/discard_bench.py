"""Discard strategies compared on the same deals (``cribbage discards``).

A **discard strategy** picks the two cards a six-card hand gives to the crib; it is named like an
agent spec (a built-in, a plug-in, ``module.path:function`` or an agent: see
:mod:`agents.discards.strategies`).

**Paired deals.** Deal ``i`` is twelve cards dealt as the engine deals (R3.2, alternately from the
pone) plus the starter, from ``numpy.random.default_rng(seed)``. Every strategy holds the dealer's
six and, separately, the pone's six of the same deal, while the other seat discards with the
analyzer. Net show points of the strategy's seat: as dealer own hand + own crib, as pone own hand
minus the dealer's crib (R9). Differences to the first strategy are taken deal by deal (paired),
so their 95% intervals are much narrower than those of the means.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cribbage_env.analysis.discard import (
    DISCARD_INDEX,
    KEEP_INDEX,
    default_crib_table,
    discard_values,
)
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.core import STANDARD, Phase, Rules
from cribbage_env.rules.views import PlayerView
from cribbage_env.unseen.batch import score_batch

from .discards.strategies import REFERENCE, StrategyError, make_strategy, strategy_rng
from .params import Param
from .stats import mean_ci
from .tournament.limits import LIMITS

#: Deals refused above this (a typo should not run for a day).
MAX_DEALS = LIMITS["deals"]


# --------------------------------------------------------------------------------- deals


def deal_cards(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` deals: pone's six, dealer's six (both (n, 6)) and the starters (n,)."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.intp), (n, 1)), axis=1)
    return decks[:, 0:12:2], decks[:, 1:12:2], decks[:, 12]


def compare(
    specs: Sequence[str],
    deals: int,
    seed: int = 7,
    *,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Net show points per deal of each strategy as dealer and as pone (JSON-ready), with the
    per-deal nets under ``"_nets"`` (arrays, for plots; drop before saving)."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise StrategyError(f"deals must be an integer in 1..{MAX_DEALS:,}, got {deals!r}")
    strategies = [make_strategy(s) for s in specs]
    if not strategies:
        raise StrategyError("name at least one discard strategy")
    table = default_crib_table()
    pone6, dealer6, starters = deal_cards(seed, deals)
    rngs = [strategy_rng(seed, s.spec) for s in strategies]
    k = len(strategies)
    pick = np.zeros((k, 2, deals), dtype=np.intp)  # [strategy, role (0 dealer, 1 pone), deal]
    ref = np.zeros((2, deals), dtype=np.intp)
    for d in range(deals):
        vals = []
        for role, hand, is_dealer in ((0, dealer6[d], True), (1, pone6[d], False)):
            ev, _, _, crib = discard_values(hand, is_dealer, table)
            vals.append((ev, crib))
            ref[role, d] = int(np.argmax(ev + crib))
            for i, s in enumerate(strategies):
                pick[i, role, d] = s.choose(hand, is_dealer, rngs[i], (ev, crib))
        if progress is not None and d % 1000 == 999:
            progress(1000)
    rows = np.arange(deals)
    nets = np.zeros((k, 2, deals))
    for i in range(k):
        for role, own, other in ((0, dealer6, pone6), (1, pone6, dealer6)):
            mine, theirs = pick[i, role], ref[1 - role]
            keep = own[rows[:, None], KEEP_INDEX[mine]]
            crib = np.concatenate(
                [
                    own[rows[:, None], DISCARD_INDEX[mine]],
                    other[rows[:, None], DISCARD_INDEX[theirs]],
                ],
                axis=1,
            )
            hand_pts = score_batch(keep, starters, check=False)
            crib_pts = score_batch(crib, starters, crib=True, check=False)
            nets[i, role] = hand_pts + crib_pts if role == 0 else hand_pts - crib_pts
    return {
        "deals": deals,
        "seed": seed,
        "reference": REFERENCE,
        "crib_table": table.params.get("policy"),
        "strategies": [
            _summary(s.spec, s.kind, nets[i], nets[0], i == 0) for i, s in enumerate(strategies)
        ],
        "_nets": nets,
    }


def _ci(values: np.ndarray) -> dict:
    mean, lo, hi = mean_ci(values.tolist())
    return {"mean": _r(mean), "ci95": [_r(lo), _r(hi)]}


def _r(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 4)


def _summary(spec: str, kind: str, net: np.ndarray, first: np.ndarray, is_first: bool) -> dict:
    both, both0 = net.mean(axis=0), first.mean(axis=0)
    out = {
        "strategy": spec,
        "kind": kind,
        "dealer": _ci(net[0]),
        "pone": _ci(net[1]),
        "mean": _ci(both),
    }
    if not is_first:
        out["vs_first"] = {
            "dealer": _ci(net[0] - first[0]),
            "pone": _ci(net[1] - first[1]),
            "mean": _ci(both - both0),
        }
    return out


def format_report(report: dict) -> str:
    """The comparison as a text table."""
    first = report["strategies"][0]["strategy"]
    lines = [
        f"{report['deals']} deals (seed {report['seed']}), each strategy in both seats; the "
        f"other seat discards with the {report['reference']}",
        "net show points per deal (dealer: hand + own crib; pone: hand - dealer's crib), 95% CI;",
        f"differences to {first!r} are paired deal by deal",
        "",
    ]
    w = max(12, *(len(s["strategy"]) for s in report["strategies"]))

    def cell(d: dict) -> str:
        lo, hi = d["ci95"]
        half = (hi - lo) / 2 if lo is not None else float("nan")
        return f"{d['mean']:+7.3f} ±{half:5.3f}"

    lines.append(f"{'strategy':<{w}}  {'as dealer':>14}  {'as pone':>14}  {'mean':>14}")
    for s in report["strategies"]:
        lines.append(
            f"{s['strategy']:<{w}}  {cell(s['dealer'])}  {cell(s['pone'])}  {cell(s['mean'])}"
        )
    diffs = [(f"{s['strategy']} - {first}", s["vs_first"]) for s in report["strategies"][1:]]
    if diffs:
        lines += ["", "paired differences to the first strategy:"]
        wd = max(w, *(len(label) for label, _ in diffs))
        for label, v in diffs:
            lines.append(
                f"{label:<{wd}}  {cell(v['dealer'])}  {cell(v['pone'])}  {cell(v['mean'])}"
            )
    games = report.get("games")
    if games:
        lines += [
            "",
            f"whole games: each strategy's discards with expectimax pegging vs "
            f"expectimax, {games['games']} games each (duplicate deals, seed "
            f"{games['seed']})",
        ]
        for g in games["results"]:
            lo, hi = g["win_rate_ci"]
            m_lo, m_hi = g["mean_margin_ci"]
            line = (
                f"{g['strategy']:<{w}}  win rate {100 * g['win_rate']:5.1f}% "
                f"({100 * lo:.1f}-{100 * hi:.1f}%)  margin {g['mean_margin']:+.2f} "
                f"({m_lo:+.2f}..{m_hi:+.2f})"
            )
            if "margin_vs_first" in g:
                d = g["margin_vs_first"]
                line += f"  vs first {d['mean']:+.2f} ({d['ci95'][0]:+.2f}..{d['ci95'][1]:+.2f})"
            lines.append(line)
    return "\n".join(lines)


# --------------------------------------------------------------------------------- games


class DiscarderAgent:
    """A discard strategy with expectimax pegging (the whole-game test of ``cribbage discards``)."""

    name = "discarder"
    PARAMS = (
        Param(
            "strategy",
            str,
            REFERENCE,
            "the discard strategy (a name or module.path:function; no parameters of its own)",
        ),
    )

    def __init__(self, strategy: str = REFERENCE) -> None:
        from .players.expectimax import ExpectimaxAgent

        self.strategy = make_strategy(strategy)
        self._peg = ExpectimaxAgent()
        self._table = default_crib_table()
        self.spec = f"discarder:strategy={strategy}"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is not Phase.DISCARD:
            return self._peg.act(view, rng)
        hand = np.array(view.hand, dtype=np.intp)
        ev, _, _, crib = discard_values(hand, view.is_dealer, self._table)
        i = self.strategy.choose(hand, view.is_dealer, rng, (ev, crib))
        a, b = hand[DISCARD_INDEX[i]]
        return discard_action(int(a), int(b))


def whole_games(
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    agent_seed: int | None = None,
    backend: str = "pool",
    workers: int | None = None,
    rules: Rules | str = STANDARD,
) -> dict:
    """Each strategy's discards with expectimax pegging against ``expectimax`` itself, on the
    same duplicate deals and one agent seed (fresh if None, and recorded), games of ``rules``;
    margins per duplicate pair are compared with the first strategy's."""
    from cribbage_env.seeding import new_agent_seed

    from .bench import run_tournament

    for s in specs:
        if "," in s:
            raise StrategyError(
                f"--games plays {s!r} in worker processes as "
                f"'discarder:strategy=...': give it at most one parameter (no commas)"
            )
    agent_seed = new_agent_seed() if agent_seed is None else agent_seed
    out: list[Any] = []
    pair_margins: list[Any] = []
    for s in specs:
        run = run_tournament(
            [f"discarder:strategy={s}", "expectimax"], games, seed, agent_seed=agent_seed,
            backend=backend, workers=workers, keep_results=True, rules=rules,
        )  # fmt: skip
        if run.status == "interrupted":
            raise KeyboardInterrupt
        if run.status != "complete":
            raise RuntimeError(f"the games of {s!r} failed: {run.error}")
        p = run.summary["pairings"][0]
        by_pair: dict[int, list[int]] = {}
        for r in run.results:
            by_pair.setdefault(r.index, []).append(r.margin_a)
        pair_margins.append(np.array([np.mean(by_pair[i]) for i in sorted(by_pair)]))
        row = {
            "strategy": s,
            "games": p["games"],
            "win_rate": p["win_rate"],
            "win_rate_ci": p["win_rate_ci"],
            "mean_margin": p["mean_margin"],
            "mean_margin_ci": p["mean_margin_ci"],
            "seconds": round(run.elapsed, 2),
        }
        if out:
            row["margin_vs_first"] = _ci(pair_margins[-1] - pair_margins[0])
        out.append(row)
    return {
        "games": games,
        "seed": seed,
        "agent_seed": str(agent_seed),
        "opponent": "expectimax",
        "rules": Rules.named(rules).spec,
        "results": out,
    }
