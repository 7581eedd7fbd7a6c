"""Compile the table's kernels before they are needed: the expert's first move and the first
review would otherwise wait for numba (about 20 s on a fresh install of a small machine).

The window starts this when it opens (the start screen), so the compiling overlaps the choice of
options, the cut and the first discard; the agents' simulator comes first (the computer's first
move), then the luck kernels the game's review reads (the game-over summary, the Review screen).
``benchmarks/first_wait.py`` measures what is left to wait on an empty cache."""

from __future__ import annotations

import threading

_lock = threading.Lock()
_started = False


def warm_table() -> None:
    """Compile (or load from the cache) the kernels the table's agents and review use."""
    from cribbage_env import fastsim
    from cribbage_env.kernelcache import announce

    kernels = [fastsim._play_out_all, fastsim._search]
    with announce(kernels, "the table's simulator"):
        fastsim.warm_up()
    warm_luck()


def warm_luck() -> None:
    """The luck kernels (:mod:`cribbage_env.luckkernel`), on one deal of a game: the review of
    a finished game measures its luck with them."""
    import cribbage_env as ce
    from cribbage_env import luckkernel
    from cribbage_env.kernelcache import announce
    from cribbage_env.luck import game_luck

    g = ce.new_game(0, interactive_cuts=False)
    while g.phase is not ce.Phase.PLAY:
        g.apply(g.legal_actions()[0])
    with announce([luckkernel.deal_values, luckkernel.starter_values], "the luck kernels"):
        game_luck(g, samples=1)


def warm_in_background() -> threading.Thread | None:
    """Start :func:`warm_table` in a daemon thread, once per process (None if already started)."""
    global _started
    with _lock:
        if _started:
            return None
        _started = True
    t = threading.Thread(target=warm_table, name="cribbage-warmup", daemon=True)
    t.start()
    return t
