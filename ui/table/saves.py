"""The saved game's format: what a save holds and how it is checked before anything is built.

A save holds the seed, the agent seed, the seats, the language, every decision (the redo tail
too) and the cursor (:func:`save_data`); :func:`read_save` checks every field and says what is
wrong (:class:`SaveError`). The autosave file itself, its folder, lock and history are
:mod:`ui.saved.autosave`'s.

Nothing in a save runs code without the person's word: a seat whose agent would import code or
read a file (anything but the built-in levels and agents with plain parameters and no ``path``:
:func:`agents.seats.trust.trusted_spec`, the rule every stored spec follows) raises
:class:`UntrustedSave` naming it, and is accepted only when the caller passes it back as trusted
(the start screen asks first).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from agents.seats.trust import trusted_spec
from cribbage_env.rules.core import STANDARD, Rules
from cribbage_env.rules.engine import GameState

from ..errors import UIError
from .board import BoardShape
from .history import History
from .seats import Seat

SAVE_FORMAT = "cribbage-env/autosave"
SAVE_VERSION = 1
MODES = ("computer", "hotseat", "watch")
#: Seeds a save may hold (the results store's 64-bit integers).
MAX_SEED = 2**63 - 1


class SaveError(UIError, ValueError):
    """A saved game that cannot be read or does not replay; the file is left as it was."""


class UntrustedSave(SaveError):
    """A save whose seats name agents that would run code or read files (shown, then confirmed)."""

    def __init__(self, specs: tuple[str, ...]) -> None:
        self.specs = specs
        super().__init__(
            "the saved game names an agent that runs code or reads a file: " + ", ".join(specs)
        )


class SaveSource(Protocol):
    """What a save is written from: the table's seeds, seats, language, rules and history."""

    seed: int
    agent_seed: int
    seats: list[Seat]
    lang: str
    rules: Rules
    history: History
    game: GameState

    @property
    def mode(self) -> Enum: ...


# ------------------------------------------------------------------------------ the format
def save_data(ctl: SaveSource) -> dict:
    """Everything needed to resume: seeds, seats, decisions (with the redo tail), cursor."""
    history = ctl.history
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "seed": ctl.seed,
        "agent_seed": ctl.agent_seed,
        "mode": ctl.mode.value,
        "agents": [s.spec for s in ctl.seats],
        "lang": ctl.lang,
        "rules": ctl.rules.to_json(),
        "decisions": [_action_str(a) for a in history.actions],
        "cursor": history.cursor,
        "finished": ctl.game.is_over,
    }


def _action_str(action: int) -> str:
    import cribbage_env as ce

    return ce.action_str(action)


def _int_field(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveError(f"saved {name} must be an integer from {low} to {high}, got {value!r}")
    return value


@dataclass(frozen=True)
class SavedGame:
    """The checked fields of a save."""

    seed: int
    mode: str
    agents: tuple[str | None, str | None]
    lang: str
    actions: tuple[int, ...]
    cursor: int
    agent_seed: int | None  # saves older than the agent seed have none: a fresh one is drawn
    rules: Rules = STANDARD  # saves written before the short game at the table are to 121


def _check_header(data: object) -> dict:
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError("not a cribbage-env saved game")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(
            f"saved game version {data.get('version')!r} is not supported "
            f"(this version reads {SAVE_VERSION})"
        )
    return data


def read_save(data: object, *, trusted: Collection[str] = ()) -> SavedGame:
    """The fields of a save, checked: :class:`SaveError` says what is wrong, and
    :class:`UntrustedSave` names seats that would run code or read files (not in ``trusted``)."""
    import cribbage_env as ce

    from ..words.i18n import LANGUAGES

    d = _check_header(data)
    try:
        mode, agents = d["mode"], d["agents"]
        actions = tuple(ce.parse_action(t) for t in d["decisions"])
        seed, cursor, lang = d["seed"], d["cursor"], d.get("lang", "en")
        agent_seed = d.get("agent_seed")
        rules = Rules.from_json(d["rules"]) if "rules" in d else STANDARD
        BoardShape.of(rules)  # the table has a board for it (61 or 121)
    except (KeyError, ValueError, TypeError) as exc:
        raise SaveError(f"saved game is incomplete or malformed: {exc}") from None
    if mode not in MODES:
        raise SaveError(f"saved game is incomplete or malformed: {mode!r} is not a mode")
    _int_field(seed, "seed", 0, MAX_SEED)
    if not isinstance(agents, list) or len(agents) != 2:
        raise SaveError("saved game must name two seats")
    _int_field(cursor, "cursor", 0, len(actions))
    seats = {"computer": agents[1:], "watch": agents}.get(mode, [])
    doubtful = tuple(str(s) for s in seats if not trusted_spec(s) and s not in trusted)
    if doubtful:
        raise UntrustedSave(doubtful)
    lang = lang if lang in LANGUAGES else "en"
    return SavedGame(seed, mode, (agents[0], agents[1]), lang, actions, cursor, agent_seed, rules)
