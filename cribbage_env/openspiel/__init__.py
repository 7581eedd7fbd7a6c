"""An OpenSpiel game over our engine: ``pyspiel.load_game("python_cribbage")``.

Importing this module registers the game (extra ``openspiel``). Every rule is the engine's: this
module only turns its chance into OpenSpiel's explicit chance nodes and its discard into two
picks, so OpenSpiel's algorithms (ISMCTS, MCTS, CFR-style tools, ``rl_environment``) run on the
rules of ``docs/RULES.md`` (a crib flush needs five cards; the game stops at the target).

Chance nodes (player ``pyspiel.PlayerId.CHANCE``):

- the cut for the first deal, as its outcome: action 0 or 1 = that player deals first, each with
  probability 1/2 (the exact odds of R2's cut, ties recut);
- each deal's twelve cards one at a time, in dealing order (R3.2: the pone's first card, the
  dealer's first, ...), each uniform over the cards not yet dealt;
- the starter (R5) after both discards, uniform over the 40 cards left.
  The players' cut gestures are not decisions: where a player cuts never changes the card (R11.1).

Decisions: actions are card ids ``0..51`` (``13 * suit + rank``), as in our Gym env. A discard
is two picks in ascending card order (the first pick is any card but the highest, the second a
higher card), so each of the 15 discards has exactly one path. A play is the card laid.

Returns: ``returns="win"`` (default) gives +1 / -1; ``"skunk"`` the game points (1, 2 for a skunk, 3
for a double skunk); ``"points"`` the final margin with the winner's score capped at the target.

>>> import pyspiel, cribbage_env.openspiel
>>> game = pyspiel.load_game("python_cribbage")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), [p for _, p in state.chance_outcomes()]
(True, [0.5, 0.5])
"""

from __future__ import annotations

from ..envs.extras import missing_extra

try:
    import pyspiel  # noqa: F401  (the extra's check; game and state use it)
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "cribbage_env.openspiel", "openspiel") from None

from .game import SHORT_NAME, CribbageGame, CribbageObserver
from .holdings import ScriptedChance
from .state import CribbageState

__all__ = ["SHORT_NAME", "CribbageGame", "CribbageObserver", "CribbageState", "ScriptedChance"]
