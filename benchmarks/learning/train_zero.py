"""Start or resume one from-zero training run (the runs behind the Baselines curves).

    python benchmarks/learning/train_zero.py RUN_DIR --algo ppo --seed 0 --timesteps 60000000

The run folder gets the ``config.json`` that ``cribbage train`` writes (method ``ppo-zero`` or
``dmc-zero``), so ``cribbage train --method ppo-zero --resume --run-dir RUN_DIR`` continues it
too; running this again on the same folder resumes it from its last checkpoint.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import asdict, fields
from pathlib import Path

from agents.learn.zero.config import PROVENANCE, ZeroConfig
from agents.learn.zero.train import train_zero


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("--algo", choices=("ppo", "dmc"), default="ppo")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timesteps", type=int, default=ZeroConfig.timesteps)
    p.add_argument("--hidden", type=int, nargs="+", default=list(ZeroConfig.hidden))
    args = p.parse_args(argv)
    cfg_path = args.run_dir / "config.json"
    if cfg_path.exists():
        saved = json.loads(cfg_path.read_text())
        data = saved["config"]
        kinds = {f.name: f for f in fields(ZeroConfig)}
        for key in ("opponents", "hidden", "ladder"):
            data[key] = tuple(tuple(x) if isinstance(x, list) else x for x in data[key])
        cfg = ZeroConfig(**{k: v for k, v in data.items() if k in kinds})
        command = saved["command"]
    else:
        cfg = ZeroConfig(algo=args.algo, seed=args.seed, timesteps=args.timesteps,
                         hidden=tuple(args.hidden))  # fmt: skip
        command = "python benchmarks/learning/train_zero.py " + shlex.join(sys.argv[1:])
        args.run_dir.mkdir(parents=True, exist_ok=True)
        text = {"method": f"{cfg.algo}-zero", "command": command, "config": asdict(cfg),
                "provenance": PROVENANCE}  # fmt: skip
        cfg_path.write_text(json.dumps(text, indent=1) + "\n")
    train_zero(cfg, args.run_dir, command=command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
