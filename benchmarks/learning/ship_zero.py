"""Make ``agents/data/zero.npz`` (the ``zero`` agent) from a from-zero run's policy, and its
``zero.md`` beside it: the run's command, steps, training time and data size.

    python benchmarks/learning/ship_zero.py RUN_DIR --step N

The policy is read and written with numpy alone (its ``meta.*`` strings say how it was made).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from agents.players.policy_net import PREFIX, NumpyPolicy, save_policy

DATA = Path(__file__).resolve().parents[2] / "agents" / "data"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("--step", type=int, required=True, help="the saved policy (policies/step_N)")
    args = p.parse_args(argv)
    policy = NumpyPolicy(args.run_dir / "policies" / f"step_{args.step}.npz")
    saved = json.loads((args.run_dir / "config.json").read_text())
    progress = {}
    for line in (args.run_dir / "progress.jsonl").read_text().splitlines():
        row = json.loads(line)
        progress[row["steps"]] = row
    row = progress[args.step]
    # The run folder as a relative name: a data file carries no machine paths.
    here = str(args.run_dir.resolve())
    relative = f"runs/{args.run_dir.name}"
    saved["command"] = saved["command"].replace(here, relative)
    policy.meta = {k: v.replace(here, relative) for k, v in policy.meta.items()}
    meta = {**policy.meta, "method": saved["method"], "steps": str(args.step),
            "train_wall_seconds": f"{row['wall_s']:.0f}", "train_cpu_seconds": f"{row['cpu_s']:.0f}",
            "shipped_by": "python benchmarks/learning/ship_zero.py "
            + shlex.join([args.run_dir.name, "--step", str(args.step)])}  # fmt: skip
    out = DATA / "zero.npz"
    save_policy(out, policy.net.layers, meta)
    floats = sum(w.size + b.size for w, b in policy.net.layers)
    sizes = " -> ".join(str(w.shape[0]) for w, _ in policy.net.layers) + " -> 52"
    md = f"""# zero.npz: the `zero` agent's policy (trained from zero)

- Trained by: `{saved["command"]}` (the run folder named relatively)
- Method: {saved["method"]} (random initial weights; the env's observation only; no teacher, no
  warm start, no analyzer features; opponents: the batched env's built-in
  {", ".join(f"{n}@{w:g}" for n, w in saved["config"]["opponents"])})
- Policy of step {args.step:,}: {args.step:,} learner steps (its training data), {row["cpu_s"]:.0f} CPU
  seconds of training on one thread ({row["wall_s"]:.0f} s of wall-clock on a shared machine)
- Net: {sizes} (ReLU), {floats:,} float32 values, {out.stat().st_size / 1e6:.2f} MB on disk
- Made by: `{meta["shipped_by"]}`; arrays `{PREFIX}.w0, {PREFIX}.b0, ...` and `meta.*` strings
"""
    (DATA / "zero.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
