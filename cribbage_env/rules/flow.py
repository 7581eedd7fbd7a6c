"""The engine's own moves between decisions: the cut for first deal, the deal, the starter and
his heels, go's and resets, the last card, the show and the stop at the target (RULES R2-R10).

:class:`DealFlow` is the base of :class:`cribbage_env.rules.engine.GameState`: the engine takes
a player's decision (legal actions, ``apply``) and calls these to run the game on to the next
one, so what the players choose and what the game does by itself read apart. Events are logged
through :meth:`cribbage_env.rules.state.State._event`.
"""

from __future__ import annotations

from .cards import RANK, VALUE
from .core import EventKind, Phase
from .scoring import ScoreKind, heels_points, score_fast
from .state import State

_EV_GO, _EV_RESET, _EV_SCORE, _EV_SHOW = (
    EventKind.GO,
    EventKind.RESET,
    EventKind.SCORE,
    EventKind.SHOW,
)


class DealFlow(State):
    """A state that runs the game between decisions; the engine adds the decisions themselves."""

    __slots__ = ()

    def _add(self, p: int, pts: int) -> bool:
        """Peg points; True (and the game ends, R10) when they reach the target."""
        s = self.scores_[p] + pts
        self.scores_[p] = s
        if s >= self.rules.target:
            self.winner = p
            self.phase = Phase.GAME_OVER
            self._event(EventKind.GAME_OVER, p)
            return True
        return False

    def _cut_for_deal(self, p: int) -> None:
        """R2: player ``p`` cuts; after both, the lower rank deals, a tie recuts."""
        cards = self._chance.first_cut(self._cut_attempt)
        card = cards[p]
        self._cut_cards.append(card)
        self._event(EventKind.CUT_FOR_DEAL, p, (card,))
        if p == 0:
            self.to_act = 1
            return
        a, b = self._cut_cards
        self._cut_cards = []
        self._cut_attempt += 1
        if RANK[a] == RANK[b]:
            self._event(EventKind.CUT_TIE, None, (a, b))
            self.to_act = 0
            return
        first = 0 if RANK[a] < RANK[b] else 1
        self._event(EventKind.FIRST_DEALER, first)
        self.dealer = 1 - first  # _start_deal alternates
        self._start_deal()

    def _start_deal(self) -> None:
        self.dealer = 1 - self.dealer
        self.deal_no += 1
        if self.interactive_cuts:
            self.phase = Phase.DEAL_CUT
            self.to_act = 1 - self.dealer
        else:
            self._deal()

    def _deal(self) -> None:
        """R3.2: six cards each, alternately, from the pone."""
        deck = self._chance.deck(self.deal_no)
        pone = 1 - self.dealer
        self.hands[pone] = deck[0:12:2]
        self.hands[self.dealer] = deck[1:12:2]
        self.kept = [[], []]
        self.discards = [(), ()]
        self.crib = []
        self.starter = None
        self.seq = []
        self.count = 0
        self.last_player = -1
        self.go_said = [False, False]
        self.goes = []
        self.played = []
        self._event(EventKind.DEAL, self.dealer, tuple(deck[0:12:2]) + tuple(deck[1:12:2]))
        self.phase = Phase.DISCARD
        self.to_act = pone

    def _cut_starter(self) -> None:
        """R5: the starter is the 13th card of the shuffle, whatever the cut depth (R11.1)."""
        starter = self._chance.deck(self.deal_no)[12]
        self.starter = starter
        self._event(EventKind.STARTER, None, (starter,))
        heels = heels_points(starter)
        if heels:
            self._event(EventKind.SCORE, self.dealer, (starter,), heels, "", ScoreKind.HIS_HEELS)
            if self._add(self.dealer, heels):
                return
        self.phase = Phase.PLAY
        self.to_act = 1 - self.dealer
        # The pone holds four cards at count 0, so the first decision is theirs (R6.1).

    def _reset(self) -> None:
        self.seq = []
        self.count = 0
        self.go_said = [False, False]
        self._event(_EV_RESET, None)

    def _advance_play(self) -> None:
        """Resolve go's, go points, resets and the last card until someone must decide (R6-R8)."""
        hands = self.hands
        event = self._event
        while True:
            if not hands[0] and not hands[1]:
                if self.seq:  # R8.3: last card scores 1 unless it made 31 (then seq was reset)
                    lp = self.last_player
                    event(_EV_SCORE, lp, (self.seq[-1],), 1, "", ScoreKind.LAST_CARD)
                    if self._add(lp, 1):
                        return
                self._show()
                return
            q = self.to_act
            lim = 31 - self.count
            if _fits(hands[q], lim):
                return
            if hands[q] and not self.go_said[q]:
                self.go_said[q] = True
                self.goes.append((q, self.count))
                event(_EV_GO, q)
            o = 1 - q
            if _fits(hands[o], lim):
                self.to_act = o
                return
            # R8.1: neither can play: the last to lay a card scores 1 and the other leads.
            lp = self.last_player
            event(_EV_SCORE, lp, (self.seq[-1],), 1, "", ScoreKind.GO)
            if self._add(lp, 1):
                return
            self._reset()
            self.to_act = 1 - lp

    def _show(self) -> None:
        """R9: pone's hand, dealer's hand, then the crib, each stopping at the target (R10)."""
        s = self.starter
        assert s is not None  # the show follows the cut
        dealer = self.dealer
        for p, (a, b, c, d), crib, what in (
            (1 - dealer, self.kept[1 - dealer], False, "hand"),
            (dealer, self.kept[dealer], False, "hand"),
            (dealer, self.crib, True, "crib"),
        ):
            pts = score_fast(a, b, c, d, s, crib)
            self._event(_EV_SHOW, p, (a, b, c, d, s), pts, what)
            if pts and self._add(p, pts):
                return
        self._start_deal()


def _fits(hand: list[int], limit: int) -> bool:
    """Whether any card of ``hand`` can be laid on a count leaving ``limit`` (R6.2)."""
    for c in hand:
        if VALUE[c] <= limit:
            return True
    return False
