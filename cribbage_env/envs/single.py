"""CribbageEnv: one learner against an opponent agent, as a Gymnasium environment.

The env wraps the rules engine (:mod:`cribbage_env.rules.engine`); observations and masks come
from :mod:`cribbage_env.encoding`, built only from the learner's PlayerView.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..encoding import NUM_ACTIONS, InvalidActionError, as_action
from ..rules.cards import cards_str
from ..rules.core import EnvError, IllegalActionError, Rules
from ..rules.engine import GameState, new_game
from ..rules.views import PlayerView
from ..seeding import agent_rng, check_agent_seed, deals_from_secret, new_agent_seed, new_deal_key
from . import episode as _episode
from .episode import EPISODES as _EPISODES
from .episode import ILLEGAL_ACTIONS as _ILLEGAL
from .episode import SEATS as _SEATS
from .episode import (
    Episode,
    check_flag,
    check_real,
    check_render_mode,
    episode_seed,
    finished_deal_view,
    render_view,
)
from .episode import check_choice as _check_choice
from .opponent import OpponentSeat, check_opponent
from .rewards import REWARDS

__all__ = [
    "CribbageEnv",
    "EpisodeOverError",
    "InvalidActionError",
    "episode_seed",
    "finished_deal_view",
]

_OPTION_KEYS = frozenset({"opponent", "seat"})


class EpisodeOverError(EnvError, IllegalActionError):
    """``step`` after the episode ended: call ``reset()`` first."""


class CribbageEnv(gym.Env):
    """
    ## Description

    Two-player six-card cribbage to 121 (``cribbage/Cribbage-v0``) or a single deal
    (``cribbage/CribbageDeal-v0``), played by one learner against an opponent agent. The learner is
    asked only when it has a real choice: dealing, all cuts (the cut card never depends on where
    one cuts, RULES R11.1), a forced "go", pegging of go/last card and the show are resolved
    automatically, and the opponent's decisions are made inside ``step``.

    ## Action Space

    ``Discrete(52)``: a card id (``13 * suit + rank``, suits C D H S, ranks A..K) in every phase.
    In the play the card is laid. The discard is **two picks in a row**: the first pick is held
    (the observation marks it in ``pending_discard`` and the ``phase`` one-hot says "discard
    second pick", reward 0), the second completes the two-card discard. Accepted action values:
    Python/numpy integers 0..51 (also 0-d or one-element integer arrays). Anything else (floats,
    bools, None, out-of-range ints) raises :class:`~cribbage_env.encoding.InvalidActionError`
    (a ``ValueError``) in both illegal-action modes and changes nothing.

    ## Observation Space

    ``Dict({"observation": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1, (52,), int8)})``
    (``OBS_SIZE``: :data:`cribbage_env.encoding.OBS_SIZE`).
    The vector is documented slice by slice in :mod:`cribbage_env.encoding` (own hand, pending
    discard pick, own discards and kept cards, starter, current sequence and its recent ranks in
    order, cards played by each side this deal, phase, dealer/turn/go flags, count, both scores,
    opponent cards left). The mask marks the legal card ids. The same mask is also in
    ``info["action_mask"]`` (a fresh int8 array), from :meth:`action_masks` (bool, for
    sb3-contrib MaskablePPO) and, through :class:`RLlibMaskObservation`, under RLlib's key names.

    ## Rewards

    - ``reward="points"`` (default): the learner's points minus the opponent's points scored since
      the learner's previous decision (its own pegging, the opponent's replies, the show, his
      heels...). Over an episode the rewards sum to the final margin (learner score minus opponent
      score).
    - ``reward="win"``: 0 until the end, then +1 for a win and -1 for a loss; with
      ``skunk_bonus=True`` ±2 for a skunk (loser under 91) and ±3 for a double skunk (under 61).
      In ``CribbageDeal-v0`` it is the sign of the deal's margin (0 for a tie); no skunks.
    - ``reward="equity"``: the change of the learner's winning chance (0..1) since its previous
      decision, estimated from the learner's own view only
      (:func:`cribbage_env.analysis.view_chance.view_chance`): at a discard the board-position table
      (:mod:`cribbage_env.equity`) at the current scores; in the play the mean of play-outs of
      the rest of the deal over guesses of the opponent's hidden cards, then the table; 1 or 0
      once the game is over. Nothing hidden (the opponent's hand, the crib) enters it, and two
      states that look the same to the learner give the same reward and ``info``. Over a game
      the rewards sum to (1 for a win, 0 for a loss) minus the learner's chance at its first
      decision (``info["start_chance"]``); ``info["win_chance"]`` is the current estimate. It
      is potential-based shaping of ``win`` (it does not change which policy is best) with a
      dense, win-aligned signal near the end of the game. In ``CribbageDeal-v0`` the sum is the
      table's chance after the deal minus the start chance. Tables exist for every target up
      to 121; other rules raise ``EquityError``.
    - An illegal card with ``illegal_action="penalize"`` gives ``illegal_penalty`` (default -1)
      and changes nothing else.

    ## Starting State

    A new game from a seed drawn from the env's generator: players cut for first deal, the cards
    are dealt, the opponent discards if it is pone; the first observation is the learner's pick.

    ## Episode End

    Terminated when a player reaches 121 (``Cribbage-v0``) or when the first deal's show is over
    (``CribbageDeal-v0``; the terminal observation then shows the final scores, phase "over" and
    no cards). Every game ends, so the env never truncates, except with ``max_illegal=N``: N
    illegal picks in a row (each gave ``illegal_penalty``) truncate the episode, so unmasked
    training (``check_env``-style random actions) cannot stall forever; masking is the way.

    ## Information

    ``info`` holds ``action_mask`` (int8), ``seat`` (the learner's seat) and ``illegal_action``
    (bool); at the end also ``scores`` (learner, opponent), ``margin`` and ``won``.

    ``env.unwrapped.game`` is the full engine state, hidden cards included (for evaluation,
    logging and tests); a policy must read only the observation, the opponent its view.

    ## Arguments

    ```python
    gym.make("cribbage/Cribbage-v0", opponent="random", seat=0, reward="points",
             skunk_bonus=False, illegal_action="penalize", illegal_penalty=-1.0, max_illegal=0,
             render_mode=None, agent_seed=None)
    ```

    - ``opponent``: an agent name resolved with ``agents.make_agent`` ("random", "greedy",
      "expectimax", ...), an object with ``act(view, rng) -> action`` or a callable
      ``f(view, rng) -> action`` returning *engine* actions (discards as
      ``cribbage_env.discard_action``). Swap it per episode with
      ``reset(options={"opponent": ...})``. Its generator (:func:`cribbage_env.seeding.agent_rng`
      of ``agent_seed``, the game seed, its seat) hides the game seed, but an in-process
      opponent learns the whole deal whenever it can guess the reset seed (0..999 take it a
      second): reset with ``seed=None``, or keep it out; out of the process (``sealed:``, ``cmd:``)
      the deals also derive from a key the env draws (a seed deals the same in this env only).
    - ``agent_seed``: the opponent's generators' seed, ``0 <= s < 2**128``; ``None`` draws one
      from OS entropy (``env.agent_seed``: pin it to replay an opponent's decisions).
    - ``seat``: the learner's seat, 0, 1 or "alternate": ``reset(seed=s)`` plays seat ``s % 2``
      and each unseeded reset after it the other seat, so a loop seeding every episode with
      consecutive seeds (or ``make_vec``'s sub-envs, seeded ``s + i``) plays both seats equally;
      also ``reset(options={"seat": ...})``. Who deals first is decided by the cut.
    - ``episode``: "game" (to the target) or "deal" (one deal); set by the registered ids.
    - ``rules``: a :class:`~cribbage_env.Rules` or a variant name, "standard" (to 121) or
      "short" (to 61, ``cribbage/CribbageShort-v0``).
    - ``illegal_action``: "penalize" (default; ``check_env`` steps with unmasked actions) or
      "raise" (:class:`~cribbage_env.IllegalActionError`, state unchanged).
    - ``max_illegal``: truncate the episode after this many consecutive illegal picks (0, the
      default: never; only with ``illegal_action="penalize"``).
    - ``render_mode``: None or "ansi" (a text table of the learner's situation).

    ## Version History

    - v0: initial version; ``cribbage/CribbageShort-v0`` is the same env with ``rules="short"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponent: Any = "random",
        *,
        seat: int | str = 0,
        episode: str = "game",
        reward: str = "points",
        skunk_bonus: bool = False,
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        max_illegal: int = 0,
        render_mode: str | None = None,
        rules: Rules | str = "standard",
        agent_seed: int | None = None,
    ) -> None:
        self.rules = _episode.env_rules(rules)
        self.agent_seed = new_agent_seed() if agent_seed is None else check_agent_seed(agent_seed)
        _check_choice("seat", seat, _SEATS)
        _check_choice("episode", episode, _EPISODES)
        _check_choice("reward", reward, tuple(REWARDS))
        _check_choice("illegal_action", illegal_action, _ILLEGAL)
        check_render_mode(render_mode, self.metadata["render_modes"])
        check_opponent(opponent)
        self.opponent_spec = opponent
        self.seat_option = seat
        self.episode = episode
        self.reward_mode = reward
        self._reward = REWARDS[reward]
        self.skunk_bonus = check_flag("skunk_bonus", skunk_bonus)
        self.illegal_action = illegal_action
        self.illegal_penalty = check_real("illegal_penalty", illegal_penalty)
        if isinstance(max_illegal, bool) or not isinstance(max_illegal, int) or max_illegal < 0:
            raise EnvError(
                f"max_illegal must be an integer >= 0 (0: never truncate), got {max_illegal!r}"
            )
        self.max_illegal = max_illegal
        self._illegal_run = 0
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        from ..encoding import observation_space

        self.observation_space = observation_space()
        self._opp = OpponentSeat()  # the agent made from opponent_spec
        self._deal_key: int | None = None  # drawn for the first episode with a sealed opponent
        self.opponent_rng: np.random.Generator | None = None
        self.game: GameState | None = None
        self.seat = 0
        self._episode_index = 0
        self._ep: Episode | None = None  # the episode core shared with the AEC env
        self._mask: np.ndarray | None = None
        self._margin = 0
        self._done = False

    # ------------------------------------------------------------------------- gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - _OPTION_KEYS
        if unknown:
            raise EnvError(
                f"unknown reset option(s) {sorted(unknown)}; known: {sorted(_OPTION_KEYS)}"
            )
        if "seat" in options:
            _check_choice("seat", options["seat"], _SEATS)
        if "opponent" in options:  # resolved first: a bad spec leaves the env as it was
            self._opp.swap(options["opponent"])
            self.opponent_spec = options["opponent"]
        if "seat" in options:
            self.seat_option = options["seat"]
        if seed is not None:  # "alternate" restarts at the seed's parity (see the class doc)
            self._episode_index = int(seed) % 2
        self.seat = (
            self._episode_index % 2 if self.seat_option == "alternate" else int(self.seat_option)
        )
        self._episode_index += 1
        opponent = self._opp.agent_for(self.opponent_spec)
        if self._deal_key is None and deals_from_secret(opponent):
            self._deal_key = new_deal_key()  # a sealed opponent may know how a seed deals
        game_seed = episode_seed(self.np_random, self._deal_key)
        self.opponent_rng = agent_rng(self.agent_seed, game_seed, 1 - self.seat)
        self.game = new_game(game_seed, rules=self.rules)
        self._ep = Episode(self.game, self.episode, self.skunk_bonus)
        self._done = False
        self._margin = 0
        self._illegal_run = 0
        self._run_opponent()
        self._potential = self._start = self._reward.of(self._ep, self.seat)
        return self._observe(), self._info(False)

    def step(self, action: Any):
        card = as_action(action)
        ep = self._ep
        if self._done or ep is None or self._mask is None:
            raise EpisodeOverError("the episode is over (or was never started): call reset() first")
        if not self._mask[card]:
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._mask).tolist()
                raise IllegalActionError(
                    f"card {card} ({cards_str([card])}) is not legal now "
                    f"({ep.phase_name(self.seat)}); legal: "
                    + (", ".join(f"{c} ({cards_str([c])})" for c in legal) or "none")
                )
            self._illegal_run += 1
            truncated = bool(self.max_illegal) and self._illegal_run >= self.max_illegal
            self._done = truncated
            return self._observe(), self.illegal_penalty, False, truncated, self._info(True)
        self._illegal_run = 0
        if not ep.pick(self.seat, card):  # the first pick of a discard
            return self._observe(), 0.0, False, False, self._info(False)
        self._run_opponent()
        margin = ep.margin(self.seat)
        terminated = ep.over
        potential = self._reward.of(ep, self.seat)
        reward, self._potential = potential - self._potential, potential
        self._margin = margin
        self._done = terminated
        return self._observe(), reward, terminated, False, self._info(False)

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn(
                "render() called without a render mode; use CribbageEnv(render_mode='ansi')"
            )
            return None
        if self._ep is None:
            return "(no game: call reset())"
        view, pending = self._ep.view(self.seat), self._ep.pending[self.seat]
        return render_view(view, pending, names=("you", "opponent"))

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as bool (the method sb3-contrib's MaskablePPO looks for)."""
        if self._mask is None:
            raise EpisodeOverError("no mask before reset(): call reset() first")
        return self._mask.astype(bool)

    @property
    def opponent(self) -> Any:
        """The resolved opponent agent of the current episode."""
        return self._opp.agent_for(self.opponent_spec)

    # ------------------------------------------------------------------------- internals
    def close(self) -> None:
        """End the episode's resources: an opponent bot's process built from a spec."""
        self._opp.drop()
        super().close()

    def _run_opponent(self) -> None:
        """Let the opponent decide until it is the learner's turn or the episode is over."""
        assert self._ep is not None
        self._opp.play(self._ep, self.seat, self.opponent_rng, self.episode == "deal")

    def _view(self) -> PlayerView:
        """The learner's view now (the finished deal's at the end of a one-deal episode)."""
        assert self._ep is not None, "call reset() first"
        return self._ep.view(self.seat)

    @property
    def _pending(self) -> int | None:
        """The learner's first discard pick while it waits for the second."""
        return self._ep.pending[self.seat] if self._ep is not None else None

    def _observe(self) -> dict[str, np.ndarray]:
        assert self._ep is not None
        obs, mask = self._ep.encode(self.seat)
        self._mask = mask
        return {"observation": obs, "action_mask": mask.copy()}

    def _info(self, illegal: bool) -> dict[str, Any]:
        assert self._mask is not None  # set by _observe, which every caller runs first
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "seat": self.seat,
            "illegal_action": illegal,
        }
        if self.reward_mode == "equity":
            info["win_chance"] = self._potential
            info["start_chance"] = self._start
        if self._done and self._ep is not None:
            s = self._ep.game.scores
            info["scores"] = (s[self.seat], s[1 - self.seat])
            info["margin"] = self._margin
            info["won"] = (
                self._ep.game.winner == self.seat if self.episode == "game" else self._margin > 0
            )
        return info
