"""``cribbage analyze``: table, JSON, and exit 2 with a message on bad input."""

from __future__ import annotations

import json

import pytest

from cribbage_env.analysis.discard import analyze_discards
from ui.cli.cli import main


def test_json_lists_all_15_best_first(capsys) -> None:
    assert main(["analyze", "5H 5D JS QC 2C 3D", "--dealer", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 15
    for row in data:
        assert len(row["keep"]) == 4 and len(row["discard"]) == 2
        assert row["net"] == pytest.approx(row["hand_ev"] + row["crib_ev"], abs=1e-3)
    nets = [row["net"] for row in data]
    assert nets == sorted(nets, reverse=True)
    assert data[0]["keep"] == ["5H", "5D", "JS", "QC"]
    assert data[0]["crib_ev"] > 0  # own crib is added


def test_pone_crib_is_subtracted_and_matches_the_api(capsys) -> None:
    assert main(["analyze", "5H 5D JS QC 2C 3D", "--pone", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(row["crib_ev"] < 0 for row in data)
    api = analyze_discards("5H 5D JS QC 2C 3D", dealer=False)
    assert [row["discard"] for row in data] == [o.to_json()["discard"] for o in api]


def test_table_output(capsys) -> None:
    assert main(["analyze", "5h 5d js qc 2c 3d", "--dealer", "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "dealer" in out[0]
    assert len(out) == 2 + 3
    assert "5H 5D JS QC" in out[2]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["analyze", "5H 5D JS QC 2C", "--dealer"], "exactly 6"),
        (["analyze", "5H 5D JS QC 2C 2C", "--pone"], "repeats"),
        (["analyze", "5H 5D JS QC 2C ZZ", "--pone"], "bad card"),
        (["analyze", "5H 5D JS QC 2C 3D", "--dealer", "--top", "0"], "--top"),
    ],
)
def test_bad_input_exits_2_with_a_message(argv, message, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_missing_seat_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["analyze", "5H 5D JS QC 2C 3D"])
    assert exc.value.code == 2
    assert "--dealer" in capsys.readouterr().err
