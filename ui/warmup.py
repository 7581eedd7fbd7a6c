"""Compile the table's kernels before they are needed: the expert's first move and the first
review would otherwise wait for numba (about 20 s on a fresh install of a small machine)."""

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
