"""A small ReLU MLP scoring candidate rows, evaluated with numpy alone (no torch at play time)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .weights import WeightsError


class MLP:
    """``score(x)`` maps (n, d) candidate rows to (n,) values: ReLU hidden layers, linear output."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.layers = [
            (np.ascontiguousarray(w, dtype=np.float32), np.ascontiguousarray(b, dtype=np.float32))
            for w, b in layers
        ]

    @property
    def in_dim(self) -> int:
        return self.layers[0][0].shape[0]

    @property
    def out_dim(self) -> int:
        return self.layers[-1][0].shape[1]

    def score(self, x: np.ndarray) -> np.ndarray:
        return self.forward(x)[:, 0]

    def forward(self, x: np.ndarray) -> np.ndarray:
        """(n, d) rows -> (n, out_dim) outputs."""
        h = np.asarray(x, dtype=np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = {}
        for i, (w, b) in enumerate(self.layers):
            out[f"{prefix}.w{i}"] = w
            out[f"{prefix}.b{i}"] = b
        return out

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> MLP:
        layers = []
        i = 0
        while f"{prefix}.w{i}" in arrays:
            layers.append((arrays[f"{prefix}.w{i}"], arrays[f"{prefix}.b{i}"]))
            i += 1
        if not layers:
            raise ValueError(f"no layers named {prefix}.w0... in the weights file")
        return cls(layers)


def load_nets(path: str | Path) -> tuple[MLP, MLP, dict[str, str]]:
    """The discard net, the play net and the metadata strings stored in a weights ``.npz``,
    checked by :func:`agents.nets.weights.read_weights` (:class:`WeightsError` if unfit)."""
    from .weights import check_layers, read_weights

    arrays = read_weights(path)
    meta = {k[5:]: str(v) for k, v in arrays.items() if k.startswith("meta.")}
    nets = []
    for prefix in ("discard", "play"):
        try:
            net = MLP.from_arrays(arrays, prefix)
        except ValueError as exc:
            raise WeightsError(f"{path}: {exc}") from None
        check_layers(path, prefix, net.layers)
        nets.append(net)
    return nets[0], nets[1], meta


def nets_bytes(discard: MLP, play: MLP, meta: dict[str, str]) -> bytes:
    """The bytes of a weights ``.npz`` holding the nets and ``meta``."""
    import io

    arrays = {**discard.arrays("discard"), **play.arrays("play")}
    arrays.update({f"meta.{k}": np.array(str(v)) for k, v in meta.items()})
    out = io.BytesIO()
    # allow_pickle named (no effect on these numeric and string arrays) so that mypy does not
    # match **arrays against it; load_nets reads them back with allow_pickle=False.
    np.savez_compressed(out, allow_pickle=False, **arrays)
    return out.getvalue()


def save_nets(path: str | Path, discard: MLP, play: MLP, meta: dict[str, str]) -> None:
    """Write the nets atomically (temporary file, fsync, replace: never through a link)."""
    from ..store.atomic import atomic_write

    data = nets_bytes(discard, play, meta)
    atomic_write(path, lambda f: f.write(data))
