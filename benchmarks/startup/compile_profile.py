"""What numba spends the batched env's first reset on, from an empty cache: every compiled
function with its own time (its callees' compiles taken out), and the process's wall and CPU time.

Each run is a fresh interpreter with ``NUMBA_CACHE_DIR`` a new temporary folder (a fresh clone's
state), timing ``CribbageVectorEnv(8, opponent).reset(seed=0)`` with numba's compile events.

    python benchmarks/startup/compile_profile.py --opponent random --top 15
    python benchmarks/startup/compile_profile.py --opponent random expectimax --out FILE.json
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

#: the child: times the first reset, listens to every ``numba:compile`` event, prints JSON.
CHILD = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import numba.core.event as ev
stack, own, count = [], {}, {}
class L(ev.Listener):
    def on_start(self, event):
        stack.append([event.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0])
    def on_end(self, event):
        name, start, inner = stack.pop()
        took = time.perf_counter() - start
        own[name] = own.get(name, 0.0) + took - inner
        count[name] = count.get(name, 0) + 1
        if stack:
            stack[-1][2] += took
ev.register("numba:compile", L())
llvm = [0, 0.0, 0.0]  # depth, start, total: LLVM's share (optimisation and machine code)
class LL(ev.Listener):
    def on_start(self, event):
        llvm[0] += 1
        if llvm[0] == 1:
            llvm[1] = time.perf_counter()
    def on_end(self, event):
        llvm[0] -= 1
        if llvm[0] == 0:
            llvm[2] += time.perf_counter() - llvm[1]
ev.register("numba:llvm_lock", LL())
from cribbage_env.envs.batched import CribbageVectorEnv
t1, c1 = time.perf_counter(), time.process_time()
CribbageVectorEnv(8, sys.argv[1]).reset(seed=0)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import_s": t1 - t0, "reset_wall_s": t2 - t1, "reset_cpu_s": c2 - c1,
                  "llvm_s": llvm[2], "functions": len(own), "compiles": sum(count.values()),
                  "own_s": sorted(own.items(), key=lambda kv: -kv[1]), "count": count}))
"""


def profile(opponent: str) -> dict:
    """One fresh process's first reset with ``opponent`` on an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", CHILD, opponent], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)  # fmt: skip
        return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--opponent", nargs="+", default=["random"],
                   choices=["random", "greedy", "expectimax"])  # fmt: skip
    p.add_argument("--top", type=int, default=12, help="functions listed, by own compile time")
    p.add_argument("--out", type=Path, help="write the profiles as JSON here")
    a = p.parse_args(argv)
    load = os.getloadavg()[0]
    results = {}
    for opponent in a.opponent:
        r = results[opponent] = profile(opponent)
        print(f"{opponent}: first reset {r['reset_wall_s']:.1f} s wall, {r['reset_cpu_s']:.1f} s "
              f"CPU, {r['llvm_s']:.1f} s of it in LLVM; import {r['import_s']:.1f} s; "
              f"{r['functions']} functions, {r['compiles']} compiles; load {load:.1f}")  # fmt: skip
        for name, s in r["own_s"][: a.top]:
            print(f"  {s:6.2f} s  x{r['count'][name]}  {name}")
    if a.out:
        a.out.write_text(json.dumps({"load": load, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
