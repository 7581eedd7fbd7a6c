"""A stored run read back: the plan it recorded rebuilt from its parameters, what it already holds
(the tally of its saved games and the blocks to skip), and the report of its saved games.

:func:`resume_plan` is how :func:`agents.bench.resume_tournament` finishes an interrupted,
failed or killed run with its recorded seeds and agent seed, refusing what cannot be finished
exactly (a run still running, another kind of run, agent objects not given again, a spec read
from the file that would run code); :func:`summary_so_far` reports a run's saved games without
building an agent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cribbage_env as ce

from ..arena.seat import SeatLimits, database_files
from ..seats.sources import AgentSource
from ..seats.trust import check_stored_specs
from ..store.db_errors import ResultsStoreError
from ..store.provenance import versions
from ..store.results_store import ResultsStore
from ..tournament.summary import Tally
from ..tournament.tournament import TournamentError, TournamentPlan, make_plan


@dataclass(frozen=True)
class Resumed:
    """What a stored run already holds when it is resumed: its id, the tally of its saved games,
    the blocks to skip (``skip(pairing, start)``) and what to warn about."""

    run_id: int
    tally: Tally
    skip: Callable[[int, int], bool]
    warn: tuple[str, ...] = ()


def resume_plan(
    db: ResultsStore, run_id: int, agents: Sequence[AgentSource] | None
) -> tuple[TournamentPlan, Resumed]:
    run = db.run(run_id)
    status, params = run["status"], run["params"]
    if status == "running":
        raise TournamentError(
            f"run {run_id} is still running (process {run.get('pid')} on {run.get('host')}); "
            f"stop it first, or wait for it"
        )
    if status == "complete":
        raise TournamentError(f"run {run_id} is complete: nothing to resume")
    if params.get("kind", "tournament") != "tournament":
        raise TournamentError(
            f"run {run_id} is a {params['kind']} run, not a tournament: run it again"
        )
    if "agent_seed" not in params or "block" not in params:
        raise TournamentError(
            f"run {run_id} was made by an older version that did not record its agent seed: "
            f"it cannot be finished exactly; start a new run"
        )
    objects = params.get("objects") or []
    if objects and agents is None and str(objects[0]).startswith("exploit["):
        raise TournamentError(f"run {run_id} is an exploit run: `cribbage exploit --resume "
                              f"{run_id} --db {db.path}` finishes it")  # fmt: skip
    if objects and agents is None:
        raise TournamentError(
            f"run {run_id} played agent objects ({', '.join(objects)}), which a database cannot "
            f"rebuild: pass them again, resume_tournament({run_id}, ..., agents=[...])"
        )
    if (
        agents is None
    ):  # specs from the file are built only when plain built-ins (agents.seats.trust)
        stored = params.get("agents")
        check_stored_specs(
            stored if isinstance(stored, list) else [stored],
            (),
            f"run {run_id} of {db.path}",
            f"name the run's agents again to resume it (cribbage bench --resume {run_id} AGENT ...)",
        )
    plan = stored_plan(db, run_id, params, agents)
    mine = plan.params()
    if any(mine[k] != params.get(k) for k in mine if k != "objects"):
        raise TournamentError(
            f"the agents given ({', '.join(plan.agents)}) are not those of run {run_id} "
            f"({', '.join(params['agents'])})"
        )
    counts = db.block_counts(run_id, plan.block)

    def skip(pairing: int, start: int) -> bool:
        return counts.get((pairing, start), 0) >= plan.block_games(start)

    tally = Tally(plan).add(db.iter_games(run_id))
    warn = []
    then, now = run["versions"].get("git_commit"), versions().get("git_commit")
    if then and now and then != now:
        warn.append(f"run {run_id} was started by commit {then[:10]}, resumed by {now[:10]}")
    return plan, Resumed(run_id, tally, skip, tuple(warn))


def stored_plan(db: ResultsStore, run_id: int, params: dict, agents, check: bool = True):
    """The plan run ``run_id`` recorded, rebuilt from its parameters (``check=False``: no agent
    is built or imported, for reading a run's games)."""
    try:
        limits = SeatLimits.from_json(params.get("seat_limits", {}))
    except ValueError as exc:
        raise ResultsStoreError(
            f"run {run_id} in {db.path} has damaged parameters ({exc})"
        ) from None
    try:
        return make_plan(
            agents if agents is not None else params["agents"], params["games"], params["seed"],
            duplicate=params["duplicate"], block=params["block"], agent_seed=params["agent_seed"],
            rules=ce.Rules.from_json(params.get("rules", {})), check_agents=check,
            isolate=params.get("isolate"), deal_key=params.get("deal_key"),
            seat_limits=limits, hidden=database_files(db.path),
        )  # fmt: skip
    except (KeyError, TypeError, ce.RulesError) as exc:
        raise ResultsStoreError(
            f"run {run_id} in {db.path} has damaged parameters ({exc})"
        ) from None


def summary_so_far(db: ResultsStore, run_id: int, prior: float = 1.0) -> dict:
    """The report of the games run ``run_id`` has saved, for a run still running or stopped
    before its end (a finished run has its summary saved). Builds no agent."""
    params = db.run(run_id)["params"]
    plan = stored_plan(db, run_id, params, params.get("agents"), check=False)
    return Tally(plan).add(db.iter_games(run_id)).summary(prior)
