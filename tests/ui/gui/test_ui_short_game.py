"""The short game to 61 at the table: its own board (two streets of 30, the game hole, the
skunk line before 31), the rules carried through play, saves, replays and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from table_play import play_out

import cribbage_env as ce
from cribbage_env.rules.core import SHORT, STANDARD, Rules
from ui.scenes.screens.start_scene import StartOptions, start_scene
from ui.scenes.table_layout import BOARD_RECT, SIDE_BOARD
from ui.scenes.table_scene import table_scene
from ui.table.board import (
    BoardShape,
    hole_position,
    number_positions,
    peg_holes,
    skunk_lines,
    street_x,
)
from ui.table.controller import Mode, TableController
from ui.table.saves import SaveError

B = SIDE_BOARD  # the geometry upright (the table lays it on its side)
S61 = BoardShape.of(SHORT)


def test_the_61_board_is_two_streets_a_game_hole_and_its_skunk_lines() -> None:
    assert (S61.holes, S61.streets, S61.game_hole, S61.lines) == (
        60,
        2,
        61,
        (31,),
    )  # no line at the start: its double skunk is 0 points
    seen = set()
    for p in (0, 1):
        pts = [hole_position(B, p, h, S61) for h in range(-1, S61.holes + 1)]
        assert len(set(pts)) == len(pts)
        assert all(B.x < x < B.x + B.w and B.y < y < B.y + B.h for x, y in pts)
        ys = [hole_position(B, p, h, S61)[1] for h in (1, 30, 31, 60)]
        assert ys[0] < ys[1] and ys[2] > ys[3]  # up the first street, down the second
        seen |= set(pts)
    game = hole_position(B, 0, 61, S61)
    assert game == hole_position(B, 1, 61, S61) and game not in seen
    assert game[1] < hole_position(B, 0, 60, S61)[1]  # at the foot of the second street
    assert {n for n, _, _ in number_positions(B, S61)} == {10, 20, 30, 40, 50, 60}
    ((past, x0, x1, y),) = skunk_lines(B, S61)
    assert past == 31 and hole_position(B, 0, 30, S61)[1] != y
    assert peg_holes(75, 58, S61) == (61, 58)  # a winner's peg stops in the game hole


def test_boards_exist_for_61_91_and_121_only() -> None:
    assert BoardShape.of(STANDARD) == BoardShape()
    assert BoardShape.of(Rules(target=91)).holes == 90
    for bad in (
        Rules(45, skunk=0, double_skunk=0),
        Rules(101),
        Rules(181, skunk=0, double_skunk=0),
    ):
        with pytest.raises(ValueError, match="no board.*61, 91 and 121"):
            BoardShape.of(bad)


def test_the_91_board_is_three_streets_its_skunk_lines_and_the_game_hole_at_the_head() -> None:
    s91 = BoardShape.of(Rules(target=91))
    assert (s91.holes, s91.streets, s91.game_hole, s91.lines) == (90, 3, 91, (31, 61))
    custom = BoardShape.of(Rules(target=91, skunk=71, double_skunk=41))
    assert custom.lines == (41, 71)  # the lines come from the rules, not the target
    for p in (0, 1):
        pts = [hole_position(B, p, h, s91) for h in range(-1, s91.holes + 1)]
        assert len(set(pts)) == len(pts)
        assert all(B.x < x < B.x + B.w and B.y < y < B.y + B.h for x, y in pts)
        ys = [hole_position(B, p, h, s91)[1] for h in (1, 30, 31, 60, 61, 90)]
        assert ys[0] < ys[1] and ys[2] > ys[3] and ys[4] < ys[5]  # up, down, up
    game = hole_position(B, 0, 91, s91)
    assert game == hole_position(B, 1, 91, s91)
    assert game[1] > hole_position(B, 0, 90, s91)[1] < B.y + B.h  # at the head of the last
    assert game[0] == street_x(B, 2, s91)
    assert [past for past, *_ in skunk_lines(B, s91)] == [31, 61]
    assert {n for n, _, _ in number_positions(B, s91)} == set(range(10, 91, 10))
    assert peg_holes(97, 58, s91) == (91, 58)


def test_a_game_to_91_at_the_table_ends_at_91_with_its_skunk_lines() -> None:
    rules = Rules(target=91)
    ctl = TableController(11, mode=Mode.COMPUTER, rules=rules)
    play_out(ctl)
    g = ctl.game
    assert g.rules == rules and max(g.scores) >= 91 and g.winner is not None
    s = table_scene(ctl)
    assert s.board is not None and s.board.shape == BoardShape.of(rules)
    assert max(s.board.scores) == 91
    lines = ctl.game_over_lines()
    assert "91" in lines[1] and "121" not in " ".join(lines)


def test_a_short_game_at_the_table_ends_at_61_on_the_61_board() -> None:
    ctl = TableController(11, mode=Mode.COMPUTER, rules="short")
    assert ctl.game.rules == SHORT
    play_out(ctl)
    g = ctl.game
    assert max(g.scores) >= 61 and g.winner is not None
    s = table_scene(ctl)
    assert s.board is not None and s.board.shape == S61
    assert 61 in s.board.scores and max(s.board.scores) == 61
    lines = ctl.game_over_lines()
    assert "61" in lines[1] and "121" not in " ".join(lines)
    ctl.restart()
    assert ctl.game.rules == SHORT  # restart keeps the variant


def test_saves_keep_the_variant_and_old_saves_are_to_121(tmp_path) -> None:
    ctl = TableController(5, mode=Mode.HOTSEAT, rules="short")
    for _ in range(6):
        ctl.show.skip()
        legal = ctl.game.legal_actions()
        ctl.reveal() if ctl.needs_reveal else ctl.decide(legal[0])
    data = json.loads(json.dumps(ctl.to_save()))
    again = TableController.from_save(data)
    assert again.rules == SHORT and again.game == ctl.game
    old = dict(data)
    del old["rules"]
    assert TableController.from_save(old).rules == STANDARD
    with pytest.raises(SaveError):
        TableController.from_save(dict(data, rules={"target": 45, "skunk": 0, "double_skunk": 0}))
    with pytest.raises(SaveError):
        TableController.from_save(dict(data, rules={"target": "x"}))


def test_a_short_record_replays_on_the_table_with_its_rules() -> None:
    import agents

    g = ce.new_game(4, rules="short")
    bot, rng = agents.make_agent("greedy"), np.random.default_rng(1)
    while not g.is_over:
        g.apply(bot.act(g.view(g.to_act), rng))
    ctl = TableController(g.seed, mode=Mode.WATCH, agents=("record", "record"),
                          interactive_cuts=g.interactive_cuts, script=list(g.decisions),
                          rules=g.rules)  # fmt: skip
    while not ctl.game.is_over:
        ctl.show.skip()
        ctl.computer.step()
    assert ctl.game.scores == g.scores and ctl.board_shape == S61


def test_start_screen_switches_the_variant_and_its_subtitle() -> None:
    text = {lb.text for lb in start_scene(StartOptions(rules=SHORT, lang="fr")).labels}
    assert "Six cartes, deux joueurs, le premier à 61" in text
    s = start_scene(StartOptions())
    assert any("121" in lb.text for lb in s.labels) and not s.button("variant").toggled
    assert s.button("variant").label == "Game to 121"
    custom = start_scene(StartOptions(rules=ce.Rules(target=91)))
    assert custom.button("variant").label == "Game to 91" and custom.button("variant").toggled


def test_play_refuses_an_unknown_variant(capsys) -> None:
    from ui.cli.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["play", "--rules", "long"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "unknown rules variant 'long'" in err and "standard" in err
    assert "Traceback" not in err


def test_the_record_of_a_short_table_game_says_so() -> None:
    ctl = TableController(8, mode=Mode.COMPUTER, rules="short")
    play_out(ctl, 3)
    rec = ctl.game.to_record()
    assert ce.GameState.from_record(rec).rules == SHORT


@pytest.mark.parametrize("target", [61, 91])
def test_the_short_boards_are_painted_where_the_geometry_says(target: int) -> None:
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    pytest.importorskip("arcade")
    from ui.gui.drawing.board_art import HOLE, SCALE, board_image
    from ui.table.board import BoardRect

    shape = BoardShape.of(Rules(target=target))
    w, h = BOARD_RECT.w, BOARD_RECT.h
    img = board_image(w, h, shape).convert("RGB")
    b = BoardRect(0, 0, w, h)
    for p in (0, 1):
        for hole in (1, 17, 30, 31, 45, 60, shape.holes, shape.game_hole):
            x, y = hole_position(b, p, hole, shape)
            assert img.getpixel((round(x * SCALE), round((h - y) * SCALE))) == HOLE
    assert board_image(w, h, shape).tobytes() != board_image(w, h).tobytes()


def test_play_and_replay_refuse_a_game_the_table_has_no_board_for(capsys, tmp_path) -> None:
    from ui.cli.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["play", "--rules", "target=101"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "no board for a game to 101 (61, 91 and 121 have one)" in err
    assert "Traceback" not in err
    g = ce.new_game(3, rules=Rules(target=101))
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    record = tmp_path / "g.json"
    record.write_text(json.dumps(g.to_record()))
    assert main(["replay", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no board for a game to 101" in err and "--text" in err
