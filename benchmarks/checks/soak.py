"""Soak: play many seeded games between every pair of agents and check every invariant after
every decision (cribbage_env.invariants), plus event totals and record round trips.

    python benchmarks/checks/soak.py --games 100000            # the long run (hours on one core)
    python benchmarks/checks/soak.py --games 200 --agents random greedy   # what CI runs (tests/agents/tournament/test_soak.py)

Prints games/s, decisions and violations; writes a JSON summary (``--out``). Exit 1 on any
violation, with the seed and decision index to reproduce it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cribbage_env as ce  # noqa: E402
from agents import AGENTS, AgentSpecError, make_agent  # noqa: E402
from cribbage_env.invariants import InvariantViolation, check_state, check_view  # noqa: E402


def soak_game(
    seed: int,
    specs: tuple[str, str],
    interactive_cuts: bool,
    check_record: bool,
    stats: dict[str, int] | None = None,
) -> tuple[int, list[str]]:
    """Play one game; returns (decisions, violations) and adds its events to ``stats``."""
    agents = [make_agent(s) for s in specs]
    rngs = [np.random.default_rng([seed, seat]) for seat in (0, 1)]
    g = ce.new_game(seed, interactive_cuts=interactive_cuts)
    problems: list[str] = []
    prev = g.scores
    try:
        while not g.is_over:
            p = g.current_player
            action = agents[p].act(g.view(p), rngs[p])
            if not g.is_legal(action):
                raise InvariantViolation(f"agent {specs[p]} chose illegal {action}")
            g.apply(action)
            check_state(g, prev)
            check_view(g, 0)
            check_view(g, 1)
            prev = g.scores
        events = g.events
        if stats is not None:
            stats["events"] = stats.get("events", 0) + len(events)
        totals = [0, 0]
        for e in events:
            if e.points:
                totals[e.player] += e.points
                if sum(r.points for r in e.reasons) != e.points:
                    raise InvariantViolation(f"event reasons do not add up: {e}")
        if tuple(totals) != g.scores:
            raise InvariantViolation(f"event points {totals} != scores {g.scores}")
        if check_record and ce.GameState.from_record(g.to_record()) != g:
            raise InvariantViolation("record round trip changed the state")
    except (InvariantViolation, ce.IllegalActionError, ce.RecordError) as exc:
        problems.append(
            f"seed {seed} {specs} cuts={interactive_cuts} after {len(g.decisions)} decisions: {exc}"
        )
    return len(g.decisions), problems


#: Left out of the default soak: OpenSpiel's ISMCTS plays every simulation to the end of the game
#: (seconds per decision); tests/agents/players/test_agents.py checks it, ``--agents ismcts:sims=2`` soaks it.
SLOW = ("ismcts",)


def default_agents() -> list[str]:
    """Every registered agent that needs no parameters (a trained policy needs its model file)."""
    specs = []
    for name in sorted(AGENTS):
        if name in SLOW:
            continue
        try:
            make_agent(name)
        except (AgentSpecError, ImportError):
            continue
        specs.append(name)
    return specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in total (default 1000)")
    parser.add_argument(
        "--agents",
        nargs="+",
        default=None,
        help="agent specs (default: every registered agent that needs no parameters)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--record-every",
        type=int,
        default=10,
        help="check the record round trip every N games (default 10)",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/soak.json"))
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    specs = args.agents or default_agents()
    pairs = list(itertools.product(specs, repeat=2))
    seeds = np.random.SeedSequence(args.seed).generate_state(args.games, dtype=np.uint32)
    problems: list[str] = []
    decisions = 0
    stats: dict[str, int] = {"events": 0}
    start = time.perf_counter()
    try:
        from tqdm import tqdm

        it = tqdm(range(args.games), desc="soak", unit="game", mininterval=1.0)
    except ImportError:  # pragma: no cover
        it = range(args.games)
    for i in it:
        n, probs = soak_game(
            int(seeds[i]),
            pairs[i % len(pairs)],
            interactive_cuts=i % 2 == 1,
            check_record=i % args.record_every == 0,
            stats=stats,
        )
        decisions += n
        problems.extend(probs)
    elapsed = time.perf_counter() - start
    summary = {
        "games": args.games,
        "decisions": decisions,
        "events": stats["events"],
        "violations": len(problems),
        "agents": specs,
        "seconds": round(elapsed, 2),
        "games_per_s": round(args.games / elapsed, 1),
        "first_problems": problems[:10],
    }
    print(json.dumps(summary, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
