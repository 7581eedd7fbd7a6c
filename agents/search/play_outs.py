"""Play-outs of a deal from the start of the play, after a discard, on modelled deals of the
hidden cards: the expert's endgame discards, the master's and the judge's discard values all
value a split this way (compiled: :mod:`cribbage_env.kernels.fastsim`, every deal in one call).

The deals are the opponent's kept four, its two discards and the starter (arrays, or a list of
triples as :func:`agents.search.opponent_model.sample_opponent_deals` draws them); the seat's own
view is carried to the start of the play as the engine would (:func:`_play_view`).
"""

from __future__ import annotations

import numpy as np

from cribbage_env.rules.actions import discard_cards
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView


def deal_play_outs(view: PlayerView, action: int, deals, rollout: str, heels: bool):
    """Play-outs (compiled) of the deal from the start of the play after discarding ``action``,
    on the modelled deals (arrays: opponent's kept four, its discards, the starter); with ``heels`` a
    jack starter first pegs 2 for the dealer (R5.2). Returns the :class:`PlayOut` and the
    scores each play-out started from."""
    from cribbage_env.kernels import simkernel as K
    from cribbage_env.kernels.fastsim import cut_heels, play_out, states_from_view

    disc = discard_cards(action)
    keep = [c for c in view.hand if c not in disc]
    if isinstance(deals, tuple):  # arrays (kept, discards, starters)
        hands, discs, starters = deals
    else:  # a list of (kept, discards, starter) as sample_opponent_deals returns
        hands = np.array([d[0] for d in deals], dtype=np.int64)
        discs = np.array([d[1] for d in deals], dtype=np.int64)
        starters = np.array([d[2] for d in deals], dtype=np.int64)
    states = states_from_view(_play_view(view, keep, disc, int(starters[0])), hands, discs)
    states[:, K.STARTER] = starters
    if heels:
        cut_heels(states)
    start = states[:, K.SCORES : K.SCORES + 2].copy()
    return play_out(states, rollout), start


def pegging_margins(out, seat: int, start: np.ndarray) -> np.ndarray:
    """This seat's pegging margin in each play-out (the show, which the analyzer already values
    exactly, left out); the whole margin when the game ended in the deal."""
    end = np.where((out.winner >= 0)[:, None], out.scores, out.play_scores)
    return ((end[:, seat] - end[:, 1 - seat]) - (start[:, seat] - start[:, 1 - seat])).astype(
        np.float64
    )


def _play_view(
    view: PlayerView, keep: list[int], disc: tuple[int, int], starter: int
) -> PlayerView:
    """The view this seat would have at the start of the play after this discard and starter."""
    return PlayerView.at_deal(
        view.seat, view.dealer, keep, phase=Phase.PLAY, deal=view.deal, scores=view.scores,
        rules=view.rules, to_act=1 - view.dealer, kept=tuple(keep), discards=tuple(disc),
        opponent_discarded=True, starter=starter, opponent_cards_left=4,
    )  # fmt: skip
