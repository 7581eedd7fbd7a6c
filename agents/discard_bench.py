"""Discard strategies compared on the same deals (``cribbage discards``).

A **discard strategy** picks the two cards a six-card hand gives to the crib. It is named like an
agent spec (one parser, :func:`agents.registry.read_spec`):

- a built-in name: ``random``, ``best-hand`` (best exact hand EV, crib ignored), ``analyzer``
  (hand EV plus or minus the shipped crib table: the discards of ``expectimax``);
- an installed plug-in (entry-point group ``cribbage_env.discards``);
- ``module.path:function[:key=value,...]``: a function ``f(hand, dealer)`` (or
  ``f(hand, dealer, rng)``) of the six card ids and whether the crib is the seat's own, returning
  the two cards to discard (ids or strings such as ``"5H"``) or an engine discard action; extra
  keyword parameters of the function are set by the spec's ``key=value`` pairs;
- an agent: ``module.path:Class`` (or a factory taking no cards), or ``agent:SPEC`` for any agent
  spec (``agent:expert``); it is asked to discard from a discard-phase :class:`PlayerView`.

**Paired deals.** Deal ``i`` is twelve cards dealt as the engine deals (R3.2, alternately from the
pone) plus the starter, from ``numpy.random.default_rng(seed)``. Every strategy holds the dealer's
six and, separately, the pone's six of the same deal, while the other seat discards with the
analyzer. Net show points of the strategy's seat: as dealer own hand + own crib, as pone own hand
minus the dealer's crib (R9). Differences to the first strategy are taken deal by deal (paired),
so their 95% intervals are much narrower than those of the means.
"""

from __future__ import annotations

import inspect
import math
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from cribbage_env.analysis.discard import (
    DISCARD_INDEX,
    KEEP_INDEX,
    default_crib_table,
    discard_values,
)
from cribbage_env.rules.actions import discard_action, discard_cards, is_discard
from cribbage_env.rules.cards import parse_card
from cribbage_env.rules.core import STANDARD, Phase, Rules
from cribbage_env.rules.views import PlayerView
from cribbage_env.unseen.batch import score_batch

from .base import AgentSpecError
from .params import Param, bind, params_of
from .registry import DISCARD_GROUP, import_target, load_plugin, make_agent, plugins, read_spec
from .stats import mean_ci
from .tournament.limits import LIMITS

#: Built-in strategies: name -> one-line description.
BUILTIN = {
    "random": "a uniformly random split",
    "best-hand": "keep the four with the best exact hand EV over the 46 starters, crib ignored",
    "analyzer": "hand EV plus the shipped crib table for the own crib, minus it for the "
    "opponent's (the discards of expectimax)",
}
#: The strategy of the other seat in every comparison.
REFERENCE = "analyzer"
#: Deals refused above this (a typo should not run for a day).
MAX_DEALS = LIMITS["deals"]


class StrategyError(AgentSpecError):
    """A discard strategy that cannot be built or returned an impossible discard."""


# Values handed to every strategy: the hand's exact EV per split and the signed crib term.
Values = tuple[np.ndarray, np.ndarray]


@dataclass
class Strategy:
    """A resolved strategy: ``choose(hand6, dealer, rng, values) -> split index 0..14``."""

    spec: str
    kind: str
    choose: Callable[[np.ndarray, bool, np.random.Generator, Values], int]


def _random(hand6, dealer, rng, values) -> int:
    return int(rng.integers(15))


def _best_hand(hand6, dealer, rng, values) -> int:
    return int(np.argmax(values[0]))


def _analyzer(hand6, dealer, rng, values) -> int:
    return int(np.argmax(values[0] + values[1]))


_BUILTIN_FNS = {"random": _random, "best-hand": _best_hand, "analyzer": _analyzer}


def _split_index(hand6: np.ndarray, out: object, label: str) -> int:
    """The split index of a strategy's answer: two cards of the hand or a discard action."""
    try:
        if isinstance(out, (int, np.integer)) and not isinstance(out, bool):
            if not is_discard(int(out)):
                raise ValueError(f"{int(out)} is not a discard action")
            pair: tuple[int, ...] = discard_cards(int(out))
        else:
            pair = tuple(
                parse_card(c) if isinstance(c, str) else int(c) for c in cast(Iterable[Any], out)
            )
        hand = [int(c) for c in hand6]
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError("not two different cards")
        i, j = sorted(hand.index(c) for c in pair)
    except (TypeError, ValueError) as exc:
        raise StrategyError(
            f"discard strategy {label!r} returned {out!r} for the hand "
            f"{hand6.tolist()}: expected two of its cards ({exc})"
        ) from None
    return int(np.flatnonzero((DISCARD_INDEX[:, 0] == i) & (DISCARD_INDEX[:, 1] == j))[0])


def discard_view(hand6: Sequence[int], dealer: bool) -> PlayerView:
    """The view of seat 0 asked to discard ``hand6`` at the first deal, 0-0 (for agents)."""
    hand = tuple(int(c) for c in hand6)
    legal = tuple(discard_action(hand[i], hand[j]) for i, j in DISCARD_INDEX)
    return PlayerView.at_deal(0, 0 if dealer else 1, hand, to_act=0, legal_actions=legal)


def _from_agent(spec: str, label: str) -> Strategy:
    agent = make_agent(spec)

    def choose(hand6, dealer, rng, values) -> int:
        return _split_index(hand6, agent.act(discard_view(hand6, dealer), rng), label)

    return Strategy(label, "agent", choose)


def _from_function(fn: Callable, label: str, given: dict[str, str]) -> Strategy:
    params, extra = params_of(fn)
    first_two = list(inspect.signature(fn).parameters)[:2]  # the hand and the role
    knobs = tuple(p for p in params if p.name not in first_two and p.name != "rng")
    wants_rng = "rng" in inspect.signature(fn).parameters
    kwargs = bind(knobs, given, extra=extra, who=label)

    def choose(hand6, dealer, rng, values) -> int:
        hand = tuple(int(c) for c in hand6)
        out = fn(hand, dealer, rng=rng, **kwargs) if wants_rng else fn(hand, dealer, **kwargs)
        return _split_index(hand6, out, label)

    return Strategy(label, "function", choose)


def _is_discard_function(obj: object) -> bool:
    """A function of (hand, dealer, ...) rather than a class or a factory taking no cards."""
    if inspect.isclass(obj) or not callable(obj):
        return False
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return len(positional) >= 2 and all(p.default is p.empty for p in positional[:2])


def make_strategy(spec: str) -> Strategy:
    """A strategy from its spec (see the module doc); StrategyError says what was wrong.

    >>> make_strategy("best-hand").kind
    'built-in'
    """
    if not isinstance(spec, str) or not spec.strip():
        raise StrategyError(f"a discard strategy is a non-empty string, got {spec!r}")
    text = spec.strip()
    if text.lower().startswith("agent:"):
        return _from_agent(text[6:], text)
    s = read_spec(text)
    if s.name in _BUILTIN_FNS:
        if s.params:
            raise StrategyError(f"discard strategy {s.name!r} has no parameters")
        return Strategy(s.name, "built-in", _BUILTIN_FNS[s.name])
    if s.target is not None:
        obj = import_target(s.target, "discard strategy")
    else:
        eps = plugins(DISCARD_GROUP)
        if s.name not in eps:
            raise StrategyError(
                f"unknown discard strategy {s.name!r}; known: "
                f"{', '.join([*BUILTIN, *sorted(eps)])}, agent:SPEC, or your own "
                f"as module.path:function"
            )
        obj = load_plugin(eps[s.name], "discard strategy")
    if _is_discard_function(obj):
        return _from_function(obj, text, s.params)  # type: ignore[arg-type]
    if s.target is None:  # a plug-in naming an agent class: build it through a fresh spec
        ep = plugins(DISCARD_GROUP)[cast(str, s.name)]  # found above
        tail = ":" + ",".join(f"{k}={v}" for k, v in s.params.items()) if s.params else ""
        return _from_agent(ep.value + tail, text)
    return _from_agent(text, text)


def strategy_rng(seed: int, spec: str) -> np.random.Generator:
    """A strategy's own generator: from the seed and its spec, never from the deals."""
    return np.random.default_rng([seed, 0x5EED, zlib.crc32(spec.encode())])


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
