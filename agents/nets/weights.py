"""Reading a weights ``.npz`` that may come from anyone, checked before anything is allocated.

A weights file is a zip of ``.npy`` members. Before a member is decompressed, its declared size
(zip directory) and its npy header (dtype, shape) are checked against caps and against each
other, so a small file that declares 10^9 floats, or an object array, is refused in
microseconds; after loading, every value must be finite and the layers must chain. The only
reader of weights (``neural:path=``, ``--warm-start``, training stages, the GUI's neural level).
"""

from __future__ import annotations

import math
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import AgentError

#: Caps far above any net of this package (the shipped one is ~0.5 MB, 150k floats).
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_MEMBERS = 256
MAX_ARRAY_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
_META_CHARS = 100_000


class WeightsError(AgentError, ValueError):
    """A weights file that is not a checked, finite set of this package's nets."""


def _open_regular(path: Path, limit: int):
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise WeightsError(f"cannot read weights {path}: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise WeightsError(f"{path} is not a regular file")
    if st.st_size > limit:
        os.close(fd)
        raise WeightsError(f"{path} is too big (over {limit >> 20} MB)")
    return os.fdopen(fd, "rb")


@dataclass(frozen=True)
class Kind:
    """What one kind of ``.npz`` may hold: dtypes (``np.dtype.str`` without byte order, e.g.
    ``f4``), dimensions and sizes."""

    what: str
    dtypes: frozenset[str]
    max_ndim: int = 2
    max_array_bytes: int = MAX_ARRAY_BYTES
    max_total_bytes: int = MAX_TOTAL_BYTES
    max_file_bytes: int = MAX_FILE_BYTES


WEIGHTS = Kind("weights file", frozenset({"f4", "f8"}))


def _header(path: Path, name: str, f, kind: Kind) -> tuple[tuple[int, ...], bool, np.dtype]:
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"npy version {version}")
    except (ValueError, OSError, SyntaxError, EOFError, zipfile.BadZipFile) as exc:
        raise WeightsError(f"{path}: member {name} has no valid array header ({exc})") from None
    numeric = dtype.str[1:] in kind.dtypes
    text = dtype.kind == "U" and shape == () and name.startswith("meta.")
    if not (numeric or text) or dtype.hasobject:
        raise WeightsError(
            f"{path}: member {name} holds {dtype}, not {'/'.join(sorted(kind.dtypes))}"
        )
    if len(shape) > kind.max_ndim or any(not isinstance(n, int) or n < 0 for n in shape):
        raise WeightsError(f"{path}: member {name} has shape {shape}")
    return shape, bool(fortran), dtype


def read_weights(path: str | os.PathLike, kind: Kind = WEIGHTS) -> dict[str, np.ndarray]:
    """Every array of a weights file (or another ``kind`` of npz), checked (see the module doc),
    else :class:`WeightsError`."""
    path = Path(path)
    with _open_regular(path, kind.max_file_bytes) as fh:
        try:
            z = zipfile.ZipFile(fh)
            infos = z.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
            raise WeightsError(f"{path} is not a {kind.what} (.npz): {exc}") from None
        with z:
            if len(infos) > MAX_MEMBERS:
                raise WeightsError(f"{path}: {len(infos)} members, at most {MAX_MEMBERS}")
            total = sum(i.file_size for i in infos)
            if total > kind.max_total_bytes or any(
                i.file_size > kind.max_array_bytes for i in infos
            ):
                raise WeightsError(f"{path}: too big once decompressed ({total:,} bytes declared)")
            return {i.filename[:-4]: _member(path, z, i, kind) for i in infos}


def _member(path: Path, z: zipfile.ZipFile, info: zipfile.ZipInfo, kind: Kind) -> np.ndarray:
    name = info.filename
    if not name.endswith(".npy") or "/" in name:
        raise WeightsError(f"{path}: unexpected member {name!r}")
    try:
        with z.open(info) as f:
            shape, fortran, dtype = _header(path, name, f, kind)
            count = math.prod(shape)
            size = count * dtype.itemsize
            if size > kind.max_array_bytes or (
                dtype.kind == "U" and dtype.itemsize > 4 * _META_CHARS
            ):
                raise WeightsError(f"{path}: member {name} declares {shape} of {dtype}: too big")
            if size + f.tell() != info.file_size:
                raise WeightsError(f"{path}: member {name} is {info.file_size} bytes, its header "
                                   f"declares {shape} of {dtype}")  # fmt: skip
            flat = np.empty(count, dtype=dtype)  # writable, filled in place: no second copy
            got = _read_into(f, flat.view(np.uint8).reshape(-1))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        if isinstance(exc, WeightsError):
            raise
        raise WeightsError(f"{path}: member {name} is damaged ({exc})") from None
    if got != size:
        raise WeightsError(f"{path}: member {name} is truncated")
    arr = flat.reshape(shape, order="F" if fortran else "C")
    if dtype.kind == "f" and not np.isfinite(arr).all():
        raise WeightsError(f"{path}: member {name} holds values that are not finite (NaN or inf)")
    return arr


def _read_into(f, buf: np.ndarray) -> int:
    view, done = buf.data.cast("B"), 0  # buf holds bytes (uint8), one dimension
    while done < len(view):
        n = f.readinto(view[done:])
        if not n:
            break
        done += n
    return done


def check_layers(path: str | os.PathLike, prefix: str, layers: list) -> None:
    """The ``prefix`` net's layers must chain: ``w_i`` is (n_i, n_i+1), ``b_i`` is (n_i+1,), the
    last layer has one output."""
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or b.shape != (w.shape[1],) or 0 in w.shape:
            raise WeightsError(f"{path}: {prefix} layer {i} has shapes {w.shape} and {b.shape}")
        if i and layers[i - 1][0].shape[1] != w.shape[0]:
            raise WeightsError(f"{path}: {prefix} layer {i} takes {w.shape[0]} inputs, the layer "
                               f"before gives {layers[i - 1][0].shape[1]}")  # fmt: skip
    if layers[-1][0].shape[1] != 1:
        raise WeightsError(f"{path}: the {prefix} net has {layers[-1][0].shape[1]} outputs, not 1")
