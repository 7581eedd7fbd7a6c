"""Frame time of the Arcade table at 1280x800 on this machine's renderer (median
<= 8 ms during play), and how long the computer takes to reply at each level.

Runs headless (ARCADE_HEADLESS=1, Mesa llvmpipe through EGL). A frame is timed from the start of
``on_draw`` to the end of ``glFinish``, so the software rasteriser's work is included. The
per-screen figures are full redraws; "scene rebuilt every frame" also rebuilds the scene and its
sprites (what a decision costs). The "played session" runs the window's event-loop ``draw`` for
simulated minutes of play: the window redraws only frames where something changed.

    python benchmarks/startup/gui_frame.py --frames 300 --out benchmarks/results/gui_frame.json

"animation: ..." are full redraws while cards fly, pegs walk and points pop up.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ["ARCADE_HEADLESS"] = "1"
#: ``--tree DIR`` measures the code in DIR (e.g. an export of an older commit, see
#: benchmarks/startup/gui_frame_compare.py) with this same script.
_TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else None
sys.path.insert(0, _TREE or str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from cribbage_env.rules.core import Phase  # noqa: E402
from ui.table.controller import Mode, TableController  # noqa: E402


def drive(ctl: TableController, rng: np.random.Generator, until) -> None:
    for _ in range(2000):
        if until(ctl):
            return
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
            continue
        if ctl.needs_reveal:
            ctl.reveal()
            continue
        legal = ctl.game.legal_actions()
        ctl.decide(legal[int(rng.integers(len(legal)))])
    raise RuntimeError("state not reached")


def time_frames(window, n: int, *, change=None) -> list[float]:
    """Wall time of ``n`` full redraws; their CPU time (all threads of this process, so the
    software rasteriser's too) is kept in ``time_frames.cpu``: on a loaded machine it is the
    steadier figure, as it leaves out the time spent waiting for a core."""
    ctx = window.ctx
    out, cpu, py = [], [], []
    for _ in range(n):
        if change is not None:
            change()
        t, c, p = time.perf_counter(), time.process_time(), time.thread_time()
        window.on_draw()
        py.append((time.thread_time() - p) * 1000)
        ctx.finish()
        out.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        window.flip()
    time_frames.cpu = cpu
    time_frames.python = py  # the main thread's CPU in on_draw: Python and GL calls, no raster
    return out


def frames_summary(window, n: int, *, change=None) -> dict:
    d = summary(time_frames(window, n, change=change))
    d["cpu_median_ms"] = round(statistics.median(time_frames.cpu), 3)
    d["python_median_ms"] = round(statistics.median(time_frames.python), 3)
    return d


def animation_frames(window, seed: int, frames: int) -> dict:
    """Full redraws while something moves (median <= 8 ms at 1280x800): the
    frames of a transition, replayed over and over at evenly spaced times."""
    from ui.gui.table_view import TableView

    out = {}
    rng = np.random.default_rng(seed)
    ctl = TableController(seed + 2, mode=Mode.COMPUTER)
    window.start_table(ctl)
    view = window.current_view
    assert isinstance(view, TableView)
    window.current_scene()

    def until(name: str, ready) -> None:
        for _ in range(3000):
            ctl.show.skip()
            if ctl.computer.to_act:
                ctl.computer.step()
            elif ctl.needs_reveal:
                ctl.reveal()
            else:
                legal = ctl.game.legal_actions()
                ctl.decide(legal[int(rng.integers(len(legal)))])
            window.current_scene()
            if view.transition is not None and ready():
                break
        else:
            raise RuntimeError(f"no {name} transition")
        total = view.transition.total

        def change() -> None:
            change.i += 1
            view.motion_t = total * (change.i % 24) / 24

        change.i = 0
        out[f"animation: {name}"] = frames_summary(window, frames, change=change)

    until("deal (12 cards fly and turn)", lambda: ctl.phase is Phase.DISCARD
          and not ctl.game.discards[0] and not ctl.game.discards[1])  # fmt: skip
    until("card to the pile, peg walk, pop-up", lambda: ctl.phase is Phase.PLAY
          and bool(view.transition.walks) and bool(view.transition.popups))  # fmt: skip
    return out


def summary(ms: list[float]) -> dict:
    s = sorted(ms)
    return {
        "median_ms": round(statistics.median(s), 3),
        "p95_ms": round(s[int(0.95 * (len(s) - 1))], 3),
        "max_ms": round(s[-1], 3),
        "frames": len(s),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument(
        "--out",
        type=Path,
        default=Path(tempfile.gettempdir()) / "gui_frame.json",
        help="where to write the figures (default: the temp dir; the tracked file is "
        "benchmarks/results/gui_frame.json)",
    )
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--tree", default=None, help="measure the code in this folder instead")
    ap.add_argument(
        "--session-seconds",
        type=float,
        default=60.0,
        help="simulated seconds of play for the event-loop measurement",
    )
    args = ap.parse_args(argv)

    from ui.gui.app import GameWindow, Settings

    window = GameWindow(settings=Settings(threaded=False, motion=True), size=(1280, 800))
    results: dict = {
        "window": [window.width, window.height],
        "renderer": window.ctx.info.RENDERER,
        "python": platform.python_version(),
    }
    rng = np.random.default_rng(args.seed)
    time_frames(window, 20)  # warm up fonts and textures
    results["start screen"] = frames_summary(window, args.frames)

    ctl = TableController(args.seed, mode=Mode.COMPUTER)
    window.start_table(ctl)
    results["cut spread (52 cards)"] = frames_summary(window, args.frames)
    drive(ctl, rng, lambda c: c.phase is Phase.DISCARD and c.human_to_act)
    hand = ctl.hand_cards(0)
    ctl.selection.toggle(hand[0])
    ctl.selection.toggle(hand[1])
    ctl.coach.request_hint()
    time_frames(window, 10)
    results["discard, selection + hint"] = frames_summary(window, args.frames)
    drive(ctl, rng, lambda c: c.phase is Phase.PLAY and c.human_to_act and len(c.game.seq) >= 2)
    ctl.selection.toggle(ctl.game.legal_actions()[0])
    time_frames(window, 10)
    results["play (pile, count, dimmed cards)"] = frames_summary(window, args.frames)

    flip = [0]

    def change() -> None:  # a new scene every frame: what a decision costs on screen
        flip[0] ^= 1
        ctl.selection.move_focus(1 if flip[0] else -1)

    results["play, scene rebuilt every frame"] = frames_summary(
        window, args.frames // 2, change=change
    )
    drive(ctl, rng, lambda c: c.show.running)
    results["show overlay"] = frames_summary(window, args.frames)
    results.update(animation_frames(window, args.seed, args.frames))

    # A played session as the event loop runs it: 60 frames a second, the computer moving after
    # its delay, the show counted at its pace, a person selecting/confirming once a second.
    # Frames where nothing changed are skipped (no draw, no buffer swap).
    from ui.gui.app import Settings as _S

    window.settings = _S(computer_delay=0.6, show_delay=1.0, threaded=False)
    draws = [0]
    plain_draw = window.on_draw

    def counted_draw() -> None:
        draws[0] += 1
        plain_draw()

    window.on_draw = counted_draw
    session = TableController(args.seed + 1, mode=Mode.COMPUTER)
    window.start_table(session)
    srng = np.random.default_rng(args.seed)
    frame_ms, redraw_ms, redrawn, clock, next_human = [], [], 0, 0.0, 1.0
    dt = 1 / 60
    while clock < args.session_seconds and not session.game.is_over:
        clock += dt
        if clock >= next_human:
            next_human = clock + 1.0
            if getattr(session, "show_at_end", False):  # the deal summary waits: Continue
                session.show.advance()
            elif session.human_to_act:
                if session.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
                    session.selection.cut_at(int(srng.integers(4, 36)))
                elif not session.selection.can_confirm:
                    legal = [c for c in session.hand_cards(0) if session.selection.selectable(c)]
                    session.selection.toggle(legal[int(srng.integers(len(legal)))])
                else:
                    session.confirm()
        t = time.perf_counter()
        window.dispatch_events()
        window.on_update(dt)
        before = draws[0]
        window.draw(dt)
        window.ctx.finish()
        frame_ms.append((time.perf_counter() - t) * 1000)
        if draws[0] != before:
            redrawn += 1
            redraw_ms.append(frame_ms[-1])
    results["played session (event loop frames)"] = {
        **summary(frame_ms),
        "redrawn_frames": redrawn,
        "simulated_seconds": round(clock, 1),
        "decisions": len(session.decisions),
    }
    results["played session, redrawn frames only"] = summary(redraw_ms)

    # The computer's reply at each level that exists (<= 100 ms at hard).
    from agents import LEVELS

    replies = {}
    for level in ("easy", "medium", "hard"):
        spec = LEVELS[level].spec if level in LEVELS else None
        if spec is None:
            replies[level] = "level not defined yet"
            continue
        c = TableController(args.seed, mode=Mode.WATCH, agents=(spec, spec))
        times = []
        while not c.game.is_over and len(times) < 200:
            t = time.perf_counter()
            action = c.computer.action()
            times.append((time.perf_counter() - t) * 1000)
            c.computer.apply(action)
            c.show.skip()
        replies[level] = {"spec": spec, **summary(times)}
    results["computer reply"] = replies
    window.close()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    print(f"renderer: {results['renderer']}, window {results['window'][0]}x{results['window'][1]}")
    for key, val in results.items():
        if isinstance(val, dict) and "median_ms" in val:
            extra = (
                f"  ({val['redrawn_frames']} of {val['frames']} frames redrawn)"
                if "redrawn_frames" in val
                else ""
            )
            cpu = f"  cpu {val['cpu_median_ms']:6.2f} ms" if "cpu_median_ms" in val else ""
            print(
                f"  {key:46s} median {val['median_ms']:6.2f} ms  p95 {val['p95_ms']:6.2f} ms"
                + cpu
                + extra
            )
    for level, val in replies.items():
        print(
            f"  computer reply {level:8s} "
            + (
                f"median {val['median_ms']:.2f} ms  p95 {val['p95_ms']:.2f} ms ({val['spec']})"
                if isinstance(val, dict)
                else val
            )
        )
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
