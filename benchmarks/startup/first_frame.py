"""Launch to first frame of ``cribbage play``: how long a person looks at no window, or at a
black one (target: the first drawn frame <= 2 s after launch on a quiet machine).

Each run starts ``python -m ui play`` in a fresh interpreter on an X server (an ``Xvfb`` started
here, 1280x800x24; Mesa llvmpipe draws) with a new data folder and, unless ``--cached``, an empty
numba cache. A small hook in the child (installed before anything is imported) notes when the
window is created, every ``flip`` (the frame reaching the screen) with the frame's mean brightness
(0 is black), and when ``numba`` and the expert agent are imported; ``--shot PNG`` saves the first
frame. The child exits ``--after`` seconds after its first frame; its CPU time is the parent's
``wait4``.

    python benchmarks/startup/first_frame.py --runs 3 --shot /tmp/first.png --out /tmp/ff.json

Times are seconds from just before the child is started.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from xscreen import virtual_screen

ROOT = Path(__file__).resolve().parents[2]

#: runs in the child before ``ui`` is imported: wraps arcade.Window's __init__ and flip once
#: arcade is imported, and notes when the heavy modules arrive.
HOOK = textwrap.dedent(
    """
    import importlib.abc, importlib.util, json, os, sys, threading, time
    T0 = float(os.environ["FF_T0"]); OUT = os.environ["FF_OUT"]; SHOT = os.environ.get("FF_SHOT")
    AFTER = float(os.environ["FF_AFTER"])
    log = {"events": [], "modules": {}}
    WATCH = ("numba", "agents.players.expert", "cribbage_env.kernels.fastsim", "arcade")

    def note(name, **kw):
        log["events"].append(dict(name=name, t=time.time() - T0, **kw))

    def dump():
        for m in WATCH:
            if m in sys.modules and m not in log["modules"]:
                log["modules"][m] = None
        with open(OUT, "w") as f:
            json.dump(log, f)

    def patch(arcade):
        W = arcade.Window
        resize, flip = W.on_resize, W.flip
        first = []
        def on_resize(self, *a):
            if not any(e["name"] == "window" for e in log["events"]):
                note("window")
            return resize(self, *a)
        def flip_(self):
            if len(first) < 3:
                img = arcade.get_image(0, 0, self.width, self.height)
                lum = sum(img.convert("L").getdata()) / (img.width * img.height)
                if not first and SHOT:
                    img.save(SHOT)
                note("flip", brightness=round(lum, 1), cpu=round(time.process_time(), 3))
                first.append(time.time())
                if len(first) == 1:
                    threading.Timer(AFTER, leave).start()
            flip(self)
        W.on_resize, W.flip = on_resize, flip_

    def leave():
        dump()
        os._exit(0)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name in WATCH and name not in log["modules"]:
                log["modules"][name] = time.time() - T0
            if name != "arcade":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            sys.meta_path.insert(0, self)
            load = spec.loader.exec_module
            def exec_module(module):
                load(module)
                patch(module)
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, Finder())
    import atexit; atexit.register(dump)
    sys.argv = ["cribbage", *sys.argv[1:]]
    from ui.cli.cli import main
    note("imported cli")
    sys.exit(main())
    """
)


def one_run(display: str, args: argparse.Namespace, shot: str | None, tree: Path) -> dict:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        out = Path(tmp, "log.json")
        env = dict(
            os.environ,
            DISPLAY=display,
            PYTHONPATH=str(tree),
            FF_OUT=str(out),
            FF_AFTER=str(args.after),
            FF_SHOT=shot or "",
        )
        env.pop("ARCADE_HEADLESS", None)
        if not args.cached:
            env["NUMBA_CACHE_DIR"] = str(Path(tmp, "numba"))
        cmd = [sys.executable, "-c", HOOK, "play", "--data-dir", str(Path(tmp, "data"))]
        cmd += args.play
        env["FF_T0"] = repr(time.time())
        child = subprocess.Popen(cmd, env=env, cwd=tmp, start_new_session=True)
        _, status, usage = os.wait4(child.pid, 0)
        with contextlib.suppress(ProcessLookupError):  # its background compile, if still running
            os.killpg(child.pid, signal.SIGTERM)
            time.sleep(0.5)
        log = json.loads(out.read_text()) if out.exists() else {"events": [], "modules": {}}
    log["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 3)
    log["exit"] = os.waitstatus_to_exitcode(status)
    flips = [e for e in log["events"] if e["name"] == "flip"]
    window = [e["t"] for e in log["events"] if e["name"] == "window"]
    log["window_s"] = round(window[0], 3) if window else None
    log["first_frame_s"] = round(flips[0]["t"], 3) if flips else None
    log["first_brightness"] = flips[0]["brightness"] if flips else None
    log["first_frame_cpu_s"] = flips[0]["cpu"] if flips else None
    return log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--after", type=float, default=1.0, help="seconds to run after the 1st frame")
    ap.add_argument("--cached", action="store_true", help="keep numba's own cache (default: empty)")
    ap.add_argument("--shot", help="save the first run's first frame as this PNG")
    ap.add_argument(
        "--old",
        type=Path,
        help="another tree (e.g. a `git archive` of main) run in turns with this",
    )
    ap.add_argument("--out", help="write the figures as JSON")
    ap.add_argument("play", nargs="*", help="more arguments of `cribbage play` (after --)")
    args = ap.parse_args(argv)
    trees = {"new": ROOT, **({"old": args.old.resolve()} if args.old else {})}
    runs = []
    with virtual_screen(90) as display:
        for i, (label, tree) in enumerate(
            (k, t) for _ in range(args.runs) for k, t in trees.items()
        ):
            load = os.getloadavg()[0]
            shot = args.shot.replace(".png", f"_{label}.png") if args.shot and i < 2 else None
            run = one_run(display, args, shot, tree)
            run["load"], run["tree"] = round(load, 2), label
            runs.append(run)
            print(
                f"{label} run {i}: window {run['window_s']} s, first frame {run['first_frame_s']} s "
                f"(brightness {run['first_brightness']}, CPU {run['first_frame_cpu_s']} s), CPU {run['cpu_s']} s, load {load:.2f}, "
                f"modules {run['modules']}"
            )
    summary: dict = {
        "command": "python benchmarks/startup/first_frame.py " + " ".join(argv or sys.argv[1:])
    }
    for label in trees:
        mine = [r for r in runs if r["tree"] == label]
        for key in ("window_s", "first_frame_s", "first_frame_cpu_s", "cpu_s"):
            values = [r[key] for r in mine if r[key] is not None]
            summary[f"{label} median {key}"] = statistics.median(values) if values else None
        print(label, {k: v for k, v in summary.items() if k.startswith(label)})
    summary["runs"] = runs
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
