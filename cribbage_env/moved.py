"""The module paths of the flat layout that moved into the subpackages, kept importable for one
release: ``import cribbage_env.core`` (or ``agents.expert``, ``ui.controller``) still works and
warns with a :class:`DeprecationWarning` that names the import to use instead.

Each package's face installs its own table (:func:`install`); a finder at the end of
``sys.meta_path`` answers only for an old path no file answers for, and hands back the module
that lives at the new path (the same module object, not a copy). Nothing inside the project
imports an old path (a guard test checks it); the tables go in the release after next.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from cribbage_env.cards import RANK  # the flat layout's path
>>> RANK[13 + 4]  # the five of diamonds
4
>>> print(MovedPaths(MOVED, ["cribbage_env"]).message("cribbage_env.cards"))
cribbage_env.cards moved: import the public names from cribbage_env (the module is now cribbage_env.rules.cards); the old path goes in the release after next
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Mapping, Sequence

#: Old module path -> where the module lives now (the flat layout before the subpackages, and
#: modules moved between folders since).
MOVED: dict[str, str] = {
    **{
        f"cribbage_env.{name}": f"cribbage_env.rules.{name}"
        for name in (
            "actions", "cards", "chance", "core", "engine", "events", "positions", "records",
            "scoring", "state", "views",
        )
    },
    # What is built over the rules left their folder: the invariant checker is back at the top,
    # the batch scorer and the determinizer went to unseen/ (the cards a seat cannot see).
    **{
        f"cribbage_env{room}.{name}": f"cribbage_env.unseen.{name}"
        for room in ("", ".rules")
        for name in ("batch", "determinize")
    },
    "cribbage_env.rules.invariants": "cribbage_env.invariants",
    **{
        f"cribbage_env.{name}": f"cribbage_env.kernels.{name}"
        for name in (
            "fastsim", "interpreted", "kernelcache", "luckkernel", "simkernel", "simpolicy",
            "simrng", "vecagent", "veckernel", "vecobs", "vecseed", "vecstep",
        )
    },
    **{
        f"cribbage_env.{name}": f"cribbage_env.analysis.{name}"
        for name in ("discard", "luck", "view_chance")
    },
    **{
        f"cribbage_env.{name}": f"cribbage_env.envs.{name}"
        for name in ("episode", "extras", "registration", "rewards", "sb3vec")
    },
    # The envs joined what they share in envs/ (the single env and the batched one renamed).
    "cribbage_env.env": "cribbage_env.envs.single",
    "cribbage_env.aec": "cribbage_env.envs.aec",
    "cribbage_env.vecenv": "cribbage_env.envs.batched",
    "cribbage_env.vector": "cribbage_env.envs.vector",
    "cribbage_env.wrappers": "cribbage_env.envs.wrappers",
}  # fmt: skip


class MovedPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path of ``table`` and loads it as the module at its new path."""

    def __init__(self, table: Mapping[str, str], faces: Sequence[str]) -> None:
        self.table = dict(table)
        self.faces = tuple(faces)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.table:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module; exec_module swaps in the real one

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__name__
        warnings.warn(self.message(old), DeprecationWarning, stacklevel=2)
        # The import system reads sys.modules back after exec_module: the old name is the
        # module at the new path from here on (one module, one set of globals).
        sys.modules[old] = importlib.import_module(self.table[old])

    def get_code(self, fullname: str) -> types.CodeType:
        """``python -m OLD``: warn, then run the module at the new path as ``__main__`` (its own
        package, so its relative imports resolve where it lives now)."""
        new = self.table[fullname]
        source = (
            "import runpy, warnings\n"
            f"warnings.warn({self.message(fullname)!r}, DeprecationWarning, stacklevel=1)\n"
            f"runpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n"
        )
        return compile(source, f"<moved {fullname}>", "exec")

    def message(self, old: str) -> str:
        """The warning for ``old``: the public import to use, and where the module is now."""
        new = self.table[old]
        face = next((f for f in self.faces if new.startswith(f + ".")), None)
        use = f"import the public names from {face} (the module is now {new})" if face else ""
        return (
            f"{old} moved: {use or f'import {new} instead'}; "
            f"the old path goes in the release after next"
        )


def install(table: Mapping[str, str], faces: Sequence[str]) -> MovedPaths:
    """Put a finder for ``table`` at the end of ``sys.meta_path`` (once per table); ``faces``
    are the packages whose top-level names are the public API the warning points to."""
    for finder in sys.meta_path:
        if isinstance(finder, MovedPaths) and finder.table == dict(table):
            return finder
    finder = MovedPaths(table, faces)
    sys.meta_path.append(finder)
    return finder


def install_moved() -> None:
    """Make the old paths importable (the package's face calls this once)."""
    install(MOVED, faces=("cribbage_env",))
