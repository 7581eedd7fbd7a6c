"""Where a figure comes from: the command, commit, date, machine and load, written beside it
in every results file (the results page shows them).

    from provenance import provenance  # a benchmark script, with benchmarks/ on sys.path
"""

from __future__ import annotations

import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, timeout=10, check=False)  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True, timeout=10, check=False)  # fmt: skip
    except OSError:
        return "unknown"
    sha = out.stdout.strip() or "unknown"
    return sha + ("+changes" if dirty.stdout.strip() else "")


def command(argv: list[str] | None = None) -> str:
    """The command line, the script named relative to the project."""
    args = list(sys.argv if argv is None else argv)
    script = Path(args[0]).resolve()
    if script.is_relative_to(ROOT):
        args[0] = str(script.relative_to(ROOT))
    return "python " + shlex.join(args)


def provenance(argv: list[str] | None = None) -> dict:
    """``{"command", "commit", "date", "machine", "load"}`` of the running benchmark."""
    return {
        "command": command(argv),
        "commit": _commit(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load": [round(x, 2) for x in os.getloadavg()],
    }
