"""Bridges to OpenSpiel (extra ``openspiel``): our agents as ``pyspiel.Bot`` s, and OpenSpiel's
ISMCTS as one of our agents, so each side's players can meet the other's.

Both play the game of :mod:`cribbage_env.openspiel` (our rules); neither reads a hidden card: an
:class:`AgentBot` passes its agent only the seat's :class:`~cribbage_env.views.PlayerView`, and
:class:`ISMCTSAgent` searches from a state rebuilt from its view alone.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cribbage_env import Phase
from cribbage_env.actions import discard_action, discard_cards
from cribbage_env.openspiel import CribbageState
from cribbage_env.views import PlayerView

from .base import Agent, AgentSpecError


class AgentBot(pyspiel.Bot):
    """One of our agents (a spec or an object with ``act(view, rng)``) as an OpenSpiel bot.

    A discard is one decision for our agents and two picks in the OpenSpiel game: the bot asks
    its agent at the first pick and plays the remembered second card at the second.
    """

    def __init__(self, agent: str | Agent, player_id: int, seed: int = 0) -> None:
        super().__init__()
        from .registry import make_agent

        self.agent = make_agent(agent)
        self.player_id = player_id
        self._rng = np.random.default_rng(seed)
        self._second: int | None = None

    def restart_at(self, state: pyspiel.State) -> None:
        self._second = None

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: CribbageState) -> int:
        view, pending = state.player_view(self.player_id)
        if view.phase is Phase.DISCARD:
            if pending is None:
                first, self._second = discard_cards(self.agent.act(view, self._rng))
                return first
            if self._second is None or self._second not in state.legal_actions():
                raise RuntimeError(f"{self.agent.name}: no second pick remembered after {pending}")
            second, self._second = self._second, None
            return second
        return int(self.agent.act(view, self._rng))


class ISMCTSAgent:
    """OpenSpiel's information-set MCTS (Python ``ISMCTSBot``) with our resampler, as our agent.

    Each decision rebuilds an OpenSpiel state from the view (:meth:`CribbageState.from_view`),
    searches ``sims`` simulations with random roll-outs to the end of the game, and plays the
    most visited action (a discard is searched as its two picks).
    """

    name = "ismcts"

    def __init__(self, sims: int | str = 50, uct_c: float | str = 5.0, rollouts: int | str = 1):
        try:
            self.sims, self.uct_c, self.rollouts = int(sims), float(uct_c), int(rollouts)
        except ValueError:
            raise AgentSpecError(
                f"ismcts: sims and rollouts are integers, uct_c a number; got sims={sims!r}, "
                f"uct_c={uct_c!r}, rollouts={rollouts!r}"
            ) from None
        if not (1 <= self.sims <= 100_000 and 1 <= self.rollouts <= 100 and self.uct_c > 0):
            raise AgentSpecError("ismcts: sims in 1..100000, rollouts in 1..100, uct_c > 0")
        self.spec = f"ismcts:sims={self.sims},uct_c={self.uct_c:g},rollouts={self.rollouts}"
        self._game = pyspiel.load_game("python_cribbage")

    def _search(self, state: CribbageState, rng: np.random.Generator) -> int:
        seeds = rng.integers(2**31, size=2)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seeds[0]))
        bot = ismcts.ISMCTSBot(
            self._game,
            evaluator,
            self.uct_c,
            self.sims,
            random_state=np.random.RandomState(seeds[1]),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        return int(bot.step(state))

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = CribbageState.from_view(self._game, view, rng)
        if view.phase is Phase.DISCARD:
            first = self._search(state, rng)
            state.apply_action(first)
            second = self._search(state, rng)
            return discard_action(first, second)
        return self._search(state, rng)
