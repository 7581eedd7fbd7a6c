"""Numba's on-disk cache of the compiled kernels, stamped by every source they read.

Numba checks a cached kernel against its own file's modification time only. A kernel compiled
with another module's constants (a state-layout offset of :mod:`.simkernel`, a rule of
:mod:`.scoring`, a field of :class:`~cribbage_env.rules.core.Rules`) is therefore served stale when
only that other module changes. Here every cache locator numba would use for a file of this
package is wrapped so its source stamp also carries :func:`kernel_hash`: a hash of every module
of the package the kernel modules import, directly or not, found from their ``import``
statements (no list to keep). Any change to any of them recompiles every kernel once.

Importing this module (:mod:`.simkernel` does, before its first kernel) registers the
locators; it imports numba.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import CacheImpl

try:
    import fcntl
except ImportError:  # not POSIX: no lock (processes started together may both compile)
    fcntl = None  # type: ignore[assignment]

#: this folder: the kernels' sources.
HERE = Path(__file__).resolve().parent
#: the package's folder: what the kernels import from the rules lives under it.
PACKAGE = HERE.parent
#: the modules that hold compiled kernels (the roots of the import search).
KERNEL_MODULES = (
    "simkernel",
    "simrng",
    "simpolicy",
    "fastsim",
    "veckernel",
    "vecseed",
    "vecstep",
    "vecobs",
    "vecagent",
    "luckkernel",
)


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` (a path under the package, no ``.py``) imports
    by relative imports: siblings and, one level up, the rules the kernels read."""
    path = PACKAGE / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.parent.relative_to(PACKAGE).parts
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level in (1, 2):
            base = here[: len(here) - (node.level - 1)]
            heads = [node.module] if node.module else [a.name for a in node.names]
            for head in heads:
                parts = [*base, *head.split(".")]
                for cut in (parts, [*parts[:-1]]):
                    if cut and (PACKAGE.joinpath(*cut).with_suffix(".py")).is_file():
                        found.add("/".join(cut))
                        break
            if node.module:
                for a in node.names:
                    name = [*base, *node.module.split("."), a.name]
                    if PACKAGE.joinpath(*name).with_suffix(".py").is_file():
                        found.add("/".join(name))
    return found


def sources() -> list[str]:
    """Every module the kernels read, sorted: the kernel modules and all they import.

    >>> {"kernels/simkernel", "rules/scoring", "rules/cards", "rules/core"} <= set(sources())
    True
    """
    seen: set[str] = set()
    todo = [f"kernels/{m}" for m in KERNEL_MODULES]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(_imports(m) - seen)
    return sorted(seen)


def digest(paths: list[Path]) -> str:
    """A short hash of the files' names and bytes (and the numba version)."""
    h = hashlib.sha256(numba.__version__.encode())
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def kernel_hash() -> str:
    """The stamp every kernel cache of this package carries."""
    return digest([PACKAGE / f"{m}.py" for m in sources()])


@lru_cache(maxsize=1)
def _stamped_files() -> frozenset[Path]:
    """The files whose compiled functions carry the stamp: every source the kernels read."""
    return frozenset(PACKAGE / f"{m}.py" for m in sources())


def _stamped(base: type) -> type:
    """``base`` (a numba cache locator) for this package's files, stamped with the hash."""

    class Stamped(base):
        @classmethod
        def from_function(cls, py_func, py_file):
            if Path(py_file).resolve() not in _stamped_files():
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return (super().get_source_stamp(), kernel_hash())

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{base.__name__}"
    return Stamped


def _register() -> None:
    classes = CacheImpl._locator_classes
    if not any(getattr(c, "__name__", "").startswith("Stamped") for c in classes):
        CacheImpl._locator_classes = [*map(_stamped, classes), *classes]  # type: ignore[list-item]


_register()

#: The decorator of a kernel that only compiled code calls (the batched step's helpers): numba
#: then builds neither the wrapper that converts Python arguments nor the C-callable one. Each
#: caller links its callees' code, wrappers included, and optimises it again, so leaving them
#: out cut about a fifth of the batched env's first compile. Such a kernel cannot be called
#: from Python (its ``py_func`` can).
_NO_WRAPPERS: dict[str, Any] = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
inner = numba.njit(cache=True, **_NO_WRAPPERS)  # (options numba's type stubs do not list)


#: how long each compile took on this machine (seconds by what was compiled), beside the cache:
#: the next compile's message quotes it.
TIMES = "cribbage-compile-seconds.json"
_held = threading.RLock()  # this process's hold on the file lock (announce may nest)
_depth = 0


def cache_dir() -> Path:
    """Where numba caches this package's kernels (``NUMBA_CACHE_DIR`` or beside the sources),
    which also holds the compile lock and the measured compile times."""
    configured = getattr(numba.config, "CACHE_DIR", "")  # NUMBA_CACHE_DIR, read by numba
    d = Path(configured) if configured else HERE / "__pycache__"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        d = Path(tempfile.gettempdir())
    return d


def estimate(what: str) -> str:
    """The message's estimate: the last compile of ``what`` timed on this machine, if any."""
    try:
        seconds = json.loads((cache_dir() / TIMES).read_text(encoding="utf-8"))[what]
        return f"~{float(seconds):.0f} s the last time on this machine"
    except (OSError, ValueError, KeyError, TypeError):
        return "not yet timed on this machine"


def _record(what: str, seconds: float) -> None:
    """Keep ``seconds`` as the time ``what`` takes to compile (a temp file, then replaced)."""
    path = cache_dir() / TIMES
    try:
        times = json.loads(path.read_text(encoding="utf-8"))
        times = times if isinstance(times, dict) else {}
    except (OSError, ValueError):
        times = {}
    times[what] = round(seconds, 1)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".times-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(times, f, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only place: the next message has no estimate


def lock_path(what: str) -> Path:
    """The compile lock of ``what`` (one per kernel stamp and kernel): processes compiling the
    same kernels take turns, processes compiling different ones compile side by side.

    >>> lock_path("the luck kernels") == lock_path("the luck kernels") != lock_path("the simulator")
    True
    """
    tag = hashlib.sha256(what.encode()).hexdigest()[:12]
    return cache_dir() / f"cribbage-kernels-{kernel_hash()}-{tag}.lock"


@contextmanager
def compile_lock(what: str) -> Iterator[bool]:
    """Hold the compile lock of ``what`` so processes that start together compile it once: the
    others wait, saying so, then load what the first cached. Yields whether it waited."""
    global _depth
    with _held:
        if _depth:  # already held by this process (a nested announce)
            yield False
            return
        with open(lock_path(what), "a+b") as f:
            waited = False
            if fcntl is not None:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    print(f"cribbage-env: waiting for another process compiling the kernels "
                          f"(for {what})", file=sys.stderr, flush=True)  # fmt: skip
                    fcntl.flock(f, fcntl.LOCK_EX)
                    waited = True
            _depth += 1
            try:
                yield waited
            finally:
                _depth -= 1
                if fcntl is not None:
                    fcntl.flock(f, fcntl.LOCK_UN)


def compiled(dispatchers: Sequence[Any], args: tuple | None = None) -> bool:
    """Whether every kernel is compiled in this process or has a valid entry in the cache (for
    the types of ``args`` when given: a kernel may be cached for other types only)."""
    for d in dispatchers:
        sig = None if args is None else tuple(numba.typeof(a) for a in args)
        if d.signatures if sig is None else sig in d.overloads:
            continue
        try:
            index = d._cache._cache_file._load_index()
            if sig is None and not index:
                return False
            if sig is not None and d._cache._index_key(sig, d.targetctx.codegen()) not in index:
                return False
        except Exception:  # noqa: BLE001 (numba internals: assume it must compile)
            return False
    return True


@contextmanager
def announce(
    dispatchers: Sequence[Any], what: str = "the simulator", args: tuple | None = None
) -> Iterator[None]:
    """Say on stderr that the block compiles ``what`` (when it will), with the time it took
    here before, and how long it took; under the compile lock, so it compiles once."""
    if compiled(dispatchers, args):
        yield
        return
    with compile_lock(what) as waited:
        if waited and compiled(dispatchers, args):
            yield  # another process compiled them meanwhile: loaded from the cache
            return
        print(
            f"cribbage-env: compiling {what}, once ({estimate(what)})", file=sys.stderr, flush=True
        )
        t = time.perf_counter()
        yield
        took = time.perf_counter() - t
        _record(what, took)
        print(f"cribbage-env: compiled in {took:.1f} s", file=sys.stderr, flush=True)
