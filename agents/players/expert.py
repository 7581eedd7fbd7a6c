"""The expert tier: expectimax's exact discard values plus pegging foresight, Monte Carlo pegging
search and win-probability play near the end of the game.

- **Discard**: analyzer net (exact hand EV over the 46 starters ± crib table) plus the expected
  pegging margin of the kept four for this seat's role, from the table built by
  ``benchmarks/tables/peg_table.py`` (``agents/data/peg_table.json``). Near the end of the game the best
  few splits are compared by playing the deal out on modelled deals (the opponent's six cards
  and its analyzer-like split, the starter), with a won or lost game worth far more than points
  (board position). The pegging search also scores a game won or lost in the play-out (pone's
  show first) by the win utility, and a card that reaches 121 now is always played.
- **Pegging**: determinized Monte Carlo search to the end of the deal
  (:mod:`agents.search.peg_search`) on guesses drawn from an opponent model
  (:mod:`agents.search.opponent_model`): the opponent kept four of its six cards the way the discard
  analyzer would (softmax of the 15 splits' net values, temperature ``tau``), and its plays and
  go's this deal agree with the guess.

Every play-out runs in the compiled deal simulator (:mod:`cribbage_env.kernels.fastsim`), all of a
decision's in one call; the decisions are the ones the engine path made for the same draws
(``tests/cribbage_env/kernels/test_fastsim.py``).

Knobs: ``sims`` guesses per decision (default 60: the pegging gain over expectimax grows with
it, see benchmarks/RESULTS.md); ``stop`` ends the search early once the best card leads every
other by that many standard errors (0: never); ``tau`` the model's temperature in points (``0``
draws guesses uniformly from the unseen cards, the first version of this agent); ``rollout``
``heuristic`` (fast, default) or ``expectimax`` (both sides play the expectimax pegging policy
inside the play-outs: stronger with perfect information, slower); ``discard`` ``table``
(analyzer net plus the pegging table, default) or ``sim`` (pegging play-outs of the best splits);
``objective`` ``equity`` (default: play to win; a play-out's end is worth the winning chance
read from the board-position table, and discard points are weighed by the table's slopes) or
``points`` (the margin, the agent before win-aware play).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np

from cribbage_env.analysis.discard import analyze_discards
from cribbage_env.equity import has_table, point_weights
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.cards import RANK, cards_str
from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..base import Hint, Option
from ..params import Param
from ..search.opponent_model import sample_modelled_arrays, sample_opponent_deal_arrays
from ..search.peg_search import SEARCHES, deal_utility, equity_utility, search_play
from ..search.play_outs import deal_play_outs, pegging_margins
from .expectimax import ExpectimaxAgent

#: Within this many points of 121 (either player) discards are chosen by playing the deal out.
ENDGAME_MARGIN = 30
#: Splits compared by play-outs in the endgame.
ENDGAME_CANDIDATES = 4
#: Rollout policies for the pegging search (knob ``rollout``).
ROLLOUTS = ("heuristic", "expectimax")
#: Discard valuations (knob ``discard``): analyzer net plus the pegging table, or plus pegging
#: play-outs on modelled deals for the best few splits.
DISCARDS = ("table", "sim")
#: What a play-out's end is worth (knob ``objective``): ``points``, the margin gained (a game
#: won or lost inside the deal worth WIN_UTILITY), or ``equity``, the winning chance read from
#: the board-position table (:mod:`cribbage_env.equity`; exactly 1/0 for a game won or lost
#: inside the deal). With ``equity`` the discard's points are also weighed by how much one point
#: of each side moves the winning chance on the board after this deal (play on / off).
OBJECTIVES = ("points", "equity")


@lru_cache(maxsize=1)
def peg_table() -> dict:
    """Pegging-margin model of the kept four, by role; zeros if the table is not shipped."""
    try:
        text = resources.files("agents").joinpath("data/peg_table.json").read_text()
        return json.loads(text)
    except (FileNotFoundError, OSError, ValueError):
        return {
            "dealer": [0.0] * 13,
            "pone": [0.0] * 13,
            "pair": {"dealer": 0.0, "pone": 0.0},
            "intercept": {"dealer": 0.0, "pone": 0.0},
            "params": {"missing": True},
        }


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
    """The strongest tier: analyzer + pegging-table discards, Monte Carlo pegging search on
    modelled deals, play-outs near 121. Sees only its PlayerView."""

    name = "expert"
    #: ``sims`` is capped so a typo cannot make one decision take hours.
    PARAMS: tuple[Param, ...] = (
        Param(
            "sims", int, 60, "guesses (determinized deals) per pegging decision", low=1, high=5000
        ),
        Param(
            "beta",
            float,
            0.0,
            "weight guesses by exp(beta * points the kept four make)",
            low=0,
            high=2,
        ),
        Param(
            "endgame",
            int,
            ENDGAME_MARGIN,
            "within this many points of 121 discards are chosen by play-outs",
            low=0,
            high=120,
        ),
        Param(
            "tau",
            float,
            0.5,
            "opponent model temperature in points (0: uniform guesses)",
            low=0,
            high=100,
        ),
        Param("rollout", str, "heuristic", "policy inside the play-outs", choices=ROLLOUTS),
        Param(
            "discard",
            str,
            "table",
            "discard valuation: pegging table or play-outs",
            choices=DISCARDS,
        ),
        Param(
            "stop",
            float,
            0.0,
            "stop searching once the best card leads by this many standard errors (0: never)",
            low=0,
            high=100,
        ),
        Param(
            "objective",
            str,
            "equity",
            "what a play-out's end is worth: winning chance (equity table), or points margin",
            choices=OBJECTIVES,
        ),
    )

    def __init__(
        self,
        sims: int | str = 60,
        beta: float | str = 0.0,
        endgame: int | str = ENDGAME_MARGIN,
        tau: float | str = 0.5,
        rollout: str = "heuristic",
        discard: str = "table",
        stop: float | str = 0.0,
        objective: str = "equity",
    ) -> None:
        self.sims = int(sims)
        self.beta = float(beta)
        self.endgame = int(endgame)
        self.tau = float(tau)
        self.stop = float(stop)
        if not self.stop >= 0:
            raise ValueError(f"stop must be 0 (never stop early) or a z-score > 0, got {stop!r}")
        if self.sims < 1:
            raise ValueError(f"sims must be at least 1, got {sims!r}")
        if not self.tau >= 0:
            raise ValueError(
                f"tau must be 0 (uniform guesses) or a positive temperature, got {tau!r}"
            )
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        self.rollout = rollout
        if discard not in DISCARDS:
            raise ValueError(f"discard must be one of {', '.join(DISCARDS)}, got {discard!r}")
        self.discard = discard
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        self.objective = objective
        self._ex = ExpectimaxAgent()
        self.spec = (
            f"expert:sims={self.sims},tau={self.tau:g},rollout={rollout},"
            f"discard={discard},stop={self.stop:g}" + f",objective={objective}"
        )

    def _search(self, view: PlayerView, rng: np.random.Generator):
        guesses = None
        if self.tau > 0:  # arrays (hands, discards), or None: uniform guesses instead
            guesses = sample_modelled_arrays(view, rng, self.sims, self.tau)
        return search_play(
            view, rng, self.sims, self.beta, self.rollout, guesses, self.stop, self.objective
        )

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        SEARCHES.check(view.rules)
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat} in phase {view.phase.value}")
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.DISCARD:
            return self._best_discard(view, rng)
        if view.phase is Phase.PLAY:
            return self._search(view, rng)[0].card
        return legal[0]  # cuts: the depth never matters (R11.1)

    def hint(
        self, view: PlayerView, rng: np.random.Generator | None = None, *, top: int = 3
    ) -> Hint:
        """The suggested action with the numbers behind it (``top`` discard splits)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        if view.phase is Phase.DISCARD:
            opts = self._discard_options(view, rng)
            best = opts[0]
            return Hint(
                best.action, tuple(opts[:top]), f"keep {best.details['keep']}: {best.reason}"
            )
        if view.phase is Phase.PLAY:
            ests = self._search(view, rng)
            plays = tuple(
                Option(
                    e.card,
                    e.value,
                    (
                        f"winning chance after the deal {e.value:.1%}"
                        if self.objective == "equity" and has_table(view.rules)
                        else f"expected margin to the end of the deal {e.value:+.2f}"
                    )
                    + f" over {e.samples} guesses",
                )
                for e in ests
            )
            return Hint(ests[0].card, plays, plays[0].reason)
        legal = view.legal_actions
        return Hint(legal[0], (Option(legal[0], 0.0, "any cut gives the same card"),), "")

    # ------------------------------------------------------------------ discard
    def _discard_scores(self, view: PlayerView) -> tuple[list, list[float], list[float]]:
        """The analyzer's splits, each one's pegging value and its score for this agent's
        objective (the board's weights on each side's points when playing to win)."""
        dealer = view.is_dealer
        w_me, w_opp = 1.0, 1.0
        if self.objective == "equity":
            me, opp = view.scores[view.seat], view.scores[1 - view.seat]
            w_me, w_opp = point_weights(me, opp, dealer, target=view.rules)
        w_crib = w_me if dealer else w_opp
        splits = analyze_discards(view.hand, dealer=dealer)
        pegs = [peg_value(o.keep, dealer) for o in splits]
        values = [
            w_me * o.hand_ev + w_crib * o.crib_ev + 0.5 * (w_me + w_opp) * peg
            for o, peg in zip(splits, pegs, strict=True)
        ]
        return splits, pegs, values

    def _reranks(self, view: PlayerView) -> bool:
        """Whether the best splits are compared by play-outs (near the end, or ``discard=sim``)."""
        return max(view.scores) >= view.rules.target - self.endgame or self.discard == "sim"

    def _best_discard(self, view: PlayerView, rng: np.random.Generator) -> int:
        """:meth:`_discard_options`'s first action, without writing out every option."""
        if self._reranks(view):
            return self._discard_options(view, rng)[0].action
        splits, _, values = self._discard_scores(view)
        best = max(range(len(values)), key=values.__getitem__)  # the first of equal values
        return discard_action(*splits[best].discard)

    def _discard_options(self, view: PlayerView, rng: np.random.Generator) -> list[Option]:
        splits, pegs, values = self._discard_scores(view)
        opts = [
            Option(
                discard_action(*o.discard),
                value,
                f"hand {o.hand_ev:.2f}, crib {o.crib_ev:+.2f}, pegging {peg:+.2f}",
                {
                    "keep": cards_str(o.keep),
                    "discard": cards_str(o.discard),
                    "hand_ev": o.hand_ev,
                    "crib_ev": o.crib_ev,
                    "peg_ev": peg,
                    "net": o.net + peg,
                },
            )
            for o, peg, value in zip(splits, pegs, values, strict=True)
        ]
        opts.sort(key=lambda o: -o.value)
        if max(view.scores) >= view.rules.target - self.endgame:
            opts = self._endgame_rerank(view, rng, opts)
        elif self.discard == "sim":
            opts = self._pegging_rerank(view, rng, opts)
        return opts

    def _pegging_rerank(
        self, view: PlayerView, rng: np.random.Generator, opts: list[Option]
    ) -> list[Option]:
        """Re-rank the best splits by analyzer net plus the pegging margin measured by playing
        the play out on modelled deals (the same deals for every split)."""
        head = sorted(opts, key=lambda o: -o.details["hand_ev"] - o.details["crib_ev"])
        head = head[:ENDGAME_CANDIDATES]
        totals = np.zeros(len(head))
        deals = sample_opponent_deal_arrays(view, rng, self.sims, self.tau)
        for i, o in enumerate(head):
            out, start = deal_play_outs(view, o.action, deals, self.rollout, heels=False)
            totals[i] = pegging_margins(out, view.seat, start).sum()
        scored = []
        for o, t in zip(head, totals, strict=True):
            peg = float(t / len(deals[2]))
            net = o.details["hand_ev"] + o.details["crib_ev"]
            scored.append(
                Option(
                    o.action,
                    net + peg,
                    f"hand {o.details['hand_ev']:.2f}, crib {o.details['crib_ev']:+.2f}, "
                    f"pegging {peg:+.2f} (play-outs)",
                    {**o.details, "peg_ev": peg, "net": net + peg},
                )
            )
        scored.sort(key=lambda o: -o.value)
        return scored + [o for o in opts if o.action not in {h.action for h in head}]

    def _endgame_rerank(
        self, view: PlayerView, rng: np.random.Generator, opts: list[Option]
    ) -> list[Option]:
        """Compare the best splits by playing the deal out: wins and losses dominate points."""
        head = opts[:ENDGAME_CANDIDATES]
        totals = np.zeros(len(head))
        deals = sample_opponent_deal_arrays(view, rng, self.sims, self.tau)
        equity = self.objective == "equity"
        utility = equity_utility(view.dealer, view.rules) if equity else deal_utility
        for i, o in enumerate(head):
            # His heels (R5.2) is pegged first and can win; whoever leads, the first card
            # comes from the rollout policy too.
            out, start = deal_play_outs(view, o.action, deals, self.rollout, heels=True)
            for v in utility(out.scores, out.winner, view.seat, start):
                totals[i] += v  # in deal order, as the sums were always made
        scored = [
            Option(
                o.action,
                float(t / self.sims) + 1e-6 * o.value,
                o.reason + f"; play-out value {t / self.sims:+.1f}",
                o.details,
            )
            for o, t in zip(head, totals, strict=True)
        ]
        scored.sort(key=lambda o: -o.value)
        return scored + opts[ENDGAME_CANDIDATES:]
