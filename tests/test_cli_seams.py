"""Seams between the ``cribbage`` commands: what one command says must agree with its siblings,
and an option that cannot act says so instead of being ignored (review of Dec 2)."""

from __future__ import annotations

import json

from ui.cli import main


def _run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _bench(capsys, db, *more: object) -> tuple[int, str, str]:
    return _run(
        capsys, "bench", "random", "greedy", "--games", 2, "--workers", 1, "--backend", "serial",
        "--agent-seed", 1, "--no-progress", "--db", db, *more,
    )  # fmt: skip


def test_results_name_the_rules_and_a_comparison_across_rules_says_so(capsys, tmp_path) -> None:
    """A run to 61 and a run to 121 of the same pairing were shown and compared as if alike: no
    command said which rules a run was played by."""
    db = tmp_path / "r.sqlite"
    code, out, _ = _bench(capsys, db)
    assert code == 0 and "rules standard" in out.splitlines()[0]
    code, out, _ = _bench(capsys, db, "--rules", "short")
    assert code == 0 and "rules short" in out.splitlines()[0]
    code, out, _ = _run(capsys, "results", "--db", db)
    assert code == 0
    listed = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert "short" in listed["2"] and "short" not in listed["1"]
    code, out, _ = _run(capsys, "results", "--db", db, "--json")
    assert [r["rules"] for r in json.loads(out)["runs"]] == ["short", "standard"]
    code, out, _ = _run(capsys, "results", 2, "--db", db)
    assert code == 0 and "rules short" in out.splitlines()[0]
    code, out, _ = _run(capsys, "results", 1, 2, "--db", db)
    assert code == 0 and "different rules" in out and "standard" in out and "short" in out
    code, out, _ = _run(capsys, "results", 1, 2, "--db", db, "--json")
    assert json.loads(out)["rules"] == ["standard", "short"]
    code, out, _ = _bench(capsys, db, "--seed", 5)
    code, out, _ = _run(capsys, "results", 1, 3, "--db", db)
    assert code == 0 and "different rules" not in out
