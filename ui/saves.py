"""The saved game: its format, the autosave and the history of games played at the table.

The format (:func:`save_data`, :func:`table_from_save`) is owned here: seed, agent seed, seats,
language, every decision (the redo tail too) and the cursor. The current game is written after
every decision with an atomic replace (temp file, fsync, rename, fsync of the directory), so a
kill at any moment leaves either the previous save or the new one, never a torn file; temp files
left by a kill are removed by the next game that takes the folder's lock. Finished games move to
``history/``. Reading never modifies a file: a bad save is reported with :class:`SaveError` and
left as it was.

Nothing in a save runs code without the person's word: a seat whose agent would import code or
read a file (anything but the built-in levels and agents with plain parameters) raises
:class:`UntrustedSave` naming it, and is built only when the caller passes it back as trusted.

One game at a time owns the folder (a lock file): a second game is told and plays without
autosave. A folder that cannot be used (read-only, full, a file, ``autosave.json`` a folder)
is reported in words and the game goes on without autosave.

The directory is ``$CRIBBAGE_DATA_DIR`` if set (tests), else ``$XDG_DATA_HOME/cribbage-env``,
else ``~/.local/share/cribbage-env``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from .files import UnreadableFile, parse_json, read_text

if TYPE_CHECKING:
    from .controller import TableController

SAVE_FORMAT = "cribbage-env/autosave"
SAVE_VERSION = 1
AUTOSAVE_NAME = "autosave.json"
LOCK_NAME = ".lock"
#: Seeds a save may hold (the results store's 64-bit integers).
MAX_SEED = 2**63 - 1
#: Built-in agents that neither import code of their own choosing nor read files.
SAFE_AGENTS = ("random", "novice", "greedy", "expectimax", "expert")
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.+-]{0,40}\Z")


class SaveError(ValueError):
    """A saved game that cannot be read or does not replay; the file is left as it was."""


class UntrustedSave(SaveError):
    """A save whose seats name agents that would run code or read files (shown, then confirmed)."""

    def __init__(self, specs: tuple[str, ...]) -> None:
        self.specs = specs
        super().__init__(
            "the saved game names an agent that runs code or reads a file: " + ", ".join(specs)
        )


def trusted_spec(spec: object) -> bool:
    """May an agent spec read from a file be built without asking (built-in, plain values)?

    >>> trusted_spec("greedy"), trusted_spec("expert:sims=200"), trusted_spec("hard")
    (True, True, True)
    >>> trusted_spec("maskable_ppo:path=/tmp/m.zip"), trusted_spec("my_bot:Bot")
    (False, False)
    """
    from agents import LEVELS

    if not isinstance(spec, str) or len(spec) > 200:
        return False
    name, _, rest = spec.strip().partition(":")
    if name.lower() not in SAFE_AGENTS and name.lower() not in LEVELS:
        return False
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip().isidentifier() or not _PLAIN_VALUE.match(value.strip()):
            return False
    return True


# ------------------------------------------------------------------------------ the format
def save_data(ctl: TableController) -> dict:
    """Everything needed to resume: seeds, seats, decisions (with the redo tail), cursor."""
    history = ctl.history
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "seed": ctl.seed,
        "agent_seed": ctl.agent_seed,
        "mode": ctl.mode.value,
        "agents": [s.spec for s in ctl.seats],
        "lang": ctl.lang,
        "decisions": [_action_str(a) for a in history.actions],
        "cursor": history.cursor,
        "finished": ctl.game.is_over,
    }


def _action_str(action: int) -> str:
    import cribbage_env as ce

    return ce.action_str(action)


def _int_field(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveError(f"saved {name} must be an integer from {low} to {high}, got {value!r}")
    return value


def _read_fields(data: object) -> dict:
    """The fields of a save, checked; :class:`SaveError` says what is wrong."""
    import cribbage_env as ce

    from .controller import Mode

    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError("not a cribbage-env saved game")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(
            f"saved game version {data.get('version')!r} is not supported "
            f"(this version reads {SAVE_VERSION})"
        )
    try:
        out = {
            "seed": data["seed"],
            "mode": Mode(data["mode"]),
            "agents": data["agents"],
            "lang": data.get("lang", "en"),
            "actions": [ce.parse_action(t) for t in data["decisions"]],
            "cursor": data["cursor"],
            "agent_seed": data.get("agent_seed"),  # saves before issue 15 have none: fresh
        }
    except (KeyError, ValueError, TypeError) as exc:
        raise SaveError(f"saved game is incomplete or malformed: {exc}") from None
    _int_field(out["seed"], "seed", 0, MAX_SEED)
    if not isinstance(out["agents"], list) or len(out["agents"]) != 2:
        raise SaveError("saved game must name two seats")
    _int_field(out["cursor"], "cursor", 0, len(out["actions"]))
    return out


def table_from_save(
    data: object, *, on_change=None, trusted: Collection[str] = ()
) -> TableController:
    """Resume a saved game; :class:`SaveError` for anything malformed, :class:`UntrustedSave`
    (nothing built) for seats naming code or files that are not in ``trusted``."""
    import cribbage_env as ce

    from .controller import Mode, TableController
    from .i18n import LANGUAGES

    f = _read_fields(data)
    mode = f["mode"]
    seats = {Mode.COMPUTER: f["agents"][1:], Mode.WATCH: f["agents"]}.get(mode, [])
    doubtful = tuple(s for s in seats if not trusted_spec(s) and s not in trusted)
    if doubtful:
        raise UntrustedSave(tuple(str(s) for s in doubtful))
    lang = f["lang"] if f["lang"] in LANGUAGES else "en"
    kwargs: dict = {"mode": mode, "lang": lang, "agent_seed": f["agent_seed"]}
    if mode is Mode.COMPUTER:
        kwargs["opponent"] = f["agents"][1]
    elif mode is Mode.WATCH:
        kwargs["agents"] = f["agents"]
    try:
        ctl = TableController(f["seed"], **kwargs)
        ctl.resume(f["actions"], f["cursor"])
    except (ValueError, ce.IllegalActionError) as exc:
        raise SaveError(f"saved game does not replay: {exc}") from None
    ctl.on_change = on_change
    return ctl


# ------------------------------------------------------------------------------ the folder
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
    if durable:
        _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def folder_problem(directory: Path) -> str | None:
    """What keeps ``directory`` from holding the autosave, in words (None: it is usable).

    It is created if missing, and a small probe file is written and removed there."""
    if directory.exists() and not directory.is_dir():
        return f"{directory} is a file, not a folder"
    target = directory / AUTOSAVE_NAME
    if target.exists() and not target.is_file():
        return f"{target} is not a file (a folder or a device is in its place)"
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


def _lock(path: Path) -> int | None:
    """A held exclusive lock on ``path`` (its file descriptor), or None if another holds it."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks (Windows): one game per folder is not enforced
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


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

    def open(self) -> str | None:
        """Check the folder and take the lock (one game per folder); the problem, if any."""
        problem = folder_problem(self.dir)
        if problem is None:
            try:
                fd = _lock(self.dir / LOCK_NAME)
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
        if problem is not None:
            self.writable = False
            self.problem = problem
        return problem

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
            ctl.notice(ctl.tr("Autosave is off: {error}", error=self.problem))

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

    def load(self, *, on_change=None, trusted: Collection[str] = ()) -> TableController:
        """Resume the saved game (raises :class:`SaveError`, leaving the file as it was)."""
        data = self.load_data()
        try:
            return table_from_save(data, on_change=on_change, trusted=trusted)
        except UntrustedSave:
            raise
        except SaveError as exc:
            raise SaveError(f"saved game {self.path} cannot be resumed: {exc}") from None
