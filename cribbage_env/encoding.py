"""PlayerView -> one flat float32 observation, action ids and legal-action masks.

Everything here is built **only from a** :class:`~cribbage_env.rules.views.PlayerView` (plus the seat's own
pending discard pick), so an observation can never leak the opponent's hand, the crib or the deck.
The same functions serve the Gymnasium env, the PettingZoo AEC env and anyone encoding views by
hand, so all of them agree bit for bit.

Actions
-------
The environments use ``Discrete(52)``: the action is a card id (``13 * suit + rank``) in every
phase. Laying a card in the play is the engine action with the same id. The engine's discard is
*one* decision of two cards (:func:`cribbage_env.discard_action`); the environments split it into
two picks in a row: the first pick is remembered (``pending``, shown in the observation) and the
second completes the discard (:func:`picks_to_engine_action`).

Observation layout
------------------
One flat ``float32`` vector of :data:`OBS_SIZE` values, all in ``[0, 1]``; :data:`SLICES` names
each part (like OpenSpiel's Observer) and :func:`named_views` cuts a vector into those parts.
"This seat" is the seat the view belongs to.

====================  ====  ======================================================================
name                  size  meaning
====================  ====  ======================================================================
hand                  52    cards this seat holds now (six before the discard, then the unplayed)
pending_discard       52    the first discard pick, while the second pick is pending
discards              52    this seat's own two crib cards (after its discard)
kept                  52    this seat's four kept cards (after its discard; they stay for the show)
starter               52    the starter card, once cut
sequence              52    cards of the current play sequence (since the count was last reset)
played_own            52    cards this seat has laid this deal
played_opponent       52    cards the opponent has laid this deal
recent_ranks          104   8 x 13 one-hot ranks of the current sequence, most recent card first
                            (row 0 = last card laid); pegging pairs and runs depend on this order
phase                 4     one-hot: discard first pick, discard second pick, play, over
flags                 6     is_dealer, my_turn, opponent_discarded, go_own, go_opponent,
                            last_card_own (this seat laid the latest card of the sequence)
count                 1     running count / 31
scores                2     own score, opponent score, each min(score, target) / target (121)
opponent_cards_left   1     cards the opponent still holds / 6
====================  ====  ======================================================================

>>> import cribbage_env as ce
>>> g = ce.new_game(7)
>>> view = g.view(g.current_player)
>>> obs, mask = encode(view)
>>> obs.shape == (OBS_SIZE,), obs.dtype, int(mask.sum())
(True, dtype('float32'), 6)
>>> parts = named_views(obs)
>>> int(parts["hand"].sum()), parts["phase"].tolist()
(6, [1.0, 0.0, 0.0, 0.0])
>>> obs2, mask2 = encode(view, pending=int(view.hand[0]))
>>> int(mask2.sum()), named_views(obs2)["phase"].tolist()
(5, [0.0, 1.0, 0.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .rules.actions import discard_action, discard_cards, is_discard
from .rules.cards import RANK, card_str
from .rules.core import IllegalActionError, Phase
from .rules.views import PlayerView

#: Number of actions: one per card id.
NUM_ACTIONS = 52
#: Most cards a play sequence can hold (each player has four; 4 aces + 4 twos = 12 < 31).
MAX_SEQUENCE = 8

#: (name, size) of every slice, in order.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 52),
    ("pending_discard", 52),
    ("discards", 52),
    ("kept", 52),
    ("starter", 52),
    ("sequence", 52),
    ("played_own", 52),
    ("played_opponent", 52),
    ("recent_ranks", MAX_SEQUENCE * 13),
    ("phase", 4),
    ("flags", 6),
    ("count", 1),
    ("scores", 2),
    ("opponent_cards_left", 1),
)


def _slices() -> dict[str, slice]:
    out, start = {}, 0
    for name, size in LAYOUT:
        out[name] = slice(start, start + size)
        start += size
    return out


#: name -> slice into the observation vector.
SLICES: dict[str, slice] = _slices()
OBS_SIZE: int = SLICES["opponent_cards_left"].stop

#: Index of each phase one-hot entry.
PHASE_DISCARD_FIRST, PHASE_DISCARD_SECOND, PHASE_PLAY, PHASE_OVER = range(4)
#: Names of the six flags, in order.
FLAG_NAMES = (
    "is_dealer",
    "my_turn",
    "opponent_discarded",
    "go_own",
    "go_opponent",
    "last_card_own",
)

_HAND = SLICES["hand"].start
_PENDING = SLICES["pending_discard"].start
_DISCARDS = SLICES["discards"].start
_KEPT = SLICES["kept"].start
_STARTER = SLICES["starter"].start
_SEQ = SLICES["sequence"].start
_PLAYED_OWN = SLICES["played_own"].start
_PLAYED_OPP = SLICES["played_opponent"].start
_RECENT = SLICES["recent_ranks"].start
_PHASE = SLICES["phase"].start
_FLAGS = SLICES["flags"].start
_REAL = SLICES["count"].start  # count, scores (2), opponent_cards_left: the non-binary tail
#: _RECENT_INDEX[i][r]: index of rank r at position i (0 = most recent) of recent_ranks.
_RECENT_INDEX = tuple(tuple(_RECENT + 13 * i + r for r in range(13)) for i in range(MAX_SEQUENCE))


class InvalidActionError(IllegalActionError):
    """A value that is not an action of ``Discrete(52)`` at all (not an int card id 0..51)."""


def named_views(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Named views (no copies) into one observation vector (or a batch, last axis)."""
    if obs.shape[-1] != OBS_SIZE:
        raise ValueError(
            f"an observation has {OBS_SIZE} values on its last axis, got shape {obs.shape}"
        )
    return {name: obs[..., s] for name, s in SLICES.items()}


# --------------------------------------------------------------------------- actions
def card_to_action(card: int) -> int:
    """Action id of a card (the identity on 0..51, checked).

    >>> card_to_action(30), action_to_card(30)
    (30, 30)
    """
    return as_action(card)


def action_to_card(action: int) -> int:
    """Card id of an action (the identity on 0..51, checked)."""
    return as_action(action)


def as_action(action: object) -> int:
    """Coerce a ``Discrete(52)`` action to a plain int, or raise :class:`InvalidActionError`.

    Accepted: Python ints and numpy integers (also 0-d or one-element integer arrays, as vector
    envs and policies hand them out) with value 0..51. Rejected: bools, floats (even ``3.0``: a
    float action usually means a continuous policy head by mistake), ``None``, strings, and ints
    outside 0..51.

    >>> as_action(np.int64(5)), as_action(np.array([7]))
    (5, 7)
    >>> as_action(52)
    Traceback (most recent call last):
    ...
    cribbage_env.encoding.InvalidActionError: action 52 is out of range: actions are card ids 0..51
    """
    if type(action) is int:
        value = action
    elif isinstance(action, np.integer):
        value = int(action)
    elif isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        value = int(action.reshape(()))
    else:
        raise InvalidActionError(
            f"an action is an int card id 0..51 (Python or numpy integer), got {action!r} "
            f"({type(action).__name__})"
        )
    if not 0 <= value < NUM_ACTIONS:
        raise InvalidActionError(f"action {value} is out of range: actions are card ids 0..51")
    return value


def picks_to_engine_action(first: int, second: int) -> int:
    """The engine's discard decision from the two picks (order does not matter).

    >>> import cribbage_env as ce
    >>> picks_to_engine_action(30, 17) == ce.discard_action(17, 30)
    True
    """
    return discard_action(first, second)


def engine_action_to_picks(action: int) -> list[int]:
    """The env actions that make one engine decision: two picks for a discard, else the card.

    >>> engine_action_to_picks(30), engine_action_to_picks(picks_to_engine_action(30, 17))
    ([30], [17, 30])
    """
    if 0 <= action < NUM_ACTIONS:
        return [action]
    if is_discard(action):
        return list(discard_cards(action))
    raise ValueError(
        f"engine action {action} has no Discrete(52) form (cuts are automatic in the envs)"
    )


# --------------------------------------------------------------------------- masks
def legal_cards(view: PlayerView, pending: int | None = None) -> list[int]:
    """The card ids this seat may pick now: the one rule behind every mask convention.

    Discard: any card in hand except the pending first pick. Play: the engine's legal cards.
    Not this seat's turn, cut phases, game over: none.
    """
    if view.to_act != view.seat:
        return []
    phase = view.phase
    if phase is Phase.PLAY:
        return list(view.legal_actions)
    if phase is Phase.DISCARD:
        return [c for c in view.hand if c != pending]
    return []


def action_mask(view: PlayerView, pending: int | None = None) -> np.ndarray:
    """Legal-action mask as a fresh ``int8`` array of 52 (what ``Discrete.sample(mask=)`` wants)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[legal_cards(view, pending)] = 1
    return mask


def encode(view: PlayerView, pending: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The observation vector and the int8 action mask of a view (both fresh arrays).

    ``pending`` is this seat's first discard pick while the second is due (None otherwise).
    """
    seat = view.seat
    phase = view.phase
    seq = view.sequence
    n = len(seq)
    played = view.played
    ones = [_HAND + c for c in view.hand]
    ones += [_DISCARDS + c for c in view.discards]
    ones += [_KEPT + c for c in view.kept]
    ones += [_SEQ + c for c in seq]
    ones += [(_PLAYED_OWN if who == seat else _PLAYED_OPP) + c for who, c in played]
    ones += [_RECENT_INDEX[i][RANK[c]] for i, c in enumerate(reversed(seq))]
    if view.starter is not None:
        ones.append(_STARTER + view.starter)
    if phase is Phase.DISCARD:
        if pending is not None:
            ones.append(_PENDING + pending)
            ones.append(_PHASE + PHASE_DISCARD_SECOND)
        else:
            ones.append(_PHASE + PHASE_DISCARD_FIRST)
    elif phase is Phase.PLAY:
        ones.append(_PHASE + PHASE_PLAY)
    elif phase is Phase.GAME_OVER:
        ones.append(_PHASE + PHASE_OVER)
    if view.dealer == seat:
        ones.append(_FLAGS)
    if view.to_act == seat:
        ones.append(_FLAGS + 1)
    if view.opponent_discarded:
        ones.append(_FLAGS + 2)
    go = view.go_said
    if go[seat]:
        ones.append(_FLAGS + 3)
    if go[1 - seat]:
        ones.append(_FLAGS + 4)
    if n and played[-1][0] == seat:
        ones.append(_FLAGS + 5)
    obs = np.zeros(OBS_SIZE, np.float32)
    obs[ones] = 1.0
    scores = view.scores
    target = view.rules.target
    obs[_REAL:] = (
        view.count / 31.0,
        min(scores[seat], target) / target,
        min(scores[1 - seat], target) / target,
        view.opponent_cards_left / 6.0,
    )
    return obs, action_mask(view, pending)


def observation_dict(view: PlayerView, pending: int | None = None) -> dict[str, np.ndarray]:
    """``{"observation": float32[OBS_SIZE], "action_mask": int8[52]}`` (PettingZoo / SB3 style)."""
    obs, mask = encode(view, pending)
    return {"observation": obs, "action_mask": mask}


def observation_space():
    """The Dict space of :func:`observation_dict` (a new object each call; imports gymnasium)."""
    from gymnasium import spaces

    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


def describe(obs: np.ndarray) -> str:
    """A readable dump of the non-zero parts of one observation (for debugging encodings)."""
    parts = named_views(np.asarray(obs))
    lines = []
    for name, values in parts.items():
        nz = np.flatnonzero(values)
        if not len(nz):
            continue
        if name in ("phase", "flags", "count", "scores", "opponent_cards_left"):
            labels = {
                "flags": FLAG_NAMES,
                "phase": ("discard_first", "discard_second", "play", "over"),
                "scores": ("own", "opponent"),
            }.get(name)
            shown = ", ".join(f"{labels[i] if labels else i}={values[i]:.3g}" for i in nz)
        elif name == "recent_ranks":
            shown = " ".join("A23456789TJQK"[i % 13] for i in nz)
        else:
            shown = " ".join(card_str(int(i)) for i in nz)
        lines.append(f"{name}: {shown}")
    return "\n".join(lines)


def cards_mask(cards: Iterable[int]) -> np.ndarray:
    """A 52-entry int8 mask with ones at ``cards`` (helper for tests and custom masks)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[list(cards)] = 1
    return mask
