"""The ``master`` tier: learned evaluation inside win-aware determinized search.

- **Discard**: the learned Q network of :mod:`agents.players.neural` scores the analyzer's five best
  splits (expected margin of the rest of the deal: hand, crib and pegging, learned from
  play-outs). Near the end of the game (either player within ``endgame`` points of the target)
  the net's two best and the analyzer's two best splits are compared by **winning chance**:
  each is played out on ``worlds`` sampled deals (the opponent's six cards, its analyzer-like
  split, the starter; the same deals for every split), and each deal's end is valued by the
  board-position equity table (1/0 for a game won or lost in it). With ``board`` the net's
  values are tilted by the expert's board weights (its weighted value less its plain points).
- **Pegging**: determinized search over ``worlds`` guesses at the opponent's hidden cards, each
  world's rest of the deal played out by the compiled simulator for every legal card and valued
  by the equity table (:func:`agents.search.peg_search.search_play`, ``objective=equity``). The guesses
  come from **policy-based inference**: the opponent's six cards are drawn from the unseen ones,
  each of its 15 splits weighted by how likely an analyzer-like discarder keeps it
  (:mod:`agents.search.opponent_model`) times how likely a softmax pegging policy lays the cards it has
  laid this deal from that split (:mod:`agents.search.inference`, temperature ``play_tau``).

Budget: ``worlds`` per decision, capped by ``time_ms``, an estimate of the search's time from a
fixed cost per play-out measured on the 2-core development machine (not the clock: decisions
stay a function of the view and the agent's generator). Sees only its PlayerView.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cribbage_env.equity import has_table
from cribbage_env.rules.cards import RANK
from cribbage_env.rules.views import PlayerView

from ..base import Option
from ..params import TRUE_WORDS, Param
from ..search.opponent_model import sample_modelled_arrays, sample_opponent_deal_arrays
from ..search.peg_search import equity_utility, search_play
from ..search.play_outs import deal_play_outs
from .expert import ROLLOUTS, ExpertAgent
from .neural import NeuralAgent
from .rollouts import top_discards

#: Estimated cost of one play-out in the compiled simulator (ms) by rollout policy, and of one
#: candidate six-card hand of the opponent model: measured with benchmarks/speed/master_latency.py.
PLAYOUT_MS = {"heuristic": 0.004, "expectimax": 0.012}
MODEL_MS = 0.011
#: Splits compared by play-outs: the net's best and the analyzer's best (each this many).
HEAD = 2


class MasterAgent(ExpertAgent):
    """Learned Q discards, equity play-outs near the end, policy-inferred determinized pegging
    search valued by winning chance. Sees only its PlayerView."""

    name = "master"
    PARAMS: tuple[Param, ...] = (
        Param("worlds", int, 150, "sampled worlds per decision", low=1, high=5000),
        Param(
            "time_ms",
            float,
            40.0,
            "search budget per decision in estimated ms (caps worlds; 0: no cap)",
            low=0,
            high=60000,
        ),
        Param(
            "play_tau",
            float,
            1.0,
            "temperature (points) of the opponent's play policy in inference (0: plays ignored)",
            low=0,
            high=100,
        ),
        Param(
            "tau",
            float,
            0.5,
            "temperature (points) of the opponent's discard policy in inference (0: uniform)",
            low=0,
            high=100,
        ),
        Param(
            "endgame",
            int,
            30,
            "within this many points of the target discards are chosen by winning chance",
            low=0,
            high=121,
        ),
        Param(
            "board",
            bool,
            False,
            "tilt the net's discard values by the board (the expert's weights on each side's points)",
        ),
        Param("rollout", str, "expectimax", "policy inside the play-outs", choices=ROLLOUTS),
        Param(
            "path",
            str,
            "",
            "Q network weights .npz (default: the shipped neural net)",
            metavar="weights.npz",
        ),
    )

    def __init__(
        self,
        worlds: int | str = 150,
        time_ms: float | str = 40.0,
        play_tau: float | str = 1.0,
        tau: float | str = 0.5,
        endgame: int | str = 30,
        board: bool | str = False,
        rollout: str = "expectimax",
        path: str | Path | None = None,
    ) -> None:
        # The expert's machinery (its table discard scores, hints) with its own re-ranks off.
        super().__init__(sims=worlds, tau=tau, endgame=0, rollout=rollout, objective="equity")
        self.worlds = int(worlds)
        self.time_ms = float(time_ms)
        self.play_tau = float(play_tau)
        self.master_endgame = int(endgame)
        self.board = board if isinstance(board, bool) else str(board).lower() in TRUE_WORDS
        if not self.time_ms >= 0:
            raise ValueError(f"time_ms must be 0 (no cap) or a budget > 0, got {time_ms!r}")
        if not self.play_tau >= 0:
            raise ValueError(f"play_tau must be 0 or a positive temperature, got {play_tau!r}")
        if not 0 <= self.master_endgame <= 121:
            raise ValueError(f"endgame must be in 0..121, got {endgame!r}")
        self._neural = NeuralAgent(path)
        self.spec = (
            f"master:worlds={self.worlds},time_ms={self.time_ms:g},play_tau={self.play_tau:g},"
            f"tau={self.tau:g},endgame={self.master_endgame},board={str(self.board).lower()},"
            f"rollout={rollout}" + (f",path={path}" if path else "")
        )

    # ------------------------------------------------------------------ budget
    def budget(self, candidates: int, model: bool) -> int:
        """Worlds for a decision with ``candidates`` moves to play out in each: ``worlds``,
        capped so that the estimated time stays within ``time_ms`` (at least 8)."""
        if self.time_ms <= 0:
            return self.worlds
        per_world = candidates * PLAYOUT_MS[self.rollout] + (4 * MODEL_MS if model else 0.0)
        return max(min(self.worlds, int(self.time_ms / per_world)), min(8, self.worlds))

    # ------------------------------------------------------------------ pegging
    def _search(self, view: PlayerView, rng: np.random.Generator):
        distinct = len({RANK[c] for c in view.legal_actions})
        n = self.budget(distinct, model=self.tau > 0)
        guesses = None
        if self.tau > 0:
            guesses = sample_modelled_arrays(view, rng, n, self.tau, play_tau=self.play_tau)
        return search_play(view, rng, n, 0.0, self.rollout, guesses, 0.0, "equity")

    # ------------------------------------------------------------------ discard
    def _best_discard(self, view: PlayerView, rng: np.random.Generator) -> int:
        return self._discard_options(view, rng)[0].action

    def _discard_options(self, view: PlayerView, rng: np.random.Generator) -> list[Option]:
        """The net's ranking of the analyzer's best splits (the rest after them, in the table's
        order); near the end, the net's and the table's best re-ranked by winning chance."""
        table = super()._discard_options(view, rng)  # analyzer + pegging table, no re-rank
        by_action = {o.action: o for o in table}
        actions, x = top_discards(view, self._neural._features)
        q = self._neural.discard_net.score(x).astype(np.float64)
        if self.board:  # the table's tilt: its weighted value less its plain points
            q += [by_action[a].value - _points(by_action[a]) for a in actions]
        pick = self._neural._pick(q, self._neural.margins["discard"])
        order = [pick] + [i for i in np.argsort(-q, kind="stable").tolist() if i != pick]
        net_opts = [
            Option(
                actions[i],
                float(q[i]),
                f"net value {q[i]:+.2f} (expected margin to the end of the deal"
                + (", weighed by the board" if self.board else "")
                + "); "
                + by_action[actions[i]].reason,
                by_action[actions[i]].details,
            )
            for i in order
        ]
        seen = {o.action for o in net_opts}
        opts = net_opts + [o for o in table if o.action not in seen]
        near = max(view.scores) >= view.rules.target - self.master_endgame
        if near and has_table(view.rules):
            head = list(dict.fromkeys([o.action for o in net_opts[:HEAD]] + [
                o.action for o in table[:HEAD]
            ]))  # fmt: skip
            opts = self._by_winning_chance(view, rng, [by_action[a] for a in head], opts)
        return opts

    def _by_winning_chance(
        self, view: PlayerView, rng: np.random.Generator, head: list[Option], opts: list[Option]
    ) -> list[Option]:
        """``head`` re-ranked by the winning chance after the deal, played out on the same
        sampled deals (his heels first), ahead of the rest of ``opts``."""
        if len(head) < 2:
            return opts
        n = self.budget(len(head), model=True)
        deals = sample_opponent_deal_arrays(view, rng, n, self.tau)
        utility = equity_utility(view.dealer, view.rules)
        rank = {o.action: i for i, o in enumerate(opts)}
        scored = []
        for o in head:
            out, start = deal_play_outs(view, o.action, deals, self.rollout, heels=True)
            chance = float(np.mean(utility(out.scores, out.winner, view.seat, start)))
            scored.append(
                Option(
                    o.action,
                    chance - 1e-6 * rank[o.action],
                    f"winning chance after the deal {chance:.1%} over {n} deals; " + o.reason,
                    o.details,
                )
            )
        scored.sort(key=lambda o: -o.value)
        done = {o.action for o in scored}
        return scored + [o for o in opts if o.action not in done]


def _points(o: Option) -> float:
    """A table option's plain expected points (hand, signed crib, pegging)."""
    return float(o.details["hand_ev"] + o.details["crib_ev"] + o.details["peg_ev"])
