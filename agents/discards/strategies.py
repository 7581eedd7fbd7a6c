"""Discard strategies: what picks the two cards a six-card hand gives to the crib, named like an
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

A spec resolves to a :class:`Strategy`, which every comparison (:mod:`agents.discard_bench`)
asks the same way, whatever it wraps.
"""

from __future__ import annotations

import inspect
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from cribbage_env.analysis.discard import DISCARD_INDEX
from cribbage_env.rules.actions import discard_action, discard_cards, is_discard
from cribbage_env.rules.cards import parse_card
from cribbage_env.rules.views import PlayerView

from ..base import AgentSpecError
from ..params import bind, params_of
from ..registry import DISCARD_GROUP, import_target, load_plugin, make_agent, plugins, read_spec

#: Built-in strategies: name -> one-line description.
BUILTIN = {
    "random": "a uniformly random split",
    "best-hand": "keep the four with the best exact hand EV over the 46 starters, crib ignored",
    "analyzer": "hand EV plus the shipped crib table for the own crib, minus it for the "
    "opponent's (the discards of expectimax)",
}
#: The strategy of the other seat in every comparison.
REFERENCE = "analyzer"


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
