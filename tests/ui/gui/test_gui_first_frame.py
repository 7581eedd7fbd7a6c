"""The window answers at once: ``cribbage play`` draws its first frame before it imports the
compiler, the kernels or the searching agents, and that frame is not black.

Each case starts the command in a fresh interpreter (headless, a new data folder) with
``arcade.Window.flip`` wrapped: at the first flip it notes which heavy modules are already
imported and how bright the frame is, then leaves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("arcade")

ROOT = Path(__file__).resolve().parents[3]

#: what the first frame must not wait for
HEAVY = (
    "numba",
    "cribbage_env.kernels.fastsim",
    "cribbage_env.kernels.simkernel",
    "agents.players.expert",
    "agents.players.expectimax",
    "agents.review",
    "agents.tournament.tournament",
    "scipy",
    "torch",
)

CHILD = textwrap.dedent(
    """
    import json, os, sys
    import ui.gui as gui

    gui.prepare(headless=True)
    gui.prepare = lambda headless=False: None  # the interactive path, drawn headless
    import arcade

    flip = arcade.Window.flip

    def first_flip(self):
        img = arcade.get_image(0, 0, self.width, self.height).convert("L")
        out = {
            "heavy": [m for m in json.loads(sys.argv[2]) if m in sys.modules],
            "brightness": sum(img.getdata()) / (img.width * img.height),
        }
        with open(sys.argv[1], "w") as f:
            json.dump(out, f)
        os._exit(0)

    arcade.Window.flip = first_flip
    from ui.cli.cli import main

    main(["play", *sys.argv[3:]])
    os._exit(3)  # the loop ended without a frame
    """
)


def first_frame(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "first.json"
    env = dict(os.environ, ARCADE_HEADLESS="", PYTHONPATH=str(ROOT))
    env.pop("ARCADE_HEADLESS")
    cmd = [sys.executable, "-c", CHILD, str(out), json.dumps(HEAVY)]
    cmd += ["--data-dir", str(tmp_path / "data"), *args]
    done = subprocess.run(cmd, env=env, cwd=tmp_path, timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text())


@pytest.mark.parametrize(
    "args",
    [(), ("--opponent", "expert"), ("--opponent", "master", "--hotseat")],
    ids=["start screen", "expert table", "hotseat"],
)
def test_the_first_frame_comes_before_the_heavy_imports(tmp_path, args) -> None:
    frame = first_frame(tmp_path, *args)
    assert frame["heavy"] == []
    assert frame["brightness"] > 40  # the felt and the title, not a black window
