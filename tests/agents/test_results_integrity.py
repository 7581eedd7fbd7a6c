"""Results that cannot be forged after the fact: a stored game that its seed and moves do not
play to, a summary that does not count the stored games, or a file with objects of another
program's (a trigger, a view) make the run damaged or the file refused; nothing forged is
exported and nothing is written to a foreign file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from agents.bench import run_tournament
from agents.store.db_errors import ResultsStoreError
from agents.store.results_store import ResultsStore
from ui.cli.cli import main


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "r.sqlite"
    out = run_tournament(
        ["random", "greedy"], 6, seed=2, agent_seed=3, backend="serial", store=path
    )
    assert out.status == "complete"
    return path


def _export(db: Path, tmp_path: Path, capsys) -> tuple[int, str, Path]:
    csv = tmp_path / "games.csv"
    code = main(["results", "1", "--per-game", "--csv", str(csv), "--db", str(db)])
    return code, capsys.readouterr().err, csv


def test_an_honest_run_exports(db: Path, tmp_path: Path, capsys) -> None:
    code, err, csv = _export(db, tmp_path, capsys)
    assert code == 0, err
    assert len(csv.read_text().splitlines()) == 7


def test_a_forged_winner_is_not_exported(db: Path, tmp_path: Path, capsys) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET winner = 1 - winner WHERE idx = 1 AND swapped = 0")
    code, err, csv = _export(db, tmp_path, capsys)
    assert code == 1 and "run 1 is damaged" in err and "winner" in err, err
    assert not csv.exists()
    with ResultsStore(db, create=False) as store, pytest.raises(ResultsStoreError, match="damaged"):
        store.games(1)


def test_forged_moves_and_scores_are_not_exported(db: Path, tmp_path: Path, capsys) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET score0 = 121, score1 = 80 WHERE idx = 0 AND swapped = 1")
        con.execute("UPDATE games SET moves = '1 2 3' WHERE idx = 2 AND swapped = 0")
    code, err, _ = _export(db, tmp_path, capsys)
    assert code == 1 and "damaged" in err, err


def test_a_forged_summary_makes_the_run_damaged(db: Path, tmp_path: Path, capsys) -> None:
    with sqlite3.connect(db) as con:
        summary = json.loads(con.execute("SELECT summary FROM runs WHERE id = 1").fetchone()[0])
        wins = summary["pairings"][0]["wins"]
        summary["pairings"][0]["wins"] = [wins[1], wins[0]] if wins[0] != wins[1] else [6, 0]
        con.execute("UPDATE runs SET summary = ? WHERE id = 1", (json.dumps(summary),))
    assert main(["results", "1", "--db", str(db)]) == 1
    assert "its summary says pairing 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TRIGGER flip AFTER INSERT ON games BEGIN "
        "UPDATE games SET winner = 1 - NEW.winner WHERE rowid = NEW.rowid; END",
        "CREATE VIEW winners AS SELECT winner FROM games",
        "CREATE INDEX by_seed ON games(seed)",
        "ALTER TABLE games ADD COLUMN note TEXT",
    ],
)
def test_a_file_with_objects_of_its_own_is_refused_untouched(db: Path, sql: str, capsys) -> None:
    with sqlite3.connect(db) as con:
        con.execute(sql)
    before = db.read_bytes()
    with pytest.raises(ResultsStoreError, match="what our schema does not make"):
        ResultsStore(db)
    code = main(["bench", "random", "random", "--games", "2", "--backend", "serial",
                 "--db", str(db)])  # fmt: skip
    assert code == 1 and "another program changed it" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_a_view_in_place_of_the_games_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    with ResultsStore(path):
        pass
    with sqlite3.connect(path) as con:
        con.execute("ALTER TABLE games RENAME TO real_games")
        con.execute("CREATE VIEW games AS SELECT * FROM real_games")
    with pytest.raises(ResultsStoreError, match="view games"):
        ResultsStore(path)


# ------------------------------------------------------------------ every column a figure uses


def _show(db: Path, capsys) -> tuple[int, str]:
    code = main(["results", "1", "--db", str(db)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("update", "reason"),
    [
        ("UPDATE games SET luck_win = luck_win + 0.4", "luck"),
        ("UPDATE games SET s0_peg_dealer = s0_peg_dealer + 5 WHERE idx = 1", "points by role"),
        ("UPDATE games SET s1_crib = s1_crib + 4, s1_hand_pone = s1_hand_pone - 4 WHERE idx = 0",
         "points by role"),
    ],
)  # fmt: skip
def test_forged_luck_and_role_points_make_the_run_damaged(db: Path, capsys, update, reason):
    with sqlite3.connect(db) as con:
        con.execute(update)
    code, err = _show(db, capsys)
    assert code == 1 and "run 1 is damaged" in err and reason in err, err


def test_a_game_moved_to_another_deal_pair_makes_the_run_damaged(db: Path, capsys) -> None:
    """A whole honest row copied over another pair's (it replays, but not from the run's seed
    of that pair): the duplicate deals and their luck would no longer be the run's."""
    with sqlite3.connect(db) as con:
        con.row_factory = sqlite3.Row
        row = dict(con.execute("SELECT * FROM games WHERE idx = 1 AND swapped = 0").fetchone())
        cols = [c for c in row if c not in ("run_id", "pairing", "idx", "swapped")]
        con.execute(
            f"UPDATE games SET {', '.join(f'{c} = ?' for c in cols)} WHERE idx = 0 AND swapped = 0",
            [row[c] for c in cols],
        )
    code, err = _show(db, capsys)
    assert code == 1 and "is not the run's seed" in err, err


def test_a_forged_summary_figure_makes_the_run_damaged(db: Path, capsys) -> None:
    """Every figure of the saved summary is what the stored games give: a luck-adjusted
    estimate edited in the summary alone is found."""
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT summary FROM runs WHERE id = 1").fetchone()
        summary = json.loads(text)
        summary["pairings"][0]["luck_adjusted"]["win"] = 0.99
        con.execute("UPDATE runs SET summary = ? WHERE id = 1", (json.dumps(summary),))
    code, err = _show(db, capsys)
    assert code == 1 and "saved summary" in err and "'pairings'" in err, err
