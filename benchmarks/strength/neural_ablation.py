"""Each ingredient of the win-aware ``neural`` measured alone, on the same data and the same deals.

Every arm is a ``cribbage train --method dmc`` run (seed 12, 144 shards, 4 epochs) that reuses
the branching expectimax shards of one finished run (hard links: a shard depends only on the
seed and its index, so every arm sees the same data), differing in one option:

==================  ===========================================================================
arm                 what changes
==================  ===========================================================================
``clone``           no DMC fit: the warm start alone (``agents/data/neural_bc_expert.npz``)
``points``          DMC on point margins from the expert clone (the shipped recipe)
``equity``          equity returns instead of points
``points_oracle``   points, with the oracle critic's estimates (``--oracle 0.5``)
``equity_oracle``   both (the first generation of the win-aware run)
``xclone``          equity + oracle from the expectimax clone (the warm start's effect)
``genN``            a later generation of ``--run`` (learning from its own play)
==================  ===========================================================================

Then ``cribbage bench ARM expert`` for each (duplicate deals, ``--seed``, one worker), saving
each JSON. ``--offline N`` prints instead the held-out gains of each (returns, oracle weight)
fit on the first N shards, without games. Nothing tracked is written unless ``--out`` names a
file::

    nice -n 5 python benchmarks/strength/neural_ablation.py --run /work/runs/neural_long \\
        --arms-dir /work/runs/ablation --games 1000 --db /work/runs/ablation.sqlite
    nice -n 5 python benchmarks/strength/neural_ablation.py --run /work/runs/winaware --offline 24
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLONE = ROOT / "agents" / "data" / "neural_bc_expert.npz"
BASE = ["--method", "dmc", "--seed", "12", "--shards", "144", "--epochs", "4",
        "--eval-games", "0", "--workers", "1", "--no-progress"]  # fmt: skip
ARMS = {
    "points": ["--warm-start", str(CLONE)],
    "equity": ["--warm-start", str(CLONE), "--returns", "equity"],
    "points_oracle": ["--warm-start", str(CLONE), "--oracle", "0.5"],
    "equity_oracle": ["--warm-start", str(CLONE), "--returns", "equity", "--oracle", "0.5"],
    "xclone": ["--returns", "equity", "--oracle", "0.5"],
}


def _python(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "ui", *args], env=env, capture_output=True,
                          text=True, check=False, cwd=ROOT)  # fmt: skip


def _link_shards(run: Path, arm_dir: Path) -> None:
    src, dst = run / "data" / "gen0", arm_dir / "data" / "gen0"
    dst.mkdir(parents=True, exist_ok=True)
    for i in range(144):
        name = f"shard_{i:05d}.npz"
        if not (dst / name).exists():
            os.link(src / name, dst / name)


def model(arm: str, run: Path, arms_dir: Path) -> Path:
    """The weights of ``arm`` (trained here if missing)."""
    if arm == "clone":
        return CLONE
    if arm.startswith("gen"):
        return run / f"{arm}.npz"
    arm_dir = arms_dir / arm
    out = arm_dir / "model.npz"
    if not out.exists():
        _link_shards(run, arm_dir)
        resume = ["--resume"] if (arm_dir / "config.json").exists() else []
        done = _python("train", *BASE, *ARMS[arm], "--run-dir", str(arm_dir), *resume)
        if done.returncode:
            raise SystemExit(f"{arm}: cribbage train failed: {done.stderr.strip()[-400:]}")
    return out


def bench(path: Path, opponent: str, args) -> dict:
    done = _python("bench", f"neural:path={path}", opponent, "--games", str(args.games),
                   "--seed", str(args.seed), "--agent-seed", "0", "--workers", "1",
                   "--db", str(args.db), "--json", "--no-progress")  # fmt: skip
    if done.returncode:
        raise SystemExit(f"bench {path}: {done.stderr.strip()[-400:]}")
    pairing = json.loads(done.stdout)["pairings"][0]
    lucky = pairing.get("luck_adjusted") or {}
    return {"win_rate": pairing["win_rate"], "win_rate_ci": pairing["win_rate_ci"],
            "mean_margin": pairing["mean_margin"], "luck_adjusted_win": lucky.get("win"),
            "luck_adjusted_win_ci": lucky.get("win_ci"), "games": pairing["games"]}  # fmt: skip


def offline(run: Path, shards: int) -> None:
    """The held-out table: one DMC fit per (returns, oracle weight) on the first ``shards`` shards
    of ``run``, each choice's gain over the analyzer's scored by the held-out rollouts."""
    sys.path.insert(0, str(ROOT))
    from agents.learn.dmc import DMCConfig, dmc_fit
    from agents.learn.fit import FitConfig, evaluate, split
    from agents.learn.generate import load_shards
    from agents.nets.mlp import load_nets

    data = load_shards(sorted((run / "data" / "gen0").glob("shard_*.npz"))[:shards])
    d0, p0, _ = load_nets(CLONE)
    for returns in ("points", "equity"):
        for weight in (0.0, 0.5, 1.0):
            cfg = DMCConfig(seed=12, epochs_dmc=4, returns=returns, oracle=weight)
            cells = []
            for kind, init in (("discard", d0), ("play", p0)):
                net, rep = dmc_fit(cfg, data, kind, init, lambda m: None)
                hold, _ = split(len(data[f"{kind}_x"]), FitConfig(seed=12))
                for key in "ge":
                    r = evaluate(net, data[f"{kind}_x"][hold], data[f"{kind}_{key}"][hold],
                                 data[f"{kind}_n"][hold], data[f"{kind}_t"][hold].astype(int),
                                 rep["margin"])  # fmt: skip
                    cells.append(f"{r['gain']:+.3f} ({r['gain_se']:.3f})")
            print(f"| {returns} | {weight:g} | " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, required=True, help="the win-aware run folder")
    parser.add_argument("--arms-dir", type=Path, default=Path("runs/ablation"),
                        help="where the arms train")  # fmt: skip
    parser.add_argument("--arms", nargs="+", default=["equity_oracle", "points", "equity",
                        "points_oracle", "xclone", "clone", "gen2", "gen3"])  # fmt: skip
    parser.add_argument("--opponent", default="expert")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--db", type=Path, default=Path("runs/ablation.sqlite"))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--offline", type=int, default=0, metavar="SHARDS",
                        help="print the held-out table on the first SHARDS shards, no games")  # fmt: skip
    args = parser.parse_args(argv)
    if args.offline:
        offline(args.run, args.offline)
        return 0
    rows = {}
    for arm in args.arms:
        path = model(arm, args.run, args.arms_dir)
        if not path.exists():
            print(f"{arm}: {path} not there yet, skipped", flush=True)
            continue
        rows[arm] = bench(path, args.opponent, args)
        r = rows[arm]
        print(f"{arm}: {r['win_rate']:.2%} {r['win_rate_ci']} luck-adjusted "
              f"{r['luck_adjusted_win']} {r['luck_adjusted_win_ci']} margin {r['mean_margin']:+.2f} "
              f"over {r['games']} games vs {args.opponent}", flush=True)  # fmt: skip
        per_arm = args.arms_dir / f"bench_{arm}_{args.opponent}.json"
        per_arm.write_text(json.dumps(r, indent=1) + "\n")
    if args.out:
        args.out.write_text(json.dumps({"args": sys.argv[1:], "arms": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
