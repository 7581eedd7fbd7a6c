"""Self-play data for Deep Monte-Carlo: episodes that branch at sampled decisions.

At a sampled decision every candidate is tried on a copy of the true game state and the deal is
played out by the same policies; its return is the seat's point margin over the rest of the deal.
All branches of one decision share the hidden cards and the starter (common random numbers), so
their differences are the action's effect alone, not the deal's luck. The trajectory itself goes
on with the behaviour policy (ε-greedy around the learner). Each sample also stores the
teacher's (``expectimax``'s) choice, which is the behaviour-cloning label of the warm start.

Each branch has two returns: the point margin (``g``) and the equity return (``e``): the
seat's winning chance from the equity table at the deal's end (1 or 0 if the game ended in
it) minus its chance at the decision's scores, in percentage points. Each decision also stores
the oracle features (:func:`agents.nets.oracle.oracle_features`: the opponent's hand and
crib cards), for a critic used only in training; the rows a play-time net sees never hold them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribbage_env.equity import end_value, has_table, win_probability
from cribbage_env.rules.core import EventKind, Phase
from cribbage_env.rules.engine import GameState, new_game
from cribbage_env.rules.scoring import ScoreKind, heels_points
from cribbage_env.unseen.batch import score_batch

from ..nets.features import DISCARD_DIM, PLAY_DIM, discard_candidates, play_candidates
from ..nets.oracle import ORACLE_DIM, oracle_features
from .expectimax import ExpectimaxAgent


@dataclass
class Batch:
    """Samples of one kind: rows (N, K, D) padded to K candidates, point and equity returns
    (N, K), n (N,), the teacher's index t (N,) and the oracle features o (N, ORACLE_DIM)."""

    dim: int
    k: int
    xs: list = field(default_factory=list)
    gs: list = field(default_factory=list)
    es: list = field(default_factory=list)
    ns: list = field(default_factory=list)
    teacher: list = field(default_factory=list)
    os: list = field(default_factory=list)

    def add(self, x: np.ndarray, g: np.ndarray, teacher: int, e: np.ndarray, o: np.ndarray) -> None:
        n = len(x)
        xp = np.zeros((self.k, self.dim), dtype=np.float16)
        xp[:n] = x
        gp = np.zeros((2, self.k), dtype=np.float32)
        gp[0, :n] = g
        gp[1, :n] = e
        self.xs.append(xp)
        self.gs.append(gp[0])
        self.es.append(gp[1])
        self.ns.append(n)
        self.teacher.append(teacher)
        self.os.append(np.asarray(o, dtype=np.float16))

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        if not self.xs:
            return {
                f"{prefix}_x": np.zeros((0, self.k, self.dim), np.float16),
                f"{prefix}_g": np.zeros((0, self.k), np.float32),
                f"{prefix}_n": np.zeros(0, np.int8),
                f"{prefix}_t": np.zeros(0, np.int8),
                f"{prefix}_e": np.zeros((0, self.k), np.float32),
                f"{prefix}_o": np.zeros((0, ORACLE_DIM), np.float16),
            }
        return {
            f"{prefix}_x": np.stack(self.xs),
            f"{prefix}_g": np.stack(self.gs),
            f"{prefix}_n": np.array(self.ns, np.int8),
            f"{prefix}_t": np.array(self.teacher, np.int8),
            f"{prefix}_e": np.stack(self.es),
            f"{prefix}_o": np.stack(self.os),
        }


_ALL = np.arange(52)


def show_correction(events: list, seat: int) -> float:
    """Expected minus realized show points (and his heels) for ``seat`` minus the opponent, over
    the 40 starters the deck could have held given both hands: a control variate.

    The starter is uniform over the 40 cards not dealt whatever the players did, so replacing
    each realized show by its mean over those starters keeps the return unbiased while removing
    the starter's luck from comparing two discards."""
    shows = [e for e in events if e.kind is EventKind.SHOW]
    if len(shows) != 3:
        return 0.0
    dealt = np.array([c for e in shows for c in e.cards[:4]], dtype=np.intp)
    mask = np.ones(52, dtype=bool)
    mask[dealt] = False
    starters = _ALL[mask]
    n = len(starters)
    out = 0.0
    for e in shows:
        hand = np.repeat(np.array(e.cards[:4], dtype=np.intp)[None, :], n, axis=0)
        exp = float(score_batch(hand, starters, crib=e.what == "crib", check=False).mean())
        out += (exp - e.points) * (1 if e.player == seat else -1)
    if any(e.kind is EventKind.STARTER for e in events):  # the cut came after the decision
        dealer = next(e.player for e in shows if e.what == "crib")
        heels = sum(
            e.points
            for e in events
            if e.kind is EventKind.SCORE and e.score_kind is ScoreKind.HIS_HEELS
        )
        exp = sum(heels_points(c) for c in starters) / n
        out += (exp - heels) * (1 if dealer == seat else -1)
    return out


def deal_returns(
    state: GameState,
    seat: int,
    action: int,
    policies,
    rng: np.random.Generator,
    win_bonus: float = 0.0,
    expected_shows: bool = False,
) -> tuple[float, float]:
    """(point margin, equity return) of ``seat`` taking ``action`` in ``state``, both seats then
    playing ``policies`` to the end of this deal (or of the game).

    The point margin is ``seat``'s points minus the opponent's (plus ``win_bonus`` for the
    winner; with ``expected_shows`` the shows of a completed deal count at their expectation over
    the starter, :func:`show_correction`). The equity return is, in percentage points, ``seat``'s
    winning chance at the deal's end (the equity table for the new scores with the next dealer;
    100 or 0 when the game ended) minus its chance at the decision's scores (the table read as if
    a deal started there: the same for every branch of a decision, so it cancels when they are
    compared); 0 for rules with no table."""
    g = state.clone()
    before = g.scores
    deal = g.deal_no
    start = g.event_count
    g.apply(action)
    while g.winner is None and g.deal_no == deal:
        p = g.to_act  # current_player, known not None here
        g.apply(policies[p].act(g.view(p), rng))
    after = g.scores
    out: float = (after[seat] - before[seat]) - (after[1 - seat] - before[1 - seat])
    if g.winner is not None and win_bonus:
        out += win_bonus if g.winner == seat else -win_bonus
    if expected_shows and g.winner is None:
        out += show_correction(g.events_since(start), seat)
    equity = 0.0
    if has_table(g.rules):
        now = win_probability(
            before[seat], before[1 - seat], dealer=state.dealer == seat, target=g.rules
        )
        equity = 100.0 * (end_value(g, seat) - now)
    return float(out), equity


#: discards considered: the analyzer's best TOP_DISCARDS of the 15 (the rest are never chosen).
TOP_DISCARDS = 5


def top_discards(view, teacher: ExpectimaxAgent, top: int = TOP_DISCARDS):
    """The ``top`` discards by the analyzer's net value, best first: (actions, rows)."""
    actions, x, net = discard_candidates(view, teacher._table)
    order = np.argsort(-net, kind="stable")[:top]
    return [actions[i] for i in order], x[order]


def candidates(view, teacher: ExpectimaxAgent):
    """(actions, rows, teacher index, kind) for a decision with more than one option; the
    candidates are ranked best first by the teacher, so its choice is index 0."""
    if view.phase is Phase.DISCARD:
        actions, x = top_discards(view, teacher)
        return actions, x, 0, "discard"
    actions, x, _ = play_candidates(view, teacher._rank_cards(view))
    return actions, x, 0, "play"  # ranked best first, as expectimax plays


def play_episode(
    seed: int,
    policies,
    learner_seats: tuple[int, ...],
    *,
    eps: float,
    rate: dict[str, float],
    rng: np.random.Generator,
    out: dict[str, Batch],
    teacher: ExpectimaxAgent,
    win_bonus: float = 0.0,
    expected_shows: bool = False,
    branch: bool = True,
    rules: str = "standard",
    labeler=None,
) -> GameState:
    """One game; learner decisions are sampled into ``out`` with branched returns.

    ``policies[seat]`` has ``act(view, rng)``; a learner policy may also have
    ``choose(rows, kind)`` returning the candidate index it prefers (the neural agent does).
    Without ``branch`` nothing is rolled out: the label is the choice of ``labeler`` (an agent;
    default the policy itself) and the game goes on with the policy's own choice (DAgger)."""
    g = new_game(seed, rules=rules)
    while g.winner is not None or not g.is_over:
        if g.is_over:
            break
        p = g.to_act  # current_player, known not None here
        v = g.view(p)
        if (
            p not in learner_seats
            or v.phase not in (Phase.DISCARD, Phase.PLAY)
            or len(v.legal_actions) < 2
        ):
            g.apply(policies[p].act(v, rng))
            continue
        actions, x, t, kind = candidates(v, teacher)
        pol = policies[p]
        if not branch:  # labels only: the labeler's choice is the behaviour-cloning label
            a = pol.act(v, rng)
            label = a if labeler is None else labeler.act(v, rng)
            if label in actions and rng.random() < rate[kind]:
                zero = np.zeros(len(actions))
                out[kind].add(x, zero, actions.index(label), zero, oracle_features(g, p))
            g.apply(a)
            continue
        own = pol.choose(x, kind) if hasattr(pol, "choose") else actions.index(pol.act(v, rng))
        if rng.random() < rate[kind]:
            ge = np.array(
                [deal_returns(g, p, a, policies, rng, win_bonus, expected_shows) for a in actions]
            )
            out[kind].add(x, ge[:, 0], t, ge[:, 1], oracle_features(g, p))
        a = actions[int(rng.integers(len(actions)))] if rng.random() < eps else actions[own]
        g.apply(a)
    return g


def new_batches() -> dict[str, Batch]:
    return {"discard": Batch(DISCARD_DIM, TOP_DISCARDS), "play": Batch(PLAY_DIM, 4)}
