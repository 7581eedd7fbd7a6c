"""Learning curves of from-zero runs, with the training steps, wall-clock and CPU seconds of each
point: the evaluations the runs made while training (``curve.json``: every saved policy against
the kernel's opponents, ``quick_games`` games, the batched evaluation of the code that ran) as
``training_points``, and every ``--every``-th saved policy (0: the last only) against the
kernel's ``random``, ``greedy`` and ``expectimax`` on ``--games`` duplicate games as ``points``.

    python benchmarks/learning/curves.py RUN_DIR... --games 2000 \\
        --out benchmarks/results/zero_curves.json

Resumable: points already in ``--out`` (same run, step and games) are kept, not played again.
Run names are the folders' names; nothing of the machine's paths is written.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from agents.learn.zero.evaluate import quick_eval
from agents.learn.zero.net import NumpyNet
from agents.store.atomic import atomic_write_text

ROOT = Path(__file__).resolve().parents[2]
OPPONENTS = ["random", "greedy", "expectimax"]


def _progress(run: Path) -> dict[int, dict]:
    path = run / "progress.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x] if path.exists() else []
    return {r["steps"]: r for r in rows}


def _policies(run: Path, every: int) -> list[tuple[int, Path]]:
    found = sorted((int(p.stem.split("_")[1]), p) for p in (run / "policies").glob("step_*.npz"))
    keep = found[::every] if every > 0 else []
    if found and found[-1] not in keep:
        keep.append(found[-1])
    return keep


def _training_points(run: Path, progress: dict[int, dict]) -> list[dict]:
    curve = json.loads((run / "curve.json").read_text()) if (run / "curve.json").exists() else []
    out = []
    for pt in curve:
        row = progress.get(pt["steps"])
        if row is not None and pt.get("quick"):
            games = next(iter(pt["quick"].values()))["games"]
            out.append({"steps": pt["steps"], "wall_s": row["wall_s"], "cpu_s": row.get("cpu_s"),
                        "games": games, "results": pt["quick"]})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--games", type=int, default=2000, help="games per opponent (even)")
    p.add_argument("--every", type=int, default=0, help="every K-th saved policy and the last "
                   "(0: the last only)")  # fmt: skip
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    data = json.loads(args.out.read_text()) if args.out.exists() else {"runs": {}}
    out = args.out.resolve()
    named = out.relative_to(ROOT).as_posix() if out.is_relative_to(ROOT) else out.name
    rest = [named if a == str(args.out) else a for a in sys.argv[1 + len(args.runs) :]]
    data["command"] = "python benchmarks/learning/curves.py " + shlex.join(
        [*(r.name for r in args.runs), *rest]
    )  # the runs and the output named without the machine's paths
    data["evaluation"] = ("batched env, kernel opponents (deciding as the agents of the same name), "
                          "the policy's most likely legal card, Wilson 95% intervals; points: "
                          "duplicate deals (each deal from both seats); training_points: the "
                          "runs' own evaluations while training (1,024 games, seats alternating "
                          "by game)")  # fmt: skip
    for run in args.runs:
        saved = json.loads((run / "config.json").read_text())
        entry = data["runs"].setdefault(run.name, {"points": []})
        command = saved["command"].replace(str(run.resolve()), run.name)  # no machine's path
        entry.update(method=saved["method"], config=saved["config"], command=command)
        done = {(pt["steps"], pt["games"]) for pt in entry["points"]}
        progress = _progress(run)
        entry["training_points"] = _training_points(run, progress)
        for steps, path in _policies(run, args.every):
            if (steps, args.games) in done or steps not in progress:
                continue
            row = progress[steps]
            results = quick_eval(NumpyNet.of_policy(path), OPPONENTS, args.games,
                                 saved["config"]["rules"])  # fmt: skip
            entry["points"].append({"steps": steps, "wall_s": row["wall_s"],
                                    "cpu_s": row.get("cpu_s"), "games": args.games,
                                    "results": results})  # fmt: skip
            entry["points"].sort(key=lambda pt: (pt["steps"], pt["games"]))
            atomic_write_text(args.out, json.dumps(data, indent=1) + "\n")
            text = " ".join(f"{k} {v['win_rate']:.3f}" for k, v in results.items())
            print(f"{run.name} step {steps:,}: {text}", flush=True)
    atomic_write_text(args.out, json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
