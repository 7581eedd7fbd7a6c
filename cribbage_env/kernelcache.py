"""Where the compiled kernels are cached, and the one message a first (compiling) use prints.

numba caches a kernel next to its source and checks only that file's time stamp: a change in a
kernel it calls from another module would load stale code. Here every kernel of this package is
cached under a directory named by a hash of the kernel modules' sources and of every package
module they import from (and the numba and Python versions), so any change that can reach
compiled code starts a fresh cache: never stale.
``NUMBA_CACHE_DIR``, when set, wins (numba's own behaviour); ``CRIBBAGE_KERNEL_CACHE`` moves
the keyed directories (default ``~/.cache/cribbage-env/kernels``).
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent
#: Measured on the 2-core reference machine, quiet (benchmarks/cold_start.py).
COMPILE_SECONDS = 20


def kernel_sources() -> list[Path]:
    """The package's modules that define kernels and every package module they import from
    (whose constants and functions are compiled into them), sorted."""
    todo = [p for p in _PACKAGE.glob("*.py") if "@njit" in p.read_text(encoding="utf-8")]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                for name in names:
                    dep = _PACKAGE / f"{name.split('.')[0]}.py"
                    if dep.exists():
                        todo.append(dep)
    return sorted(seen)


@lru_cache(maxsize=1)
def cache_dir() -> Path:
    """This package's kernel cache: ``<root>/<hash of the kernel sources, numba, Python>``."""
    import numba

    h = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for path in kernel_sources():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    root = os.environ.get("CRIBBAGE_KERNEL_CACHE") or Path.home() / ".cache/cribbage-env/kernels"
    return Path(root) / h.hexdigest()[:16]


def install() -> None:
    """Put this package's kernels under :func:`cache_dir` (called before any is defined)."""
    from numba.core import caching, config

    class _Locator(caching.UserProvidedCacheLocator):
        def __init__(self, py_func: Any, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(cache_dir() / Path(py_file).stem)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if config.CACHE_DIR or Path(py_file).resolve().parent != _PACKAGE:
                return None
            return super(caching.UserProvidedCacheLocator, cls).from_function(py_func, py_file)

    locators = caching.CacheImpl._locator_classes
    if not any(k.__name__ == "_Locator" for k in locators):
        locators.insert(0, _Locator)


def compiled(dispatchers: Sequence[Any]) -> bool:
    """Whether every kernel is compiled in this process or has a valid entry in the cache."""
    for d in dispatchers:
        if d.signatures:
            continue
        try:
            if not d._cache._cache_file._load_index():
                return False
        except Exception:  # noqa: BLE001 (numba internals: assume it must compile)
            return False
    return True


@contextmanager
def announce(dispatchers: Sequence[Any], what: str = "the simulator") -> Iterator[None]:
    """Say on stderr that the block compiles ``what`` (when it will), and how long it took."""
    if compiled(dispatchers):
        yield
        return
    print(
        f"cribbage-env: compiling {what}, once (~{COMPILE_SECONDS} s; cached in {cache_dir()})",
        file=sys.stderr,
        flush=True,
    )
    t = time.perf_counter()
    yield
    print(f"cribbage-env: compiled in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
