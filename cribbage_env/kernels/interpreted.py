"""The kernels run as plain Python while they are still being compiled: the same source, read
by the interpreter instead of numba.

On a fresh install the table compiles its kernels in the background (``ui.table.warmup``). A decision
that called a kernel meanwhile would wait for numba's compile lock: minutes on a small, busy
machine. :func:`runner` gives such a caller the kernel's own Python function instead, with
every kernel it calls replaced in the same way, so nothing waits for the compiler. The same
operations on the same integers give the same results (tests compare both paths over many
positions), so a game replays identically whichever path ran; only the time differs (a
fraction of a second for an expert decision instead of milliseconds).

The interpreted path is taken only while a background warm-up is under way (:func:`warming`)
and the kernel is not compiled in this process yet; otherwise the compiled kernel runs (and
compiles on its first call, as always). :func:`interpreting` forces it (tests, benchmarks).
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba.core.dispatcher import Dispatcher

from .kernelcache import KERNEL_MODULES

_PACKAGE = __name__.rpartition(".")[0]
#: Kernels that view an array through a raw pointer (no reference count): in Python, the array.
_VIEWS = {
    "simkernel.borrow",
    "simkernel._borrow_i16",
    "simkernel._borrow_i32",
    "simrng.borrow_words",
}

_lock = threading.Lock()
_idle = threading.Condition(_lock)
_warming: dict[int, int] = {}  # threads compiling in the background (and how deep)
_forced = 0
_spaces: dict[str, dict[str, Any]] = {}
_twins: dict[Dispatcher, Callable] = {}  # by the dispatcher itself (kept alive: no id reuse)


def _identity(a: Any) -> Any:
    return a


class _Space:
    """A kernel module as its interpreted kernels see it (``K.lay`` -> the interpreted ``lay``)."""

    def __init__(self, ns: dict[str, Any]) -> None:
        self._ns = ns

    def __getattr__(self, name: str) -> Any:
        try:
            return self._ns[name]
        except KeyError:
            raise AttributeError(name) from None


def _kernel_module(name: str) -> bool:
    """Whether ``name`` holds kernels (their globals are interpreted with them)."""
    package, _, module = name.rpartition(".")
    return package == _PACKAGE and module in KERNEL_MODULES


def _space(module: str) -> dict[str, Any]:
    """The globals of ``module``'s interpreted kernels: its own, every kernel interpreted."""
    ns = _spaces.get(module)
    if ns is not None:
        return ns
    ns = _spaces[module] = dict(vars(sys.modules[module]))  # first: kernels call each other
    for name, value in list(ns.items()):
        if isinstance(value, Dispatcher):
            ns[name] = _interpreted(value)
        elif isinstance(value, types.ModuleType) and _kernel_module(value.__name__):
            ns[name] = _Space(_space(value.__name__))
    return ns


def interpreted(kernel: Dispatcher) -> Callable:
    """``kernel``'s Python function, calling the interpreted versions of the kernels it calls."""
    with _lock:
        return _interpreted(kernel)


def _interpreted(kernel: Dispatcher) -> Callable:
    twin = _twins.get(kernel)
    if twin is not None:
        return twin
    f = kernel.py_func
    module = f.__module__
    if f"{module.rpartition('.')[2]}.{f.__name__}" in _VIEWS:
        twin = _identity
    elif _kernel_module(module):
        ns = _space(module)  # its kernels, this one among them, are made on the way
        twin = _twins.get(kernel) or types.FunctionType(
            f.__code__, ns, f.__name__, f.__defaults__, f.__closure__
        )
    else:  # a plain function compiled as is (a rule of the engine): it calls no kernel
        twin = f
    _twins[kernel] = twin
    return twin


def runner(kernel: Dispatcher) -> Callable:
    """What to call for ``kernel``: itself, or its interpreted twin while a warm-up in another
    thread is compiling and ``kernel`` is not compiled in this process (or when forced)."""
    if _forced:
        return interpreted(kernel)
    if not _warming or kernel.signatures or threading.get_ident() in _warming:
        return kernel
    return interpreted(kernel)


@contextmanager
def warming() -> Iterator[None]:
    """Mark the calling thread as the one compiling in the background: other threads meanwhile
    run kernels it has not compiled yet interpreted (this one compiles them)."""
    me = threading.get_ident()
    with _lock:
        _warming[me] = _warming.get(me, 0) + 1
    try:
        yield
    finally:
        with _lock:
            _warming[me] -= 1
            if not _warming[me]:
                del _warming[me]
                _idle.notify_all()


def wait_for_warm_up(timeout: float | None = None) -> bool:
    """Wait until no other thread is compiling in the background (False: timed out). For bulk
    work, such as a game's review, that interpreted would take longer than the compiling."""
    me = threading.get_ident()
    with _idle:
        return _idle.wait_for(lambda: not (_warming.keys() - {me}), timeout)


@contextmanager
def interpreting() -> Iterator[None]:
    """Run every kernel interpreted inside the block (the reference for tests and benchmarks)."""
    global _forced
    with _lock:
        _forced += 1
    try:
        yield
    finally:
        with _lock:
            _forced -= 1
