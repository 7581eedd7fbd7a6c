"""The results page is generated from the results files: up to date, clean, and a new file (with
or without its provenance) appears on it without an edit to the generator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import publish  # noqa: E402
import results_page  # noqa: E402


def test_the_committed_page_is_the_generated_one() -> None:
    page = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert page == results_page.render(), "run: python benchmarks/results_page.py"


def test_the_page_names_every_results_file_and_no_machine_path_or_issue() -> None:
    text = results_page.render()
    assert publish.problems(text) == []
    for path in (ROOT / "benchmarks" / "results").rglob("*"):
        if path.is_file() and path.suffix != ".jsonl":
            rel = path.relative_to(ROOT / "benchmarks" / "results").as_posix()
            assert f"### {rel}\n" in text


def test_a_new_file_appears_with_what_it_records_and_says_what_it_does_not(tmp_path) -> None:
    made = {
        "command": "python benchmarks/strength/new_thing.py --games 10 --out x.json",
        "commit": "0123456789ab",
        "date": "2026-12-06 17:00 UTC",
        "machine": "x86_64, 2 CPUs, Python 3.11.7",
        "load": [1.5, 2.0, 2.25],
        "win_rate": 0.5312,
    }
    (tmp_path / "new_thing.json").write_text(json.dumps(made))
    (tmp_path / "old_thing.json").write_text(json.dumps({"speed": {"per_s": 12345.678}}))
    (tmp_path / "run.games.jsonl").write_text("{}\n")  # a checkpoint, not a result
    text = results_page.render(tmp_path)
    new = text[text.index("### new_thing.json") :].split("###")[1]
    assert "## Strength" in text and "win_rate: 0.5312" in new
    for value in ("`python benchmarks/strength/new_thing.py --games 10 --out x.json`",
                  "commit: 0123456789ab", "date: 2026-12-06 17:00 UTC",
                  "machine: x86_64, 2 CPUs", "load: 1.5, 2, 2.25"):  # fmt: skip
        assert value in new
    assert "not recorded" not in new
    old = text[text.index("### old_thing.json") :]
    assert "speed / per_s: 12,346" in old
    assert "not recorded in the file: command, commit, date, machine, load" in old
    assert "jsonl" not in text
