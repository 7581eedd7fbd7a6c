"""A virtual X screen for the start-up benchmarks: an ``Xvfb`` started for the run and stopped
after it, on a display number of its own (``base`` + pid mod 9, so two scripts running together
do not meet)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def virtual_screen(base: int, size: tuple[int, int] = (1280, 800)) -> Iterator[str]:
    """Yield the display name of a fresh 24-bit ``Xvfb`` of ``size`` (exits if there is none)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        sys.exit("needs Xvfb (apt-get install xvfb)")
    display = f":{base + os.getpid() % 9}"
    server = subprocess.Popen(
        [xvfb, display, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    try:
        yield display
    finally:
        server.terminate()
        server.wait()
