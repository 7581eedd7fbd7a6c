"""Batched env speed of two source trees side by side in one run, and where a step's time goes.

    git archive main | tar -x -C /tmp/main_src   # the base: main's sources
    nice -n 10 python benchmarks/speed/vec_compare.py --base /tmp/main_src --rounds 3 [--cold]
    python benchmarks/speed/vec_compare.py --profile --batch 1024      # this tree's profile only

Each round runs one cell per tree in a fresh process (``PYTHONPATH`` = the tree, its own kernel
cache), alternating trees, so both see the same load; the table gives the median learner
steps/s (CPU time of the process, the learner laying its first legal card with one ``argmax``,
``copy=False``) and this tree / base. ``--profile`` times the parts of this tree's ``step``: the
kernel (learner, opponent, resets, observations), the observation writes alone (a second pass
of :func:`cribbage_env.kernels.vecobs.write` over the batch), the policy's ``argmax`` and the Python
glue. ``--cold`` adds the first batched ``reset`` of each tree in a fresh process on an empty
kernel cache (``NUMBA_CACHE_DIR`` a new temporary folder), then twice cached (wall time).
Nothing is written unless ``--out`` is given.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.store.atomic import atomic_write_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

_CELL = """
import sys, time
import numpy as np
from cribbage_env.envs.batched import CribbageVectorEnv
n, opp, obs, secs = {n}, {opp!r}, {obs!r}, {secs}
env = CribbageVectorEnv(n, opp, copy=False, observation=obs, agent_seed=1)
_, info = env.reset(seed=0)
mask = info["action_mask"]
for _ in range(3):
    _, _, _, _, info = env.step(np.argmax(mask, axis=1))
    mask = info["action_mask"]
steps = 0
t0 = time.process_time()
while time.process_time() - t0 < secs:
    _, _, _, _, info = env.step(np.argmax(mask, axis=1))
    mask = info["action_mask"]
    steps += n
print(steps / (time.process_time() - t0))
"""


_COLD = """
import time; t = time.perf_counter()
from cribbage_env.envs.batched import CribbageVectorEnv
CribbageVectorEnv(8).reset(seed=0)
print(time.perf_counter() - t)
"""


def cold(tree: Path, cache: str) -> float:
    """Seconds of a fresh process's import and first batched ``reset`` with ``cache`` as the
    kernel cache (empty the first time)."""
    return _last_number(tree, _COLD, dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache))


def _last_number(tree: Path, code: str, env: dict[str, str]) -> float:
    """The last line of what ``code`` prints, run in a fresh process in ``tree`` (cwd too:
    ``-c`` puts the working folder first on the path)."""
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def cell(tree: Path, n: int, opponent: str, observation: str, seconds: float) -> float:
    """Learner steps/s of one cell in a fresh process on ``tree``'s sources."""
    code = _CELL.format(n=n, opp=opponent, obs=observation, secs=seconds)
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("NUMBA_CACHE_DIR", None)
    return _last_number(tree, code, env)


def profile(n: int, opponent: str, seconds: float) -> dict[str, float]:
    """ns per learner step of each part of this tree's ``step``."""
    import numpy as np
    from numba import njit

    from cribbage_env.envs.batched import CribbageVectorEnv
    from cribbage_env.kernels import simkernel as K
    from cribbage_env.kernels import vecobs

    @njit
    def writes(states, obs, packed, mask, prev):
        ones = np.zeros(vecobs.MAX_ONES, dtype=np.int64)
        counts = np.zeros(4, dtype=np.int64)
        for i in range(states.shape[0]):
            vecobs.write(K.borrow(states[i]), i, obs, packed, mask, ones, counts, prev, False)

    env = CribbageVectorEnv(n, opponent, copy=False, agent_seed=1)
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    writes(env._states, env._obs, env._packed, env._mask, env._prev)
    parts = dict.fromkeys(("kernel", "obs writes", "argmax", "glue", "total"), 0.0)
    clk = time.process_time  # CPU time: a shared machine's other jobs are not counted
    steps = 0
    end = clk() + seconds
    run = env._run
    while clk() < end:
        t0 = clk()
        acts = np.argmax(mask, axis=1)
        t1 = clk()
        env._run = lambda reset, a: None  # the rest of step() without the kernel
        env.step(acts)
        t2 = clk()
        env._run = run
        run(False, env._actions(acts))
        t3 = clk()
        writes(env._states, env._obs, env._packed, env._mask, env._prev)
        t4 = clk()
        mask = env._mask
        parts["argmax"] += t1 - t0
        parts["glue"] += t2 - t1
        parts["kernel"] += t3 - t2
        parts["obs writes"] += t4 - t3
        steps += n
    parts["total"] = parts["argmax"] + parts["glue"] + parts["kernel"]
    return {k: v / steps * 1e9 for k, v in parts.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", type=Path, help="the other source tree (e.g. main's)")
    p.add_argument("--batch", type=int, nargs="+", default=[1024, 8192])
    p.add_argument("--opponent", nargs="+", default=["random"])
    p.add_argument("--observation", nargs="+", default=["standard"])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile", action="store_true", help="time the parts of this tree's step")
    p.add_argument("--cold", action="store_true", help="also the first reset, empty and cached")
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    result: dict[str, object] = {"load_before": os.getloadavg()}
    if args.profile:
        for n in args.batch:
            for opp in args.opponent:
                parts = profile(n, opp, args.seconds)
                result[f"profile x{n} {opp}"] = parts
                shown = ", ".join(f"{k} {v:.0f}" for k, v in parts.items())
                print(f"x{n} {opp} (ns per learner step): {shown}", flush=True)
    if args.base:
        trees = {"base": args.base.resolve(), "this": ROOT}
        for n in args.batch:
            for opp in args.opponent:
                for obs in args.observation:
                    got: dict[str, list[float]] = {k: [] for k in trees}
                    for _ in range(args.rounds):
                        for k, tree in trees.items():
                            got[k].append(cell(tree, n, opp, obs, args.seconds))
                    med = {k: statistics.median(v) for k, v in got.items()}
                    key = f"x{n} {opp} {obs}"
                    result[key] = {"rounds": got, "ratio": med["this"] / med["base"]}
                    print(f"{key}: base {med['base']:,.0f}  this {med['this']:,.0f}  "
                          f"ratio {med['this'] / med['base']:.2f}  "
                          f"(load {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
    if args.base and args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            for k, tree in {"this": ROOT, "base": args.base.resolve()}.items():
                cache = tempfile.mkdtemp(dir=tmp)
                times = [cold(tree, cache) for _ in range(3)]
                result[f"cold start {k}"] = {"empty": times[0], "cached": times[1:]}
                print(f"first reset, {k}: empty cache {times[0]:.1f} s, cached "
                      f"{times[1]:.2f} / {times[2]:.2f} s (load {os.getloadavg()[0]:.1f})",
                      flush=True)  # fmt: skip
    result["load_after"] = os.getloadavg()
    if args.out:
        atomic_write_json(args.out, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
