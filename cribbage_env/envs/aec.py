"""PettingZoo AEC environment: two learners, ``player_0`` and ``player_1``, over the same engine.

Needs the optional extra ``pettingzoo`` (``pip install ".[pettingzoo]"``). Observations, masks and
the two-pick discard are exactly those of :class:`cribbage_env.envs.single.CribbageEnv` (same
:mod:`cribbage_env.encoding` functions), and ``reset(seed=s)`` deals the same cards as the Gym
env's ``reset(seed=s)``.

>>> from cribbage_env.envs.aec import env as make_env
>>> e = make_env()
>>> e.reset(seed=1)
>>> while e.agents:
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     e.step(action)
>>> e.unwrapped.game.is_over
True

Importing this module registers the ids where PettingZoo has a registry (1.26+):
``pettingzoo.make("aec", "cribbage/Cribbage-v0")``, ``"cribbage/CribbageDeal-v0"`` and
``"cribbage/CribbageShort-v0"`` after ``import cribbage_env.envs.aec`` (``import cribbage_env``
alone does not import PettingZoo).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding

from ..seeding import new_deal_key
from .extras import missing_extra

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "cribbage_env.envs.aec", "pettingzoo") from None

from ..encoding import NUM_ACTIONS, as_action, observation_space
from ..rules.core import EnvError, IllegalActionError, Rules
from ..rules.engine import GameState, new_game
from .episode import EPISODES as _EPISODES
from .episode import Episode, check_flag, check_render_mode, env_rules, episode_seed, render_view
from .episode import check_choice as _check_choice
from .registration import register_pettingzoo as _register_pettingzoo
from .rewards import REWARDS
from .single import EpisodeOverError

AGENTS = ("player_0", "player_1")


def _seat(agent: object) -> int:
    """The engine seat of ``agent`` (an EnvError naming the agents if it is none of them)."""
    if agent not in AGENTS:
        raise EnvError(f"unknown agent {agent!r}; the agents are {', '.join(AGENTS)}")
    return AGENTS.index(str(agent))


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's standard wrappers (like the classic games).

    An illegal card ends the game with ``-1`` for the player who chose it
    (``TerminateIllegalWrapper``); out-of-range actions fail an assertion; calling out of order
    raises.
    """
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _InOrder(e)


class _InOrder(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with the env's own error first: ``last()`` or ``observe()``
    before ``reset()`` and an unknown agent say so in one error, as the raw env does."""

    def last(self, observe: bool = True):
        self.env.unwrapped._started()
        return super().last(observe)

    def observe(self, agent: str):
        self.env.unwrapped._started()
        _seat(agent)
        return super().observe(agent)


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's naming convention
    """
    ## Description

    Two-player cribbage for two learners. Agents are ``player_0`` and ``player_1`` (engine seats 0
    and 1). Only real choices are asked: cuts, dealing, forced "go"s and counting are automatic.
    The agent to act is the engine's player to act; during the discard the same agent acts twice
    in a row (two picks).

    ## Action Space

    ``Discrete(52)`` card ids, as in the Gym env (two picks for the discard). The raw env raises
    :class:`~cribbage_env.IllegalActionError` on an illegal card; :func:`env` wraps it with
    ``TerminateIllegalWrapper`` instead.

    ## Observation Space

    ``Dict({"observation": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1, (52,), int8)})``
    (``OBS_SIZE``: :data:`cribbage_env.encoding.OBS_SIZE`)
    from that agent's PlayerView (see :mod:`cribbage_env.encoding`); the mask is all zeros for the
    agent not to act. ``infos[agent]["action_mask"]`` holds the same mask.

    ## Rewards

    ``reward="points"``: after every step each agent gets its points minus the other's points
    scored in that step (zero-sum), so an agent's cumulative reward between its turns is the
    margin change since its last decision and the episode total is the final margin.
    ``reward="win"``: ±1 at the end (±2/±3 for skunks with ``skunk_bonus``; sign of the margin in
    the one-deal episode).

    ## Episode End

    All agents terminate when a player reaches the target, 121 or 61 (``episode="game"``) or after the first deal's
    show (``episode="deal"``). Never truncated.

    ## Arguments

    ``episode`` ("game" | "deal"), ``reward`` ("points" | "win"), ``skunk_bonus`` (bool),
    ``render_mode`` (None | "ansi": a spectator's table, no hidden cards), ``rules`` (a
    :class:`~cribbage_env.Rules` or "standard" | "short"), ``secret_deals`` (bool: pass True
    when a player runs outside your process, a sealed seat: the deals then derive from the
    seed and a key drawn for this env, so ``reset(seed=s)`` repeats them only in this env).
    ``reset`` accepts and ignores ``options``.

    ## Version History

    - v0: initial version.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "cribbage_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        episode: str = "game",
        reward: str = "points",
        skunk_bonus: bool = False,
        render_mode: str | None = None,
        rules: Rules | str = "standard",
        secret_deals: bool = False,
    ) -> None:
        self.rules = env_rules(rules)
        # A player outside this process (a sealed seat) may know how reset(seed) deals: then
        # the deals derive from the seed and a key drawn for this env.
        self._deal_key = new_deal_key() if check_flag("secret_deals", secret_deals) else None
        _check_choice("episode", episode, _EPISODES)
        _check_choice("reward", reward, tuple(k for k, r in REWARDS.items() if r.zero_sum))
        check_render_mode(render_mode, self.metadata["render_modes"])
        EzPickle.__init__(self, episode, reward, skunk_bonus, render_mode, rules, secret_deals)
        super().__init__()
        self.episode = episode
        self.reward_mode = reward
        self.skunk_bonus = check_flag("skunk_bonus", skunk_bonus)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.game: GameState | None = None
        self.np_random: np.random.Generator | None = None
        self._ep: Episode | None = None  # the episode core shared with the Gym env
        self._potential = 0.0  # seat 0's reward potential (rewards.REWARDS)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = episode_seed(self.np_random, self._deal_key)  # same draws as CribbageEnv
        self.game = new_game(game_seed, rules=self.rules)
        self._ep = Episode(self.game, self.episode, self.skunk_bonus)
        self._potential = 0.0  # points and win both start at 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.agent_selection = AGENTS[self.game.to_act]
        self._update_infos()

    def _started(self) -> Episode:
        """The episode, or one clear error when ``reset()`` was never called."""
        if self._ep is None:
            raise EpisodeOverError("the episode was never started: call reset() first")
        return self._ep

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs, mask = self._started().encode(_seat(agent))
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        """PettingZoo's ``last``, after checking that an episode was started."""
        self._started()
        return super().last(observe)

    def step(self, action: Any) -> None:
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = AGENTS.index(agent)
        card = as_action(action)
        ep = self._started()
        g = ep.game
        mask = ep.mask(seat)
        if not mask[card]:
            legal = np.flatnonzero(mask).tolist()
            raise IllegalActionError(
                f"card {card} is not legal for {agent} now ({g.phase.value}); legal: {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if ep.pick(seat, card):  # a decision (not the first pick of a discard)
            over = ep.over
            potential = REWARDS[self.reward_mode].of(ep, 0)
            delta, self._potential = potential - self._potential, potential
            self.rewards = {AGENTS[0]: delta, AGENTS[1]: 0.0 - delta}
            if over:
                self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if not any(self.terminations.values()):
            self.agent_selection = AGENTS[g.to_act]
        else:
            self.agent_selection = AGENTS[1 - seat]
        self._update_infos()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render mode; use render_mode='ansi'")
            return None
        if self._ep is None:
            return "(no game: call reset())"
        # A spectator sees only public information: seat 0's view without its hidden cards.
        view = dataclasses.replace(
            self._ep.view(0), hand=(), kept=(), discards=(), legal_actions=()
        )
        return render_view(view, None, names=AGENTS)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------------- internals
    def _update_infos(self) -> None:
        assert self._ep is not None
        self.infos = {}
        for seat, agent in enumerate(AGENTS):
            self.infos[agent] = {"action_mask": self._ep.mask(seat)}


class RLlibObservations(wrappers.BaseWrapper):
    """Each agent's observation under RLlib's masking key names.

    ``{"observation", "action_mask"}`` -> ``{"observations", "action_mask"}``: what RLlib's
    ``PettingZooEnv`` hands to its action-masking RLModule (the Gym env's counterpart is
    ``cribbage_env.envs.wrappers.RLlibMaskObservation``). Spaces are built once per agent.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._spaces = {
            a: spaces.Dict(
                {
                    "observations": env.observation_space(a)["observation"],
                    "action_mask": env.observation_space(a)["action_mask"],
                }
            )
            for a in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = super().observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"]}


def rllib_env(**kwargs: Any) -> AECEnv:
    """:func:`env` with RLlib's observation keys, for ``ray.rllib``'s ``PettingZooEnv``."""
    return RLlibObservations(env(**kwargs))


_register_pettingzoo()
