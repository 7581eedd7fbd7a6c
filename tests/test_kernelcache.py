"""The kernel cache is keyed by every source compiled into a kernel (never stale), a compiling
first use says so on stderr, and the table and ``cribbage warmup`` warm the kernels up front."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from cribbage_env import kernelcache
from ui import warmup
from ui.cli import main

PKG = Path(kernelcache.__file__).resolve().parent


def test_kernel_sources_are_the_kernels_and_what_they_import() -> None:
    names = {p.name for p in kernelcache.kernel_sources()}
    assert {"simkernel.py", "simpolicy.py", "vecseed.py", "veckernel.py", "vecstep.py"} <= names
    assert {"encoding.py", "cards.py", "batch.py", "scoring.py"} <= names  # tables, slices
    assert "vecenv.py" not in names and "env.py" not in names


def test_cache_key_changes_with_any_compiled_source(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "cribbage_env"
    shutil.copytree(PKG, pkg, ignore=shutil.ignore_patterns("__pycache__", "data", "openspiel"))
    monkeypatch.setattr(kernelcache, "_PACKAGE", pkg)
    key = kernelcache.cache_dir.__wrapped__
    before = key()
    (pkg / "env.py").write_text((pkg / "env.py").read_text() + "\n# not compiled\n")
    assert key() == before
    (pkg / "cards.py").write_text((pkg / "cards.py").read_text() + "\n# a table changed\n")
    assert key() != before
    monkeypatch.setenv("CRIBBAGE_KERNEL_CACHE", str(tmp_path / "elsewhere"))
    assert key().parent == tmp_path / "elsewhere"


class _Fake:
    def __init__(self, signatures: list) -> None:
        self.signatures = signatures


def test_a_compiling_use_says_so_once(capsys) -> None:
    with kernelcache.announce([_Fake([])], "the thing"):
        pass
    err = capsys.readouterr().err
    assert "compiling the thing, once (~" in err and "compiled in" in err
    with kernelcache.announce([_Fake(["(int64,)"])], "the thing"):
        pass
    assert capsys.readouterr().err == ""


def test_the_table_warms_up_once_in_the_background(monkeypatch) -> None:
    calls: list[str] = []
    done = threading.Event()
    monkeypatch.setattr(warmup, "warm_table", lambda: (calls.append("x"), done.set()))
    monkeypatch.setattr(warmup, "_started", False)
    t = warmup.warm_in_background()
    assert t is not None and t.daemon
    assert done.wait(5) and warmup.warm_in_background() is None
    t.join(5)
    assert calls == ["x"]


@pytest.mark.parametrize("what", ["table", "batch", "all"])
def test_cribbage_warmup_command(what: str, monkeypatch, capsys) -> None:
    import cribbage_env.vecenv as vecenv

    calls: list[str] = []
    monkeypatch.setattr(warmup, "warm_table", lambda: calls.append("table"))
    monkeypatch.setattr(vecenv, "warm_up", lambda: calls.append("batch"))
    assert main(["warmup", "--what", what]) == 0
    assert calls == (["table", "batch"] if what == "all" else [what])
    assert "kernels ready in" in capsys.readouterr().err
