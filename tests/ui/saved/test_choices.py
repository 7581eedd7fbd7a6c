"""The start screen's choices remembered across launches (ui/saved/choices.py)."""

from __future__ import annotations

import json

from cribbage_env.rules.core import VARIANTS
from ui.saved.choices import CHOICES_NAME, MAX_BYTES, apply_choices, load_choices, save_choices
from ui.scenes.screens.start_scene import StartOptions


def test_choices_come_back_as_they_were_left(tmp_path) -> None:
    short = next(v for v in VARIANTS.values() if not v.is_standard)
    o = StartOptions(level="expert", hotseat=True, lang="es", four_colour=True, sound=True,
                     coach=0.02, rules=short, focus="rules")  # fmt: skip
    save_choices(tmp_path, o, durable=False)
    back = StartOptions()
    apply_choices(back, load_choices(tmp_path), given=set())
    for field in ("level", "hotseat", "lang", "four_colour", "sound", "coach", "rules"):
        assert getattr(back, field) == getattr(o, field), field
    assert back.focus == "play"  # where the keyboard was is not a choice
    assert not list(tmp_path.glob(".*.tmp"))  # written to a temp name, then replaced


def test_the_command_line_wins(tmp_path) -> None:
    save_choices(tmp_path, StartOptions(level="hard", lang="fr"), durable=False)
    o = StartOptions(lang="es")
    apply_choices(o, load_choices(tmp_path), given={"lang"})
    assert o.lang == "es" and o.level == "hard"


def test_a_bad_file_gives_only_its_good_values(tmp_path) -> None:
    path = tmp_path / CHOICES_NAME
    path.write_text(json.dumps({"level": "godlike", "lang": "fr", "coach": 0.5, "sound": "yes",
                                "hotseat": 1, "rules": "__import__", "extra": [1]}))  # fmt: skip
    assert load_choices(tmp_path) == {"lang": "fr"}
    path.write_text("[1, 2]")
    assert load_choices(tmp_path) == {}
    path.write_text("{not json")
    assert load_choices(tmp_path) == {}
    path.write_text(json.dumps({"lang": "fr", "pad": "x" * MAX_BYTES}))  # too big: not read
    assert load_choices(tmp_path) == {}
    assert load_choices(tmp_path / "nowhere") == {}


def test_play_reads_them_only_for_choices_not_given() -> None:
    import argparse

    from ui.cli import cmd_play

    p = argparse.ArgumentParser()
    cmd_play.add_arguments(p)
    assert cmd_play._given(p.parse_args([])) == set()
    given = cmd_play._given(p.parse_args(["--lang", "fr", "--opponent", "hard", "--hotseat"]))
    assert given == {"lang", "level", "hotseat"}
