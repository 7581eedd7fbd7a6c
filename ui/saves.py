"""Autosave and history of games played at the table (nothing lost if the window or machine dies).

The current game is written after every decision with an atomic replace (temp file, fsync,
rename, fsync of the directory), so a kill at any moment leaves either the previous save or the
new one, never a torn file. Finished games move to ``history/``. Reading never modifies a file:
a corrupt save is reported with :class:`~ui.controller.SaveError` and left as it was.

The directory is ``$CRIBBAGE_DATA_DIR`` if set (tests), else ``$XDG_DATA_HOME/cribbage-env``,
else ``~/.local/share/cribbage-env``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from .controller import SaveError, TableController

AUTOSAVE_NAME = "autosave.json"


def data_dir(env: dict[str, str] | None = None) -> Path:
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


def atomic_write_json(path: Path, data: dict, *, durable: bool = True) -> None:
    """Write JSON so that readers see the old or the new file, never a partial one.

    ``durable=False`` skips the fsyncs (still atomic against crashes of the process, not of the
    machine); only tests that hammer the save use it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if not durable:
        return
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


class SaveStore:
    """The autosave file and the history folder of one user."""

    def __init__(self, directory: Path | str | None = None, *, durable: bool = True) -> None:
        self.dir = Path(directory) if directory is not None else data_dir()
        self.durable = durable
        self.path = self.dir / AUTOSAVE_NAME
        self.history = self.dir / "history"

    def exists(self) -> bool:
        return self.path.is_file()

    def save(self, ctl: TableController) -> None:
        """Called after every change; a finished game goes to the history and the save is cleared."""
        data = ctl.to_save()
        if data["finished"]:
            self.archive(ctl)
            self.clear()
        else:
            atomic_write_json(self.path, data, durable=self.durable)

    def archive(self, ctl: TableController) -> Path:
        data = ctl.to_save()
        data["record"] = ctl.game.to_record()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.history / f"game-{stamp}-seed{ctl.seed}.json"
        n = 1
        while target.exists():
            n += 1
            target = self.history / f"game-{stamp}-seed{ctl.seed}-{n}.json"
        atomic_write_json(target, data)
        return target

    def clear(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def load_data(self) -> dict:
        """The saved data; :class:`SaveError` (file untouched) if it cannot be read."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SaveError(f"no saved game at {self.path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SaveError(f"cannot read saved game {self.path}: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"saved game {self.path} is corrupt (not valid JSON: {exc})") from None
        except RecursionError:
            raise SaveError(f"saved game {self.path} is corrupt (JSON nested too deeply)") from None
        return data

    def load(self, *, on_change=None) -> TableController:
        """Resume the saved game (raises :class:`SaveError`, leaving the file as it was)."""
        data = self.load_data()
        try:
            return TableController.from_save(data, on_change=on_change)
        except SaveError as exc:
            raise SaveError(f"saved game {self.path} cannot be resumed: {exc}") from None
