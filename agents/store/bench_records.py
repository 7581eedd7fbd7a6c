"""``cribbage bench --records DIR``: the JSON game records of chosen games, written as blocks
finish (so a killed run keeps the records of its saved games), each file atomically, plus an
``index.json`` naming the agents in each seat. Temporary files a killed writer left behind
(``.NAME.json.*.tmp``, older than a minute) are removed when a run writes to the folder again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from ..tournament.game_result import GameResult
from ..tournament.tournament import TournamentPlan
from .atomic import atomic_write_json

#: a temporary file this old is no live writer's.
STALE_TMP_S = 60.0


def _slug(spec: str) -> str:
    """An agent spec as a file-name part: ``expectimax:counter=0`` -> ``expectimax_counter-0``."""
    out = "".join(ch if ch.isalnum() or ch in "-." else "_" if ch in ":," else "-" for ch in spec)
    return out.strip("_-") or "agent"


def clean_stale_tmp(directory: Path, older_than: float = STALE_TMP_S) -> list[Path]:
    """Remove ``.*.json.*.tmp`` files (our atomic writes' temporaries) older than ``older_than`` s."""
    removed = []
    now = time.time()
    for p in directory.glob(".*.json.*.tmp"):
        try:
            if now - p.stat().st_mtime > older_than:
                p.unlink()
                removed.append(p)
        except OSError:
            pass
    return removed


class RecordWriter:
    """Writes the record of every game whose duplicate-pair index is a multiple of ``every`` (the
    same games whatever the backend). A replay that disagrees with the tournament's result
    raises ValueError (a tournament bug, never written as a record)."""

    def __init__(self, plan: TournamentPlan, directory: Path, every: int = 1, *,
                 run_id: int | None = None) -> None:  # fmt: skip
        self.plan, self.directory, self.every, self.run_id = plan, directory, every, run_id
        self.entries: list[dict] = []
        directory.mkdir(parents=True, exist_ok=True)
        clean_stale_tmp(directory)

    def add(self, block: Sequence[GameResult]) -> list[Path]:
        import cribbage_env as ce

        written = []
        for r in block:
            if r.index % self.every:
                continue
            pairing = self.plan.pairings[r.pairing]
            seats = (pairing.b, pairing.a) if r.swapped else (pairing.a, pairing.b)
            g = ce.replay(r.seed, r.moves, rules=self.plan.rules)  # automatic cuts (ce.new_game)
            if (g.winner != r.winner and not r.forfeit) or g.scores != tuple(r.scores):
                raise ValueError(f"game seed {r.seed} does not replay to its result {r.scores}")
            name = (
                f"p{r.pairing}-g{r.index:05d}{'b' if r.swapped else 'a'}-"
                f"{_slug(seats[0])}-vs-{_slug(seats[1])}.json"
            )
            atomic_write_json(self.directory / name, g.to_record())
            written.append(self.directory / name)
            self.entries.append({"file": name, "pairing": r.pairing, "index": r.index,
                                 "swapped": r.swapped, "seats": list(seats), "seed": r.seed,
                                 "winner": r.winner, "scores": list(r.scores),
                                 **({"forfeit": r.forfeit} if r.forfeit else {})})  # fmt: skip
        return written

    def close(self) -> Path:
        """Write ``index.json`` (the games in pairing, pair, seat order)."""
        self.entries.sort(key=lambda e: (e["pairing"], e["index"], e["swapped"]))
        path = self.directory / "index.json"
        atomic_write_json(path, {"format": "cribbage-env/bench-records", "run": self.run_id,
                                 "params": self.plan.params(), "record_every": self.every,
                                 "games": self.entries})  # fmt: skip
        return path


def write_records(plan: TournamentPlan, results: Sequence[GameResult], directory: Path,
                  every: int = 1, *, run_id: int | None = None) -> list[Path]:  # fmt: skip
    """All at once: the records of ``results`` and the index (see :class:`RecordWriter`)."""
    w = RecordWriter(plan, directory, every, run_id=run_id)
    written = w.add(results)
    w.close()
    return written
