"""Training scalars (losses, entropy, steps/s, win rates) by step: always a ``scalars.jsonl`` in
the run folder, and TensorBoard event files when ``--tensorboard DIR`` is given and
``torch.utils.tensorboard`` can write them (it needs the ``tensorboard`` package)."""

from __future__ import annotations

import json
import time
from pathlib import Path


def tensorboard_missing() -> str | None:
    """Why TensorBoard files cannot be written here (None when they can)."""
    try:
        from torch.utils.tensorboard import SummaryWriter  # noqa: F401
    except ImportError as exc:
        return f"TensorBoard needs the tensorboard package ({exc}): pip install tensorboard"
    return None


class Scalars:
    def __init__(self, path: Path, tensorboard: Path | None) -> None:
        self.path = path
        self.file = open(path, "a")
        self.writer = None
        if tensorboard is not None:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(tensorboard))

    def add(self, tag: str, value: float, step: int) -> None:
        self.file.write(json.dumps({"tag": tag, "value": value, "steps": step,
                                    "time": round(time.time(), 3)}) + "\n")  # fmt: skip
        self.file.flush()
        if self.writer is not None:
            self.writer.add_scalar(tag, value, step)

    def row(self, row: dict, step: int) -> None:
        """Every number of a progress row but the step itself."""
        for key, value in row.items():
            if key != "steps" and isinstance(value, int | float):
                self.add(key if "/" in key else f"train/{key}", float(value), step)

    def close(self) -> None:
        self.file.close()
        if self.writer is not None:
            self.writer.close()
