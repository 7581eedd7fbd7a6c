"""Bridges to OpenSpiel (extra ``openspiel``): our agents as ``pyspiel.Bot`` s, and OpenSpiel's
ISMCTS as one of our agents, so each side's players can meet the other's.

Both play the game of :mod:`cribbage_env.openspiel` (our rules); neither reads a hidden card: an
:class:`AgentBot` passes its agent only the seat's :class:`~cribbage_env.rules.views.PlayerView`, and
:class:`ISMCTSAgent` searches from a state rebuilt from its view alone.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cribbage_env import Phase
from cribbage_env.openspiel import CribbageState
from cribbage_env.rules.actions import discard_action, discard_cards
from cribbage_env.rules.views import PlayerView
from cribbage_env.seeding import agent_rng, check_agent_seed, new_agent_seed

from ..base import Agent
from ..params import Param


class AgentBot(pyspiel.Bot):
    """One of our agents (a spec or an object with ``act(view, rng)``) as an OpenSpiel bot.

    A discard is one decision for our agents and two picks in the OpenSpiel game: the bot asks
    its agent at the first pick and plays the remembered second card at the second.

    The agent's generator is :func:`cribbage_env.seeding.agent_rng` of ``agent_seed`` (``None``:
    drawn from OS entropy), ``seed`` and the player, as in a tournament: a bot cannot read
    ``seed`` back (a driver often samples chance from the same number).
    """

    def __init__(
        self, agent: str | Agent, player_id: int, seed: int = 0, agent_seed: int | None = None
    ) -> None:
        super().__init__()
        from ..registry import make_agent

        self.agent = make_agent(agent)
        self.player_id = player_id
        pinned = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
        self._rng = agent_rng(pinned, seed, player_id)
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
    PARAMS = (
        Param("sims", int, 50, "ISMCTS simulations per decision (2 at least)", low=2, high=20_000),
        Param("uct_c", float, 5.0, "UCT exploration constant", low=0.01, high=100),
        Param(
            "rollouts", int, 1, "random roll-outs to the end of the game per leaf", low=1, high=50
        ),
    )

    def __init__(self, sims: int = 50, uct_c: float = 5.0, rollouts: int = 1) -> None:
        self.sims, self.uct_c, self.rollouts = sims, uct_c, rollouts
        self.spec = f"ismcts:sims={sims},uct_c={uct_c:g},rollouts={rollouts}"
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
        if len(legal) == 1 or view.phase not in (Phase.DISCARD, Phase.PLAY):
            return legal[int(rng.integers(len(legal)))]  # a cut's depth never matters (R11.1)
        state = CribbageState.from_view(self._game, view, rng)
        if view.phase is Phase.DISCARD:
            first = self._search(state, rng)
            state.apply_action(first)
            second = self._search(state, rng)
            return discard_action(first, second)
        return self._search(state, rng)
