"""What made a run: the versions that can change its results (stored with every run)."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path


def versions() -> dict:
    """Versions that can change results: package, Python, numpy, platform, git commit if any."""
    import numpy

    import cribbage_env

    out = {
        "cribbage_env": getattr(cribbage_env, "__version__", "?"),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "platform": platform.platform(),
    }
    try:
        root = Path(__file__).resolve().parents[2]
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5
        )
        if commit.returncode == 0:
            out["git_commit"] = commit.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return out
