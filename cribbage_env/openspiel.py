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

import dataclasses
from collections.abc import Sequence

import numpy as np
import pyspiel

from .actions import discard_action
from .cards import card_str, cards_str
from .core import IllegalActionError, Phase, Rules
from .encoding import OBS_SIZE, encode
from .engine import GameState
from .views import PlayerView

SHORT_NAME = "python_cribbage"
_RETURNS = ("win", "skunk", "points")
_CHANCE_PHASES = (Phase.DEAL_CUT, Phase.STARTER_CUT)


class ScriptedChance:
    """The engine's chance source with draws made outside it (OpenSpiel's chance nodes).

    It answers the engine's question (a deal's deck: twelve dealt cards, then the starter) from
    the outcomes applied so far; ``fork`` copies it for a cloned state.
    """

    __slots__ = ("decks",)

    def __init__(self, decks: dict[int, list[int]] | None = None) -> None:
        self.decks: dict[int, list[int]] = decks if decks is not None else {}

    def deck(self, deal: int) -> list[int]:
        return self.decks[deal]

    def first_cut(self, attempt: int) -> tuple[int, int]:
        raise AssertionError("states start at a deal (the first dealer is a chance node)")

    def fork(self) -> ScriptedChance:
        return ScriptedChance({k: v[:] for k, v in self.decks.items()})


_PARAMETERS = {"rules": "standard", "target": -1, "skunk": -1, "double_skunk": -1, "returns": "win"}


def _params(params: dict | None) -> tuple[Rules, str]:
    """The rules value and returns mode of game parameters (-1: the named variant's value)."""
    p = {**_PARAMETERS, **(params or {})}
    unknown = sorted(set(p) - set(_PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; known: {sorted(_PARAMETERS)}")
    base = Rules.named(str(p["rules"]))
    lines = {k: int(p[k]) for k in ("target", "skunk", "double_skunk") if int(p[k]) != -1}
    rules = dataclasses.replace(base, **lines)
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


class _Table:
    """Everything a state holds, in one object: OpenSpiel deep-copies a Python state attribute
    by attribute, so the engine and its chance source must travel together to stay linked."""

    __slots__ = ("chance", "g", "drawn", "pending", "trace", "hist", "start")

    def __init__(self) -> None:
        #: (dealer, scores, deal) of a state that began at a deal's start (:meth:`from_view`).
        self.start: tuple[int, tuple[int, int], int] | None = None
        self.chance = ScriptedChance()
        self.g: GameState | None = None  # made when the first dealer is drawn
        self.drawn: list[int] = []  # this deal's cards dealt so far (while dealing)
        self.pending: int | None = None  # the first discard pick of the player to act
        #: (seat that sees it or None for both, text): the perfect-recall information strings.
        self.trace: list[tuple[int | None, str]] = []
        #: (tag, action) of every action so far; tags name hidden items for resampling.
        self.hist: list[tuple[tuple, int]] = []

    def __deepcopy__(self, memo: dict) -> _Table:
        t = _Table.__new__(_Table)
        t.chance = self.chance.fork()
        t.g = None if self.g is None else self.g.clone(chance=t.chance)
        t.drawn, t.pending = self.drawn[:], self.pending
        t.trace, t.hist, t.start = self.trace[:], self.hist[:], self.start
        return t


class CribbageState(pyspiel.State):
    """One game: the engine's state plus the draws and picks OpenSpiel sees as actions."""

    def __init__(self, game: CribbageGame) -> None:
        super().__init__(game)
        self._t = _Table()

    @property
    def engine(self) -> GameState:
        """The engine state (privileged: it holds both hands; bots read only :meth:`player_view`)."""
        if self._t.g is None:
            raise pyspiel.SpielError("the first dealer is not drawn yet: no engine state")
        return self._t.g

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        g = self._t.g
        if g is None or g.phase in _CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        return g.to_act

    def _legal_actions(self, player: int) -> list[int]:
        g = self.engine
        if g.phase is Phase.DISCARD:
            hand = sorted(g.hands[player])
            if self._t.pending is None:
                return hand[:-1]
            return [c for c in hand if c > self._t.pending]
        return sorted(g.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self._t.g
        if g is None:
            return [(0, 0.5), (1, 0.5)]
        if g.phase is Phase.DEAL_CUT:
            left = sorted(set(range(52)).difference(self._t.drawn))
        else:
            left = sorted(set(range(52)).difference(self._t.chance.deck(g.deal_no)))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        g = self._t.g
        if g is None:  # R2's cut for the first deal, as its outcome
            self._t.hist.append((("first",), action))
            rules = self.get_game().rules
            self._t.g = GameState.at_deal_start(self._t.chance, dealer=action, rules=rules)
            self._t.trace.append((None, f"P{action} deals first"))
            return
        deal, scores = g.deal_no, g.scores
        goes = len(g.goes) if g.phase is Phase.PLAY else None
        if g.phase in _CHANCE_PHASES:
            self._apply_chance(action)
        elif g.phase is Phase.DISCARD:
            self._apply_pick(g.to_act, action)
        else:
            self._t.hist.append((("play",), action))
            self._t.trace.append((None, f"P{g.to_act} plays {card_str(action)}"))
            g.apply(action)
        self._trace_public(deal, scores, goes)

    def _trace_public(self, deal: int, scores: tuple[int, int], goes: int | None) -> None:
        """What both seats saw the engine do on its own: go's, points, the show."""
        g = self.engine
        if goes is not None:
            self._t.trace.extend((None, f"P{p} go at {c}") for p, c in g.goes[goes:])
        if g.scores != scores:
            self._t.trace.append((None, f"scores {g.scores}"))
        if g.deal_no != deal and not g.is_over:
            self._reveal_show()

    def _apply_chance(self, action: int) -> None:
        g = self.engine
        if g.phase is Phase.DEAL_CUT:
            k = len(self._t.drawn)
            to = (1 - g.dealer) if k % 2 == 0 else g.dealer
            self._t.hist.append((("deal", g.deal_no, k, to), action))
            self._t.trace.append((to, f"P{to} dealt {card_str(action)}"))
            self._t.drawn.append(action)
            if len(self._t.drawn) == 12:
                self._t.chance.decks[g.deal_no] = self._t.drawn
                self._t.drawn = []
                g.apply(g.legal_actions()[0])  # the pone's cut: its depth never matters (R11.1)
        else:
            self._t.hist.append((("starter",), action))
            self._t.chance.decks[g.deal_no].append(action)
            g.apply(g.legal_actions()[0])
            self._t.trace.append((None, f"starter {card_str(action)}"))

    def _apply_pick(self, p: int, card: int) -> None:
        g = self.engine
        self._t.hist.append((("pick", g.deal_no, p), card))
        self._t.trace.append((p, f"P{p} discards {card_str(card)}"))
        if self._t.pending is None:
            self._t.pending = card
            return
        first, self._t.pending = self._t.pending, None
        g.apply(discard_action(first, card))
        self._t.trace.append((None, f"P{p} discarded"))

    def _reveal_show(self) -> None:
        """The show laid both hands and the crib face up (R9): they join both seats' knowledge."""
        g = self.engine
        old_dealer = 1 - g.dealer
        self._t.trace.append(
            (
                None,
                f"show: P{1 - old_dealer} {cards_str(g.kept[1 - old_dealer])}, "
                f"P{old_dealer} {cards_str(g.kept[old_dealer])}, "
                f"crib {cards_str(g.crib)}",
            )
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._t.g is None:
                return f"P{action} deals first"
            return f"deal {card_str(action)}"
        verb = "discard" if self.engine.phase is Phase.DISCARD else "play"
        return f"{verb} {card_str(action)}"

    def is_terminal(self) -> bool:
        return self._t.g is not None and self._t.g.is_over

    def returns(self) -> list[float]:
        g = self._t.g
        if g is None or not g.is_over:
            return [0.0, 0.0]
        w = 0 if g.winner == 0 else 1
        mode = self.get_game().returns_mode
        if mode == "win":
            value = 1.0
        elif mode == "skunk":
            value = float(g.rules.game_points(g.scores))
        else:
            value = float(min(g.scores[w], g.rules.target) - g.scores[1 - w])
        return [value, -value] if w == 0 else [-value, value]

    def __str__(self) -> str:
        g = self._t.g
        if g is None:
            return "before the cut for the first deal"
        hands = " / ".join(cards_str(sorted(h)) for h in g.hands)
        return (
            f"deal {g.deal_no} {g.phase.value} dealer P{g.dealer} scores {g.scores} "
            f"hands {hands} count {g.count}"
        )

    # ------------------------------------------------------------------ views
    def player_view(self, seat: int) -> tuple[PlayerView, int | None]:
        """What ``seat`` sees now, and its own pending discard pick (None if none)."""
        g = self.engine
        view = g.view(seat)
        if g.phase is Phase.DEAL_CUT:  # dealing: only the cards dealt to this seat so far
            pone = 1 - g.dealer
            mine = tuple(c for k, c in enumerate(self._t.drawn) if (k % 2 == 0) == (seat == pone))
            view = dataclasses.replace(
                view,
                phase=Phase.DISCARD,
                to_act=None,
                legal_actions=(),
                hand=mine,
                kept=(),
                discards=(),
                opponent_discarded=False,
                starter=None,
                count=0,
                sequence=(),
                played=(),
                go_said=(False, False),
                goes=(),
                opponent_cards_left=len(self._t.drawn) - len(mine),
            )
        pending = self._t.pending if g.phase is Phase.DISCARD and g.to_act == seat else None
        return view, pending

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return f"P{p}: " + "; ".join(t for seat, t in self._t.trace if seat is None or seat == p)

    def observation_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        if self._t.g is None:
            return f"P{p}: before the cut for the first deal"
        view, pending = self.player_view(p)
        extra = f" pick {card_str(pending)}" if pending is not None else ""
        return f"{view}{extra}"

    # ------------------------------------------------------------------ resampling (ISMCTS)
    def resample_from_infostate(self, player_id: int, probability_sampler) -> CribbageState:
        """A state the seat ``player_id`` cannot tell from this one, hidden cards drawn anew.

        The opponent's unseen cards of the current deal (and its discards or pending pick) are
        drawn uniformly among the cards the seat has not seen, keeping only draws that fit the
        opponent's go's (R6.2); everything else replays as it happened.
        """
        rng = np.random.default_rng(int(probability_sampler() * 2**62))
        key = self.information_state_string(player_id)
        for _ in range(2000):
            actions = self._resampled_history(player_id, rng)
            if actions is None:
                continue
            try:  # a draw that contradicts a go, or a pass the opponent could not have made
                state = self._replay(actions)
            except IllegalActionError:
                continue
            if (
                state.current_player() == self.current_player()
                and state.information_state_string(player_id) == key
            ):
                return state
        return self.clone()  # the true world always fits; reached only for vanishing odds

    def _resampled_history(self, me: int, rng: np.random.Generator) -> list[int] | None:
        g = self.engine
        opp = 1 - me
        deal = g.deal_no
        hist = self._t.hist
        mine = [a for tag, a in hist if tag[0] == "deal" and tag[1] == deal and tag[3] == me]
        slots = [
            i
            for i, (tag, _) in enumerate(hist)
            if tag[0] == "deal" and tag[1] == deal and tag[3] == opp
        ]
        picks = [
            i
            for i, (tag, _) in enumerate(hist)
            if tag[0] == "pick" and tag[1] == deal and tag[2] == opp
        ]
        played = [c for p, c in g.played if p == opp] if g.phase is Phase.PLAY else []
        seen = set(mine).union(played)
        if g.phase in (Phase.PLAY, Phase.GAME_OVER) and g.starter is not None:
            seen.add(g.starter)
        pool = sorted(set(range(52)) - seen)
        hidden = [int(c) for c in rng.permutation(pool)[: len(slots) - len(played)]]
        picked = sorted(hidden[: len(picks)])
        if len(picks) == 1 and picked[0] == max(hidden):
            return None  # a first pick is never the highest card (its second must be higher)
        cards = [*played, *hidden]
        rng.shuffle(cards)
        actions = [a for _, a in hist]
        for i, c in zip(slots, cards, strict=True):
            actions[i] = c
        for i, c in zip(picks, picked, strict=True):
            actions[i] = c
        return actions

    def _replay(self, actions: Sequence[int]) -> CribbageState:
        s = self.get_game().new_initial_state()
        if self._t.start is not None:
            s._begin_deal(*self._t.start)
        for a in actions:
            s.apply_action(a)
        return s

    # ------------------------------------------------------------------ states from a view
    def _begin_deal(self, dealer: int, scores: tuple[int, int], deal: int) -> None:
        rules = self.get_game().rules
        t = self._t
        t.start = (dealer, scores, deal)
        t.g = GameState.at_deal_start(
            t.chance, dealer=dealer, scores=scores, deal=deal, rules=rules
        )
        t.trace.append((None, f"deal {deal}: P{dealer} deals, scores {scores}"))

    @classmethod
    def from_view(
        cls, game: CribbageGame, view: PlayerView, rng: np.random.Generator
    ) -> CribbageState:
        """A state at ``view``'s decision that its seat cannot tell from the real game.

        For search bots that are handed only a view: the deal is rebuilt from its start (earlier
        deals are summed up in the scores) with the opponent's unseen cards drawn among the cards
        the view has not seen, until the rebuilt state shows exactly ``view`` to its seat. Such a
        state is for searching: its OpenSpiel history starts at the deal, so it does not serialize.
        """
        if view.phase not in (Phase.DISCARD, Phase.PLAY) or view.to_act != view.seat:
            raise ValueError(f"from_view needs the seat's own decision, not {view.phase.value}")
        for _ in range(2000):
            state = cls._rebuild(game, view, rng)
            if state is not None:
                return state
        raise ValueError("no deal fits this view (its go's contradict every draw)")

    @classmethod
    def _rebuild(
        cls, game: CribbageGame, view: PlayerView, rng: np.random.Generator
    ) -> CribbageState | None:
        me, opp = view.seat, 1 - view.seat
        mine = view.own_cards_this_deal()
        opp_played = [c for p, c in view.played if p == opp]
        unseen = sorted(set(view.unseen_cards()) - set(opp_played))
        hidden = [int(c) for c in rng.permutation(unseen)[: 6 - len(opp_played)]]
        opp_six = [*opp_played, *hidden]
        rng.shuffle(opp_six)
        opp_discards = sorted(hidden[:2]) if view.opponent_discarded else []
        if view.phase is Phase.DISCARD:  # nothing is scored before the starter
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, view.scores)
        else:  # the points of this deal so far, from 0-0; then again from where the deal began
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, (0, 0))
            if state is None:
                return None
            gained = state.engine.scores
            begin = tuple(a - b for a, b in zip(view.scores, gained, strict=True))
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, begin)
        if state is None or state.player_view(me)[0] != view:
            return None
        return state

    @classmethod
    def _play_deal(
        cls, game: CribbageGame, view: PlayerView, mine: Sequence[int], opp_six: Sequence[int],
        opp_discards: Sequence[int], scores: Sequence[int],
    ) -> CribbageState | None:  # fmt: skip
        if min(scores) < 0:
            return None
        me, pone = view.seat, 1 - view.dealer
        state = cls(game)
        state._begin_deal(view.dealer, (int(scores[0]), int(scores[1])), view.deal)
        six = {me: list(mine), 1 - me: list(opp_six)}
        for k in range(6):
            state.apply_action(six[pone][k])
            state.apply_action(six[1 - pone][k])
        picks = {me: sorted(view.discards), 1 - me: list(opp_discards)}
        try:
            for p in (pone, 1 - pone):
                for card in picks[p]:
                    state.apply_action(card)
            if view.starter is not None:
                state.apply_action(view.starter)
            for _, card in view.played:
                state.apply_action(card)
        except (IllegalActionError, pyspiel.SpielError):
            return None
        return state


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
        from .encoding import SLICES

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

__all__ = ["SHORT_NAME", "CribbageGame", "CribbageObserver", "CribbageState", "ScriptedChance"]
