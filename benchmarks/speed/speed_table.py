"""The speed table: learner steps/s by batch size and opponent for the batched env, ``make_vec``
sync and async, the PettingZoo AEC env and OpenSpiel's C++ ``cribbage`` through Python, all in
one run (ratios within the run are what count on a shared machine), plus the memory bandwidth
that bounds writing observations.

    nice -n 10 python benchmarks/speed/speed_table.py                      # ~10 min on 2 quiet cores
    nice -n 10 python benchmarks/speed/speed_table.py --seconds 0.3 --quick  # a smoke run
    python benchmarks/speed/speed_table.py --out benchmarks/results/speed_table.json

The learner's policy costs nothing: it lays the first legal card of each mask (one ``argmax``
over the batch). A learner step is one decision of the learner (the opponent's replies, deals,
the show and same-step resets happen inside it). Times are CPU time of this process (async:
wall time, its workers run in other processes). Each cell runs for ``--seconds`` after a warm-up
step; the compiled kernels are loaded (or compiled) before timing. Nothing is written unless
``--out`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cribbage_env.encoding import OBS_SIZE  # noqa: E402
from cribbage_env.envs.batched import CribbageVectorEnv, warm_up  # noqa: E402
from cribbage_env.envs.vector import make_vec  # noqa: E402

OPPONENTS = ("random", "greedy", "expectimax")
BATCHES = (1, 64, 1024, 8192)


def bandwidth(mb: float, seconds: float) -> float:
    """GB/s written by ``fill`` into a ``mb``-megabyte float32 array (best of repeats)."""
    a = np.ones(int(mb * 1e6 / 4), dtype=np.float32)
    best = float("inf")
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        a.fill(0.0)
        best = min(best, time.perf_counter() - t)
    return mb / 1e3 / best


def _timed(step: Callable[[], int], seconds: float, clock: Callable[[], float]) -> float:
    """Learner steps/s: ``step()`` returns the learner steps it made."""
    step()
    n = 0
    t0 = clock()
    while True:
        n += step()
        dt = clock() - t0
        if dt >= seconds:
            return n / dt


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return np.argmax(mask, axis=1)


def _stepper(env, n: int):
    """A step of ``n`` envs at a time, each taking its first legal action."""
    _, info = env.reset(seed=0)
    mask = info["action_mask"]

    def step() -> int:
        nonlocal mask
        _, _, _, _, i = env.step(_first_legal(mask))
        mask = i["action_mask"]
        return n

    return step


def batched(n: int, opponent: str, seconds: float, **kw) -> float:
    env = CribbageVectorEnv(n, opponent, **kw)
    return _timed(_stepper(env, n), seconds, time.process_time)


def vector(n: int, opponent: str, mode: str, seconds: float) -> float:
    env = make_vec(n, opponent=opponent, vectorization_mode=mode)
    clock = time.process_time if mode == "sync" else time.perf_counter
    try:
        return _timed(_stepper(env, n), seconds, clock)
    finally:
        env.close()


def aec(seconds: float) -> float:
    """PettingZoo AEC: both seats lay their first legal card; seat 0's decisions counted."""
    from cribbage_env.envs.aec import raw_env

    env = raw_env()
    env.reset(seed=0)

    def step() -> int:
        learner = 0
        for _ in range(64):
            if not env.agents:
                env.reset()
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            learner += env.agent_selection == env.possible_agents[0]
            env.step(int(np.argmax(obs["action_mask"])))
        return learner

    return _timed(step, seconds, time.process_time)


def openspiel(seconds: float) -> float | None:
    """OpenSpiel's C++ ``cribbage`` through pyspiel: chance sampled, both players' first legal
    action; player 0's decisions counted."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("cribbage")
    rng = np.random.default_rng(0)
    state = game.new_initial_state()

    def step() -> int:
        nonlocal state
        learner = 0
        for _ in range(64):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            learner += state.current_player() == 0
            state.apply_action(state.legal_actions()[0])
        return learner

    return _timed(step, seconds, time.process_time)


def run(args: argparse.Namespace) -> dict:
    warm_up()
    warm_up(parallel=True)
    batches = (1, 64, 1024) if args.quick else BATCHES
    out: dict = {"python": platform.python_version(), "load_before": os.getloadavg()}
    bw = {f"{mb} MB": bandwidth(mb, args.seconds) for mb in (2.2, 17.5, 200)}
    out["fill_GB_per_s"] = bw
    out["obs_bytes_per_step"] = OBS_SIZE * 4
    print(f"memory fill: {bw} GB/s; one observation = {OBS_SIZE * 4} bytes", flush=True)
    rows: dict[str, dict[str, float | None]] = {}

    def cell(row: str, col: str, f: Callable[..., float | None], *a: object, **kw: object) -> None:
        v = f(*a, **kw)
        rows.setdefault(row, {})[col] = v
        shown = "-" if v is None else f"{v:,.0f}"
        print(f"{row:38s} {col:11s} {shown:>12s} (load {os.getloadavg()[0]:.1f})", flush=True)

    s = args.seconds
    for opp in OPPONENTS:
        for n in batches:
            cell(f"batched x{n}", opp, batched, n, opp, s, copy=False)
        best = max(batches[1:], key=lambda n: rows[f"batched x{n}"][opp] or 0)
        cell(f"batched x{best} copy=True", opp, batched, best, opp, s)
        cell(f"batched x{best} compact", opp, batched, best, opp, s, copy=False, observation="compact")  # fmt: skip
        cell(f"batched x{best} parallel", opp, batched, best, opp, s, copy=False, parallel=True)
        for n in (1, 8) if args.quick else (1, 8, 64):
            cell(f"make_vec sync x{n}", opp, vector, n, opp, "sync", s)
        cell("make_vec async x2", opp, vector, 2, opp, "async", s)
        cell("make_vec async x8", opp, vector, 8, opp, "async", s)
    cell("PettingZoo AEC (both seats in the loop)", "random", aec, s)
    cell("OpenSpiel C++ cribbage via pyspiel", "random", openspiel, s)
    out["learner_steps_per_s"] = rows
    out["ratios"] = {
        opp: max(rows[f"batched x{n}"][opp] or 0 for n in batches)
        / (rows["make_vec sync x8"][opp] or 1)
        for opp in OPPONENTS
    }
    out["load_after"] = os.getloadavg()
    print("best batched / make_vec sync x8:", {k: round(v, 1) for k, v in out["ratios"].items()})
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per cell")
    p.add_argument("--quick", action="store_true", help="fewer batch sizes (a smoke run)")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    result = run(args)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(json.dumps(result, indent=1) + "\n")
        os.replace(tmp, args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
