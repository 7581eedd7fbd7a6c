"""CribbageVectorEnv: N games stepped in one process by compiled kernels, batch in, batch out.

``gym.make_vec("cribbage/Cribbage-v0", num_envs=N, vectorization_mode="vector_entry_point")``
builds it (so does ``make_vec`` without a mode, Gymnasium's default when a vector entry point is
registered). Game ``i`` is the game :class:`~cribbage_env.envs.single.CribbageEnv` plays after
``reset(seed=s + i)``: the same deals, the same opponent draws, the same observations, masks and
rewards step for step (``tests/cribbage_env/envs/test_vecenv.py`` checks it against ``SyncVectorEnv``). A finished
game is reset in the same step (``AutoresetMode.SAME_STEP``): the returned row is the new game's
first decision and the terminal one is in ``info["final_obs"]`` (arrays, rows marked by
``info["_final_obs"]``), its info in ``info["final_info"]``.

Opponents run inside the kernel: ``"random"``, ``"greedy"`` and ``"expectimax"`` (by name,
default knobs; they decide exactly as the agents do). Others need the Python agents: use
``vectorization_mode="sync"`` or ``cribbage_env.envs.vector.make_vec``. Other arguments are
CribbageEnv's (``seat``, ``reward``, ``skunk_bonus``, ``illegal_action``, ``illegal_penalty``,
``agent_seed``: pin the same one to get CribbageEnv's opponent draws);
``render_mode`` is not supported. Three options are the batch's own:

- ``copy=False`` returns the env's own buffers (observations, masks, rewards...), rewritten in
  place by the next ``step``: no copy per step (Gymnasium's ``SyncVectorEnv(copy=...)``).
  They are read-only views (a step rewrites only what changed in a row, so an edit would
  corrupt the next observation).
- ``observation="compact"``: :data:`~cribbage_env.kernels.vecobs.COMPACT_SIZE` bytes per game
  instead of :data:`~cribbage_env.encoding.OBS_SIZE` floats: the :data:`~cribbage_env.kernels.vecobs.BITS` binary
  values bit-packed (``np.packbits`` order), then the count, both scores (capped at the
  target) and the opponent's cards left as bytes; :func:`unpack_observation` gives back the
  standard observation exactly.
- ``parallel=True`` steps the two halves of the batch on two threads (numba ``prange``); games
  are independent, so the results are the serial ones (a test checks it).

Importing this module imports numba; the first use compiles the kernels (a message on stderr
says so) and caches them (:mod:`cribbage_env.kernels.kernelcache`).

>>> import gymnasium as gym, cribbage_env
>>> vec = gym.make_vec("cribbage/Cribbage-v0", num_envs=4, vectorization_mode="vector_entry_point")
>>> obs, info = vec.reset(seed=0)
>>> obs["observation"].shape == (4, cribbage_env.encoding.OBS_SIZE), info["action_mask"].shape
(True, (4, 52))
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..analysis.discard import KEEP_INDEX, default_crib_table
from ..encoding import NUM_ACTIONS, OBS_SIZE, InvalidActionError, observation_space
from ..kernels import kernelcache
from ..kernels import simkernel as K
from ..kernels import veckernel as V
from ..kernels import vecobs as O
from ..kernels import vecstep as S
from ..kernels.simrng import generator_words
from ..kernels.vecagent import prefix
from ..rules.core import IllegalActionError, Rules
from ..seeding import check_agent_seed, new_agent_seed
from .episode import EPISODES as _EPISODES
from .episode import ILLEGAL_ACTIONS as _ILLEGAL
from .episode import SEATS as _SEATS
from .episode import check_choice as _check_choice
from .episode import check_real, env_rules
from .rewards import REWARDS, Outcome

OPPONENTS = {"random": V.RANDOM, "greedy": V.GREEDY, "expectimax": V.EXPECTIMAX}
OBSERVATIONS = ("standard", "compact")


def unpack_observation(packed: np.ndarray, target: int = 121) -> np.ndarray:
    """The standard ``float32[..., OBS_SIZE]`` observation of compact ones
    (``uint8[..., COMPACT_SIZE]``).

    >>> from cribbage_env.envs.batched import CribbageVectorEnv
    >>> std, com = CribbageVectorEnv(3), CribbageVectorEnv(3, observation="compact")
    >>> a, b = std.reset(seed=1)[0]["observation"], com.reset(seed=1)[0]["observation"]
    >>> b.dtype, b.shape == (3, O.COMPACT_SIZE), bool((unpack_observation(b) == a).all())
    (dtype('uint8'), True, True)
    """
    p = np.asarray(packed)
    if p.shape[-1] != O.COMPACT_SIZE or p.dtype != np.uint8:
        raise ValueError(f"compact observations are uint8[..., {O.COMPACT_SIZE}], got {p.shape}")
    out = np.empty(p.shape[:-1] + (OBS_SIZE,), dtype=np.float32)
    out[..., : O.BITS] = np.unpackbits(p[..., : O.PACKED_BYTES], axis=-1, count=O.BITS)
    tail = p[..., O.PACKED_BYTES :].astype(np.float64)
    out[..., O.BITS :] = tail / np.array([31.0, target, target, 6.0])
    return out


def warm_up(opponents: tuple[str, ...] = tuple(OPPONENTS), parallel: bool = False) -> None:
    """Compile (or load from the cache) the batched env's kernels for ``opponents`` (all by
    default: ``cribbage warmup``), serial or ``parallel``, saying so on stderr when one compiles.
    An env compiles only its own opponent's kernel, at its first ``reset``."""
    for opponent in opponents:
        CribbageVectorEnv(2, opponent, parallel=parallel, agent_seed=0)._warm_up()


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
        observation: str = "standard",
        copy: bool = True,
        parallel: bool = False,
        agent_seed: int | None = None,
    ) -> None:
        self.rules = env_rules(rules)
        self.agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
        self._agent = prefix(self.agent_seed)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise ValueError(
                f"the batched env runs the opponents {sorted(OPPONENTS)} inside its kernel, got "
                f"{opponent!r}; for other agents use vectorization_mode='sync' "
                "(cribbage_env.envs.vector.make_vec)"
            )
        _check_choice("seat", seat, _SEATS)
        _check_choice("episode", episode, _EPISODES)
        _check_choice("reward", reward, tuple(k for k, r in REWARDS.items() if r.batched))
        _check_choice("illegal_action", illegal_action, _ILLEGAL)
        _check_choice("observation", observation, OBSERVATIONS)
        if render_mode is not None:
            raise ValueError("the batched env does not render; use CribbageEnv(render_mode='ansi')")
        if max_episode_steps is not None:
            raise ValueError("games always end; max_episode_steps is not supported")
        self.num_envs = num_envs
        self.opponent = opponent
        self.seat_option, self.episode, self.reward_mode = seat, episode, reward
        self.skunk_bonus, self.illegal_action = bool(skunk_bonus), illegal_action
        self.illegal_penalty = check_real("illegal_penalty", illegal_penalty)
        self.observation, self.copy, self.parallel = observation, bool(copy), bool(parallel)
        self.render_mode = None
        compact = observation == "compact"
        standard = observation_space()
        self.single_observation_space = standard
        if compact:
            self.single_observation_space = spaces.Dict(
                {
                    "observation": spaces.Box(0, 255, (O.COMPACT_SIZE,), np.uint8),
                    "action_mask": standard.spaces["action_mask"],
                }
            )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._cfg = self._config()
        self._opp = (1 if opponent == "greedy" else None, 1 if opponent == "expectimax" else None)
        self._alloc(num_envs, compact)
        self._tabs = K.tables()
        self._keep = np.ascontiguousarray(KEEP_INDEX, dtype=np.int64)
        table = default_crib_table()
        self._crib = np.ascontiguousarray(np.stack([table.dealer, table.pone]), dtype=np.float64)
        self._seeded = np.zeros(num_envs, dtype=bool)
        self._started = False

    def _config(self) -> np.ndarray:
        cfg = np.zeros(S.CFG_SIZE, dtype=np.int64)
        seat = self.seat_option
        cfg[S.C_SEAT] = S.ALTERNATE if seat == "alternate" else int(seat)
        cfg[S.C_DEAL] = int(self.episode == "deal")
        cfg[S.C_OPPONENT] = OPPONENTS[self.opponent]
        cfg[S.C_TARGET] = self.rules.target
        return cfg

    def _alloc(self, n: int, compact: bool) -> None:
        """The buffers every step writes in place (a compact env's float ones are empty)."""
        rows = 0 if compact else n
        self._states = np.zeros((n, V.SIZE), dtype=np.int64)
        self._rngs = np.zeros((n, V.RNG_WORDS), dtype=np.uint64)
        self._obs = np.zeros((rows, OBS_SIZE), dtype=np.float32)
        self._packed = np.zeros((n - rows, O.COMPACT_SIZE), dtype=np.uint8)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._legal = np.zeros_like(self._mask)
        self._final_obs = np.zeros_like(self._obs)
        self._final_packed = np.zeros_like(self._packed)
        self._final_mask = np.zeros_like(self._mask)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._illegal = np.zeros(n, dtype=bool)
        self._fin = np.zeros((n, S.FIN), dtype=np.int64)
        self._ones = np.ones(n, dtype=bool)
        self._actions_buf = np.zeros(n, dtype=np.int64)
        self._out = (self._terminated, self._illegal)
        self._prev = np.zeros((rows, O.MAX_ONES + 1), dtype=np.int16)  # each row's ones
        self._views: tuple[np.ndarray, ...] = (self._obs, self._packed, self._mask, self._prev)
        self._views += (self._final_obs, self._final_packed, self._final_mask, self._prev[:0])

    # ------------------------------------------------------------------------- gymnasium API
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ):
        if options:
            raise ValueError(f"the batched env takes no reset options, got {sorted(options)}")
        n = self.num_envs
        seeds = (
            seed
            if isinstance(seed, list)
            else [None if seed is None else seed + i for i in range(n)]
        )
        if len(seeds) != n:
            raise ValueError(f"reset needs {n} seeds, got {len(seeds)}")
        self._seed(seeds)
        self._warm_up()
        self._run(True)
        self._started = True
        return self._observation(), self._info()

    def step(self, actions):
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        acts = self._actions(actions)
        if self.illegal_action == "raise":  # against the env's own copy of the masks
            ok = self._legal[np.arange(self.num_envs), acts]
            if not ok.all():
                i = int(np.flatnonzero(ok == 0)[0])
                legal = np.flatnonzero(self._legal[i]).tolist()
                raise IllegalActionError(
                    f"env {i}: card {acts[i]} is not legal now; legal: {legal}"
                )
        self._run(False, acts)
        term = self._terminated
        self._rewards[:] = self._step_rewards()
        np.copyto(self._rewards, self.illegal_penalty, where=self._illegal)
        infos = self._info()
        if term.any():
            self._final(infos)
        c = self._c
        return self._observation(), c(self._rewards), c(term), c(self._truncated), infos

    def action_masks(self) -> np.ndarray:
        """The batch's legal-action masks as bool, shape ``(num_envs, 52)``."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False

    # ------------------------------------------------------------------------- internals
    def _args(self, reset: bool, actions: np.ndarray) -> tuple:
        """The kernel's arguments (:func:`cribbage_env.kernels.vecstep.run`)."""
        head = () if self.parallel else (0, self.num_envs)  # run: every game, lo..hi
        args: tuple[Any, ...] = (*head, reset, self._states, actions, self._rngs, self._tabs)
        args += (
            self._keep,
            self._crib,
            self._cfg,
            self._agent,
            self._opp,
            self._out,
            self._fin,
            self._views,
        )
        return args + (2,) if self.parallel else args

    def _run(self, reset: bool, actions: np.ndarray | None = None) -> None:
        """One kernel call: every game's next episode (``reset``) or one learner step; the
        masks it wrote are kept apart too (a caller holding a ``copy=False`` view cannot
        change what ``illegal_action="raise"`` checks)."""
        args = self._args(reset, self._actions_buf if actions is None else actions)
        if self.parallel:
            S.run_parallel(*args)
        else:
            S.run(*args)
        np.copyto(self._legal, self._mask)

    def _warm_up(self) -> None:
        """Load or compile this env's kernel (a message when it compiles)."""
        kernel = S.run_parallel if self.parallel else S.run
        args = self._args(True, self._actions_buf)
        if kernelcache.compiled([kernel], args):
            return
        what = f"the batched simulator ({self.opponent} opponent)"
        with kernelcache.announce([kernel], what, args):
            kernel.compile(tuple(numba.typeof(a) for a in args))

    def _step_rewards(self) -> np.ndarray:
        """The reward mode's rewards of the step (:data:`cribbage_env.envs.rewards.REWARDS`)."""
        f, seat = self._fin, self._fin[:, S.F_SEAT]
        scores = f[:, S.F_SCORES : S.F_SCORES + 2]
        step = REWARDS[self.reward_mode].batched
        assert step is not None  # checked when the env was made
        return step(Outcome(f[:, S.F_MARGIN], f[:, S.F_PREV], scores, f[:, S.F_WINNER], seat,
                            self._terminated, self.episode == "deal", self.skunk_bonus,
                            self.rules))  # fmt: skip

    def _seed(self, seeds: list[int | None]) -> None:
        """Each game's generator from its seed as ``CribbageEnv.reset(seed=...)`` makes it (a
        game never seeded draws fresh entropy; ``None`` continues a seeded one)."""
        for i, s in enumerate(seeds):
            if s is not None or not self._seeded[i]:
                rng, _ = seeding.np_random(s)
                self._rngs[i, V.ENV_RNG : V.ENV_RNG + 6] = generator_words(rng)
                self._states[i, V.EPISODES] = 0 if s is None else int(s) % 2  # as CribbageEnv
                self._seeded[i] = True

    def _c(self, a: np.ndarray) -> np.ndarray:
        """What a caller gets of buffer ``a``: a copy, or (``copy=False``) a read-only view."""
        if self.copy:
            return a.copy()
        view = a.view()
        view.flags.writeable = False
        return view

    def _actions(self, actions) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise InvalidActionError(
                f"actions must be {self.num_envs} integer card ids 0..51, got {actions!r}"
            )
        if a.size and (a.min() < 0 or a.max() >= NUM_ACTIONS):
            raise InvalidActionError("actions are card ids 0..51")
        return np.ascontiguousarray(a, dtype=np.int64)

    def _observation(self) -> dict[str, np.ndarray]:
        obs = self._packed if self.observation == "compact" else self._obs
        return {"observation": self._c(obs), "action_mask": self._c(self._mask)}

    def _info(self) -> dict[str, Any]:
        c, ones = self._c, self._ones
        return {
            "action_mask": c(self._mask),
            "_action_mask": c(ones),
            "seat": self._states[:, V.SEAT].copy(),
            "_seat": c(ones),
            "illegal_action": c(self._illegal),
            "_illegal_action": c(ones),
        }

    def _final(self, infos: dict[str, Any]) -> None:
        """The finished episodes' last observations and results (rows marked by ``_final_*``)."""
        c, term, fin = self._c, self._terminated, self._fin
        fobs = self._final_packed if self.observation == "compact" else self._final_obs
        infos["final_obs"] = {"observation": c(fobs), "action_mask": c(self._final_mask)}
        infos["_final_obs"] = term.copy()
        infos["final_info"] = {
            "scores": fin[:, S.F_MINE : S.F_THEIRS + 1].copy(),
            "margin": fin[:, S.F_MARGIN].copy(),
            "won": fin[:, S.F_WON] == 1,
            "seat": fin[:, S.F_SEAT].copy(),
            "_scores": term.copy(),
            "_margin": term.copy(),
            "_won": term.copy(),
            "_seat": term.copy(),
        }
        infos["_final_info"] = term.copy()
