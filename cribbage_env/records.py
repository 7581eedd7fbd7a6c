"""JSON game records: the seed and decisions (which define the game) plus a readable account of
every deal (which lets people read it and lets us detect a record that was edited or corrupted).

Format: see docs/RECORD_FORMAT.md. Loading replays the decisions and refuses any record whose
account differs from the replay.
"""

from __future__ import annotations

import json
from typing import Any

from .actions import action_str, parse_action
from .cards import CardParseError, card_str
from .engine import (
    EventKind,
    GameState,
    IllegalActionError,
    RecordError,
    skunk_level,
)

RECORD_FORMAT = "cribbage-env/game-record"
RECORD_VERSION = 1


def _cards(cards) -> list[str]:
    return [card_str(c) for c in cards]


def build_record(state: GameState) -> dict:
    first_cut: list[dict] = []
    first_dealer = None
    deals: list[dict] = []
    deal: dict[str, Any] | None = None
    for e in state.events:
        k = e.kind
        if k is EventKind.CUT_FOR_DEAL:
            first_cut.append({"player": e.player, "card": card_str(e.cards[0])})
        elif k is EventKind.CUT_TIE:
            first_cut.append({"tie": True})
        elif k is EventKind.FIRST_DEALER:
            first_dealer = e.player
        elif k is EventKind.DEAL:
            pone = 1 - e.player
            hands: list[list[str]] = [[], []]
            hands[pone] = _cards(e.cards[:6])
            hands[e.player] = _cards(e.cards[6:])
            deal = {
                "number": e.deal,
                "dealer": e.player,
                "hands": hands,
                "discards": [[], []],
                "starter": None,
                "his_heels": 0,
                "play": [],
                "show": [],
                "scores_after": list(e.scores),
            }
            deals.append(deal)
        elif deal is None:
            continue
        elif k is EventKind.DISCARD:
            deal["discards"][e.player] = _cards(e.cards)
        elif k is EventKind.STARTER:
            deal["starter"] = card_str(e.cards[0])
        elif k is EventKind.PLAY:
            deal["play"].append(
                {
                    "player": e.player,
                    "card": card_str(e.cards[-1]),
                    "count": e.count,
                    "points": e.points,
                    "reasons": [r.to_json() for r in e.reasons],
                }
            )
        elif k is EventKind.GO:
            deal["play"].append({"player": e.player, "go": True})
        elif k is EventKind.RESET:
            deal["play"].append({"reset": True})
        elif k is EventKind.SCORE:
            reason = e.reasons[0].kind.value
            if reason == "his heels":
                deal["his_heels"] = e.points
            else:
                deal["play"].append({"player": e.player, "points": e.points, "reason": reason})
        elif k is EventKind.SHOW:
            deal["show"].append(
                {
                    "player": e.player,
                    "what": e.what,
                    "cards": _cards(e.cards[:4]),
                    "points": e.points,
                    "breakdown": [r.to_json() for r in e.reasons],
                }
            )
        if deal is not None:
            deal["scores_after"] = list(e.scores)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "seed": state.seed,
        "interactive_cuts": state.interactive_cuts,
        "decisions": [action_str(a) for a in state.decisions],
        "first_cut": first_cut,
        "first_dealer": first_dealer,
        "deals": deals,
        "scores": list(state.scores),
        "winner": state.winner,
        "game_points": skunk_level(state.scores) if state.winner is not None else 0,
    }


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{path or 'record'}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in only one"
            d = _first_difference(a[key], b[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = _first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs {len(b)}"
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def load_record(record: dict | str) -> GameState:
    """Replay a record (dict or JSON text) and check it; raises :class:`RecordError`."""
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
        except RecursionError:  # absurdly deep nesting: no record looks like that
            raise RecordError(
                "record is not valid JSON: nested too deeply for a game record"
            ) from None
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"not a cribbage-env game record (format is {record.get('format')!r}, "
            f"expected {RECORD_FORMAT!r})"
        )
    version = record.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            f"record version {version!r} is not supported; this version of "
            f"cribbage-env reads version {RECORD_VERSION}"
        )
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RecordError(f"record seed must be a non-negative integer, got {seed!r}")
    cuts = record.get("interactive_cuts", False)
    if not isinstance(cuts, bool):
        raise RecordError(f"interactive_cuts must be true or false, got {cuts!r}")
    decisions = record.get("decisions")
    if not isinstance(decisions, list):
        raise RecordError("record has no list of decisions")
    state = GameState(seed, interactive_cuts=cuts)
    for i, text in enumerate(decisions):
        try:
            state.apply(parse_action(text))
        except (CardParseError, IllegalActionError, ValueError) as exc:
            raise RecordError(f"decision {i} ({text!r}) cannot be replayed: {exc}") from None
    diff = _first_difference(build_record(state), record)
    if diff:
        raise RecordError(f"record does not match the replay of its decisions at {diff}")
    return state
