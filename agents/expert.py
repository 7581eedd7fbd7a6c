"""The expert tier: expectimax's exact discard values plus pegging foresight, Monte Carlo pegging
search and win-probability play near the end of the game.

- **Discard**: analyzer net (exact hand EV over the 46 starters ± crib table) plus the expected
  pegging margin of the kept four for this seat's role, from the table built by
  ``benchmarks/peg_table.py`` (``agents/data/peg_table.json``). Near the end of the game the best
  few splits are compared by playing the deal out on guesses of the hidden cards, with a won or
  lost game worth far more than points (board position).
- **Pegging**: determinized Monte Carlo search to the end of the deal
  (:mod:`agents.peg_search`), guesses weighted towards hands the opponent would have kept.

The knob ``sims`` sets guesses per decision (default 40: well under a second per decision).
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from importlib import resources

import numpy as np

from cribbage_env.actions import discard_action, discard_cards
from cribbage_env.cards import JACK, RANK, cards_str
from cribbage_env.determinize import determinize
from cribbage_env.discard import analyze_discards
from cribbage_env.engine import WINNING_SCORE, Phase
from cribbage_env.views import PlayerView

from .base import Hint, Option
from .peg_search import WIN_UTILITY, play_out, rollout_card, search_play

#: Within this many points of 121 (either player) discards are chosen by playing the deal out.
ENDGAME_MARGIN = 30
#: Splits compared by play-outs in the endgame.
ENDGAME_CANDIDATES = 4


@lru_cache(maxsize=1)
def peg_table() -> dict:
    """Pegging-margin model of the kept four, by role; zeros if the table is not shipped."""
    try:
        text = resources.files("agents").joinpath("data/peg_table.json").read_text()
        return json.loads(text)
    except (FileNotFoundError, OSError, ValueError):
        return {"dealer": [0.0] * 13, "pone": [0.0] * 13, "pair": {"dealer": 0.0, "pone": 0.0},
                "intercept": {"dealer": 0.0, "pone": 0.0}, "params": {"missing": True}}


def peg_value(keep: tuple[int, ...] | list[int], dealer: bool) -> float:
    """Expected pegging margin (own minus opponent's pegging points) of keeping these four."""
    t = peg_table()
    role = "dealer" if dealer else "pone"
    w = t[role]
    v = t["intercept"][role] + sum(w[RANK[c]] for c in keep)
    ranks = [RANK[c] for c in keep]
    pairs = sum(1 for i in range(4) for j in range(i + 1, 4) if ranks[i] == ranks[j])
    return v + t["pair"][role] * pairs


class ExpertAgent:
    """Search-based play; sees only its PlayerView."""

    name = "expert"

    def __init__(self, sims: int | str = 40, beta: float | str = 0.0,
                 endgame: int | str = ENDGAME_MARGIN) -> None:
        self.sims = int(sims)
        self.beta = float(beta)
        self.endgame = int(endgame)
        if self.sims < 1:
            raise ValueError(f"sims must be at least 1, got {sims!r}")
        self.spec = f"expert:sims={self.sims}"

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat} in phase {view.phase.value}")
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.DISCARD:
            return self._discard_options(view, rng)[0].action
        if view.phase is Phase.PLAY:
            return search_play(view, rng, self.sims, self.beta)[0].card
        return legal[0]  # cuts: the depth never matters (R11.1)

    def hint(self, view: PlayerView, rng: np.random.Generator | None = None, *,
             top: int = 3) -> Hint:
        """The suggested action with the numbers behind it (``top`` discard splits)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        if view.phase is Phase.DISCARD:
            opts = self._discard_options(view, rng)
            best = opts[0]
            return Hint(best.action, tuple(opts[:top]),
                        f"keep {best.details['keep']}: {best.reason}")
        if view.phase is Phase.PLAY:
            ests = search_play(view, rng, self.sims, self.beta)
            opts = tuple(Option(e.card, e.value, f"expected margin to the end of the deal "
                                f"{e.value:+.2f} over {e.samples} guesses") for e in ests)
            return Hint(ests[0].card, opts, opts[0].reason)
        legal = view.legal_actions
        return Hint(legal[0], (Option(legal[0], 0.0, "any cut gives the same card"),), "")

    # ------------------------------------------------------------------ discard
    def _discard_options(self, view: PlayerView, rng: np.random.Generator) -> list[Option]:
        dealer = view.is_dealer
        opts = []
        for o in analyze_discards(view.hand, dealer=dealer):
            peg = peg_value(o.keep, dealer)
            opts.append(Option(
                discard_action(*o.discard), o.net + peg,
                f"hand {o.hand_ev:.2f}, crib {o.crib_ev:+.2f}, pegging {peg:+.2f}",
                {"keep": cards_str(o.keep), "discard": cards_str(o.discard),
                 "hand_ev": o.hand_ev, "crib_ev": o.crib_ev, "peg_ev": peg, "net": o.net + peg},
            ))
        opts.sort(key=lambda o: -o.value)
        if max(view.scores) >= WINNING_SCORE - self.endgame:
            opts = self._endgame_rerank(view, rng, opts)
        return opts

    def _endgame_rerank(self, view: PlayerView, rng: np.random.Generator,
                        opts: list[Option]) -> list[Option]:
        """Compare the best splits by playing the deal out: wins and losses dominate points."""
        head = opts[:ENDGAME_CANDIDATES]
        own_all = set(view.hand)
        unseen = np.array([c for c in range(52) if c not in own_all])
        totals = np.zeros(len(head))
        for _ in range(self.sims):
            pick = rng.permutation(unseen)[:7].tolist()
            starter, opp_hand, opp_disc = pick[0], pick[1:5], pick[5:7]
            for i, o in enumerate(head):
                disc = discard_cards(o.action)
                keep = [c for c in view.hand if c not in disc]
                g = determinize(_play_view(view, keep, disc, starter), opp_hand, opp_disc)
                if RANK[starter] == JACK and g._add(view.dealer, 2):  # his heels (R5.2) can win
                    totals[i] += WIN_UTILITY if view.dealer == view.seat else -WIN_UTILITY
                    continue
                # Whoever leads, the first card comes from the rollout policy too.
                totals[i] += play_out(g, view.seat, rollout_card(g))
        scored = [Option(o.action, float(t / self.sims) + 1e-6 * o.value,
                         o.reason + f"; play-out value {t / self.sims:+.1f}", o.details)
                  for o, t in zip(head, totals, strict=True)]
        scored.sort(key=lambda o: -o.value)
        return scored + opts[ENDGAME_CANDIDATES:]


def _play_view(view: PlayerView, keep: list[int], disc: tuple[int, int],
                    starter: int) -> PlayerView:
    """The view this seat would have at the start of the play after this discard and starter."""
    pone = 1 - view.dealer
    return replace(
        view, phase=Phase.PLAY, to_act=pone, legal_actions=(), hand=tuple(keep), kept=tuple(keep),
        discards=tuple(disc), opponent_discarded=True, starter=starter, count=0, sequence=(),
        played=(), go_said=(False, False), goes=(), opponent_cards_left=4,
    )

