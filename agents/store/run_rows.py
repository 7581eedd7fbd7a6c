"""A run's row as the results store hands it out: its JSON decoded and its types checked (a row
edited by hand is refused, or listed as ``damaged``), and whether a ``running`` run's process is
gone (on this host its pid; elsewhere its heartbeat, older than :data:`STALE_S`).
"""

from __future__ import annotations

import json
import socket
import time
from datetime import datetime
from pathlib import Path

from ..tournament.procs import pid_alive, process_token
from .db_errors import ResultsStoreError

#: seconds without a heartbeat after which a ``running`` run is taken for dead (its process
#: beats every few seconds while it runs, whatever its agents do).
STALE_S = 600.0


def run_is_dead(r: dict) -> bool:
    """A ``running`` row whose process is gone: on this host, its pid no longer runs (whatever
    the heartbeat: a serial block may take longer than :data:`STALE_S`); elsewhere, or with no
    pid, its heartbeat (else its creation) is older than :data:`STALE_S`."""
    pid = r.get("pid")
    if isinstance(pid, int) and r.get("host") == socket.gethostname():
        token = r.get("proc")
        return not pid_alive(pid) or (token is not None and process_token(pid) not in (None, token))
    beat = r.get("heartbeat")
    if not isinstance(beat, (int, float)):
        try:
            beat = datetime.fromisoformat(str(r.get("created"))).timestamp()
        except ValueError:
            beat = 0.0
    return time.time() - beat > STALE_S


#: The JSON columns of a run row and the types they must decode to.
RUN_TYPES: dict[str, type | tuple[type, ...]] = {
    "agents": list, "params": dict, "versions": dict, "summary": (dict, type(None)),
}  # fmt: skip


def decode_run(r: dict, path: Path, strict: bool = True) -> dict:
    """A run row with its JSON decoded and its types checked; a hand-edited row that does not
    decode raises :class:`ResultsStoreError` (``strict``) or comes back with status ``damaged``."""
    out = dict(r)
    try:
        for key, kind in RUN_TYPES.items():
            if out.get(key) is not None:
                out[key] = json.loads(out[key])
            if not isinstance(out.get(key), kind):
                raise ValueError(f"{key} is not a JSON {getattr(kind, '__name__', 'object')}")
        for key in ("games", "seed", "duplicate", "workers", "games_done"):
            if not isinstance(out.get(key), int) or isinstance(out.get(key), bool):
                raise ValueError(f"{key} is not an integer")
        for key in ("status", "created", "backend"):
            if not isinstance(out.get(key), str):
                raise ValueError(f"{key} is not text")
        if not all(isinstance(a, str) for a in out["agents"]):
            raise ValueError("agents is not a list of specs")
        if out.get("elapsed") is not None and not isinstance(out["elapsed"], (int, float)):
            raise ValueError("elapsed is not a number")
    except (ValueError, TypeError) as exc:  # json.JSONDecodeError is a ValueError
        msg = f"run {r.get('id')} in {path} is damaged ({exc}); it was edited by hand or by another program"
        if strict:
            raise ResultsStoreError(msg) from None
        return {
            "id": r.get("id"),
            "created": str(r.get("created")),
            "status": "damaged",
            "agents": [],
            "games": 0,
            "seed": 0,
            "duplicate": False,
            "backend": "?",
            "workers": 0,
            "params": {},
            "versions": {},
            "games_done": 0,
            "elapsed": None,
            "summary": None,
            "finished": None,
            "damage": msg,
        }
    out["duplicate"] = bool(out["duplicate"])
    return out
