"""cribbage-env: the rules engine, scoring and environments for two-player six-card cribbage.

Importing the package imports the rules (numpy only) and registers the Gymnasium ids; the
environments themselves (``CribbageEnv``, ``make_vec``, ``aec_env``...), PettingZoo, agents and
the GUI are imported only when used, and so are the batch scorer, the discard analyzer, luck and
the winning chances (their numpy tables): ``cribbage_env.score_batch`` imports them on first use.

The names in ``__all__`` are the public API (the API reference lists them, and the few public
modules beside them); the modules under ``rules/``, ``kernels/``, ``envs/`` and ``analysis/``
are the implementation and may move.
"""

from __future__ import annotations

from .rules.actions import action_str, discard_action, discard_cards, parse_action
from .rules.cards import (
    RANK,
    RANKS,
    SUIT,
    SUITS,
    VALUE,
    Card,
    CardParseError,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
)
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
from .rules.pegging import score_play, score_play_breakdown
from .rules.scoring import (
    ScoreItem,
    ScoreKind,
    heels_points,
    narrate,
    score_hand,
    score_hand_breakdown,
)
from .rules.views import PlayerView, visible_events
from .seeding import agent_rng

__version__ = "0.1.0"

#: Public names whose modules are imported on first use (they build numpy tables at import).
_LAZY = {
    "BatchInputError": "unseen.batch",
    "score_batch": "unseen.batch",
    "show_distribution": "unseen.batch",
    "DiscardInputError": "analysis.discard",
    "DiscardOption": "analysis.discard",
    "analyze_discards": "analysis.discard",
    "game_luck": "analysis.luck",
    "win_probability": "equity",
    "CribbageEnv": "envs.single",
    "FlatObservation": "envs.wrappers",
    "RLlibMaskObservation": "envs.wrappers",
    "make_vec": "envs.vector",
    "batched": "envs.vector",
    "BATCHED_OPPONENTS": "envs.batched",
    "sb3_vec_env": "envs.vector",
    "aec_env": "envs.aec",
    "aec_raw_env": "envs.aec",
    "aec_rllib_env": "envs.aec",
}
#: A lazy name that differs from its name in the module it comes from.
_LAZY_AS = {
    "aec_env": "env",
    "aec_raw_env": "raw_env",
    "aec_rllib_env": "rllib_env",
    "BATCHED_OPPONENTS": "OPPONENTS",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cribbage_env' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), _LAZY_AS.get(name, name))
    globals()[name] = value
    return value


# Environments: registered at import (Gymnasium 1.x has no plugin discovery), built lazily.
from .envs.registration import register_gymnasium as _register_gymnasium  # noqa: E402

_register_gymnasium()

# The flat layout's module paths (cribbage_env.core, .cards, ...) import for one more release.
from .moved import install_moved as _install_moved  # noqa: E402

_install_moved()

__all__ = [
    "Card", "CardParseError", "CribbageError", "EnvError", "Event", "EventKind", "GameState",
    "IllegalActionError", "Phase", "PlayerView", "PositionError", "RecordError", "Rules",
    "RulesError", "SHORT", "STANDARD", "VARIANTS", "ScoreItem", "ScoreKind", "action_str",
    "card_str", "cards_str", "discard_action", "discard_cards", "narrate", "new_game",
    "parse_action", "parse_card", "parse_cards", "replay", "score_hand", "score_hand_breakdown",
    "score_play", "score_play_breakdown", "skunk_level", "visible_events",
    "RANK", "RANKS", "SUIT", "SUITS", "VALUE", "heels_points", "agent_rng",
    # discard analysis, luck and winning chances
    "BatchInputError", "DiscardInputError", "DiscardOption", "analyze_discards", "score_batch",
    "show_distribution", "game_luck", "win_probability",
    # environments (Gymnasium, vector, PettingZoo AEC)
    "CribbageEnv", "FlatObservation", "RLlibMaskObservation", "make_vec", "batched",
    "BATCHED_OPPONENTS", "sb3_vec_env", "aec_env", "aec_raw_env", "aec_rllib_env",
]  # fmt: skip
