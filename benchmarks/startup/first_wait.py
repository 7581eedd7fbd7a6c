"""What a person waits for on a fresh install: the computer's first move after
their first discard, the first hint and the first review, each in a fresh process on an empty
kernel cache (``NUMBA_CACHE_DIR`` set to a new temporary folder),
with the table's background warm-up (:func:`ui.table.warmup.warm_up` in a thread, as
:func:`ui.table.warmup.warm_in_background` runs it when the window opens) started at t = 0, and
without it.

    nice -n 10 python benchmarks/startup/first_wait.py [--think 5] [--levels expert neural] [--out FILE]

``--think`` is the time from the game's start to the person's first discard (the cut for deal,
the deal, looking at six cards), ``--game`` to the game's end (0: the random game's own end,
seconds after the first move). Rows, wall seconds: the warm-up itself (empty cache), then per
level the computer's first play decision after the discard, the first hint (the judge at a
pegging position), and the first review of a finished game (``agents.review.review_game``, as
the game-over summary and the Review screen run it). The same rows on a warm cache give the
part that is the work itself, not compiling. The load average is printed beside each.
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

_TABLE = """
import json, time
t0 = time.perf_counter()
warm, think, spec, game, where = {warm}, {think}, {spec!r}, {game}, {where!r}
out = {{}}
if warm:
    import threading
    from ui.table.warmup import warm_table, warm_up
    from cribbage_env.kernels.interpreted import warming
    def _w():
        t = time.perf_counter()
        if where == "child":
            warm_up()
        else:  # compiled in this thread (decisions meanwhile interpreted)
            with warming():
                warm_table()
        out["warm-up"] = time.perf_counter() - t
    threading.Thread(target=_w, daemon=True).start()
import numpy as np
from agents.registry import make_agent
from cribbage_env.rules.engine import new_game
from cribbage_env.rules.core import Phase
g = new_game(3)
agent = make_agent(spec)
rng = np.random.default_rng(0)
while g.phase is not Phase.PLAY:  # the cuts and both discards (the person's is the first)
    g.apply(g.legal_actions()[0])
while g.to_act != 1:
    g.apply(g.legal_actions()[0])
time.sleep(max(0.0, think - (time.perf_counter() - t0)))
t, c = time.perf_counter(), time.thread_time()
agent.act(g.view(1), rng)
out["first move"] = time.perf_counter() - t
out["first move, CPU of its thread"] = time.thread_time() - c
from ui.table.teaching.hints import hint_for, hint_rng
g.apply(agent.act(g.view(1), rng))
view = g.view(g.to_act)
t = time.perf_counter()
hint_for(view, hint_rng(view))
out["first hint"] = time.perf_counter() - t
while not g.is_over:
    legal = g.legal_actions()
    g.apply(legal[int(rng.integers(len(legal)))])
from agents.review import review_game
time.sleep(max(0.0, game - (time.perf_counter() - t0)))
t = time.perf_counter()
review_game(g)
out["first review"] = time.perf_counter() - t
print(json.dumps(out))
"""


def _run(code: str, cache: str) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--think", type=float, default=5.0, help="seconds to the first discard")
    p.add_argument(
        "--game", type=float, default=0.0, help="seconds from the start to the game's end"
    )
    p.add_argument(
        "--warm-in",
        choices=("child", "thread"),
        default="child",
        help="compile in a child process (the table's way) or in the warm-up thread",
    )
    p.add_argument("--empty-only", action="store_true", help="skip the warm-cache runs")
    p.add_argument("--levels", nargs="+", default=["expert"], help="agent specs to time")
    p.add_argument("--no-baseline", action="store_true", help="skip the runs without warm-up")
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = p.parse_args(argv)
    rows: dict[str, float] = {}
    plans = [(True, "empty cache, warm-up")]
    if not args.empty_only:
        plans.append((None, "warm cache, warm-up"))
    if not args.no_baseline:
        plans.insert(1, (False, "empty cache, no warm-up"))
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.levels:
            for i, (warm, name) in enumerate(plans):
                cache = os.path.join(tmp, f"{spec}-{i}")  # a fresh install: an empty cache
                code = _TABLE.format(
                    warm=warm is not False,
                    think=args.think,
                    spec=spec,
                    game=args.game,
                    where=args.warm_in,
                )
                if warm is None:  # fill the cache first, then measure on it
                    _run(code, cache)
                for k, v in _run(code, cache).items():
                    key = f"{spec}: {k}, {name}"
                    rows[key] = round(v, 3)
                    print(f"{key}: {v:.2f} s (load {os.getloadavg()[0]:.1f})", flush=True)
    if args.out:
        tmp_out = args.out.with_suffix(".tmp")
        data = {
            "think": args.think,
            "game": args.game,
            "warm_in": args.warm_in,
            "seconds": rows,
            "load": os.getloadavg(),
        }
        tmp_out.write_text(json.dumps(data, indent=1) + "\n")
        os.replace(tmp_out, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
