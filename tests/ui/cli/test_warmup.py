"""A compiling first use says so on stderr; the table and ``cribbage warmup`` warm the kernels
up front."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numba
import pytest

from cribbage_env.kernels import kernelcache
from ui.cli.cli import main
from ui.table import warmup


class _Fake:
    def __init__(self, signatures: list) -> None:
        self.signatures = signatures
        self.overloads = {tuple(numba.typeof(a) for a in s): None for s in signatures}


def test_a_compiling_use_says_so_once_with_the_time_measured_here(
    capsys, monkeypatch, tmp_path
) -> None:
    monkeypatch.setattr(kernelcache, "cache_dir", lambda: tmp_path)
    with kernelcache.announce([_Fake([])], "the thing"):
        pass
    err = capsys.readouterr().err
    assert "compiling the thing, once (not yet timed on this machine)" in err
    assert "compiled in" in err
    (tmp_path / kernelcache.TIMES).write_text('{"the thing": 7.3}')
    with kernelcache.announce([_Fake([])], "the thing"):
        pass
    assert (
        "compiling the thing, once (~7 s the last time on this machine)" in capsys.readouterr().err
    )
    with kernelcache.announce([_Fake([(1,)])], "the thing"):
        pass
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(sys.platform == "win32", reason="the compile lock is POSIX (fcntl) only")
def test_a_process_that_finds_another_compiling_waits_and_says_so(
    capsys, monkeypatch, tmp_path
) -> None:
    """Two first uses started together compile once: the second waits on the lock file, then
    loads what the first cached (here: the fake is compiled once the lock is free)."""
    monkeypatch.setattr(kernelcache, "cache_dir", lambda: tmp_path)
    lock = kernelcache.lock_path("the thing")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
    fake = _Fake([])
    ran: list[str] = []

    def first_use() -> None:
        with kernelcache.announce([fake], "the thing"):
            ran.append("compiled here")

    t = threading.Thread(target=first_use)
    t.start()
    t.join(0.3)
    assert t.is_alive() and not ran  # waiting for the holder
    fake.signatures.append((1,))  # what the holder compiled, now in the cache
    assert holder.stdin is not None
    holder.stdin.close()
    holder.wait(5)
    t.join(5)
    err = capsys.readouterr().err
    assert "waiting for another process compiling the kernels (for the thing)" in err
    assert "compiling the thing" not in err and ran == ["compiled here"]  # the body: loads


HOLD = """
import fcntl, sys
with open(sys.argv[1], "a+b") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the compile lock is POSIX (fcntl) only")
def test_a_process_compiling_other_kernels_is_not_waited_for(capsys, monkeypatch, tmp_path):
    """The lock is the kernel's: while another process compiles the thing, this one compiles
    another kernel at once (the table's and the batched env's compile side by side)."""
    monkeypatch.setattr(kernelcache, "cache_dir", lambda: tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(kernelcache.lock_path("the thing"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        ran: list[str] = []
        t = threading.Thread(target=lambda: _compile_other(ran))
        t.start()
        t.join(5)
        assert ran == ["compiled here"] and "waiting" not in capsys.readouterr().err
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(5)


def _compile_other(ran: list[str]) -> None:
    with kernelcache.announce([_Fake([])], "another thing"):
        ran.append("compiled here")


def test_compiled_for_some_types_is_not_compiled_for_others() -> None:
    """A batched env compiles only its own opponent's kernel: the check is by signature."""
    fake = _Fake([(1, None)])
    assert kernelcache.compiled([fake]) and kernelcache.compiled([fake], (2, None))
    assert not kernelcache.compiled([fake], (2, 1))  # no cache to look in: must compile


def test_the_table_warms_up_once_in_the_background(monkeypatch) -> None:
    calls: list[str] = []
    done = threading.Event()
    monkeypatch.setattr(warmup, "warm_table", lambda: (calls.append("x"), done.set()))
    monkeypatch.setattr(warmup, "_cached", lambda: True)
    monkeypatch.setattr(warmup, "_started", False)
    t = warmup.warm_in_background()
    assert t is not None and t.daemon
    assert done.wait(5) and warmup.warm_in_background() is None
    t.join(5)
    assert calls == ["x"]


@pytest.mark.parametrize("cached", [True, False])
def test_an_empty_cache_is_filled_by_a_child_process_then_loaded(cached: bool, monkeypatch) -> None:
    """The compiling runs in ``cribbage warmup --what table`` in a child process (no interpreter
    lock shared with the window), with this package first on its path; then this process
    loads the kernels, and other threads meanwhile run them interpreted."""
    from cribbage_env.kernels import interpreted

    calls: list = []
    monkeypatch.setattr(warmup, "_cached", lambda: cached)
    monkeypatch.setattr(
        warmup.subprocess, "Popen", lambda cmd, **kw: calls.append((cmd, kw)) or _Done()
    )
    monkeypatch.setattr(
        warmup, "warm_table", lambda: calls.append(("load", bool(interpreted._warming)))
    )
    warmup.warm_up()
    assert calls[-1] == ("load", True) and not interpreted._warming
    if cached:
        assert len(calls) == 1
        return
    cmd, kw = calls[0]
    assert cmd[1:] == ["-m", "ui", "warmup", "--what", "table"]
    root = str(Path(warmup.__file__).resolve().parents[2])
    assert kw["env"]["PYTHONPATH"].split(os.pathsep)[0] == root
    assert kw["stdin"] == kw["stdout"] == kw["stderr"] == warmup.subprocess.DEVNULL


class _Done:
    """A child process that has finished (exit code 0)."""

    def wait(self) -> int:
        return 0

    def poll(self) -> int:
        return 0


@pytest.mark.parametrize("what", ["table", "batch", "all"])
def test_cribbage_warmup_command(what: str, monkeypatch, capsys) -> None:
    import cribbage_env.envs.batched as vecenv

    calls: list[str] = []
    monkeypatch.setattr(warmup, "warm_table", lambda: calls.append("table"))
    monkeypatch.setattr(vecenv, "warm_up", lambda: calls.append("batch"))
    assert main(["warmup", "--what", what]) == 0
    assert calls == (["table", "batch"] if what == "all" else [what])
    assert "kernels ready in" in capsys.readouterr().err


def test_the_table_warm_up_compiles_the_reviews_luck_kernels_too(monkeypatch) -> None:
    """The first review (the game-over summary) reads the game's luck: its kernels are warmed
    with the simulator's."""
    from cribbage_env.kernels import fastsim, luckkernel

    order: list[str] = []
    monkeypatch.setattr(fastsim, "warm_up", lambda: order.append("simulator"))
    monkeypatch.setattr(warmup, "warm_first_move", lambda: order.append("first move"))
    real = warmup.warm_luck
    monkeypatch.setattr(warmup, "warm_luck", lambda: (order.append("luck"), real()))
    warmup.warm_table()
    assert order == ["first move", "simulator", "luck"]  # the computer's first move first
    assert luckkernel.deal_values.signatures and luckkernel.starter_values.signatures


def test_the_first_moves_kernels_are_warmed_first() -> None:
    """The Expert's discard (play-outs without a record) and play (the search) kernels."""
    from cribbage_env.kernels import fastsim

    warmup.warm_first_move()
    assert fastsim.play_out_all.signatures and fastsim.search_all.signatures


def test_the_compiling_child_never_outlives_the_window(tmp_path: Path) -> None:
    """A person who closes the window while the kernels compile leaves no process behind."""
    import subprocess
    import sys
    import time

    pidfile = tmp_path / "child.pid"
    child = f"import os, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(120)"
    parent = (
        "import sys, threading, time; from ui.table import warmup; "
        f"threading.Thread(target=warmup.compile_in_child, args=([sys.executable, '-c', {child!r}],),"
        " daemon=True).start(); "
        f"[time.sleep(0.05) for _ in range(400) if not __import__('os').path.exists({str(pidfile)!r})]"
    )
    root = str(Path(__file__).resolve().parents[3])
    subprocess.run([sys.executable, "-c", parent], env=dict(os.environ, PYTHONPATH=root),
                   check=True, timeout=60)  # fmt: skip
    pid = int(pidfile.read_text())
    for _ in range(100):  # the child was stopped at the parent's exit (SIGTERM, then SIGKILL)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    pytest.fail(f"the warm-up child {pid} outlived its parent")
