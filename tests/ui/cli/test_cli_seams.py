"""Seams between the ``cribbage`` commands: what one command says must agree with its siblings,
and an option that cannot act says so instead of being ignored (review of Dec 2)."""

from __future__ import annotations

import json

from ui.cli.cli import main


def _run(capsys, *argv: object) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
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


def test_review_text_counts_seats_and_deals_one_way_and_names_points_as_points() -> None:
    """The luck section of ``cribbage review`` said "Player 1/2" and counted deals from 1 under
    a table that counts seats and deals from 0 (as the JSON does), and called a points margin
    "game points" (a game is worth 1 to 3 game points)."""
    from agents.review import review_game
    from agents.tournament.play import play_game
    from ui.cli.cmd_review import review_text

    game = play_game("greedy", "random", 3, agent_seed=1, rules="short")
    review = review_game(game, samples=2, candidates=2)
    text = review_text(review, game.rules)
    assert "Player" not in text and "P1" not in text and "game points" not in text
    js = review.to_json()
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("deal dealer"))
    first = lines[head + 1].split()
    assert first[:2] == ["0", str(review.deal_rows()[0]["dealer"])]  # seat numbers, from 0
    seat_lines = [line for line in lines if line.startswith(("Seat 0: from", "Seat 1: from"))]
    assert len(seat_lines) == 2 and all("decisions: seat " in line for line in seat_lines)
    (events,) = [line for line in lines if line.startswith("Luck is the chance events")]
    assert "seat 0" in events and "points margin" in events
    assert js["rows"] and js["rows"][0]["deal"] == 0


def test_stats_reads_the_data_folder_that_play_was_given(tmp_path, capsys) -> None:
    """``cribbage play --data-dir D`` keeps its history in D/history, but ``cribbage stats``
    had only ``--dir`` (the history folder itself): ``stats --dir D`` found nothing."""
    from table_play import history_folder

    from ui.saved.autosave import SaveStore  # what `play --data-dir` opens

    data = tmp_path / "data"
    data.mkdir()
    folder, games = history_folder(data, n=1)
    assert folder == SaveStore(data).history
    code, out, err = _run(capsys, "stats", "--data-dir", data, "--no-review", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 1
    code, _, err = _run(capsys, "stats", "--data-dir", data, "--dir", folder)
    assert code == 2 and "not allowed with" in err


def test_discards_refuses_game_options_without_games(tmp_path, capsys) -> None:
    """``--rules``, ``--workers``, ``--agent-seed`` and ``--backend ray`` act only on the whole
    games of ``--games N``; without it they were ignored in silence (and ``--rules short`` was
    even saved with the run as if the deals had been played to 61)."""
    db = tmp_path / "r.sqlite"
    base = ("discards", "analyzer", "--deals", 4, "--db", db)
    for extra in (
        ("--rules", "short"),
        ("--workers", 1),
        ("--agent-seed", 3),
        ("--backend", "ray"),
    ):
        code, out, err = _run(capsys, *base, *extra)
        assert code == 2 and extra[0] in err and "--games" in err and out == "", (extra, err)
    assert not db.exists()
    code, out, err = _run(capsys, *base, "--backend", "serial")
    assert code == 0, err


def test_equity_takes_rules_like_its_siblings_and_names_its_units(capsys) -> None:
    """Every other command says ``--rules short``; ``equity`` wanted ``--target 61``. And its
    "table error +/- 0.06 points" was percentage points of winning chance, not points."""
    from cribbage_env.equity import win_probability

    code, out, err = _run(capsys, "equity", 50, 40, "--dealer", "me", "--rules", "short")
    assert code == 0, err
    assert f"{100 * win_probability(50, 40, dealer=True, target=61):.1f}%" in out
    assert "percentage points" in out
    code, out, _ = _run(capsys, "equity", 50, 40, "--dealer", "me", "--rules", "short", "--json")
    assert json.loads(out)["win"] == round(win_probability(50, 40, dealer=True, target=61), 6)
    code, _, err = _run(capsys, "equity", 50, 40, "--dealer", "me", "--rules", "target=200")
    assert code == 2 and "121" in err


def test_bench_records_never_overwrite_another_runs_records(tmp_path, capsys) -> None:
    """A second ``--records DIR`` into the same folder replaced the first run's records of the
    same seeds and its index.json in silence: records lost."""
    db, rec = tmp_path / "r.sqlite", tmp_path / "rec"
    code, _, err = _bench(capsys, db, "--records", rec)
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in rec.iterdir()}
    assert "index.json" in before and len(before) == 3
    code, out, err = _bench(capsys, db, "--records", rec, "--agent-seed", 2)
    assert code == 2 and str(rec) in err and "index.json" in err and out == ""
    assert {p.name: p.read_bytes() for p in rec.iterdir()} == before


def test_train_refuses_options_its_method_does_not_use(tmp_path, capsys) -> None:
    """``--method dmc --timesteps N``, ``--method ppo --generations N`` or ``--method dmc
    --teacher expert`` trained as if the option were not there (dmc always clones expectimax)."""
    import argparse

    from ui.cli.cmd_train.arguments import add_arguments
    from ui.cli.cmd_train.command import _config, _usage_problem

    run = tmp_path / "run"
    for method, extra in (
        ("dmc", ["--timesteps", "100"]),
        ("ppo", ["--generations", "3"]),
        ("ppo", ["--shards", "2"]),
        ("dmc", ["--teacher", "expert"]),
        ("bc", ["--warm-start", str(tmp_path / "w.npz")]),
        ("exit", ["--n-steps", "64"]),
    ):
        code, _, err = _run(capsys, "train", "--method", method, "--run-dir", run, *extra)
        assert code == 2 and extra[0] in err and f"--method {method}" in err, (method, err)
        assert not run.exists()
    p = argparse.ArgumentParser()
    add_arguments(p)
    for method, extra, field, value in (
        ("ppo", ["--timesteps", "100"], "timesteps", 100),
        ("bc", ["--shards", "2", "--teacher", "greedy"], "shards", 2),
        ("exit", ["--generations", "2", "--teacher", "greedy"], "generations", 2),
        ("dmc", ["--games-per-shard", "3"], "games_per_shard", 3),
    ):
        args = p.parse_args(["--method", method, "--run-dir", str(run), *extra])
        assert _usage_problem(args) is None
        assert getattr(_config(args), field) == value
    defaults = _config(p.parse_args(["--method", "dmc"]))
    from agents.learn.dmc import DMCConfig

    assert (defaults.shards, defaults.generations) == (DMCConfig.shards, DMCConfig.generations)


def test_review_candidates_help_says_what_the_number_counts(capsys) -> None:
    """``--candidates N`` rates the analyzer's N best splits plus the one taken (so 15 is all of
    them); the help said "splits rated besides the one taken (default 15)", one more than exist."""
    from agents.coaching.judge import DEFAULT_CANDIDATES

    code, out, _ = _run(capsys, "review", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "besides the one taken" not in text
    assert (
        f"the analyzer's N best discard splits, plus the one taken (default {DEFAULT_CANDIDATES}: all)"
        in text
    )


def test_train_help_says_where_a_run_goes_by_default(capsys) -> None:
    """Without ``--run-dir`` a run is written to runs/train under the current folder; the help
    did not say so."""
    code, out, _ = _run(capsys, "train", "--help")
    assert code == 0 and "(default runs/train" in " ".join(out.split())
