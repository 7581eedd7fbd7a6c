"""Engine action ids: one int per decision, so the hot path never builds objects.

- ``0..51``: lay that card in the play (R6).
- ``DISCARD_BASE + 52*a + b`` (``a < b``): put cards ``a`` and ``b`` in the crib (R4), one decision.
- ``CUT_BASE + k``: cut the deck at depth ``k`` (only with ``interactive_cuts``); the card that
  comes up never depends on ``k`` (R11.1).
"""

from __future__ import annotations

from .cards import CardParseError, card_str, parse_card

DISCARD_BASE = 100
CUT_BASE = 3000
#: Cuts leave at least this many cards on each side of the cut.
CUT_MARGIN = 4


def discard_action(a: int, b: int) -> int:
    """Action id of discarding two cards (order does not matter).

    >>> discard_action(30, 17) == discard_action(17, 30)
    True
    >>> action_str(discard_action(30, 17))
    '5D 5H'
    """
    if a == b:
        raise ValueError(f"a discard needs two different cards, got {card_str(a)} twice")
    if a > b:
        a, b = b, a
    return DISCARD_BASE + 52 * a + b


def is_discard(action: int) -> bool:
    return DISCARD_BASE <= action < CUT_BASE


def is_cut(action: int) -> bool:
    return action >= CUT_BASE


def discard_cards(action: int) -> tuple[int, int]:
    """The two card ids of a discard action.

    >>> discard_cards(discard_action(5, 9))
    (5, 9)
    """
    a, b = divmod(action - DISCARD_BASE, 52)
    return a, b


def cut_action(depth: int) -> int:
    return CUT_BASE + depth


def action_str(action: int) -> str:
    """Readable form used in records: ``"5H"``, ``"5D 5H"`` or ``"cut 17"``.

    >>> action_str(30), action_str(cut_action(17))
    ('5H', 'cut 17')
    """
    if 0 <= action < 52:
        return card_str(action)
    if is_discard(action):
        a, b = discard_cards(action)
        return f"{card_str(a)} {card_str(b)}"
    if is_cut(action):
        return f"cut {action - CUT_BASE}"
    raise ValueError(f"not an action id: {action!r}")


def parse_action(text: str) -> int:
    """Inverse of :func:`action_str`.

    >>> parse_action("5h"), parse_action("5H 5D") == discard_action(30, 17), parse_action("cut 17")
    (30, True, 3017)
    """
    if not isinstance(text, str):
        raise CardParseError(
            f"bad action {text!r}: expected a string like '5H', '5H 5D' or 'cut 7'"
        )
    tokens = text.split()
    if len(tokens) == 2 and tokens[0].lower() == "cut":
        if not tokens[1].isdigit():
            raise CardParseError(f"bad action {text!r}: cut depth must be a whole number")
        return cut_action(int(tokens[1]))
    if len(tokens) == 1:
        return parse_card(tokens[0])
    if len(tokens) == 2:
        return discard_action(parse_card(tokens[0]), parse_card(tokens[1]))
    raise CardParseError(f"bad action {text!r}: expected '5H' (play), '5H 5D' (discard) or 'cut 7'")
