"""The episode core that the Gym env and the PettingZoo AEC env share (no environment library).

One :class:`Episode` holds a game plus what an environment adds to it: the discard as two picks
(env actions are card ids), the end of an episode (the game, or the first deal), the terminal
view of a one-deal episode (which must not show the next deal), seat views and masks, margins and
the win reward. The two environments differ only in who acts (one learner against an opponent,
or two agents) and in how they hand out observations and rewards; both render a seat's view as
the same text table (:func:`render_view`, their "ansi" mode).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..encoding import action_mask, encode, picks_to_engine_action
from ..rules.cards import cards_str
from ..rules.core import EnvError, Phase, Rules, implements
from ..rules.engine import GameState
from ..rules.views import PlayerView
from ..seeding import keyed_seed

#: Episode kinds: the whole game (to the target) or the first deal only.
EPISODES = ("game", "deal")
#: The learner's seat: either seat, or alternating from episode to episode.
SEATS = (0, 1, "alternate")
#: What an env does with an illegal action: a penalty (Gymnasium's checker steps at random) or
#: an IllegalActionError.
ILLEGAL_ACTIONS = ("penalize", "raise")

#: The envs (Gym, AEC, batched) play to the target and pay skunks by the lines (``reward="win"``
#: with ``skunk_bonus``).
ENVS = implements("the envs", "target", "skunk", "double_skunk")


def env_rules(rules: Rules | str) -> Rules:
    """The rules an env plays (a name or a value), refused if the envs do not implement them."""
    return ENVS.check(Rules.named(rules))


def check_choice(name: str, value: Any, allowed: tuple) -> None:
    """A ``ValueError`` naming the allowed values when ``value`` is not one of them."""
    if isinstance(value, bool) or value not in allowed:
        raise EnvError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")


def check_flag(name: str, value: Any) -> bool:
    """``value`` if it is a bool (numpy's too), else an ``EnvError``: ``skunk_bonus="no"`` is
    not silently true."""
    if not isinstance(value, bool | np.bool_):
        raise EnvError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_real(name: str, value: Any) -> float:
    """``value`` as a float if it is a finite real number, else an ``EnvError`` (a NaN or
    infinite reward would poison every return it is summed into)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise EnvError(f"{name} must be a finite number; got {value!r}")
    if not np.isfinite(value):
        raise EnvError(f"{name} must be a finite number; got {value!r}")
    return float(value)


def episode_seed(np_random: np.random.Generator, key: int | None = None) -> int:
    """The game seed of the next episode, drawn from the env's generator (and dealt from a
    secret ``key`` when one is given: :func:`cribbage_env.seeding.keyed_seed`).

    Every environment (Gym, AEC, batched) draws it this way, so the same ``reset(seed=...)``
    deals the same cards in all of them. Opponents' generators are not drawn from it: they are
    :func:`cribbage_env.seeding.agent_rng` of the env's agent seed, the game seed and the seat.

    >>> episode_seed(np.random.default_rng(3)) == episode_seed(np.random.default_rng(3))
    True
    """
    seed = int(np_random.integers(0, 2**63 - 1))
    return seed if key is None else keyed_seed(seed, key)


def finished_deal_view(view: PlayerView, dealer: int) -> PlayerView:
    """The terminal view of a one-deal episode: scores and dealer of the finished deal, no cards.

    After the show the engine has already dealt the next hand; the episode must not show it.
    """
    return PlayerView.at_deal(
        view.seat, dealer, (), phase=Phase.GAME_OVER, scores=view.scores, rules=view.rules,
        goes=view.goes, winner=view.winner, opponent_cards_left=0,
    )  # fmt: skip


class Episode:
    """A game seen as an episode: picks, termination, terminal views, masks and rewards.

    >>> from cribbage_env.rules.engine import new_game
    >>> ep = Episode(new_game(1), "deal")
    >>> while not ep.over:
    ...     seat = ep.game.current_player
    ...     _ = ep.pick(seat, int(np.flatnonzero(ep.mask(seat))[0]))
    >>> ep.view(0).phase.value, ep.view(0).hand, ep.game.deal_no
    ('game over', (), 1)
    """

    __slots__ = ("game", "episode", "skunk_bonus", "pending", "deal_dealer", "_views")

    def __init__(self, game: GameState, episode: str = "game", skunk_bonus: bool = False) -> None:
        check_choice("episode", episode, EPISODES)
        self.game = game
        self.episode = episode
        self.skunk_bonus = bool(skunk_bonus)
        #: Each seat's first discard pick while it waits for the second.
        self.pending: list[int | None] = [None, None]
        self.deal_dealer = game.dealer
        self._views: list[PlayerView | None] = [None, None]

    @property
    def over(self) -> bool:
        """The game is won, or (one-deal episode) the first deal's show is over."""
        g = self.game
        return g.winner is not None or (self.episode == "deal" and g.deal_no > 0)

    def view(self, seat: int) -> PlayerView:
        """Seat's view now (the finished deal's, at the end of a one-deal episode); cached."""
        view = self._views[seat]
        if view is None:
            g = self.game
            view = g.view(seat)
            if self.episode == "deal" and g.deal_no > 0 and g.winner is None:
                view = finished_deal_view(view, self.deal_dealer)
            self._views[seat] = view
        return view

    def mask(self, seat: int) -> np.ndarray:
        """Seat's legal env actions as a fresh int8 mask (all zero when it is not to act)."""
        return action_mask(self.view(seat), self.pending[seat])

    def encode(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """Seat's observation vector and mask (see :mod:`cribbage_env.encoding`)."""
        return encode(self.view(seat), self.pending[seat])

    def apply(self, action: int) -> None:
        """An engine decision (e.g. the opponent agent's) applied to the game."""
        self._views = [None, None]
        self.game.apply(action)

    def pick(self, seat: int, card: int) -> bool:
        """Seat's env action (a legal card id); False if it was the first pick of a discard."""
        self._views = [None, None]
        g = self.game
        if g.phase is Phase.DISCARD:
            first = self.pending[seat]
            if first is None:
                self.pending[seat] = card
                return False
            self.pending[seat] = None
            g.apply(picks_to_engine_action(first, card))
        else:
            g.apply(card)
        return True

    def margin(self, seat: int) -> int:
        """Seat's score minus the other seat's."""
        s = self.game.scores
        return s[seat] - s[1 - seat]

    def phase_name(self, seat: int) -> str:
        """The phase as a person reads it ("discard, second pick")."""
        g = self.game
        if g.phase is Phase.DISCARD:
            pick = "second pick" if self.pending[seat] is not None else "first pick"
            return "discard, " + pick
        return g.phase.value


def check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    """An ``EnvError`` naming the render modes when ``render_mode`` is neither None nor one of them."""
    if render_mode is not None and render_mode not in modes:
        shown = " or ".join(repr(m) for m in modes)
        raise EnvError(f"render_mode must be None or {shown}; got {render_mode!r}")


def render_view(view: PlayerView, pending: int | None = None, *, names: tuple[str, str]) -> str:
    """A text table of one seat's situation (only what that seat may see)."""
    seat = view.seat
    me, them = names
    star = cards_str([view.starter]) if view.starter is not None else "--"
    dealer = me if view.dealer == seat else them
    own = [c for _, c in view.played if _ == seat]
    opp = [c for p, c in view.played if p != seat]
    lines = [
        f"deal {view.deal}  phase: {view.phase.value}  dealer: {dealer}",
        f"score  {me}: {view.scores[seat]:>3}   {them}: {view.scores[1 - seat]:>3}",
        f"starter: {star}   count: {view.count:>2}   sequence: [{cards_str(view.sequence)}]",
        f"{me} hand: [{cards_str(view.hand)}]"
        + (f"  pending discard: {cards_str([pending])}" if pending is not None else "")
        + (f"  crib cards: [{cards_str(view.discards)}]" if view.discards else ""),
        f"{me} played: [{cards_str(own)}]   {them} played: [{cards_str(opp)}]   "
        f"{them} holds {view.opponent_cards_left} card(s)",
    ]
    if view.winner is not None:
        lines.append(f"game over: {me if view.winner == seat else them} won")
    elif view.to_act is not None:
        lines.append(f"to act: {me if view.to_act == seat else them}")
    return "\n".join(lines) + "\n"
