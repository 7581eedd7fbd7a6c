"""Fitting the candidate-scoring networks (torch, CPU, one thread): behaviour cloning and DMC.

- ``bc``: cross-entropy of the teacher's choice among the candidates (the warm start).
- ``dmc``: regression of each candidate's Monte-Carlo return, centred per decision: the network
  learns Q(s, a) - mean_b Q(s, b) from G(s, a) - mean_b G(s, b). All branches of a decision
  share the hidden cards, so centring removes the deal's luck and leaves the action's effect.

Each decision is one sample; a held-out slice reports the agreement with the teacher and the
estimated gain per decision of the network's choice over the teacher's, from the rollouts.
Every fit reports its gradient steps: data smaller than the batch is trained in one batch of
all its rows, and a fit with no training rows at all is refused (:class:`TooLittleData`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import AgentError
from ..nets.mlp import MLP


@dataclass(frozen=True)
class FitConfig:
    hidden: tuple[int, ...] = (256, 256)
    epochs: int = 8
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-5
    holdout: float = 0.05
    seed: int = 0


class TooLittleData(AgentError, ValueError):
    """A fit with no decisions to train on (a run too small to learn anything)."""


def batch_size(rows: int, cfg: FitConfig) -> int:
    """The batch of a fit over ``rows`` training decisions: ``cfg.batch``, or all the rows when
    fewer (a smaller batch, rather than zero gradient steps).

    >>> batch_size(10_000, FitConfig()), batch_size(37, FitConfig())
    (512, 37)
    """
    return max(1, min(cfg.batch, rows))


def gradient_steps(rows: int, cfg: FitConfig) -> int:
    """Gradient steps of a fit over ``rows`` training decisions (whole batches per epoch).

    >>> gradient_steps(1_100, FitConfig(epochs=2)), gradient_steps(37, FitConfig(epochs=3))
    (4, 3)
    >>> gradient_steps(0, FitConfig())
    0
    """
    return cfg.epochs * (rows // batch_size(rows, cfg)) if rows else 0


def _torch():
    import torch

    torch.set_num_threads(1)  # on a shared 2-core machine more threads run ~30x slower
    return torch


def build(dim: int, hidden: tuple[int, ...], seed: int):
    torch = _torch()
    torch.manual_seed(seed)
    layers: list = []
    d = dim
    for h in hidden:
        layers += [torch.nn.Linear(d, h), torch.nn.ReLU()]
        d = h
    layers.append(torch.nn.Linear(d, 1))
    return torch.nn.Sequential(*layers)


def to_mlp(model) -> MLP:
    lin = [m for m in model if hasattr(m, "weight")]
    return MLP([(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in lin])


def save_untrained(path: str | Path, seed: int, hidden: tuple[int, ...] = FitConfig.hidden) -> Path:
    """Write the discard and play nets as a fit with ``seed`` starts them, before any gradient
    step: the "before" to bench a run trained from scratch (``--method bc --seed SEED``) against."""
    from ..nets.features import DISCARD_DIM, PLAY_DIM
    from ..nets.mlp import save_nets

    discard, play = (to_mlp(build(dim, hidden, seed)) for dim in (DISCARD_DIM, PLAY_DIM))
    save_nets(path, discard, play, {"stage": f"untrained (seed {seed})"})
    return Path(path)


def from_mlp(mlp: MLP, seed: int = 0):
    torch = _torch()
    model = build(mlp.in_dim, tuple(w.shape[1] for w, _ in mlp.layers[:-1]), seed)
    lin = [m for m in model if hasattr(m, "weight")]
    with torch.no_grad():
        for m, (w, b) in zip(lin, mlp.layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b))
    return model


def _loss(torch, model, x, g, n, t, method: str):
    b, k, d = x.shape
    q = model(x.reshape(b * k, d)).reshape(b, k)
    valid = torch.arange(k)[None, :] < n[:, None]
    if method == "bc":
        return torch.nn.functional.cross_entropy(q.masked_fill(~valid, -1e9), t)
    vf = valid.float()
    cnt = vf.sum(1, keepdim=True)
    qc = q - (q * vf).sum(1, keepdim=True) / cnt
    gc = g - (g * vf).sum(1, keepdim=True) / cnt
    return (((qc - gc) ** 2) * vf).sum() / vf.sum()


#: deviation margins tried: the net overrules the teacher only when it rates its own choice this
#: many points higher (noise in the learned Q would otherwise cause many small bad deviations).
MARGINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)


def choices(q: np.ndarray, margin: float) -> np.ndarray:
    """Index chosen per row: the argmax of ``q`` unless it beats column 0 (the teacher's
    choice) by ``margin`` or less."""
    pick = q.argmax(1)
    adv = q[np.arange(len(q)), pick] - q[:, 0]
    return np.where(adv > margin, pick, 0)


def evaluate(
    mlp: MLP,
    x: np.ndarray,
    g: np.ndarray | None,
    n: np.ndarray,
    t: np.ndarray,
    margin: float = 0.0,
) -> dict:
    """Agreement with the teacher and the rollout gain of the net's choice over the teacher's,
    for the chosen margin and for each of :data:`MARGINS` (``gains``). ``g`` None: labels
    without rollouts, so agreement alone (no gain is made up from returns never measured)."""
    b, k, d = x.shape
    if g is None:
        if b == 0:
            return {"samples": 0, "agree": 0.0}
        q = mlp.score(x.reshape(b * k, d).astype(np.float32)).reshape(b, k)
        q[np.arange(k)[None, :] >= n[:, None]] = -np.inf
        return {"samples": int(b), "agree": float((choices(q, margin) == t).mean())}
    if b == 0:
        return {
            "samples": 0,
            "agree": 0.0,
            "gain": 0.0,
            "gain_se": 0.0,
            "gains": dict.fromkeys(MARGINS, 0.0),
        }
    q = mlp.score(x.reshape(b * k, d).astype(np.float32)).reshape(b, k)
    q[np.arange(k)[None, :] >= n[:, None]] = -np.inf
    rows = np.arange(b)
    pick = choices(q, margin)
    gain = g[rows, pick] - g[rows, t]
    se = gain.std() / np.sqrt(max(b, 1))
    gains = {m: float((g[rows, choices(q, m)] - g[rows, t]).mean()) for m in MARGINS}
    return {
        "samples": int(b),
        "agree": float((pick == t).mean()),
        "gain": float(gain.mean()),
        "gain_se": float(se),
        "gains": gains,
    }


def _held_out(report: dict) -> str:
    """The held-out figures of an epoch's log line (none when the slice is empty)."""
    if not report["samples"]:
        return "no held-out decisions (too few to set some aside)"
    if "gain" not in report:
        return f"held-out agree {report['agree']:.3f} over {report['samples']} (labels only)"
    return (
        f"held-out agree {report['agree']:.3f} gain {report['gain']:+.3f} "
        f"(se {report['gain_se']:.3f}) over {report['samples']}"
    )


def split(n: int, cfg: FitConfig, rng: np.random.Generator | None = None):
    """(held-out, training) indices of ``n`` decisions: the first draw of ``cfg.seed``'s
    generator (``rng``, which goes on to shuffle the batches, if given)."""
    order = (rng if rng is not None else np.random.default_rng(cfg.seed)).permutation(n)
    cut = int(n * cfg.holdout)
    return order[:cut], order[cut:]


def _returns(data, kind: str, method: str, returns: str | None, targets, shape):
    """(the returns reported, the targets regressed) of a fit: None and zeros (which the
    ``bc`` loss never reads) for labels without rollouts."""
    if returns is None and method != "bc":
        raise ValueError("a dmc fit needs the data's returns")
    g = None if returns is None else data[f"{kind}_{returns}"]
    y = g if targets is None else targets
    return g, np.zeros(shape, np.float32) if y is None else y


def fit(
    data: dict[str, np.ndarray],
    kind: str,
    method: str,
    cfg: FitConfig,
    init: MLP | None = None,
    log=print,
    returns: str | None = "g",
    targets: np.ndarray | None = None,
    rows: np.ndarray | None = None,
) -> tuple[MLP, dict]:
    """Train the ``kind`` ('discard' or 'play') net by ``method`` ('bc' or 'dmc').

    ``returns``: the data's returns regressed and reported (``g`` points, ``e`` equity; None:
    labels without rollouts, for ``bc`` only, reported by agreement alone);
    ``targets`` (N, K): what ``dmc`` regresses instead (the oracle critic's estimates), the
    held-out report still measured on the returns; ``rows``: the inputs instead of the data's
    (the oracle critic's wider rows)."""
    torch = _torch()
    x = data[f"{kind}_x"] if rows is None else rows
    g, y = _returns(data, kind, method, returns, targets, x.shape[:2])
    n, t = data[f"{kind}_n"].astype(np.int64), data[f"{kind}_t"].astype(np.int64)
    rng = np.random.default_rng(cfg.seed)
    hold, train = split(len(x), cfg, rng)
    model = (
        from_mlp(init, cfg.seed) if init is not None else build(x.shape[2], cfg.hidden, cfg.seed)
    )
    if len(train) == 0:
        raise TooLittleData(
            f"the {kind} fit has {len(x)} decisions, none left to train on after the held-out "
            f"slice: give more data (--shards, --games-per-shard)"
        )
    batch = batch_size(len(train), cfg)
    steps = gradient_steps(len(train), cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    done = 0
    for epoch in range(cfg.epochs):
        perm = rng.permutation(train)
        batches = [np.sort(perm[i : i + batch]) for i in range(0, len(perm) - batch + 1, batch)]
        total, seen = _epoch(torch, model, (opt, sched), (x, y, n, t), batches, method)
        done += len(batches)
        mlp = to_mlp(model)
        report = evaluate(mlp, x[hold], None if g is None else g[hold], n[hold], t[hold])
        log(f"{kind} {method} epoch {epoch + 1}/{cfg.epochs}: loss {total / seen:.4f} over "
            f"{seen} decisions ({done}/{steps} gradient steps, batch {batch}); "
            + _held_out(report))  # fmt: skip
    report["train_samples"] = int(len(train))
    report["gradient_steps"] = done
    report["batch"] = batch
    report["margin"] = 0.0
    if method == "dmc":
        report["margin"] = _margin(report, kind, log)
    return to_mlp(model), report


def _epoch(torch, model, steppers, arrays, batches: list[np.ndarray], method: str):
    """One pass over ``batches`` (row indices) of ``arrays`` (x, y, n, t), a gradient step
    each with ``steppers`` (the optimizer and its schedule): (summed loss, decisions seen)."""
    opt, sched = steppers
    x, y, n, t = arrays
    total, seen = 0.0, 0
    for idx in batches:
        loss = _loss(
            torch,
            model,
            torch.from_numpy(x[idx].astype(np.float32)),
            torch.from_numpy(y[idx]),
            torch.from_numpy(n[idx]),
            torch.from_numpy(t[idx]),
            method,
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss.detach()) * len(idx)
        seen += len(idx)
    return total, seen


def _margin(report: dict, kind: str, log) -> float:
    """The DMC choice margin with the best held-out gain (chosen on the held-out slice; 0.0
    when the slice is empty)."""
    if not report["samples"]:
        log(f"{kind} margin 0.0: no held-out decisions to choose another")
        return 0.0
    margin = max(report["gains"], key=report["gains"].get)
    log(
        f"{kind} margin {margin}: held-out gains by margin "
        + ", ".join(f"{m}: {v:+.3f}" for m, v in report["gains"].items())
    )
    return margin
