"""OpenSpiel's C++ cribbage as an outside oracle for the flow of the play (optional: needs
``pip install open-spiel``).

Our random games are replayed into OpenSpiel card for card (same card ids): the same player must
be on turn with the same card legal before every card we laid (R6.1, R6.3, R8.1, R8.4), and the
scores must agree before every card (pegging R7, go and 31 R8.1-R8.2, his heels R5.2) and after
every deal (last card R8.3, the show R9).

OpenSpiel differs from RULES.md in two places, which the comparison allows for explicitly:
it scores a four-card flush in the crib (R9.5 says a crib flush needs the starter too), and it
keeps counting after a player reaches 121 (R10), so the deal in which the game ends is not
compared.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_games import random_game

import cribbage_env as ce

pyspiel = pytest.importorskip("pyspiel")

K = ce.EventKind
PASS = 2756  # OpenSpiel's "Pass" action (its forced go)


def _scores(state) -> list[int]:
    line = next(x for x in str(state).splitlines() if x.startswith("Scores:"))
    return [int(v) for v in line.split()[1:3]]


def _crib_four_flush_without_starter(show: ce.Event) -> bool:
    crib, starter = show.cards[:4], show.cards[4]
    return len({c // 13 for c in crib}) == 1 and starter // 13 != crib[0] // 13


def _random_game(seed: int) -> ce.GameState:
    return random_game(seed, np.random.default_rng(seed))


def _replay_into_openspiel(g: ce.GameState) -> int:
    """Replay every deal that ended without a winner; return how many deals were compared."""
    game = pyspiel.load_game("cribbage")
    s = game.new_initial_state()
    events = g.events
    extra = [0, 0]  # OpenSpiel's four-card crib flush points so far

    def ours_plus_extra(scores) -> list[int]:
        return [scores[0] + extra[0], scores[1] + extra[1]]

    compared = 0
    for deal in range(events[-1].deal):
        dev = [
            (i, e)
            for i, e in enumerate(events)
            if e.deal == deal and e.kind not in (K.CUT_FOR_DEAL, K.CUT_TIE, K.FIRST_DEALER)
        ]
        first, deal_event = dev[0]
        before = events[first - 1].scores
        if s.is_terminal():
            return compared  # OpenSpiel's extra crib points ended its game first
        assert s.is_chance_node() and _scores(s) == ours_plus_extra(before)
        dealer = deal_event.player
        six = {1 - dealer: deal_event.cards[:6], dealer: deal_event.cards[6:]}
        for card in (*six[0], *six[1]):  # OpenSpiel deals six to player 0, then six to player 1
            s.apply_action(card)
        discards = {e.player: set(e.cards) for _, e in dev if e.kind is K.DISCARD}
        for _ in range(2):
            p = s.current_player()
            want = {ce.card_str(c) for c in discards[p]}
            (action,) = [
                a for a in s.legal_actions() if set(s.action_to_string(p, a).split()[1:]) == want
            ]
            s.apply_action(action)
        starter_at = next(i for i, e in dev if e.kind is K.STARTER)
        s.apply_action(events[starter_at].cards[0])
        for i, e in dev:
            if e.kind is not K.PLAY:
                continue
            while s.legal_actions() == [PASS]:
                s.apply_action(PASS)
            assert _scores(s) == ours_plus_extra(events[i - 1].scores), (deal, str(e))
            assert s.current_player() == e.player, (deal, str(e))
            assert e.cards[-1] in s.legal_actions(), (deal, str(e))
            s.apply_action(e.cards[-1])
        while not s.is_chance_node() and not s.is_terminal():
            s.apply_action(PASS)
        crib = next(e for _, e in dev if e.kind is K.SHOW and e.what == "crib")
        if _crib_four_flush_without_starter(crib):
            extra[dealer] += 4
        if not s.is_terminal():
            assert _scores(s) == ours_plus_extra(events[dev[-1][0]].scores), deal
        compared += 1
    return compared


def test_random_games_agree_with_openspiel_deal_by_deal() -> None:
    compared = 0
    games = 0
    for seed in range(60):
        g = _random_game(seed)
        if g.events[next(i for i, e in enumerate(g.events) if e.kind is K.DEAL)].player != 0:
            continue  # OpenSpiel's player 0 deals first
        compared += _replay_into_openspiel(g)
        games += 1
    assert games >= 20 and compared >= 100
