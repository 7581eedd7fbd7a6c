"""JSON game records: the seed and decisions (which define the game) plus a readable account of
every deal (which lets people read it and lets us detect a record that was edited or corrupted).

Format: see docs/RECORD_FORMAT.md. Loading (:meth:`GameState.from_record`) replays the decisions
and refuses any record whose account differs from the replay. This module is the format only: it
reads states through their public fields and imports no engine code. A record carries ``rules``
only when they are not the standard game to 121, so records of standard games stay unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .actions import action_str, parse_action
from .cards import CardParseError, card_str
from .core import STANDARD, EventKind, RecordError, Rules, RulesError
from .events import Event

if TYPE_CHECKING:
    from .state import State

RECORD_FORMAT = "cribbage-env/game-record"
RECORD_VERSION = 1


def _cards(cards) -> list[str]:
    return [card_str(c) for c in cards]


def _new_deal(e: Event) -> dict[str, Any]:
    dealer = cast(int, e.player)  # a DEAL event's player is the dealer
    hands: list[list[str]] = [[], []]
    hands[1 - dealer] = _cards(e.cards[:6])
    hands[dealer] = _cards(e.cards[6:])
    return {
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


def _add_to_deal(deal: dict[str, Any], e: Event) -> None:
    """Write one event of a deal (after its DEAL event) into the deal's account."""
    k = e.kind
    if k is EventKind.DISCARD:
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
    deal["scores_after"] = list(e.scores)


def build_record(state: State) -> dict:
    """The record of a game reached by play (see :meth:`GameState.to_record`)."""
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
            deal = _new_deal(e)
            deals.append(deal)
        elif deal is not None:
            _add_to_deal(deal, e)
    rules = {} if state.rules.is_standard else {"rules": state.rules.to_json()}
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "seed": state.seed,
        **rules,
        "interactive_cuts": state.interactive_cuts,
        "decisions": [action_str(a) for a in state.decisions],
        "first_cut": first_cut,
        "first_dealer": first_dealer,
        "deals": deals,
        "scores": list(state.scores),
        "winner": state.winner,
        "game_points": state.rules.game_points(state.scores) if state.winner is not None else 0,
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


@dataclass(frozen=True)
class RecordHeader:
    """What defines the game a record describes: replaying ``decisions`` must reproduce it."""

    seed: int
    interactive_cuts: bool
    rules: Rules
    decisions: tuple[Any, ...]
    data: dict


def parse_record(record: dict | str | bytes) -> RecordHeader:
    """Read and check a record's header (dict or JSON text); raises :class:`RecordError`."""
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
    try:
        rules = Rules.from_json(record["rules"]) if "rules" in record else STANDARD
    except RulesError as exc:
        raise RecordError(f"record rules: {exc}") from None
    decisions = record.get("decisions")
    if not isinstance(decisions, list):
        raise RecordError("record has no list of decisions")
    return RecordHeader(seed, cuts, rules, tuple(decisions), record)


def record_action(index: int, text: Any) -> int:
    """The action id of decision ``index`` of a record; raises :class:`RecordError`."""
    try:
        return parse_action(text)
    except (CardParseError, ValueError) as exc:
        raise RecordError(f"decision {index} ({text!r}) cannot be replayed: {exc}") from None


def check_replay(record: dict, state: State) -> None:
    """Refuse a record whose account differs from ``state``, the replay of its decisions."""
    diff = _first_difference(build_record(state), record)
    if diff:
        raise RecordError(f"record does not match the replay of its decisions at {diff}")
