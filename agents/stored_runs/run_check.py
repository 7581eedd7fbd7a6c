"""A finished run checked against itself: its stored games (seeds, moves, points by role, a
sample's luck) and its saved summary, figure by figure, before ``cribbage results`` shows it."""

from __future__ import annotations

import json

from ..store.db_errors import ResultsStoreError
from ..store.results_store import ResultsStore
from .resuming import summary_so_far

#: The parts of a finished run's saved summary that its stored games must give again exactly
#: (the ratings follow from the pairings' wins and the person's prior).
SUMMARY_CHECKED = ("agents", "games_planned", "games_played", "pairings", "params")


def verify_run(db: ResultsStore, run_id: int) -> None:
    """Check a run's stored games (:meth:`ResultsStore.verify`: seeds, moves, points by role,
    a random sample's luck) and that its saved summary is what they give, figure by figure
    (ResultsStoreError naming the first that differs: the run is damaged)."""
    db.verify(run_id)
    run = db.run(run_id)
    saved = run.get("summary") or {}
    if run["params"].get("kind", "tournament") != "tournament" or not saved.get("pairings"):
        return
    again = json.loads(json.dumps(summary_so_far(db, run_id)))
    for key in SUMMARY_CHECKED:
        if saved.get(key) != again.get(key):
            raise ResultsStoreError(
                f"results database {db.path}: run {run_id} is damaged: its saved summary's "
                f"{key!r} is not what its stored games give"
            )
