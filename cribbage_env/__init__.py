"""cribbage-env: the rules engine, scoring and environments for two-player six-card cribbage."""

from __future__ import annotations

from .actions import action_str, discard_action, discard_cards, parse_action
from .batch import BatchInputError, score_batch, show_distribution
from .cards import Card, CardParseError, card_str, cards_str, parse_card, parse_cards
from .discard import DiscardInputError, DiscardOption, analyze_discards
from .engine import (
    Event,
    EventKind,
    GameState,
    IllegalActionError,
    Phase,
    RecordError,
    new_game,
    replay,
    skunk_level,
)
from .scoring import (
    ScoreItem,
    ScoreKind,
    narrate,
    score_hand,
    score_hand_breakdown,
    score_play,
    score_play_breakdown,
)
from .views import PlayerView, visible_events

__version__ = "0.1.0"

# Environments: registered at import (Gymnasium 1.x has no plugin discovery), built lazily.
from .registration import register_gymnasium as _register_gymnasium  # noqa: E402
from .registration import register_pettingzoo as _register_pettingzoo  # noqa: E402

_register_gymnasium()
_register_pettingzoo()

__all__ = [
    "Card",
    "CardParseError",
    "Event",
    "EventKind",
    "GameState",
    "IllegalActionError",
    "Phase",
    "PlayerView",
    "RecordError",
    "ScoreItem",
    "ScoreKind",
    "action_str",
    "card_str",
    "cards_str",
    "discard_action",
    "discard_cards",
    "narrate",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
    "score_hand",
    "score_hand_breakdown",
    "score_play",
    "score_play_breakdown",
    "skunk_level",
    "visible_events",
    # discard analysis
    "BatchInputError",
    "DiscardInputError",
    "DiscardOption",
    "analyze_discards",
    "score_batch",
    "show_distribution",
]
