"""The module paths of the flat ``agents`` layout that moved into its rooms, kept importable for
one release with a DeprecationWarning naming the import to use (see :mod:`cribbage_env.moved`)."""

from __future__ import annotations

from cribbage_env.moved import install

#: Old module path -> where the module lives now.
MOVED: dict[str, str] = {
    **{
        f"agents.{name}": f"agents.players.{name}"
        for name in (
            "expectimax", "expert", "fastplay", "greedy", "maskable_ppo_agent", "master",
            "neural", "openspiel_bots", "policy_net", "random_agent",
        )
    },
    **{
        f"agents{room}.{name}": f"agents.search.{name}"
        for room in ("", ".players")
        for name in ("inference", "opponent_model", "peg_search", "pegging")
    },
    **{
        f"agents.{name}": f"agents.tournament.{name}"
        for name in (
            "backends", "game_result", "limits", "luck_stats", "procs", "runner", "shipping",
            "summary", "tables",
        )
    },
    **{
        f"agents{room}.{name}": f"agents.seats.{name}"
        for room in ("", ".tournament")
        for name in ("isolate", "sources", "trust")
    },
    **{
        f"agents.{name}": f"agents.store.{name}"
        for name in ("atomic", "bench_records", "files", "results_schema", "results_store")
    },
    **{f"agents.learn.{name}": f"agents.nets.{name}" for name in ("features", "mlp", "oracle", "weights")},
    "agents.learn.rollouts": "agents.players.rollouts",
    "agents.chance": "agents.coaching.chance",
    "agents.coach": "agents.coaching.coach",
    "agents.run_check": "agents.stored_runs.run_check",
    "agents.seat_worker": "agents.seat_server",
    "agents.tournament.seat_worker": "agents.seat_server",
    "agents.seeding": "cribbage_env.seeding",
}  # fmt: skip


def install_moved() -> None:
    """Make the old paths importable (the package's face calls this once)."""
    install(MOVED, faces=("agents", "cribbage_env"))
