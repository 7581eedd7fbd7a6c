"""Every exception class of a package is under that package's root, so a caller can catch
them all: ``CribbageError`` (cribbage_env), ``AgentError`` (agents), ``UIError`` (ui). Each
keeps the built-in base it had (ValueError, RuntimeError), so older handlers still match."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from agents.errors import AgentError
from cribbage_env.rules.core import CribbageError
from ui.errors import UIError

ROOT = Path(__file__).resolve().parents[2]
ROOTS = {"cribbage_env": CribbageError, "agents": AgentError, "ui": UIError}
#: Control-flow signals, never errors to report: a handler that catches the package's errors
#: must not swallow them.
SIGNALS = {"agents.tournament.play.TaskStopped", "agents.stored_runs.saving.StorageFailed"}


def _modules(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if path.name == "__main__.py" or path.parent.name == "gui" and path.stem != "__init__":
            continue  # the command line runs; the views import Arcade (headless set up elsewhere)
        parts = path.relative_to(ROOT).with_suffix("").parts
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def _exceptions(package: str) -> list[type]:
    """Every exception class ``package``'s modules define (the console script's entry module
    answers Ctrl-C from its import on: the handler it sets is put back)."""
    import signal

    handler = signal.getsignal(signal.SIGINT)
    try:
        return _defined_exceptions(package)
    finally:
        signal.signal(signal.SIGINT, handler)


def _defined_exceptions(package: str) -> list[type]:
    found = []
    for name in _modules(package):
        try:
            module = importlib.import_module(name)
        except ImportError as exc:  # an optional extra (ray, rllib...) not installed here
            if exc.name and exc.name.split(".")[0] in (package, "cribbage_env", "agents", "ui"):
                raise
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == name
                and issubclass(cls, BaseException)
                and not issubclass(cls, Warning)
            ):
                found.append(cls)
    return found


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_exception_is_under_its_package_root(package: str) -> None:
    classes = _exceptions(package)
    assert len(classes) >= 5
    stray = [
        f"{c.__module__}.{c.__qualname__}"
        for c in classes
        if not issubclass(c, ROOTS[package]) and f"{c.__module__}.{c.__qualname__}" not in SIGNALS
    ]
    assert not stray, f"not under {ROOTS[package].__name__}: {stray}"


def test_the_roots_are_exported_and_errors_keep_their_builtin_bases() -> None:
    import agents
    import cribbage_env as ce
    from agents.store.db_errors import ResultsStoreError
    from cribbage_env.envs.single import EpisodeOverError
    from cribbage_env.equity import EquityError
    from cribbage_env.kernels.fastsim import SimulatorInputError

    assert agents.AgentError is AgentError and issubclass(ce.EnvError, CribbageError)
    assert issubclass(EpisodeOverError, ce.EnvError) and issubclass(EpisodeOverError, ValueError)
    assert issubclass(EquityError, CribbageError) and issubclass(SimulatorInputError, ValueError)
    assert issubclass(SimulatorInputError, CribbageError)
    assert issubclass(ResultsStoreError, RuntimeError) and issubclass(
        agents.AgentSpecError, ValueError
    )
    with pytest.raises(ce.EnvError, match="render_mode"):
        ce.CribbageEnv(render_mode="human")
