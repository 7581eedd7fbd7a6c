"""A sealed seat's start-up and limits: the compiled kernels it may read, the processes it may
start, and where the deals of an isolated table come from.

Like ``test_arena.py``, every attack is shown to fail sealed; the cache tests also show that a
seat writes only to its own copy, never to the cache the host loads from.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena import sandbox
from agents.arena.seat import SealedSeat

ROOT = Path(__file__).resolve().parents[1]


def _sealed_python(code: str, limits: sandbox.Limits) -> subprocess.CompletedProcess:
    """``python -c code`` in the sandbox with ``limits``, the project importable."""
    path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    argv = sandbox.wrap([sys.executable, "-c", code], limits, {"PYTHONPATH": path})
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          preexec_fn=sandbox.rlimits(limits))  # fmt: skip


# ------------------------------------------------------------------------------ kernel cache


def test_a_seat_writes_to_its_own_copy_of_a_cache_folder(tmp_path: Path) -> None:
    cache = tmp_path / "pkg" / "__pycache__"
    cache.mkdir(parents=True)
    (cache / "k.f-1.py311.nbi").write_bytes(b"index")
    (cache / "k.f-1.py311.1.nbc").write_bytes(b"code")
    assert sandbox.kernel_caches([str(tmp_path)]) == (str(cache),)
    base, binds = sandbox.copy_caches((str(cache),))
    try:
        limits = sandbox.Limits(ro=(*sandbox.python_folders(), str(tmp_path)), rw=binds)
        code = (f"import os; d = {str(cache)!r}; print(open(d + '/k.f-1.py311.nbi').read());"
                "open(d + '/k.f-1.py311.nbi', 'w').write('poison'); open(d + '/new', 'w')")  # fmt: skip
        out = _sealed_python(code, limits)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "index"  # it read the host's cache
    finally:
        sandbox.drop_caches(base)
    assert (cache / "k.f-1.py311.nbi").read_bytes() == b"index"  # the host's file is untouched
    assert sorted(os.listdir(cache)) == ["k.f-1.py311.1.nbc", "k.f-1.py311.nbi"]
    assert not os.path.exists(base)


def test_a_sealed_python_seat_loads_the_warm_kernels() -> None:
    """Numba caches beside the sources only where it may write: a read-only cache makes every
    sealed seat compile the kernels again (tens of seconds). The seat gets a private copy."""
    from cribbage_env.kernels import simkernel

    simkernel.holds(np.zeros(simkernel.SIZE, np.int32), 0)  # compiled or loaded: now cached
    ro = SealedSeat("greedy").sealed.ro  # type: ignore[union-attr]
    base, binds = sandbox.copy_caches(sandbox.kernel_caches(sandbox.project_packages()))
    try:
        limits = sandbox.Limits(ro=ro, rw=binds)
        code = ("from cribbage_env.kernels import simkernel as s, kernelcache as k;"
                "import os; d = s.holds._cache._cache_path;"
                "print(d == os.path.join(os.path.dirname(s.__file__), '__pycache__'));"
                "print(k.compiled([s.holds]))")  # fmt: skip
        out = _sealed_python(code, limits)
    finally:
        sandbox.drop_caches(base)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"], out.stdout + out.stderr


def test_a_sealed_python_seat_binds_a_copy_only_while_it_runs() -> None:
    seat = SealedSeat("greedy")
    try:
        g = ce.new_game(1)
        seat.act(g.view(g.to_act), np.random.default_rng(0))
        binds = seat.sealed.rw if seat.sealed is not None else ()
        assert binds and all(os.path.isdir(src) for src, _ in binds)
        assert {dest for _, dest in binds} == set(sandbox.kernel_caches(sandbox.project_packages()))
    finally:
        seat.close()
    assert not any(os.path.exists(src) for src, _ in binds)


@pytest.mark.parametrize("spec", ["cmd:/bin/true"])
def test_a_command_bot_gets_no_cache(spec: str) -> None:
    seat = SealedSeat(spec)
    argv, _ = seat._argv()
    assert "--bind" not in argv


# ------------------------------------------------------------------------------ processes


def _children_of(marker: str) -> int:
    n = 0
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                n += marker.encode() in (d / "cmdline").read_bytes()
            except OSError:
                pass
    return n


def test_a_fork_bomb_stops_at_the_seats_process_limit() -> None:
    from agents.arena import pids
    from agents.arena.client import SeatForfeit
    from agents.arena.seat import SeatLimits

    if pids.pids_parent() is None and os.geteuid() == 0:
        pytest.skip("no writable pids cgroup and root ignores RLIMIT_NPROC: no process limit")
    seat = SealedSeat("cheater_agent:ForkBomb", 20.0, limits=SeatLimits(procs=64))
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit, match=r"fork failed after (\d+) children") as err:
            seat.act(g.view(g.to_act), np.random.default_rng(0))
    finally:
        seat.close()
    assert int(re.search(r"after (\d+) children", str(err.value)).group(1)) < 64  # type: ignore[union-attr]
    time.sleep(0.5)
    assert _children_of("cheater_agent:ForkBomb") == 0


@pytest.mark.integration
def test_a_fork_bomb_forfeits_and_the_run_completes(tmp_path: Path) -> None:
    from agents.arena import pids
    from agents.arena.seat import SeatLimits
    from agents.bench import run_tournament

    if pids.pids_parent() is None and os.geteuid() == 0:
        pytest.skip("no writable pids cgroup and root ignores RLIMIT_NPROC: no process limit")
    out = run_tournament(["cheater_agent:ForkBomb", "random"], 2, seed=1, agent_seed=1,
                         backend="serial", isolate=5.0, keep_results=True,
                         seat_limits=SeatLimits(procs=64))  # fmt: skip
    assert out.status == "complete" and out.games_played == 2
    assert all("ForkBomb" in r.forfeit and "fork failed" in r.forfeit for r in out.results)


def test_without_a_process_limit_a_root_host_warns(monkeypatch, capsys) -> None:
    from agents.arena import pids

    monkeypatch.setattr(pids, "_warned", False)
    monkeypatch.setattr(pids.os, "geteuid", lambda: 0)
    assert pids.nproc_limit(64) is None
    assert pids.nproc_limit(64) is None
    err = capsys.readouterr().err
    assert err.count("no process limit") == 1


def test_without_a_pids_group_a_user_gets_rlimit_nproc(monkeypatch) -> None:
    from agents.arena import pids

    monkeypatch.setattr(pids.os, "geteuid", lambda: 1000)
    n = pids.nproc_limit(64)
    assert n is not None and n >= 64 + 1
