"""The kernels' ``%%bash`` for the executed pages (conf.py loads it in every page's kernel)."""

from __future__ import annotations

import subprocess


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
