"""The table's frame time, this code against an older commit, in one run.

Exports ``--old`` (a git revision) into a temp folder and runs ``benchmarks/startup/gui_frame.py`` (this
tree's script) on the old code and on this code in turns, ``--rounds`` times each, so both
see the same machine load. Prints, per screen, the medians over the rounds of the full-redraw
wall time, the process CPU time (the software rasteriser's threads included) and the main
thread's CPU in ``on_draw`` (Python and GL calls, no rasterising).

    nice -n 10 python benchmarks/startup/gui_frame_compare.py --old main --rounds 3 --frames 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENS = (
    "start screen",
    "discard, selection + hint",
    "play (pile, count, dimmed cards)",
    "show overlay",
    "animation: card to the pile, peg walk, pop-up",
)
FIELDS = ("median_ms", "cpu_median_ms", "python_median_ms")


def export(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (git archive), unpacked under ``into``."""
    tar = into / "old.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(tar), rev], check=True)
    with tarfile.open(tar) as t:
        t.extractall(into / "old", filter="data")
    return into / "old"


def run(tree: Path, frames: int, out: Path) -> dict:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "startup" / "gui_frame.py"), "--frames", str(frames),
           "--session-seconds", "5", "--out", str(out), "--tree", str(tree)]  # fmt: skip
    subprocess.run(cmd, check=True, cwd=tree, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="git revision to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = export(args.old, Path(tmp))
        runs: dict[str, list[dict]] = {"old": [], "new": []}
        loads = [os.getloadavg()[0]]  # the machine is shared: the load beside the figures
        for k in range(args.rounds):
            for name, tree in (("old", old_tree), ("new", ROOT)):
                runs[name].append(run(tree, args.frames, Path(tmp) / f"{name}{k}.json"))
                loads.append(os.getloadavg()[0])
    table = {
        name: {
            s: {f: round(statistics.median(r[s][f] for r in rs), 2) for f in FIELDS}
            for s in SCREENS
            if all(s in r and all(f in r[s] for f in FIELDS) for r in rs)
        }
        for name, rs in runs.items()
    }
    res = {"old": args.old, "rounds": args.rounds, "frames": args.frames, "medians": table,
           "load_1min": [round(x, 1) for x in loads]}  # fmt: skip
    print(json.dumps(res, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
