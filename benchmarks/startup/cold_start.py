"""Cold start: the first batched ``reset`` and the expert's first move on an empty kernel cache
and on a warm one, each in a fresh process (``NUMBA_CACHE_DIR`` set to a new temporary directory,
so nothing of this machine's cache is used or touched).

    nice -n 10 python benchmarks/startup/cold_start.py [--out FILE]

Rows: ``batched reset``: ``CribbageVectorEnv(8).reset`` (the compile message included);
``expert first move``: the expert's first play decision of a game; ``expert first move after
the table's warm-up``: the same, with :func:`ui.table.warmup.warm_in_background` started when the game
starts and ``--think`` seconds (the person's first discard) before the computer moves: what the
person waits for at the table. Wall times; the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_RESET = """
import time; t = time.perf_counter()
from cribbage_env.envs.batched import CribbageVectorEnv
CribbageVectorEnv(8).reset(seed=0)
print(time.perf_counter() - t)
"""
_EXPERT = """
import time, sys
t0 = time.perf_counter()
warm, think = {warm}, {think}
if warm:
    from ui.table.warmup import warm_in_background
    warm_in_background()
from agents.registry import make_agent
from cribbage_env.rules.engine import new_game, Phase
import numpy as np
g = new_game(3)
agent = make_agent("expert")
rng = np.random.default_rng(0)
while g.phase is not Phase.PLAY:
    g.apply(g.legal_actions()[0])
time.sleep(max(0.0, think - (time.perf_counter() - t0)))
t = time.perf_counter()
agent.act(g.view(g.to_act), rng)
print(time.perf_counter() - t)
"""


def _run(code: str, cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    if out.stderr.strip():
        print("   stderr:", out.stderr.strip().replace("\n", " | "), flush=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--think", type=float, default=5.0, help="seconds before the first move")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    rows: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in (
            ("batched reset", _RESET),
            ("expert first move", _EXPERT.format(warm=False, think=0.0)),
        ):
            for state in ("empty cache", "cached"):
                cache = os.path.join(tmp, name.replace(" ", "_"))
                rows[f"{name}, {state}"] = _run(code, cache)
                print(f"{name}, {state}: {rows[f'{name}, {state}']:.2f} s "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
        key = f"expert first move after the table's warm-up and {args.think:g} s, empty cache"
        rows[key] = _run(_EXPERT.format(warm=True, think=args.think), os.path.join(tmp, "gui"))
        print(f"{key}: {rows[key]:.2f} s (load {os.getloadavg()[0]:.1f})", flush=True)
    if args.out:
        tmp_out = args.out.with_suffix(".tmp")
        tmp_out.write_text(json.dumps({"seconds": rows, "load": os.getloadavg()}, indent=1) + "\n")
        os.replace(tmp_out, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
