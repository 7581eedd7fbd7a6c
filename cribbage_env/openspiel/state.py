"""The state of :mod:`cribbage_env.openspiel`: the engine's game plus the draws and picks that
OpenSpiel sees as actions, information strings, resampling and states rebuilt from a view.

What a state holds is :mod:`.holdings`; the hidden cards its resampling and its states from a
view draw are :mod:`.worlds`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyspiel

from ..rules.actions import discard_action
from ..rules.cards import card_str, cards_str
from ..rules.core import IllegalActionError, Phase
from ..rules.engine import GameState
from ..rules.views import PlayerView
from .holdings import GameParams, Holdings
from .worlds import MAX_DRAWS, deal_actions, guessed_deal, redrawn_history

_CHANCE_PHASES = (Phase.DEAL_CUT, Phase.STARTER_CUT)


class CribbageState(pyspiel.State):
    """One game: the engine's state plus the draws and picks OpenSpiel sees as actions."""

    def __init__(self, game: GameParams) -> None:
        super().__init__(game)
        self._t = Holdings()

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
            view = PlayerView.at_deal(
                seat, view.dealer, mine, deal=view.deal, scores=view.scores, rules=view.rules,
                winner=view.winner, opponent_cards_left=len(self._t.drawn) - len(mine),
            )  # fmt: skip
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
        opponent's go's (R6.2); everything else replays as it happened
        (:func:`~cribbage_env.openspiel.worlds.redrawn_history`). After
        :data:`~cribbage_env.openspiel.worlds.MAX_DRAWS` draws that do not fit it raises
        ``RuntimeError``, never handing back the true state.
        """
        rng = np.random.default_rng(int(probability_sampler() * 2**62))
        key = self.information_state_string(player_id)
        for _ in range(MAX_DRAWS):
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
        # Never the true state: handing a search bot the real hidden cards would be cheating.
        raise RuntimeError(
            f"no world fits seat {player_id}'s information after {MAX_DRAWS} draws of the "
            f"hidden cards (its opponent's go's contradict them)"
        )

    def _resampled_history(self, me: int, rng: np.random.Generator) -> list[int] | None:
        """This state's actions with the hidden cards seat ``me`` has not seen drawn anew."""
        return redrawn_history(self.engine, self._t.hist, me, rng)

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
        cls, game: GameParams, view: PlayerView, rng: np.random.Generator
    ) -> CribbageState:
        """A state at ``view``'s decision that its seat cannot tell from the real game.

        For search bots that are handed only a view: the deal is rebuilt from its start (earlier
        deals are summed up in the scores) with the opponent's unseen cards drawn among the cards
        the view has not seen, until the rebuilt state shows exactly ``view`` to its seat. Such a
        state is for searching: its OpenSpiel history starts at the deal, so it does not serialize.
        """
        if view.phase not in (Phase.DISCARD, Phase.PLAY) or view.to_act != view.seat:
            raise ValueError(f"from_view needs the seat's own decision, not {view.phase.value}")
        for _ in range(MAX_DRAWS):
            state = cls._rebuild(game, view, rng)
            if state is not None:
                return state
        raise ValueError("no deal fits this view (its go's contradict every draw)")

    @classmethod
    def _rebuild(
        cls, game: GameParams, view: PlayerView, rng: np.random.Generator
    ) -> CribbageState | None:
        mine, opp_six, opp_discards = guessed_deal(view, rng)
        if view.phase is Phase.DISCARD:  # nothing is scored before the starter
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, view.scores)
        else:  # the points of this deal so far, from 0-0; then again from where the deal began
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, (0, 0))
            if state is None:
                return None
            gained = state.engine.scores
            begin = tuple(a - b for a, b in zip(view.scores, gained, strict=True))
            state = cls._play_deal(game, view, mine, opp_six, opp_discards, begin)
        if state is None or state.player_view(view.seat)[0] != view:
            return None
        return state

    @classmethod
    def _play_deal(
        cls, game: GameParams, view: PlayerView, mine: Sequence[int], opp_six: Sequence[int],
        opp_discards: Sequence[int], scores: Sequence[int],
    ) -> CribbageState | None:  # fmt: skip
        if min(scores) < 0:
            return None
        state = cls(game)
        state._begin_deal(view.dealer, (int(scores[0]), int(scores[1])), view.deal)
        dealt, rest = deal_actions(view, mine, opp_six, opp_discards)
        for card in dealt:
            state.apply_action(card)
        try:
            for card in rest:
                state.apply_action(card)
        except (IllegalActionError, pyspiel.SpielError):
            return None
        return state
