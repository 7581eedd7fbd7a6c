"""The README's test command timed as a newcomer meets it: a fresh clone (nothing compiled, no
bytecode, an empty kernel cache), ``python -m pytest`` with the project's settings, wall-clock and
CPU seconds (user + system of the whole run, its workers and children included).

    python benchmarks/checks/suite_time.py --python VENV/bin/python --out FILE [--rev REV ...]

VENV holds the README's install (``pip install -e ".[dev]"``; the training extra would add the
training tests). Each REV (default HEAD) is cloned into a temporary folder and timed in turn, so
two revisions are measured side by side on the same machine; the load average before and after
each run is written with it, since a figure taken beside other work is not a quiet machine's.
FILE must not exist (a tracked result is never rewritten). Exit 0 when every run passed, 1 when
a run failed, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from agents.store.atomic import atomic_write_text

ROOT = Path(__file__).resolve().parents[2]
COMMAND = ["-m", "pytest", "-p", "no:cacheprovider"]


def _cpu_children() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def time_revision(python: str, rev: str) -> dict:
    """Clone ``rev`` into a temporary folder and run the README's tests there once."""
    with tempfile.TemporaryDirectory(prefix="suite-time-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
        subprocess.run(["git", "-C", str(tree), "checkout", "-q", rev], check=True)
        commit = subprocess.run(
            ["git", "-C", str(tree), "log", "-1", "--format=%h %s"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        load_before = os.getloadavg()[0]
        cpu0, t0 = _cpu_children(), time.monotonic()
        run = subprocess.run([python, *COMMAND], cwd=tree, capture_output=True, text=True)
        wall, cpu = time.monotonic() - t0, _cpu_children() - cpu0
        last = (run.stdout.strip().splitlines() or [""])[-1].strip("= ")
        return {
            "rev": rev,
            "commit": commit[:100],
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "load_before": round(load_before, 2),
            "load_after": round(os.getloadavg()[0], 2),
            "exit": run.returncode,
            "pytest": last,
        }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", required=True, help="the interpreter of the README's install")
    p.add_argument("--out", required=True, type=Path, help="results file to write (must not exist)")
    p.add_argument("--rev", action="append", help="revision to time (repeatable; default HEAD)")
    args = p.parse_args(argv)
    if args.out.exists() or args.out.is_symlink():
        print(f"suite_time: {args.out} exists; results are never rewritten", file=sys.stderr)
        return 2
    if not os.access(args.python, os.X_OK):
        print(f"suite_time: {args.python} is not an interpreter one can run", file=sys.stderr)
        return 2
    try:
        runs = [time_revision(args.python, rev) for rev in args.rev or ["HEAD"]]
    except subprocess.CalledProcessError as exc:
        print(
            f"suite_time: {' '.join(exc.cmd)} failed (a revision git does not know?)",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print("suite_time: interrupted", file=sys.stderr)
        return 130
    result = {
        "what": "The README's test command from a fresh clone (first compiles included)",
        "command": "python benchmarks/checks/suite_time.py --python VENV/bin/python "
        + f"--out {args.out.name} "
        + " ".join(f"--rev {rev}" for rev in args.rev or ["HEAD"]),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "runs": runs,
    }
    atomic_write_text(args.out, json.dumps(result, indent=1) + "\n")  # a temp file, replaced
    for r in runs:
        print(
            f"{r['rev']}: {r['wall_s']} s wall, {r['cpu_s']} s CPU, load {r['load_before']}: {r['pytest']}"
        )
    return 0 if all(r["exit"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
