"""The OpenSpiel game type, parameters, game and observer of :mod:`cribbage_env.openspiel`."""

from __future__ import annotations

import numpy as np
import pyspiel

from ..encoding import OBS_SIZE, SLICES, encode
from ..rules.core import Rules
from .state import CribbageState

SHORT_NAME = "python_cribbage"
_RETURNS = ("win", "skunk", "points")

_PARAMETERS = {"rules": "standard", "target": -1, "skunk": -1, "double_skunk": -1, "returns": "win"}


def _params(params: dict | None) -> tuple[Rules, str]:
    """The rules value and returns mode of game parameters (-1: the named variant's value)."""
    p = {**_PARAMETERS, **(params or {})}
    unknown = sorted(set(p) - set(_PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; known: {sorted(_PARAMETERS)}")
    base = Rules.named(str(p["rules"]))
    lines = {k: int(p[k]) for k in ("target", "skunk", "double_skunk") if int(p[k]) != -1}
    rules = Rules.from_json({**base.to_json(), **lines})  # lines not given follow the target
    returns = str(p["returns"])
    if returns not in _RETURNS:
        raise ValueError(f"returns={returns!r}: one of {', '.join(_RETURNS)}")
    return rules, returns


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Cribbage (cribbage-env rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def _game_info(rules: Rules, returns: str) -> pyspiel.GameInfo:
    bound = {"win": 1.0, "skunk": 3.0, "points": float(rules.target)}[returns]
    return pyspiel.GameInfo(
        num_distinct_actions=52,
        max_chance_outcomes=52,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        # Every deal scores at least the last card's point, so a game has fewer than 2 * target
        # deals of at most 12 + 1 chance draws, 4 discard picks and 8 plays, after the first cut.
        max_game_length=1 + 2 * rules.target * 25,
    )


class CribbageGame(pyspiel.Game):
    """Two-player six-card cribbage over the cribbage-env engine (to 121, or a variant)."""

    def __init__(self, params: dict | None = None) -> None:
        self.rules, self.returns_mode = _params(params)
        super().__init__(
            _GAME_TYPE, _game_info(self.rules, self.returns_mode), {**_PARAMETERS, **(params or {})}
        )

    def new_initial_state(self) -> CribbageState:
        return CribbageState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> CribbageObserver:
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return CribbageObserver(perfect_recall, params)


class CribbageObserver:
    """Observer (OpenSpiel's PyObserver): our observation encoding for both tensor kinds.

    The tensor is :func:`cribbage_env.encoding.encode` of the seat's view (the Gym env's vector,
    named slices in ``dict``); the perfect-recall string lists every action the seat has seen.
    """

    def __init__(self, perfect_recall: bool, params: dict | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBS_SIZE, np.float32)

        self.dict = {name: self.tensor[s] for name, s in SLICES.items()}

    def set_from(self, state: CribbageState, player: int) -> None:
        if state.is_chance_node() and state._t.g is None:
            self.tensor.fill(0.0)  # before the first deal nothing is on the table
            return
        view, pending = state.player_view(player)
        self.tensor[:] = encode(view, pending)[0]

    def string_from(self, state: CribbageState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, CribbageGame)
