"""The ``cribbage`` command in a child process, from the checkout (``python -m ui``), as a person
runs it: its exit code and its output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cribbage(
    *args: str, env: dict | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ui", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
