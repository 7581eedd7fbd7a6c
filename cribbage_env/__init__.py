"""cribbage-env: the rules engine, scoring and environments for two-player six-card cribbage.

Importing the package imports the rules (numpy only) and registers the Gymnasium ids; the
environments themselves, PettingZoo, agents and the GUI are imported only when used, and so are
the batch scorer and the discard analyzer (their numpy tables): ``cribbage_env.score_batch``
imports them on first use.
"""

from __future__ import annotations

from .rules.actions import action_str, discard_action, discard_cards, parse_action
from .rules.cards import Card, CardParseError, card_str, cards_str, parse_card, parse_cards
from .rules.core import (
    SHORT,
    STANDARD,
    VARIANTS,
    CribbageError,
    EnvError,
    EventKind,
    IllegalActionError,
    Phase,
    PositionError,
    RecordError,
    Rules,
    RulesError,
)
from .rules.engine import GameState, new_game, replay, skunk_level
from .rules.events import Event
from .rules.scoring import (
    ScoreItem,
    ScoreKind,
    narrate,
    score_hand,
    score_hand_breakdown,
    score_play,
    score_play_breakdown,
)
from .rules.views import PlayerView, visible_events

__version__ = "0.1.0"

#: Public names whose modules are imported on first use (they build numpy tables at import).
_LAZY = {
    "BatchInputError": "rules.batch",
    "score_batch": "rules.batch",
    "show_distribution": "rules.batch",
    "DiscardInputError": "analysis.discard",
    "DiscardOption": "analysis.discard",
    "analyze_discards": "analysis.discard",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cribbage_env' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


# Environments: registered at import (Gymnasium 1.x has no plugin discovery), built lazily.
from .envs.registration import register_gymnasium as _register_gymnasium  # noqa: E402

_register_gymnasium()

__all__ = [
    "Card", "CardParseError", "CribbageError", "EnvError", "Event", "EventKind", "GameState",
    "IllegalActionError", "Phase", "PlayerView", "PositionError", "RecordError", "Rules",
    "RulesError", "SHORT", "STANDARD", "VARIANTS", "ScoreItem", "ScoreKind", "action_str",
    "card_str", "cards_str", "discard_action", "discard_cards", "narrate", "new_game",
    "parse_action", "parse_card", "parse_cards", "replay", "score_hand", "score_hand_breakdown",
    "score_play", "score_play_breakdown", "skunk_level", "visible_events",
    # discard analysis
    "BatchInputError", "DiscardInputError", "DiscardOption", "analyze_discards", "score_batch",
    "show_distribution",
]  # fmt: skip
