"""The ``neural`` agent: a learned Q network over (state, action) features, played with numpy.

Each decision scores the candidates (the analyzer's five best discards of the 15, or the legal
cards, ranked by ``expectimax``'s own values) with a small MLP and takes the best, unless it
beats the top-ranked candidate by no more than a margin fitted on held-out data (DMC weights
carry one; cloned weights none). The shipped weights (``agents/data/neural.npz``, with the
training command stored in them and in ``agents/data/neural.md``) clone the ``expert``
(``cribbage train --method bc --teacher expert``); the Deep Monte-Carlo weights they replaced
are ``agents/data/neural_dmc.npz``. Torch is needed only to train, never to play.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cribbage_env.rules.core import Phase
from cribbage_env.rules.views import PlayerView

from ..nets.features import DISCARD_DIM, PLAY_DIM, play_candidates
from ..nets.mlp import load_nets
from ..params import Param
from .expectimax import ExpectimaxAgent
from .greedy import other_decision
from .rollouts import top_discards

DEFAULT_WEIGHTS = Path(__file__).resolve().parents[1] / "data" / "neural.npz"


class NeuralAgent:
    """Argmax of a learned Q over candidate features (deterministic given the view)."""

    name = "neural"
    PARAMS = (
        Param(
            "path",
            str,
            "",
            "weights .npz written by cribbage train (default: the shipped agents/data/neural.npz)",
            metavar="weights.npz",
        ),
    )

    def __init__(self, path: str | Path | None = None) -> None:
        """``path``: a weights ``.npz`` written by ``cribbage train`` (default: the shipped one)."""
        p = Path(path) if path else DEFAULT_WEIGHTS
        if not p.is_file():
            raise ValueError(f"no weights file at {p}")
        discard, play, self.meta = load_nets(p)
        if discard.in_dim != DISCARD_DIM or play.in_dim != PLAY_DIM:
            raise ValueError(
                f"weights expect inputs {discard.in_dim}/{play.in_dim}, features "
                f"are {DISCARD_DIM}/{PLAY_DIM}: retrain them"
            )
        self.discard_net, self.play_net = discard, play
        # The net overrules the analyzer's ranking only by more than this (fitted) margin.
        self.margins = {k: float(self.meta.get(f"margin_{k}", 0.0)) for k in ("discard", "play")}
        self._features = ExpectimaxAgent()  # the analyzer and peg estimates used as features
        self.spec = f"neural:path={path}" if path else "neural"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.phase is Phase.DISCARD:
            actions, x = top_discards(view, self._features)
            return actions[self._pick(self.discard_net.score(x), self.margins["discard"])]
        if view.phase is Phase.PLAY:
            if len(view.legal_actions) == 1:
                return view.legal_actions[0]
            actions, x, _ = play_candidates(view, self._features._rank_cards(view))
            return actions[self._pick(self.play_net.score(x), self.margins["play"])]
        return other_decision(view, rng)

    @staticmethod
    def _pick(q: np.ndarray, margin: float) -> int:
        """The best-scored candidate, unless it beats candidate 0 (the analyzer's choice: the
        candidates come ranked by it) by ``margin`` or less."""
        i = int(np.argmax(q))
        return i if q[i] - q[0] > margin else 0
