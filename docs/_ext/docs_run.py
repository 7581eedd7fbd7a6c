"""Helpers the executed pages use: run ``cribbage`` command lines as a user would (a non-zero exit
fails the docs build), in a scratch folder the build throws away; and the kernels' ``%%bash``."""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SCRATCH = Path(tempfile.mkdtemp(prefix="cribbage-docs-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def scratch(name: str) -> Path:
    """A path inside this page's scratch folder."""
    return SCRATCH / name


def cribbage(line: str, cwd: Path | None = None, ok: tuple[int, ...] = (0,)) -> None:
    """Run ``cribbage LINE`` (``python -m ui``: this checkout) and print what it prints."""
    env = {**os.environ, "COLUMNS": "100", "CRIBBAGE_DATA_DIR": str(SCRATCH / "data")}
    out = subprocess.run(
        [sys.executable, "-m", "ui", *shlex.split(line)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or SCRATCH,
    )
    text = (out.stdout + out.stderr).replace(f"{SCRATCH}{os.sep}", "")  # as run from its folder
    print(text, end="")
    if out.returncode not in ok:
        raise RuntimeError(f"cribbage {line} exited {out.returncode}")


def bash(line: str, cell: str) -> None:
    """The build's ``%%bash`` cell magic (conf.py loads it in every page's kernel): the output
    printed whole, where IPython's own streams it in 100-byte pieces that the page would show as
    broken lines; a command that fails fails the cell, so the build."""
    out = subprocess.run(
        ["bash", "-c", cell], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    print(out.stdout, end="")
    if out.returncode:
        raise subprocess.CalledProcessError(out.returncode, cell.strip())
