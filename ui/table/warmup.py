"""Compile the table's kernels before they are needed: the expert's first move and the first
review would otherwise wait for numba (about 25 s on a fresh install of a quiet 2-core machine,
minutes on a busy one).

The window starts this when it opens (the start screen), so the compiling overlaps the choice of
options, the cut and the first discard. On an empty cache the compiling runs in a child process
(``cribbage warmup --what table``): it shares no interpreter lock with the window, which keeps
drawing, and with the decisions made meanwhile, which run the kernels interpreted
(:mod:`cribbage_env.kernels.interpreted`: the same source and the same results, without waiting for the
compiler). Then this process loads the kernels from the cache, the agents' simulator first (the
computer's first move), then the luck kernels the game's review reads.
``benchmarks/startup/first_wait.py`` measures what is left to wait on an empty cache."""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path

_lock = threading.Lock()
_started = False


def warm_up() -> None:
    """What the window runs in the background: compile in a child process unless every kernel
    is in the cache, then load them here (:func:`warm_table`). Meanwhile other threads run the
    kernels not loaded yet interpreted; a game's review waits for the end of this."""
    from cribbage_env.kernels.interpreted import warming

    with warming():
        if not _cached():
            compile_in_child()
        warm_table()  # loads what the child compiled (compiles it if the child could not)


def _cached() -> bool:
    """Whether every kernel of the table has a valid entry in the cache (or is loaded)."""
    from agents.search.opponent_model import split_nets  # noqa: F401 (imports what it calls)
    from cribbage_env.kernels import fastsim, luckkernel, simkernel
    from cribbage_env.kernels.kernelcache import compiled

    return compiled(
        [
            fastsim.search_all,
            fastsim.play_out_all,
            fastsim.heels_all,
            simkernel.split_hand_totals,
            luckkernel.deal_values,
            luckkernel.starter_values,
        ]
    )


def compile_in_child(cmd: list[str] | None = None) -> int:
    """Run ``cribbage warmup --what table`` in a child process with this process's package on
    its path; its exit code (anything but 0: this process compiles what is missing itself).
    The child never outlives this process: when it exits (the window closed), the child is
    stopped (numba writes each cache file to a temporary name first, so nothing is half-written)."""
    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    cmd = cmd or [sys.executable, "-m", "ui", "warmup", "--what", "table"]
    try:
        child = subprocess.Popen(
            cmd,
            env=dict(os.environ, PYTHONPATH=path),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return -1
    atexit.register(_stop, child)
    try:
        return child.wait()
    finally:
        atexit.unregister(_stop)


def _stop(child: subprocess.Popen) -> None:
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()


def warm_table() -> None:
    """Compile (or load from the cache) the kernels the table's agents and review use."""
    from cribbage_env.kernels import fastsim
    from cribbage_env.kernels.interpreted import warming
    from cribbage_env.kernels.kernelcache import announce

    kernels = [fastsim.play_out_all, fastsim.search_all]
    with warming():
        with announce(kernels, "the table's simulator"):
            warm_first_move()
            fastsim.warm_up()  # the rest (recorded play-outs): loaded or compiled once
        warm_luck()


def warm_first_move() -> None:
    """What the computer's first moves run: the Expert plays with the search on guesses from the
    opponent model (its split values), and discards near the end with play-outs that keep no
    record after his heels; these come first (until they are compiled, interpreted)."""
    import numpy as np

    from agents.search.opponent_model import split_nets
    from cribbage_env.kernels import fastsim
    from cribbage_env.rules.cards import parse_cards
    from cribbage_env.rules.engine import GameState

    g = GameState.from_position(
        [parse_cards("5H 5D 5C JS"), parse_cards("2C 3C 4C 6C")],
        parse_cards("KH KD QS QC"),
        parse_cards("5S")[0],
    )
    st = fastsim.state_from_game(g)[None, :]
    fastsim.search_outcomes(st, [int(g.hands[1][0])])
    split_nets(np.array([parse_cards("5H 5D 5C JS 2C 3C")]), dealer=True)
    fastsim.cut_heels(st.copy())
    fastsim.play_out(st, "heuristic")


def warm_luck() -> None:
    """The luck kernels (:mod:`cribbage_env.kernels.luckkernel`), on one deal of a game: the review of
    a finished game measures its luck with them."""
    import cribbage_env as ce
    from cribbage_env.analysis.luck import game_luck
    from cribbage_env.kernels import luckkernel
    from cribbage_env.kernels.kernelcache import announce

    g = ce.new_game(0, interactive_cuts=False)
    while g.phase is not ce.Phase.PLAY:
        g.apply(g.legal_actions()[0])
    with announce([luckkernel.deal_values, luckkernel.starter_values], "the luck kernels"):
        game_luck(g, samples=1)


def warm_in_background() -> threading.Thread | None:
    """Start :func:`warm_up` in a daemon thread, once per process (None if already started)."""
    global _started
    with _lock:
        if _started:
            return None
        _started = True
    t = threading.Thread(target=warm_up, name="cribbage-warmup", daemon=True)
    t.start()
    return t
