"""Board-position equity: the chance of winning the game from any score, at the start of a deal
or in the middle of one.

The shipped table (``cribbage_env/data/equity.npz``, built by ``benchmarks/tables/equity_table.py``
from score traces of simulated deals of self-play) holds ``dealer[a, b]``: the probability that
the dealer wins when the dealer has ``a`` and the pone ``b`` points as a deal starts, for every
``a, b`` in ``0 .. target-1``. There is no draw, so the pone's chance is ``1 - dealer[b, a]``
read the other way round (:func:`pone_table`).

The table is solved by backward induction (:func:`solve`): a deal either ends the game inside it
(whoever's running score reaches the target first, in the engine's scoring order: his heels,
pegging, pone's hand, dealer's hand, crib) or moves the board on and hands the deal to the other
player. Every deal scores at least one point (last card), so the sum of the scores grows and the
induction runs from the end of the board back to 0-0.

A position's chance depends only on the points each side still needs (the induction reads
``wd[target - a, target - b]``), so the table of any target up to 121 is the corner of the 121
table: ``dealer_T[a, b] == dealer_121[a + 121 - T, b + 121 - T]`` (the shipped 61 table is that
corner, to the bit). Rules with no table (a target above 121, or a rule that changes the deals,
see :func:`has_table`) raise :class:`EquityError` here; agents, hints, the review and the
chance meter check :func:`has_table` first and play or rate by points, with :func:`no_table`'s
one-line notice (no estimate is better than a wrong one).

>>> round(win_probability(0, 0, dealer=True), 2), round(win_probability(0, 0, dealer=False), 2)
(0.56, 0.44)
>>> win_probability(121, 40, dealer=False), win_probability(118, 121, dealer=True)
(1.0, 0.0)
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources

import numpy as np

from .rules.cards import VALUE
from .rules.core import STANDARD, CribbageError, Rules, implements
from .rules.engine import GameState
from .rules.pegging import play_points_fast

#: The standard game's target (the default table).
STANDARD_TARGET = STANDARD.target

#: Targets built by ``benchmarks/tables/equity_table.py`` (every target up to the first is a corner of it).
TARGETS = (121, 61)
#: The rule fields the table implements: the target (a corner of the table per target) and the
#: skunk lines, which change game points, not who wins (the table's chance is of winning).
EQUITY = implements("the equity table", "target", "skunk", "double_skunk")


class EquityError(CribbageError, ValueError):
    """No table for these rules, scores off the board, or traces that cannot be solved."""


def has_table(rules: Rules | int) -> bool:
    """Whether the winning chance of a game of ``rules`` (or to a target) can be read.

    >>> has_table(121), has_table(Rules(target=91)), has_table(150)
    (True, True, False)
    """
    if isinstance(rules, Rules):
        return set(rules.to_json()) <= EQUITY.fields and has_table(rules.target)
    return isinstance(rules, (int, np.integer)) and 2 <= rules <= TARGETS[0]


class NoTableWarning(UserWarning):
    """A game with no winning-chance table: its agents and the table go by points."""


def table_or_points(rules: Rules | int) -> bool:
    """:func:`has_table`; when there is none, warns once (:class:`NoTableWarning`, the one line
    of :func:`no_table`) so the caller goes by points instead of raising at the table."""
    if has_table(rules):
        return True
    warnings.warn(no_table(rules), NoTableWarning, stacklevel=2)
    return False


def no_table(rules: Rules | int) -> str:
    """The one-line notice of a game with no table (agents and the table then go by points)."""
    what = rules.spec if isinstance(rules, Rules) else f"target={rules}"
    return (
        f"no winning-chance table for the rules {what} (tables cover the standard deal, targets "
        f"up to {TARGETS[0]}): winning chances are not shown and decisions go by points"
    )


# ------------------------------------------------------------------------------ solving


def trace_counts(
    offsets: np.ndarray, role: np.ndarray, points: np.ndarray, target: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sufficient statistics of deal traces for a board to ``target``.

    A trace is a deal's scoring events in order, ``role`` 0 for the dealer and 1 for the pone;
    deal ``i``'s events are ``offsets[i]:offsets[i+1]``. Returns ``(wd, wp, f)``: ``wd[nd, np]``
    counts the deals in which the dealer, needing ``nd`` points, gets them before the pone gets
    ``np`` (``wp[np, nd]`` the same for the pone), and ``f[D, P]`` counts the deals' totals
    (capped at ``target``). Indexes run ``0 .. target``; row and column 0 are unused.
    """
    n = len(offsets) - 1
    t = int(target)
    role = np.asarray(role, dtype=np.int64)
    pts = np.asarray(points, dtype=np.int64)
    deal = np.repeat(np.arange(n), np.diff(offsets))
    # Running totals per deal and role, after and before each event.
    mine = np.zeros((2, len(pts)), dtype=np.int64)
    for r in (0, 1):
        x = np.where(role == r, pts, 0)
        c = np.cumsum(x)
        start = np.concatenate([[0], c])[offsets[:-1]]
        mine[r] = c - start[deal]
    after = np.where(role == 0, mine[0], mine[1])
    before = after - pts
    other = np.where(role == 0, mine[1], mine[0])  # the other's total (unchanged by this event)
    wins = []
    for r in (0, 1):
        sel = (role == r) & (before < t) & (other < t)
        diff = np.zeros((t + 2, t + 2), dtype=np.int64)
        lo = before[sel] + 1
        hi = np.minimum(after[sel], t) + 1
        col = other[sel] + 1
        np.add.at(diff, (lo, col), 1)
        np.add.at(diff, (hi, col), -1)
        wins.append(diff.cumsum(axis=0).cumsum(axis=1)[: t + 1, : t + 1])
    last = offsets[1:] - 1
    tot = np.zeros((n, 2), dtype=np.int64)
    has = offsets[1:] > offsets[:-1]
    tot[has, 0] = mine[0][last[has]]
    tot[has, 1] = mine[1][last[has]]
    f = np.zeros((t + 1, t + 1), dtype=np.int64)
    np.add.at(f, (np.minimum(tot[:, 0], t), np.minimum(tot[:, 1], t)), 1)
    return wins[0], wins[1], f


def solve(wd: np.ndarray, wp: np.ndarray, f: np.ndarray, target: int) -> np.ndarray:
    """``dealer[a, b]`` for ``a, b < target`` by backward induction from counts of
    :func:`trace_counts` (see the module docstring).

    >>> # A toy game: every deal the dealer scores 1 point and nothing else happens.
    >>> offs, role, pts = np.array([0, 1]), np.array([0]), np.array([1])
    >>> solve(*trace_counts(offs, role, pts, 2), 2).tolist()  # dealer, then the other's deal
    [[1.0, 0.0], [1.0, 1.0]]
    """
    t = int(target)
    n = int(f.sum())
    if n == 0:
        raise EquityError("no deals to solve from")
    if f[0, 0]:
        raise EquityError(
            "a deal scored no points at all; the induction needs every deal to "
            "score (the last card always does)"
        )
    p = f / n
    dmax = int(np.nonzero(p.any(axis=1))[0].max()) + 1
    pmax = int(np.nonzero(p.any(axis=0))[0].max()) + 1
    e = np.zeros((t, t))
    h = np.zeros((t, t))  # h[x, y] = 1 - e[y, x]: the old dealer's chance at the next deal
    for s in range(2 * t - 2, -1, -1):
        for a in range(max(0, s - t + 1), min(s, t - 1) + 1):
            b = s - a
            nd, np_ = t - a, t - b
            v = (wd[nd, np_]) / n
            dd, pp = min(nd, dmax), min(np_, pmax)
            v += float((p[:dd, :pp] * h[a : a + dd, b : b + pp]).sum())
            e[a, b] = v
            h[b, a] = 1.0 - v
    return e


# ------------------------------------------------------------------------------ the tables


@lru_cache(maxsize=1)
def _load() -> dict:
    path = resources.files("cribbage_env").joinpath("data/equity.npz")
    try:
        with path.open("rb") as fh, np.load(fh, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except (FileNotFoundError, OSError, ValueError) as exc:
        raise EquityError(
            f"the equity table {path} is missing or unreadable ({exc}); "
            "build it with benchmarks/tables/equity_table.py"
        ) from None


def _check_target(target: Rules | int) -> int:
    if isinstance(target, Rules):
        EQUITY.check(target)  # a rule the table does not implement: named, not "no table"
    if not has_table(target):
        raise EquityError(no_table(target))
    return int(target.target if isinstance(target, Rules) else target)


def _corner(name: str, target: Rules | int) -> np.ndarray:
    t, top = _check_target(target), TARGETS[0]
    return _load()[f"{name}_{top}"][top - t :, top - t :].astype(np.float64)


def dealer_table(target: Rules | int = STANDARD_TARGET) -> np.ndarray:
    """``dealer[a, b]`` = P(dealer wins | dealer at ``a``, pone at ``b``, start of a deal), for
    a target up to 121 or rules with a table (:func:`has_table`).

    >>> dealer_table().shape, dealer_table(61).shape, dealer_table(Rules(target=91)).shape
    ((121, 121), (61, 61), (91, 91))
    """
    return _corner("dealer", target)


def pone_table(target: Rules | int = STANDARD_TARGET) -> np.ndarray:
    """``pone[a, b]`` = P(pone wins | pone at ``a``, dealer at ``b``, start of a deal)."""
    return 1.0 - dealer_table(target).T


def table_error(target: Rules | int = STANDARD_TARGET) -> np.ndarray:
    """Monte-Carlo standard error of each entry of :func:`dealer_table`."""
    return _corner("se", target)


def table_params() -> dict:
    """How the shipped tables were built (agent, deals, seed, command)."""
    return json.loads(str(_load()["params"]))


def _score(x: object, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
        raise EquityError(f"{what} must be a non-negative int, got {x!r}")
    return int(x)


def win_probability(
    my_score: int, opp_score: int, *, dealer: bool, target: Rules | int = STANDARD_TARGET
) -> float:
    """The chance of winning from ``my_score`` against ``opp_score`` as a deal starts, with
    this player the dealer (``dealer=True``) or the pone. A score at the target has won."""
    me, opp = _score(my_score, "my_score"), _score(opp_score, "opp_score")
    t = _check_target(target)
    if me >= t and opp >= t:
        raise EquityError(f"both scores reach {t}: only one player can win")
    if me >= t or opp >= t:
        return 1.0 if me >= t else 0.0
    row = _cached_table(t)
    return float(row[me, opp]) if dealer else float(1.0 - row[opp, me])


@lru_cache(maxsize=8)
def _cached_table(t: int) -> np.ndarray:
    return dealer_table(t)


# ------------------------------------------------------------------------------ mid-deal


def simple_playout_card(g: GameState) -> int:
    """A cheap pegging policy for play-outs: most points now, then the highest card."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best, best_v = legal[0], -1.0
    seq = g.seq
    for c in legal:
        seq.append(c)
        v = play_points_fast(seq, g.count + VALUE[c]) + 0.01 * VALUE[c]
        seq.pop()
        if v > best_v:
            best, best_v = c, v
    return best


def state_target(g: GameState) -> int:
    """The game's target score (the rules value when the state carries one)."""
    return int(g.rules.target)


def end_value(g: GameState, seat: int, target: Rules | int | None = None) -> float:
    """``seat``'s chance of winning at a state where a deal has just ended (or the game)."""
    if g.winner is not None:
        return 1.0 if g.winner == seat else 0.0
    t = g.rules if target is None else target
    return win_probability(g.scores_[seat], g.scores_[1 - seat], dealer=g.dealer == seat, target=t)


def play_out_value(
    g: GameState,
    seat: int,
    policy: Callable[[GameState], int] = simple_playout_card,
    target: Rules | int | None = None,
) -> float:
    """Play ``g`` (consumed; PLAY phase, all cards known) to the end of its deal with ``policy``
    for both seats, then read the table: ``seat``'s chance of winning. Who reaches the target
    first inside the deal is exact (the engine stops there)."""
    deal = g.deal_no
    while g.winner is None and g.deal_no == deal:
        g.apply(policy(g))
    return end_value(g, seat, target)


def chance_now(
    g: GameState,
    seat: int,
    policy: Callable[[GameState], int] = simple_playout_card,
) -> float:
    """``seat``'s winning chance in the true state ``g`` (all cards known to the caller): the
    table at a discard (nothing has been scored in the deal yet), a play-out of the rest of the
    deal in the play, 1/0 when the game is over. For rewards and records, not for a player's
    own decisions (it sees the opponent's cards). NaN for rules with no table."""
    if g.winner is not None:
        return 1.0 if g.winner == seat else 0.0
    if not has_table(g.rules):
        return float("nan")
    if g.phase.value == "play":
        return play_out_value(g.clone(), seat, policy)
    return end_value(g, seat)


def chances_over(states: Sequence[GameState], seat: int) -> list[float]:
    """:func:`chance_now` of each state (a game's winning-chance curve)."""
    return [chance_now(g, seat) for g in states]


#: Expected points of a deal by role (self-play), for :func:`point_weights`.
_DEAL_POINTS = {True: 16.2, False: 10.3}


def point_weights(
    my_score: int,
    opp_score: int,
    dealer: bool,
    *,
    step: int = 3,
    target: Rules | int = STANDARD_TARGET,
) -> tuple[float, float]:
    """How much one point for me and one point for the opponent move my winning chance on the
    board expected after this deal (finite differences of the table), scaled so that they
    average 1: ``(w_me, w_opp)``. Equal far from the end; ahead, defence weighs more (play
    off); behind, offence (play on). Near the target the play-outs decide instead, and the
    weights fall back to (1, 1), and so do they for rules with no table (:func:`has_table`).

    >>> w_me, w_opp = point_weights(0, 0, True)
    >>> round(w_me + w_opp, 6), abs(w_me - w_opp) < 0.2
    (2.0, True)
    """
    if not has_table(target):
        return 1.0, 1.0
    target = _check_target(target)
    me = my_score + round(_DEAL_POINTS[dealer])
    opp = opp_score + round(_DEAL_POINTS[not dealer])
    if max(me, opp) + step >= target:
        return 1.0, 1.0
    me, opp = max(me, step), max(opp, step)
    nxt = not dealer  # the deal after this one is dealt by the other player

    def v(a: int, b: int) -> float:
        return win_probability(a, b, dealer=nxt, target=target)

    d_me = (v(me + step, opp) - v(me - step, opp)) / (2 * step)
    d_opp = (v(me, opp - step) - v(me, opp + step)) / (2 * step)
    total = d_me + d_opp
    if not total > 1e-6:
        return 1.0, 1.0
    return 2 * d_me / total, 2 * d_opp / total


def end_values(
    scores: np.ndarray,
    winner: np.ndarray,
    seat: int,
    next_dealer: int,
    target: Rules | int = STANDARD_TARGET,
) -> np.ndarray:
    """:func:`end_value` for arrays of end states: ``scores`` ``(..., 2)``, ``winner`` (-1 when
    the game goes on, the next deal dealt by ``next_dealer``).

    >>> end_values(np.array([[0, 0], [121, 50]]), np.array([-1, 0]), 0, 0).round(4).tolist()
    [0.5585, 1.0]
    """
    top = _check_target(target)
    t = _cached_table(top)
    scores = np.asarray(scores)
    me = np.clip(scores[..., seat], 0, top - 1)
    opp = np.clip(scores[..., 1 - seat], 0, top - 1)
    v = t[me, opp] if next_dealer == seat else 1.0 - t[opp, me]
    winner = np.asarray(winner)
    return np.where(winner >= 0, (winner == seat).astype(np.float64), v)
