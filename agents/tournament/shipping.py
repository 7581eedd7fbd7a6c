"""The user's own modules, shipped to a Ray cluster whose nodes have only the project installed.

An agent or strategy named by import path on the command line (``mybot:Bot``,
``strategies.mine:keep``) is the person's own code: trusted because they named it. On a remote
cluster its top-level module (a file, or a package folder) is copied into a fresh folder that Ray
uploads as the job's ``working_dir``; Ray puts that folder first on each worker's ``sys.path``.
Installed modules (the project, site-packages) are not shipped: the nodes have them.

>>> user_modules(["expert", "random:seed=3"])
()
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..registry import AgentSpecError, read_spec

#: our own packages: Ray ships this checkout's copy as ``py_modules`` (see agents.tournament.backends).
OWN = ("agents", "cribbage_env", "ui")


def _installed(path: Path) -> bool:
    roots = {sysconfig.get_paths()[k] for k in ("purelib", "platlib", "stdlib")}
    return any(path.is_relative_to(Path(r).resolve()) for r in roots if r)


def module_origin(name: str) -> Path | None:
    """The file or package folder of top-level module ``name`` (found, not imported), or
    ``None`` for our own, installed or built-in modules, which need no shipping."""
    if name in OWN or name in sys.builtin_module_names:
        return None
    cwd_added = "" not in sys.path and "." not in sys.path
    if cwd_added:
        sys.path.insert(0, "")  # specs resolve user modules from the working folder too
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    finally:
        if cwd_added:
            sys.path.remove("")
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        return None
    origin = Path(spec.origin).resolve()
    path = origin.parent if spec.submodule_search_locations else origin
    return None if _installed(path) else path


def _targets(spec: str) -> list[str]:
    """The import paths a spec names: its own, or the discard strategy of a ``discarder``
    (``discarder:strategy=mine:keep``, ``...=agent:mine:Bot``), which its workers import too."""
    try:
        s = read_spec(spec)
    except AgentSpecError:  # a label of an agent object, not a spec: nothing to ship
        return []
    if s.target is not None:
        return [s.target]
    strategy = s.params.get("strategy", "") if s.name == "discarder" else ""
    if strategy.lower().startswith("agent:"):
        return _targets(strategy[len("agent:") :])
    return [strategy] if ":" in strategy else []


def user_modules(specs: Iterable[str]) -> tuple[Path, ...]:
    """The files and package folders of the user modules that ``specs`` name by import path.

    >>> user_modules(["discarder:strategy=analyzer"])
    ()
    """
    out: list[Path] = []
    for spec in specs:
        for target in _targets(spec):
            path = module_origin(target.split(":", 1)[0].split(".", 1)[0])
            if path is not None and path not in out:
                out.append(path)
    return tuple(out)


def stage(paths: Iterable[Path]) -> Path | None:
    """A new folder holding a copy of each module (files and package folders), or ``None``."""
    paths = list(paths)
    if not paths:
        return None
    folder = Path(tempfile.mkdtemp(prefix="cribbage-ship-"))
    for p in paths:
        if p.is_dir():
            shutil.copytree(p, folder / p.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(p, folder / p.name)
    return folder
