"""The user modules a Ray cluster is sent: every module a spec makes the workers import, found
from the working folder as the workers would find it; nothing of the project or site-packages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agents.tournament.shipping import stage, user_modules


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "ship_probe_bot.py").write_text("class Bot:\n    pass\n")
    (tmp_path / "ship_probe_pkg").mkdir()
    (tmp_path / "ship_probe_pkg" / "__init__.py").write_text("")
    (tmp_path / "ship_probe_pkg" / "keep.py").write_text("def fives(hand, dealer):\n    pass\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_agent_named_by_import_path_is_shipped_once(folder: Path) -> None:
    specs = ["ship_probe_bot:Bot", "ship_probe_bot:Bot:x=1", "expert", "random"]
    assert user_modules(specs) == (folder / "ship_probe_bot.py",)


def test_a_discarders_own_strategy_is_shipped(folder: Path) -> None:
    specs = [
        "discarder:strategy=ship_probe_pkg.keep:fives",
        "discarder:strategy=agent:ship_probe_bot:Bot",
        "discarder:strategy=analyzer",
        "discarder:strategy=agent:expert",
    ]
    assert user_modules(specs) == (folder / "ship_probe_pkg", folder / "ship_probe_bot.py")
    staged = stage(user_modules(specs))
    assert staged is not None
    try:
        assert sorted(p.name for p in staged.iterdir()) == ["ship_probe_bot.py", "ship_probe_pkg"]
    finally:
        shutil.rmtree(staged)
