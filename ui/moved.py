"""The module paths of the flat ``ui`` layout that moved into its rooms, kept importable for one
release with a DeprecationWarning naming the new path (see :mod:`cribbage_env.moved`)."""

from __future__ import annotations

from cribbage_env.moved import install

#: Old module path -> where the module lives now.
MOVED: dict[str, str] = {
    **{
        f"ui.{name}": f"ui.table.{name}"
        for name in (
            "board", "commands", "computer", "controller", "history", "safety", "saves", "seats",
            "selection", "show", "warmup",
        )
    },
    **{
        f"ui{room}.{name}": f"ui.table.teaching.{name}"
        for room in ("", ".table")
        for name in ("chances", "coach", "hints", "tutorial")
    },
    **{
        f"ui.{name}": f"ui.scenes.{name}"
        for name in (
            "board_scene", "coach_scene", "motion", "review_scene", "scene", "summary_scene",
            "table_scene", "tutorial_scene",
        )
    },
    **{f"ui.{name}": f"ui.scenes.screens.{name}" for name in ("rules_scene", "stats_scene")},
    **{
        f"ui.scenes.{name}": f"ui.scenes.screens.{name}"
        for name in ("past_scene", "rules_scene", "settings_scene", "stats_scene")
    },
    **{
        f"ui.{name}": f"ui.cli.{name}"
        for name in (
            "cmd_agents", "cmd_analyze", "cmd_bench", "cmd_discards", "cmd_equity", "cmd_play",
            "cmd_replay", "cmd_results", "cmd_review", "cmd_stats", "cmd_warmup",
        )
    },
    **{
        f"ui{room}.{name}": f"ui.cli.args.{name}"
        for room in ("", ".cli")
        for name in ("argtypes", "options")
    },
    **{f"ui.{name}": f"ui.reports.{name}" for name in ("bench_plots", "bench_report", "player_stats", "record_stats")},
    **{f"ui.{name}": f"ui.saved.{name}" for name in ("autosave", "seeds", "shelf")},
    **{f"ui.{name}": f"ui.words.{name}" for name in ("i18n", "narration")},
    **{
        f"ui.gui.{name}": f"ui.gui.drawing.{name}"
        for name in ("board_art", "card_art", "render", "window")
    },
    "ui.cmd_train": "ui.cli.cmd_train",
    "ui.train_config": "ui.cli.cmd_train.config",
    "ui.cli.train_config": "ui.cli.cmd_train.config",
    "ui.bench_records": "agents.store.bench_records",
    "ui.files": "agents.store.files",
}  # fmt: skip


def install_moved() -> None:
    """Make the old paths importable (the package's face calls this once)."""
    install(MOVED, faces=("agents", "cribbage_env"))
