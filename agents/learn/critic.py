"""The oracle critic: a DMC fit that also sees the opponent's cards, used only to make targets.

The critic scores (blind row + :mod:`.oracle` features) and is fitted to the rollout returns
like the play-time net. Its estimates are cross-fitted (each fold's estimates come from a critic
that never saw that fold), so they carry no memorised noise; the play-time net, which sees the
blind rows alone, then regresses ``weight * critic + (1 - weight) * returns``. Averaged over the
hidden cards a view allows, the critic's estimate of a candidate is its value to the blind
player, so the target keeps its mean and loses the part of the rollouts' noise the hidden cards
explain (PerfectDou's perfect-information critic, Suphx's oracle guiding). The critic itself is
never saved with the model.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..nets.mlp import MLP
from ..nets.oracle import ORACLE_DIM
from .fit import FitConfig, fit, split

#: folds of the cross-fitting
FOLDS = 2


def oracle_rows(data: dict[str, np.ndarray], kind: str, index: np.ndarray) -> np.ndarray:
    """(n, K, D + ORACLE_DIM) rows of decisions ``index``: each candidate's blind row followed
    by the decision's oracle features."""
    x = data[f"{kind}_x"][index]
    o = data[f"{kind}_o"][index]
    wide = np.broadcast_to(o[:, None, :], (len(x), x.shape[1], o.shape[1]))
    return np.concatenate([x, wide], axis=2)


def widen(net: MLP, extra: int = ORACLE_DIM) -> MLP:
    """``net`` taking ``extra`` more inputs, with zero weights: it scores as ``net`` did until
    the critic's fit learns what the extra inputs are worth."""
    (w, b), rest = net.layers[0], net.layers[1:]
    w2 = np.concatenate([w, np.zeros((extra, w.shape[1]), dtype=w.dtype)])
    return MLP([(w2, b), *rest])


def _subset(data: dict[str, np.ndarray], kind: str, index: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[index] for k, v in data.items() if k.startswith(f"{kind}_") and k[-1] != "x"}


def oracle_targets(
    data: dict[str, np.ndarray],
    kind: str,
    cfg: FitConfig,
    returns: str = "g",
    log=print,
    init: MLP | None = None,
) -> np.ndarray:
    """(N, K) cross-fitted critic estimates of every candidate's return (``returns`` g or e);
    each fold's critic starts from ``init`` widened (:func:`widen`), or from scratch. No critic
    trains on the decisions the play-time fit holds out (:func:`.fit.split`, same ``cfg``), so
    its held-out report stays honest."""
    n = len(data[f"{kind}_x"])
    fold = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(7,))).integers(
        FOLDS, size=n
    )
    out = np.zeros(data[f"{kind}_g"].shape, dtype=np.float32)
    hold = np.zeros(n, dtype=bool)
    hold[split(n, cfg)[0]] = True  # the play-time fit's held-out decisions: no critic sees them
    for f in range(FOLDS):
        train, rest = np.flatnonzero((fold != f) & ~hold), np.flatnonzero(fold == f)
        sub = _subset(data, kind, train)
        net, _ = fit(
            sub,
            kind,
            "dmc",
            replace(cfg, seed=cfg.seed + 1 + f),
            init=None if init is None else widen(init),
            log=lambda m, f=f: log(f"critic fold {f + 1}/{FOLDS}: {m}"),
            returns=returns,
            rows=oracle_rows(data, kind, train),
        )
        for i in range(0, len(rest), 4096):
            chunk = rest[i : i + 4096]
            r = oracle_rows(data, kind, chunk).astype(np.float32)
            b, k, d = r.shape
            out[chunk] = net.score(r.reshape(b * k, d)).reshape(b, k)
    return out


def blended_targets(
    data: dict[str, np.ndarray],
    kind: str,
    weight: float,
    cfg: FitConfig,
    returns: str = "g",
    log=print,
    init: MLP | None = None,
) -> np.ndarray | None:
    """``weight * critic + (1 - weight) * returns`` (None when ``weight`` is 0: the returns)."""
    if weight <= 0:
        return None
    critic = oracle_targets(data, kind, cfg, returns, log, init)
    return (weight * critic + (1 - weight) * data[f"{kind}_{returns}"]).astype(np.float32)
