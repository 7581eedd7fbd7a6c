"""What a training run wrote, so that a resume reads nothing else: a digest of every file.

Each data shard, stage, checkpoint and model a run writes goes through :meth:`RunFiles.write`,
which records the SHA-256 of the bytes in the run's ``files.json`` first and then puts the file in
place atomically (a run killed between the two finds the file missing and makes it again). A
resume calls :meth:`RunFiles.check_all` before anything trains: a recorded file whose bytes differ
(truncated, swapped for another run's or another stage's, replaced by a folder or a link), or a
file of those kinds the run never wrote, is refused in one line naming it. A missing file is made
again, from the same seeds.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path, PurePosixPath

from ..errors import AgentError
from ..store.atomic import atomic_write, atomic_write_text
from ..store.files import UnreadableFile, file_kind, parse_json, read_text

MANIFEST = "files.json"
#: the files a resume reads that the run made (relative to the run folder)
TRACKED = ("*.npz", "model.zip", "data/*/shard_*.npz", "checkpoints/step_*.zip")
_LIMIT = 16 << 20  # the manifest: ~100 bytes per file


class RunFileError(AgentError, ValueError):
    """A file in a run folder that is not what the run wrote (one line, naming it)."""


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _inside(name: str) -> bool:
    """Is ``name`` a path inside the run folder (relative, no ``..``)?"""
    parts = PurePosixPath(name).parts
    return bool(parts) and not name.startswith("/") and ".." not in parts


class RunFiles:
    """The digests of the files a run folder's run wrote (``files.json``)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / MANIFEST
        self.files = self._read()

    def _read(self) -> dict[str, str]:
        if not os.path.lexists(self.path):
            return {}
        try:
            data = parse_json(read_text(self.path, limit=_LIMIT, what="run's file list"))
        except UnreadableFile as exc:
            raise RunFileError(f"{self.path} is damaged ({exc}): start a new run") from None
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict) or not all(
            isinstance(k, str) and _inside(k) and isinstance(v, str) and len(v) == 64
            for k, v in files.items()
        ):
            raise RunFileError(f"{self.path} is damaged (not a list of digests): start a new run")
        return dict(files)

    def _name(self, path: Path) -> str:
        return Path(path).relative_to(self.run_dir).as_posix()

    def write(self, path: Path, data: bytes) -> Path:
        """Record ``data``'s digest for ``path``, then write it there atomically."""
        self.files[self._name(path)] = hashlib.sha256(data).hexdigest()
        text = json.dumps({"files": self.files}, indent=0, sort_keys=True) + "\n"
        atomic_write_text(self.path, text)
        return atomic_write(path, lambda f: f.write(data))

    def check(self, path: Path) -> bool:
        """Is the file at ``path`` there (True) or to be made (False)? RunFileError if it is
        there and not what this run wrote."""
        name = self._name(path)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise RunFileError(f"cannot read {path}: {exc.strerror or exc}") from None
        remedy = "remove it to have it made again, or start a new run"
        if stat.S_ISLNK(mode):
            raise RunFileError(f"{path} is a link, not the file this run wrote: {remedy}")
        if not stat.S_ISREG(mode):
            raise RunFileError(
                f"{path} is {file_kind(mode)}, not the file this run wrote: {remedy}"
            )
        want = self.files.get(name)
        if want is None:
            raise RunFileError(f"{path} was not written by this run (no digest in {MANIFEST}): "
                               f"{remedy}")  # fmt: skip
        try:
            have = digest(path)
        except OSError as exc:
            raise RunFileError(f"cannot read {path}: {exc.strerror or exc}") from None
        if have != want:
            raise RunFileError(f"{path} is not the file this run wrote (its digest differs: "
                               f"changed, truncated or swapped): {remedy}")  # fmt: skip
        return True

    def check_all(self) -> None:
        """Every recorded file that is there, and every file of the kinds a run writes:
        RunFileError naming the first that is not what this run wrote."""
        names = set(self.files)
        for pattern in TRACKED:
            names.update(self._name(p) for p in self.run_dir.glob(pattern))
        for name in sorted(names):
            self.check(self.run_dir / name)
