"""Totals add up: pegging + hand + crib equal the final score wherever a game's score is shown,
the points past the target counted by the one rule (``Rules.counted``)."""

from __future__ import annotations

import json

import pytest
from table_play import play_out

import cribbage_env as ce
from ui.cli.cli import main
from ui.scenes.scene import Rect, Scene
from ui.scenes.summary_scene import game_summary_items
from ui.table.controller import Mode, TableController
from ui.table.show import points_by_part


def _finished(seed: int) -> TableController:
    ctl = TableController(seed, mode=Mode.COMPUTER, opponent="greedy", agent_seed=1, rules="short")
    play_out(ctl, seed)
    return ctl


def _rows(ctl: TableController) -> list[list[int]]:
    """The game-over table's numbers, one row (pegging, hand, crib, total) per player."""
    s = Scene()
    game_summary_items(s, ctl, Rect(0, 0, 800, 600), 400)
    by_y: dict[float, list[int]] = {}
    for lb in s.labels:
        if lb.text.isdigit():
            by_y.setdefault(lb.y, []).append(int(lb.text))
    return [by_y[y] for y in sorted(by_y, reverse=True)]


@pytest.mark.parametrize("seed", [0, 2, 6])
def test_the_game_over_table_adds_up_to_the_final_score(seed: int) -> None:
    ctl = _finished(seed)
    g = ctl.game
    assert max(g.scores) > 61  # the last scoring passed the target: 62 to 73 before the cut
    final = tuple(min(v, 61) for v in g.scores)  # independent of Rules.counted
    rows = _rows(ctl)
    assert [r[3] for r in rows] == list(final)
    assert all(peg + hand + crib == total for peg, hand, crib, total in rows)
    assert f"{final[0]} – {final[1]}" in ctl.game_over_lines()[1]


def test_a_winner_on_the_target_keeps_every_point() -> None:
    ctl = _finished(1)
    assert ctl.game.scores == (61, 56)
    pts = points_by_part(ctl.game.events, ctl.game.rules)
    assert (pts[0].total, pts[1].total) == (61, 56)


def test_only_the_points_up_to_the_target_count() -> None:
    assert [ce.STANDARD.counted_points(4, after) for after in (100, 121, 122, 125, 130)] == [
        4, 4, 3, 0, 0]  # fmt: skip
    assert ce.SHORT.counted(73) == 61 and ce.Rules(target=91).counted(95) == 91


def test_replay_and_review_say_the_final_score_the_table_says(tmp_path, capsys) -> None:
    g = _finished(0).game
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    final = [min(v, 61) for v in g.scores]
    assert main(["replay", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    assert f"Final score: {final[0]} – {final[1]}" in text and str(max(g.scores)) not in text
    assert main(["review", str(path), "--samples", "2", "--candidates", "2"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith(f"Review: final score {final[0]}-{final[1]},")
