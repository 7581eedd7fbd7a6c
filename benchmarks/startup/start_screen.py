"""Launch to a usable start screen, and New game to the table, as a person sees them: measured
from outside the process by polling the X screen (target: the start screen <= 2 s after launch,
the table <= 1 s after New game, also on a fresh clone).

Each run starts ``python -m ui play`` on an X server (an ``Xvfb`` started here, 1280x800x24;
Mesa llvmpipe draws) with a new data folder and an empty numba cache (so the table's kernels
compile in the background during the whole run). The screen is grabbed every ``--poll``
seconds. The start screen counts as shown at the first grab equal to the start screen as it
stands once settled (its buttons are drawn by the event loop, so they answer); then a click on
New game is sent (XTest) and the table counts as shown at the first grab with the table's felt
on the right side panel's place, after which the screen stays unchanged for ``--settle`` s.

``cold``: a fresh copy of the tree (``git archive`` of HEAD: no bytecode, as a fresh clone);
``warm``: the same copy launched again (its bytecode written by the cold run). Each round runs
cold then warm, so both see the same load; the 1-minute load average is noted beside each run.

    nice -n 10 python benchmarks/startup/start_screen.py --rounds 3 --out FILE.json
    python benchmarks/startup/start_screen.py --rev main HEAD --rounds 3   # two trees in turns

Times are seconds from just before the child is started (start screen) and from the click
(table).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xscreen import virtual_screen

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1280, 800)


class XTest:
    """Clicks sent to the X server as a person's (libXtst through ctypes: no extra package)."""

    def __init__(self, display: str) -> None:
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.dpy = ctypes.c_void_p(self.x11.XOpenDisplay(display.encode()))
        if not self.dpy:
            raise RuntimeError(f"cannot open display {display}")

    def click(self, x: int, y: int) -> None:
        self.xtst.XTestFakeMotionEvent(self.dpy, 0, x, y, 0)
        self.x11.XFlush(self.dpy)
        time.sleep(0.05)
        self.xtst.XTestFakeButtonEvent(self.dpy, 1, True, 0)
        self.xtst.XTestFakeButtonEvent(self.dpy, 1, False, 0)
        self.x11.XFlush(self.dpy)


def grab(display: str):
    from PIL import ImageGrab

    return ImageGrab.grab(xdisplay=display).convert("RGB").resize((320, 200))


def differs(a, b, tol: float = 2.0) -> bool:
    """Whether two grabs differ by more than ``tol`` mean grey levels."""
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3 > tol


def new_game_button() -> tuple[int, int]:
    """The centre of the start screen's New game button on the screen (y down)."""
    sys.path.insert(0, str(ROOT))
    from ui.scenes.screens.start_scene import StartOptions, start_scene

    b = start_scene(StartOptions()).button("play")
    assert b is not None
    return int(b.rect.cx), int(SIZE[1] - b.rect.cy)


def settled(display: str, since, seconds: float, poll: float):
    """Wait until the screen stays the same for ``seconds``; the last grab."""
    last, still = since, time.time()
    while time.time() - still < seconds:
        time.sleep(poll)
        now = grab(display)
        if differs(now, last):
            last, still = now, time.time()
    return last


def one_run(
    display: str, src: Path, args: argparse.Namespace, xt: XTest, run_name: str = ""
) -> dict:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(src))
        env["NUMBA_CACHE_DIR"] = str(Path(tmp, "numba"))
        env.pop("ARCADE_HEADLESS", None)
        cmd = [sys.executable, "-m", "ui", "play", "--data-dir", str(Path(tmp, "data"))]
        black = grab(display)
        t0 = time.time()
        child = subprocess.Popen(cmd, env=env, cwd=tmp, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        grabs = []
        try:
            while time.time() - t0 < args.timeout:
                grabs.append((time.time() - t0, grab(display)))
                if len(grabs) > 3 and not any(differs(g, grabs[-1][1]) for _, g in grabs[-4:]):
                    if differs(grabs[-1][1], black) and time.time() - t0 > 1.0:
                        break
                time.sleep(args.poll)
            start = settled(display, grabs[-1][1], args.settle, args.poll)
            first_frame = next((t for t, g in grabs if differs(g, black)), None)
            shown = next((t for t, g in grabs if not differs(g, start)), None)
            xt.click(*new_game_button())
            t1 = time.time()
            table = None
            while time.time() - t1 < args.timeout:
                now = grab(display)
                if differs(now, start, tol=6.0):
                    table = time.time() - t1
                    if args.shots:
                        start.save(Path(args.shots, f"start_{run_name}.png"))
                        now.save(Path(args.shots, f"table_{run_name}.png"))
                    break
                time.sleep(args.poll / 2)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)
            child.wait()
    return {
        "first_frame_s": None if first_frame is None else round(first_frame, 2),
        "start_screen_s": None if shown is None else round(shown, 2),
        "new_game_to_table_s": None if table is None else round(table, 2),
    }


def fresh_copy(rev: str, into: Path) -> Path:
    """The tree of ``rev`` as a fresh clone has it (no bytecode)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def summarize(runs: list[dict], revs: list[str]) -> dict:
    """Medians and maxima per tree and kind (cold, warm), with the loads they ran at."""
    summary: dict = {"cpus": os.cpu_count(), "revs": {}}
    for rev in revs:
        short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                               capture_output=True, text=True).stdout.strip()  # fmt: skip
        summary["revs"][rev] = short
        for kind in ("cold", "warm"):
            mine = [r for r in runs if r["kind"] == kind and r["rev"] == rev]
            for key in ("first_frame_s", "start_screen_s", "new_game_to_table_s"):
                values = [r[key] for r in mine if r[key] is not None]
                summary[f"{rev} {kind} median {key}"] = (
                    statistics.median(values) if values else None
                )
                summary[f"{rev} {kind} max {key}"] = max(values) if values else None
            summary[f"{rev} {kind} loads"] = [r["load"] for r in mine]
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rev", nargs="+", default=["HEAD"],
                    help="the commits whose trees are launched, in turns each round")  # fmt: skip
    ap.add_argument("--poll", type=float, default=0.05)
    ap.add_argument("--settle", type=float, default=1.5)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--out", help="write the figures as JSON")
    ap.add_argument("--shots", help="a folder for each run's start screen and first table grab")
    args = ap.parse_args(argv)
    runs = []
    with virtual_screen(80, SIZE) as display:
        xt = XTest(display)
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
            for r in range(args.rounds):
                for rev in args.rev:
                    src = fresh_copy(rev, Path(tmp, f"src{r}-{rev}"))
                    for kind in ("cold", "warm"):
                        load = os.getloadavg()[0]
                        run = one_run(display, src, args, xt, f"{kind}{r}")
                        run.update(rev=rev, kind=kind, round=r, load=round(load, 2))
                        runs.append(run)
                        print(json.dumps(run), flush=True)
    summary = summarize(runs, args.rev)
    summary["command"] = "python benchmarks/startup/start_screen.py " + " ".join(
        argv or sys.argv[1:]
    )
    summary["runs"] = runs
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
