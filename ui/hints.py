"""The hint: the strongest level's suggestion for the person to act, with its numbers (R11.2).

The hint agent gets only the person's :class:`~cribbage_env.PlayerView` and a generator from the
table's agent seed (never the game seed); it is built once, because it may load tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cribbage_env.actions import discard_cards, is_cut, is_discard

from .narration import Narrator

if TYPE_CHECKING:
    import agents
    import cribbage_env as ce


@dataclass(frozen=True)
class HintView:
    """A hint as the table shows it: the suggested cards and the numbers behind it (R11.2)."""

    action: int
    cards: tuple[int, ...]
    lines: tuple[str, ...]


_HINT_AGENT: list = []


def hint_agent():
    """The strongest level's agent, built once (it may load tables)."""
    if not _HINT_AGENT:
        from agents import LEVELS, make_agent

        _HINT_AGENT.append(make_agent(LEVELS["hard"].spec))
    return _HINT_AGENT[0]


def hint_for(view: ce.PlayerView, rng: np.random.Generator) -> agents.Hint:
    """The hint agent's suggestion with its ranked options (the numbers behind it)."""
    return hint_agent().hint(view, rng)


def action_text(action: int, narrator: Narrator) -> str:
    """A decision as the table writes it: the cards, or "cut"."""
    if is_discard(action):
        return narrator.cards(discard_cards(action))
    if is_cut(action):
        return narrator.tr("cut")
    return narrator.card(action)


def hint_view(view: ce.PlayerView, rng: np.random.Generator, narrator: Narrator) -> HintView:
    """The suggestion for ``view`` and the three best options with their numbers."""
    hint = hint_for(view, rng)
    cards = discard_cards(hint.action) if is_discard(hint.action) else (hint.action,)
    lines = []
    for o in hint.options[:3]:
        what = action_text(o.action, narrator)
        d = o.details
        if "hand_ev" in d and "crib_ev" in d:  # discards: hand EV, crib EV, net
            text = narrator.tr(
                "{cards}: hand {hand}, crib {crib}, net {net}",
                cards=what,
                hand=f"{d['hand_ev']:.1f}",
                crib=f"{d['crib_ev']:+.1f}",
                net=f"{o.value:.1f}",
            )
        else:
            text = narrator.tr(
                "{cards}: {value} points expected", cards=what, value=f"{o.value:.1f}"
            )
        lines.append(("→ " if o.action == hint.action else "") + text)
    return HintView(hint.action, tuple(cards), tuple(lines))
