"""Isolated seats: do cheaters gain anything, and what does isolation cost in games/s?

    nice -n 10 python benchmarks/checks/isolate_bench.py --games 400 --speed-games 200 --workers 2

Part 1 (strength). Three cheaters (``tests/cheater_agent.py``) play ``expectimax`` and, when
they reach the true game state, choose their discard knowing the starter: the *frame peeker*
walks the call stack, the *gc peeker* the garbage collector, the *generator peeker* rebuilds
the deal from its generator. Each plays its honest twin (``expectimax``) over ``--games``
duplicate games, isolated (``--isolate``: each seat in its own process). A control plays the
frame peeker in-process, where it does find the state. A cheater that finds nothing makes
exactly the twin's decisions, so under duplicate deals it wins exactly half.

Part 2 (speed). The same plan of ``expectimax`` against ``expectimax`` (``--speed-games``) on
the pool backend, in-process then isolated, alternating for ``--repeat`` rounds in this one run
(the machine is shared); the figure is the best round of each, worker start-up included. Both
must give identical games. Start-up apart: seconds from nothing to the first answered decision,
for a sealed seat (sandbox, interpreter, agent, kernels) and for the agent built in a fresh
interpreter, best of ``--repeat``.

Prints the figures; ``--out FILE`` writes them as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the cheaters live in tests/cheater_agent.py

from agents.stats import wilson_interval  # noqa: E402
from agents.tournament.runner import run_plan  # noqa: E402
from agents.tournament.tournament import make_plan  # noqa: E402

PEEKERS = ("FramePeeker", "GcPeeker", "GeneratorPeeker")
TIMEOUT = 30.0


def strength(spec: str, games: int, workers: int, isolate: float | None, seed: int) -> dict:
    """The cheater's wins against expectimax (agent A's), with a 95% Wilson interval."""
    plan = make_plan([spec, "expectimax"], games, seed, agent_seed=seed + 1, isolate=isolate)
    t = time.perf_counter()
    out = run_plan(plan, backend="pool", workers=workers)
    wins = sum(r.a_won for r in out.results)
    lo, hi = wilson_interval(wins, len(out.results))
    return {
        "cheater": spec, "isolated": isolate is not None, "games": len(out.results),
        "wins": wins, "win_rate": round(wins / len(out.results), 4),
        "win_rate_ci": [round(lo, 4), round(hi, 4)],
        "forfeits": sum(bool(r.forfeit) for r in out.results),
        "seconds": round(time.perf_counter() - t, 1),
    }  # fmt: skip


def speed(games: int, workers: int, repeat: int, seed: int, agent: str = "expectimax") -> dict:
    """Games/s of isolated (sealed) and in-process ``agent`` seats, best of ``repeat`` rounds
    each; both plans deal from the same key, so their games must be identical."""
    key = "5eed" * 8
    rounds: dict[str, list[float]] = {"in_process": [], "isolated": []}
    results = {}
    for _ in range(repeat):
        for name, isolate in (("in_process", None), ("isolated", TIMEOUT)):
            plan = make_plan([agent, agent + ":"], games, seed, agent_seed=seed, deal_key=key,
                             isolate=isolate, check_agents=isolate is None)  # fmt: skip
            out = run_plan(plan, backend="pool", workers=workers)
            rounds[name].append(len(out.results) / out.elapsed)
            results[name] = out.results
    same = results["in_process"] == results["isolated"]
    best = {k: round(max(v), 2) for k, v in rounds.items()}
    return {
        "agent": agent, "games": games, "workers": workers, "rounds": {k: [round(x, 2) for x in v] for k, v in rounds.items()},
        "best_games_per_s": best, "ratio": round(best["isolated"] / best["in_process"], 3),
        "identical_games": same,
    }  # fmt: skip


def startup(agent: str, repeat: int) -> dict:
    """Seconds to the first answered decision: a sealed seat, and the agent in a fresh
    interpreter (a pool worker's start), best of ``repeat`` each."""
    import numpy as np

    import cribbage_env as ce
    from agents.arena.seat import SealedSeat

    g = ce.new_game(5)
    view = g.view(g.to_act)
    while view.phase is not ce.Phase.PLAY:  # the first play: the kernels' first use
        g.apply(view.legal_actions[0], g.to_act)
        view = g.view(g.to_act)
    sealed, fresh = [], []
    code = (f"import numpy as np, cribbage_env as ce; from agents.registry import make_agent;"
            f"g = ce.new_game(5)\nwhile g.view(g.to_act).phase is not ce.Phase.PLAY: "
            f"g.apply(g.legal_actions()[0], g.to_act)\n"
            f"make_agent({agent!r}).act(g.view(g.to_act), np.random.default_rng(0))")  # fmt: skip
    for _ in range(repeat):
        t = time.perf_counter()
        seat = SealedSeat(agent, TIMEOUT)
        seat.act(view, np.random.default_rng(0))
        sealed.append(time.perf_counter() - t)
        seat.close()
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        fresh.append(time.perf_counter() - t)
    return {"agent": agent, "sealed_seat_s": round(min(sealed), 2),
            "fresh_interpreter_s": round(min(fresh), 2)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400, help="duplicate games per cheater (even)")
    p.add_argument("--speed-games", type=int, default=200)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--repeat", type=int, default=2, help="speed rounds of each configuration")
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--only", default="strength,speed")
    p.add_argument("--speed-agent", default="expectimax", help="the agent of the speed part")
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = p.parse_args(argv)
    log: dict = {
        "command": " ".join(sys.argv),
        "cpus": os.cpu_count(),
        "load_before": os.getloadavg(),
    }
    if "strength" in args.only:
        log["strength"] = [strength(f"cheater_agent:{c}", args.games, args.workers, TIMEOUT, args.seed)
                           for c in PEEKERS]  # fmt: skip
        log["control_in_process"] = strength(
            "cheater_agent:FramePeeker", args.games, args.workers, None, args.seed
        )
        for row in [*log["strength"], log["control_in_process"]]:
            print(json.dumps(row), flush=True)
    if "speed" in args.only:
        log["speed"] = speed(
            args.speed_games, args.workers, args.repeat, args.seed, args.speed_agent
        )
        print(json.dumps(log["speed"]), flush=True)
        log["startup"] = startup(args.speed_agent, args.repeat)
        print(json.dumps(log["startup"]), flush=True)
    log["load_after"] = os.getloadavg()
    if args.out is not None:
        args.out.write_text(json.dumps(log, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
