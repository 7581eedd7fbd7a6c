"""The autosave and the history of games played at the table (nothing lost if the window or the
machine dies; the format is :mod:`ui.table.saves`).

The current game is written after every decision with an atomic replace (temp file, fsync,
rename, fsync of the directory), so a kill at any moment leaves either the previous save or the
new one, never a torn file; temp files left by a kill are removed by the next game that takes the
folder's lock. Finished games move to ``history/``. Reading never modifies a file: a bad save is
reported with :class:`~ui.table.saves.SaveError` and left as it was.

One game at a time owns the folder (a lock file): a second game is told and plays without
autosave. A folder that cannot be used (read-only, full, a file) is reported in words and the
game goes on without autosave; an ``autosave.json`` no reader could take (a folder, a FIFO, too
big, nested too deep) is set aside by the game that owns the folder, which says so.

The directory is ``$CRIBBAGE_DATA_DIR`` if set (tests), else ``$XDG_DATA_HOME/cribbage-env``,
else ``~/.local/share/cribbage-env``.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Collection, Mapping
from pathlib import Path

from agents.store.atomic import atomic_write_json, try_lock
from agents.store.files import MAX_BYTES, UnreadableFile, parse_json, read_text

from ..table.controller import TableController
from ..table.saves import SaveError, UntrustedSave, save_data
from .aside import read_small_json, set_aside

AUTOSAVE_NAME = "autosave.json"
LOCK_NAME = ".lock"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where saves live (see the module docstring).

    >>> str(data_dir({"CRIBBAGE_DATA_DIR": "/tmp/x"}))
    '/tmp/x'
    >>> str(data_dir({"XDG_DATA_HOME": "/d", "HOME": "/h"}))
    '/d/cribbage-env'
    """
    env = os.environ if env is None else env
    if env.get("CRIBBAGE_DATA_DIR"):
        return Path(env["CRIBBAGE_DATA_DIR"])
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]) / "cribbage-env"
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".local" / "share" / "cribbage-env"


def folder_problem(directory: Path) -> str | None:
    """What keeps ``directory`` from holding the autosave, in words (None: it is usable).

    It is created if missing, and a small probe file is written and removed there."""
    if directory.exists() and not directory.is_dir():
        return f"{directory} is a file, not a folder"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", suffix=".tmp", dir=directory)
        try:
            os.write(fd, b"{}" * 2048)
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        return f"cannot write in {directory}: {exc.strerror or exc}"
    return None


# ------------------------------------------------------------------------------ the store
class SaveStore:
    """The autosave file and the history folder of one user.

    :meth:`open` checks the folder and takes its lock; when either fails the store stays
    readable but never writes (:attr:`writable` is False) and :attr:`problem` says why. A write
    that fails later (a full disk) turns autosave off the same way and tells the table."""

    def __init__(self, directory: Path | str | None = None, *, durable: bool = True) -> None:
        self.dir = Path(directory) if directory is not None else data_dir()
        self.durable = durable
        self.path = self.dir / AUTOSAVE_NAME
        self.history = self.dir / "history"
        self.writable = True
        self.problem: str | None = None
        self._lock_fd: int | None = None
        #: a one-line notice of :meth:`open` (an unreadable autosave set aside), or None
        self.notice: str | None = None

    def open(self) -> str | None:
        """Check the folder and take the lock (one game per folder); the problem, if any."""
        problem = folder_problem(self.dir)
        if problem is None:
            try:
                fd = try_lock(self.dir / LOCK_NAME)
            except OSError as exc:
                fd, problem = None, f"cannot lock {self.dir}: {exc.strerror or exc}"
            else:
                if fd is None:
                    problem = (
                        f"another cribbage game is open and autosaving in {self.dir}; "
                        "this one is not autosaved"
                    )
            if fd is not None:
                self._lock_fd = fd
                self._clean_temp_files()
                self.notice = self._set_aside_unreadable()
        if problem is not None:
            self.writable = False
            self.problem = problem
        return problem

    def _set_aside_unreadable(self) -> str | None:
        """An autosave that no reader could take (not a regular file, too big, nested too
        deep, not JSON) is renamed beside itself (:mod:`.aside`) and the game starts without
        it; the notice. A save that reads but does not replay stays where it is."""
        if not os.path.lexists(self.path):
            return None
        try:
            read_small_json(self.path, limit=MAX_BYTES, what="saved game")
        except UnreadableFile as exc:
            return set_aside(self.path, str(exc))
        return None

    def close(self) -> None:
        """Give the folder's lock back (also done by the system when the process ends)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _clean_temp_files(self) -> None:
        """Temp files of writes cut short by a kill (only the lock holder may remove them)."""
        for folder in (self.dir, self.history):
            try:
                leftovers = list(folder.glob(".*.tmp"))
            except OSError:
                continue
            for tmp in leftovers:
                try:
                    if tmp.is_file():
                        tmp.unlink()
                except OSError:
                    pass

    def exists(self) -> bool:
        return self.path.is_file()

    def save(self, ctl: TableController) -> None:
        """Called after every change; a finished game goes to the history and the save is
        cleared. A failed write turns autosave off and says so on the table (no traceback)."""
        if not self.writable:
            return
        try:
            if ctl.game.is_over:
                self.archive(ctl)
                self.clear()
            else:
                atomic_write_json(self.path, save_data(ctl), durable=self.durable)
        except OSError as exc:
            self.writable = False
            self.problem = f"cannot write {self.path}: {exc.strerror or exc}"
            ctl.say(ctl.tr("Autosave is off: {error}", error=self.problem))

    def archive(self, ctl: TableController) -> Path:
        data = save_data(ctl)
        data["record"] = ctl.game.to_record()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.history / f"game-{stamp}-seed{ctl.seed}.json"
        n = 1
        while target.exists():
            n += 1
            target = self.history / f"game-{stamp}-seed{ctl.seed}-{n}.json"
        atomic_write_json(target, data, durable=self.durable)
        return target

    def clear(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def load_data(self) -> dict:
        """The saved data; :class:`SaveError` (file untouched) if it cannot be read."""
        if not self.path.exists():
            raise SaveError(f"no saved game at {self.path}")
        try:
            data = parse_json(read_text(self.path, what="saved game"))
        except UnreadableFile as exc:
            raise SaveError(f"saved game {self.path} is corrupt or unreadable: {exc}") from None
        if not isinstance(data, dict):
            raise SaveError(f"saved game {self.path} is corrupt (not a JSON object)")
        return data

    def load(
        self, *, on_change=None, trusted: Collection[str] = (), isolate: float | None = None
    ) -> TableController:
        """Resume the saved game (raises :class:`SaveError`, leaving the file as it was); with
        ``isolate`` its computer sits sealed."""
        data = self.load_data()
        try:
            return TableController.from_save(
                data, on_change=on_change, trusted=trusted, isolate=isolate
            )
        except UntrustedSave:
            raise
        except SaveError as exc:
            raise SaveError(f"saved game {self.path} cannot be resumed: {exc}") from None
