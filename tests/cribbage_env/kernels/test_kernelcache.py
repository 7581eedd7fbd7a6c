"""The compiled kernels' on-disk cache is stamped by every source they read, so a change to a
module the kernels only import (a layout offset, a rule) can never be served stale; his heels
is one definition, run by the engine and compiled as is for the kernels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba.core.registry import CPUDispatcher

import cribbage_env as ce
from cribbage_env.kernels import (
    fastsim,
    kernelcache,
    luckkernel,
    simkernel,
    simpolicy,
    simrng,
    veckernel,
)
from cribbage_env.rules.scoring import heels_points


def test_the_stamp_covers_every_module_the_kernels_import() -> None:
    src = set(kernelcache.sources())
    assert {f"kernels/{m}" for m in kernelcache.KERNEL_MODULES} <= src
    # Whatever the kernel modules import from the package is in the stamp, transitively.
    for m in src:
        assert kernelcache._imports(m) <= src
    # Every module holding a kernel is a root.
    package = Path(ce.__file__).parent
    holders = {
        p.relative_to(package).with_suffix("").as_posix()
        for p in package.rglob("*.py")
        if "@njit" in p.read_text(encoding="utf-8")
    }
    assert holders <= {f"kernels/{m}" for m in kernelcache.KERNEL_MODULES}


def test_the_hash_changes_with_any_byte(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("X = 1\n")
    b.write_text("Y = 2\n")
    before = kernelcache.digest([a, b])
    b.write_text("Y = 3\n")
    assert kernelcache.digest([a, b]) != before


def test_every_kernel_is_cached_under_the_stamp() -> None:
    kernels = [
        obj
        for mod in (simkernel, simpolicy, simrng, fastsim, veckernel, luckkernel)
        for obj in vars(mod).values()
        if isinstance(obj, CPUDispatcher) and obj._cache is not None
    ]
    assert len(kernels) > 20
    for k in kernels:
        locator = k._cache._impl.locator
        assert type(locator).__name__.startswith("Stamped"), k
        assert locator.get_source_stamp()[1] == kernelcache.kernel_hash()


def test_his_heels_is_one_rule_in_the_engine_and_the_kernels() -> None:
    assert [simkernel.heels_points(c) for c in range(52)] == [heels_points(c) for c in range(52)]
    # The expert's deals start from the kernels' heels: a jack starter pegs 2 for the dealer,
    # who wins there at 119.
    st = np.zeros((3, simkernel.SIZE), dtype=np.int64)
    simkernel.put_rules(st, ce.STANDARD)
    st[:, simkernel.WINNER] = -1
    st[:, simkernel.DEALER] = 1
    st[:, simkernel.STARTER] = ce.parse_card("JH"), ce.parse_card("QH"), ce.parse_card("JS")
    st[:, simkernel.SCORES + 1] = 100, 100, 119
    fastsim.cut_heels(st)
    assert st[:, simkernel.SCORES + 1].tolist() == [102, 100, 121]
    assert st[:, simkernel.WINNER].tolist() == [-1, -1, 1] and st[2, simkernel.DONE] == 1
