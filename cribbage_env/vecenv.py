"""CribbageVectorEnv: N games stepped in one process by compiled kernels, batch in, batch out.

``gym.make_vec("cribbage/Cribbage-v0", num_envs=N, vectorization_mode="vector_entry_point")``
builds it (so does ``make_vec`` without a mode, Gymnasium's default when a vector entry point is
registered). Game ``i`` is the game :class:`~cribbage_env.env.CribbageEnv` plays after
``reset(seed=s + i)``: the same deals, the same opponent draws, the same observations, masks and
rewards step for step (``tests/test_vecenv.py`` checks it against ``SyncVectorEnv``). A finished
game is reset in the same step (``AutoresetMode.SAME_STEP``): the returned row is the new game's
first decision and the terminal one is in ``info["final_obs"]`` (arrays, rows marked by
``info["_final_obs"]``), its info in ``info["final_info"]``.

Opponents run inside the kernel: ``"random"`` and ``"greedy"`` (by name). Others need the
Python agents: use ``vectorization_mode="sync"`` or ``cribbage_env.vector.make_vec``.
Other arguments are CribbageEnv's (``seat``, ``reward``, ``skunk_bonus``, ``illegal_action``,
``illegal_penalty``, ``agent_seed``: pin the same one to get CribbageEnv's opponent draws);
``render_mode`` is not supported. Importing this module imports numba.

>>> import gymnasium as gym, cribbage_env
>>> vec = gym.make_vec("cribbage/Cribbage-v0", num_envs=4, vectorization_mode="vector_entry_point")
>>> obs, info = vec.reset(seed=0)
>>> obs["observation"].shape, info["action_mask"].shape
((4, 534), (4, 52))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import simkernel as K
from . import veckernel as V
from .chance import Chance
from .core import IllegalActionError, Rules
from .discard import KEEP_INDEX
from .encoding import NUM_ACTIONS, OBS_SIZE, InvalidActionError, observation_space
from .engine import new_game
from .env import _EPISODES, _ILLEGAL, _SEATS, _check_choice, episode_seed
from .rewards import REWARDS, Outcome
from .seeding import agent_entropy, check_agent_seed, new_agent_seed
from .simrng import WORDS, pcg64_words

OPPONENTS = {"random": V.RANDOM, "greedy": V.GREEDY}


class CribbageVectorEnv(VectorEnv):
    """``num_envs`` CribbageEnv games in compiled code (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        opponent: str = "random",
        *,
        seat: int | str = 0,
        episode: str = "game",
        reward: str = "points",
        skunk_bonus: bool = False,
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        max_episode_steps: int | None = None,
        rules: Rules | str = "standard",
        agent_seed: int | None = None,
    ) -> None:
        self.rules = Rules.named(rules)
        self.agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise ValueError(
                f"the batched env runs the opponents {sorted(OPPONENTS)} inside its kernel, got "
                f"{opponent!r}; for other agents use vectorization_mode='sync' "
                "(cribbage_env.vector.make_vec)"
            )
        _check_choice("seat", seat, _SEATS)
        _check_choice("episode", episode, _EPISODES)
        _check_choice("reward", reward, tuple(k for k, r in REWARDS.items() if r.batched))
        _check_choice("illegal_action", illegal_action, _ILLEGAL)
        if render_mode is not None:
            raise ValueError("the batched env does not render; use CribbageEnv(render_mode='ansi')")
        if max_episode_steps is not None:
            raise ValueError("games always end; max_episode_steps is not supported")
        self.num_envs = num_envs
        self.opponent = opponent
        self.seat_option, self.episode, self.reward_mode = seat, episode, reward
        self.skunk_bonus, self.illegal_action = bool(skunk_bonus), illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = None
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._states = np.zeros((n, V.SIZE), dtype=np.int64)
        self._decks = np.zeros((n, V.DEALS_PER_BLOCK, 52), dtype=np.int64)
        self._rngs = np.zeros((n, WORDS), dtype=np.uint64)
        self._chances: list[Chance | None] = [None] * n
        self._np_randoms: list[np.random.Generator | None] = [None] * n
        self._episode_index = np.zeros(n, dtype=np.int64)
        self._obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._scratch = np.zeros(32, dtype=np.int64)
        self._keep = np.ascontiguousarray(KEEP_INDEX, dtype=np.int64)
        self._tabs = K.tables()
        self._started = False

    # ------------------------------------------------------------------------- gymnasium API
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ):
        if options:
            raise ValueError(f"the batched env takes no reset options, got {sorted(options)}")
        seeds = (
            seed
            if isinstance(seed, list)
            else (
                [None] * self.num_envs if seed is None else [seed + i for i in range(self.num_envs)]
            )
        )
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset needs {self.num_envs} seeds, got {len(seeds)}")
        for i, s in enumerate(seeds):
            if s is not None or self._np_randoms[i] is None:
                self._np_randoms[i], _ = seeding.np_random(s)
                self._episode_index[i] = 0 if s is None else int(s) % 2  # as CribbageEnv.reset
            self._new_game(i)
        self._resume(np.arange(self.num_envs))
        self._started = True
        V.encode_all(self._states, self._obs, self._mask)
        return self._observation(), self._info(np.zeros(self.num_envs, dtype=bool))

    def step(self, actions):
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        acts = self._actions(actions)
        n = self.num_envs
        rows = np.arange(n)
        if self.illegal_action == "raise" and not self._mask[rows, acts].all():
            i = int(np.flatnonzero(~self._mask[rows, acts].astype(bool))[0])
            legal = np.flatnonzero(self._mask[i]).tolist()
            raise IllegalActionError(f"env {i}: card {acts[i]} is not legal now; legal: {legal}")
        illegal = np.zeros(n, dtype=bool)
        st = self._states
        V.step_all(
            st, acts, self._decks, self._rngs, self._tabs, self._keep, self._scratch, illegal
        )
        self._resume(np.flatnonzero(st[:, V.NEED_BLOCK] >= 0))
        seat = st[:, V.SEAT]
        mine = st[rows, K.SCORES + seat]
        theirs = st[rows, K.SCORES + 1 - seat]
        margin = mine - theirs
        over = st[:, V.PHASE] == V.OVER_PHASE
        terminated = over | ((st[:, V.DEAL_EPISODE] == 1) & (st[:, K.DONE] == 1))
        step = REWARDS[self.reward_mode].batched
        assert step is not None  # checked when the env was made
        rewards = step(Outcome(margin, st[:, V.MARGIN], st[:, K.SCORES : K.SCORES + 2],
                               st[:, K.WINNER], seat, terminated, self.episode == "deal",
                               self.skunk_bonus, self.rules))  # fmt: skip
        rewards[illegal] = self.illegal_penalty
        st[~illegal, V.MARGIN] = margin[~illegal]
        V.encode_all(st, self._obs, self._mask)
        infos = self._info(illegal)
        done = np.flatnonzero(terminated)
        if done.size:
            final = {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
            won = np.where(self.episode == "game", st[:, K.WINNER] == seat, margin > 0)
            infos["final_obs"] = final
            infos["_final_obs"] = terminated.copy()
            infos["final_info"] = {
                "scores": np.stack([mine, theirs], axis=1),
                "margin": margin,
                "won": won,
                "seat": seat.copy(),
                "_scores": terminated.copy(),
                "_margin": terminated.copy(),
                "_won": terminated.copy(),
                "_seat": terminated.copy(),
            }
            infos["_final_info"] = terminated.copy()
            for i in done:
                self._new_game(int(i))
            self._resume(done)
            V.encode_all(st, self._obs, self._mask)
            infos["action_mask"] = self._mask.copy()
            infos["seat"] = st[:, V.SEAT].copy()
        truncated = np.zeros(n, dtype=bool)
        return self._observation(), rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The batch's legal-action masks as bool, shape ``(num_envs, 52)``."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False

    # ------------------------------------------------------------------------- internals
    def _new_game(self, i: int) -> None:
        """Start game ``i``'s next episode as CribbageEnv.reset does (seeds from its
        generator; first cut and deck block 0 from the engine's chance)."""
        k = int(self._episode_index[i])
        seat = k % 2 if self.seat_option == "alternate" else int(self.seat_option)
        self._episode_index[i] = k + 1
        rng = self._np_randoms[i]
        assert rng is not None, "reset() seeds every game's generator first"
        game_seed = episode_seed(rng)
        g = new_game(game_seed, rules=self.rules)
        chance = g._chance
        assert isinstance(chance, Chance), "a new game draws from its seed's chance"
        self._chances[i] = chance
        self._decks[i] = chance.block(0)
        # the opponent's generator: CribbageEnv's agent_rng(agent_seed, game_seed, its seat)
        self._rngs[i] = pcg64_words(agent_entropy(self.agent_seed, game_seed, 1 - seat))
        st = self._states[i]
        st[:] = -1
        st[K.SCORES : K.SCORES + 2] = 0
        K.put_rules(st, self.rules)
        st[K.NEVENTS] = 0
        st[K.DEALER] = 1 - g.dealer  # start_deal passes the deal: deal 0 goes to the cut's dealer
        st[K.DONE] = 1
        st[V.PHASE] = V.DISCARD_PHASE
        st[V.SEAT] = seat
        st[V.MARGIN] = 0
        st[V.OPPONENT] = OPPONENTS[self.opponent]
        st[V.FIRST_DEALER] = g.dealer
        st[V.DEAL_EPISODE] = int(self.episode == "deal")
        st[V.BLOCK] = 0
        st[V.DEAL_NO] = -1

    def _resume(self, which: np.ndarray) -> None:
        """Run games ``which`` to the learner's turn, loading deck blocks as they are reached."""
        todo = np.asarray(which, dtype=np.int64)
        st = self._states
        while todo.size:
            for i in todo:
                b = int(st[i, V.NEED_BLOCK])
                chance = self._chances[i]
                if b >= 0 and chance is not None:
                    self._decks[i] = chance.block(b)
                    st[i, V.BLOCK] = b
            V.resume_all(st, todo, self._decks, self._rngs, self._tabs, self._keep, self._scratch)
            todo = np.flatnonzero(st[:, V.NEED_BLOCK] >= 0)

    def _actions(self, actions) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise InvalidActionError(
                f"actions must be {self.num_envs} integer card ids 0..51, got {actions!r}"
            )
        if a.size and (a.min() < 0 or a.max() >= NUM_ACTIONS):
            raise InvalidActionError("actions are card ids 0..51")
        return a.astype(np.int64)

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def _info(self, illegal: np.ndarray) -> dict[str, Any]:
        ones = np.ones(self.num_envs, dtype=bool)
        return {
            "action_mask": self._mask.copy(),
            "_action_mask": ones,
            "seat": self._states[:, V.SEAT].copy(),
            "_seat": ones.copy(),
            "illegal_action": illegal.copy(),
            "_illegal_action": ones.copy(),
        }
