"""The table as data (no window): the board's holes, readable piles, honest motion, no spoilers.

A real board (two tracks of 120 holes in streets of 30, grouped in fives, a game hole,
skunk lines), every card index visible in the pile, no card face shown during an animation that
the table would not show face up, and a log that never runs ahead of the table.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ui.scenes.motion import MAX_SECONDS, Transition
from ui.scenes.scene import Rect, index_corner, overlaps
from ui.scenes.table_layout import BOARD_RECT, SIDE_BOARD, pile_rects
from ui.scenes.table_scene import table_scene
from ui.table.board import (
    BOARD_HOLES,
    DOUBLE_SKUNK_LINE,
    SKUNK_LINE,
    STREET,
    hole_position,
    number_positions,
    peg_holes,
    skunk_lines,
)
from ui.table.controller import Mode, TableController

B = SIDE_BOARD  # the geometry upright (the table lays it on its side)


def _dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def test_board_tracks_are_two_runs_of_120_holes_plus_the_game_hole() -> None:
    seen = set()
    for p in (0, 1):
        pts = [hole_position(B, p, h) for h in range(-1, BOARD_HOLES + 1)]
        assert len(set(pts)) == len(pts)  # every hole its own place
        for x, y in pts:
            assert B.x < x < B.x + B.w and B.y < y < B.y + B.h
        seen |= set(pts)
    assert len(seen) == 2 * (BOARD_HOLES + 2)  # the two tracks never share a hole
    game = hole_position(B, 0, BOARD_HOLES + 1)
    assert game == hole_position(B, 1, BOARD_HOLES + 1) and game not in seen


def test_board_streets_of_30_in_groups_of_five() -> None:
    for p in (0, 1):
        steps = [
            _dist(hole_position(B, p, h), hole_position(B, p, h + 1))
            for h in range(1, BOARD_HOLES)
            if h % STREET
        ]
        unit = min(steps)
        for h in range(1, BOARD_HOLES):
            if h % STREET == 0:  # a turn: the next street starts level with this hole
                a, b = hole_position(B, p, h), hole_position(B, p, h + 1)
                assert a[1] == b[1] and abs(a[0] - b[0]) > 3 * unit
                continue
            d = _dist(hole_position(B, p, h), hole_position(B, p, h + 1))
            if h % 5 == 0:
                assert d > 1.5 * unit, h  # the gap between groups of five
            else:
                assert d == pytest.approx(unit), h
        # streets run up, down, up, down
        ys = [hole_position(B, p, h)[1] for h in (1, 30, 31, 60, 61, 90, 91, 120)]
        assert ys[0] < ys[1] and ys[2] > ys[3] and ys[4] < ys[5] and ys[6] > ys[7]


def test_board_marks_numbers_and_skunk_lines() -> None:
    numbers = {n for n, _, _ in number_positions(B)}
    assert {30, 60, 90, 120} <= numbers and numbers == set(range(10, 121, 10))
    lines = {past: (x0, x1, y) for past, x0, x1, y in skunk_lines(B)}
    assert set(lines) == {SKUNK_LINE, DOUBLE_SKUNK_LINE} == {91, 61}
    for past, (x0, x1, y) in lines.items():
        for p in (0, 1):
            before, after = hole_position(B, p, past - 1), hole_position(B, p, past)
            assert x0 < after[0] < x1  # the line crosses both lanes of the street it is in
            # it lies between the turn (where hole past-1 is) and the first hole past it
            assert min(before[1], after[1]) - 1 <= y or y <= max(before[1], after[1]) + 1
            assert abs(y - after[1]) < abs(after[1] - hole_position(B, p, past + 1)[1]) * 1.5


def test_pegs_leapfrog_and_the_winner_stops_in_the_game_hole() -> None:
    assert peg_holes(0, 0) == (0, -1)  # both pegs in the start holes
    assert peg_holes(125, 118) == (BOARD_HOLES + 1, 118)
    c = TableController(17, mode=Mode.COMPUTER)
    rng = np.random.default_rng(17)
    while not c.game.is_over:
        c.show.skip()
        legal = c.game.legal_actions()
        c.decide(legal[int(rng.integers(len(legal)))])
        c.show.skip()
        front, back = table_scene(c).board.pegs[0]
        assert back < front or (front, back) == (0, -1)
    c.show.skip()
    s = table_scene(c)
    w = c.game.winner
    assert s.board.pegs[w][0] == BOARD_HOLES + 1 and s.board.scores[w] == 121
    assert any(lb.tag == "score" and lb.text == "121" for lb in s.labels)
    assert "121" in c.prompt() and all(str(v) not in c.prompt() for v in c.game.scores if v > 121)


def _games(n: int, mode: Mode = Mode.COMPUTER):
    """Scenes of ``n`` random games, one per decision, as a player would see them."""
    for seed in range(n):
        c = TableController(seed, mode=mode, lang=("en", "es", "fr")[seed % 3])
        rng = np.random.default_rng(seed)
        prev = table_scene(c)
        while not c.game.is_over:
            if c.needs_reveal:
                c.reveal()
            elif c.show.running:
                c.show.advance()
            else:
                legal = c.game.legal_actions()
                c.decide(legal[int(rng.integers(len(legal)))])
            scene = table_scene(c)
            yield c, prev, scene
            prev = scene


def test_every_face_up_index_stays_visible() -> None:
    """In the fanned pile (and anywhere else on the table) no card covers another's index."""
    checked = 0
    for _, _, scene in _games(6):
        for layer in (scene, scene.layer):
            if layer is None:
                continue
            cards = layer.cards
            for i, a in enumerate(cards):
                if a.card is None:
                    continue
                corner = index_corner(a.rect)
                for b in cards[i + 1 :]:  # drawn later: on top
                    assert not overlaps(corner, b.rect), (a, b)
                checked += 1
    assert checked > 1000
    older, seq = pile_rects(8, 8)  # the fullest pile there can be
    for rects in (older, seq):
        for i, r in enumerate(rects[:-1]):
            assert not overlaps(index_corner(r), rects[i + 1])
    assert seq[-1].x + seq[-1].w < 800  # and it leaves the count readable


@pytest.mark.parametrize("mode", [Mode.COMPUTER, Mode.HOTSEAT])
def test_no_hidden_face_during_motion(mode: Mode) -> None:
    """Every frame of every transition shows face up only cards the new scene shows face up:
    the opponent's card turns over on its way to the pile, discards go face down at once."""
    moving = 0
    for _, old, new in _games(4, mode):
        t = Transition(old, new)
        assert t.total <= MAX_SECONDS
        allowed = {i.card for i in new.all_cards() if i.card is not None}
        for k in range(9):
            f = t.frame(t.total * k / 8)
            shown = {i.card for i in f.all_cards() if i.card is not None}
            assert shown <= allowed, (shown - allowed, old.labels[:1])
        moving += bool(t.flights)
    assert moving > 100


def test_motion_holds_the_log_until_the_card_has_landed() -> None:
    """While the computer's card flies, the log and the scores stay as they were."""
    for _, old, new in _games(2):
        t = Transition(old, new)
        new_log = [lb.text for lb in new.labels if lb.tag == "log"]
        old_log = [lb.text for lb in old.labels if lb.tag == "log"]
        if t.idle or new_log == old_log:
            continue
        mid = [lb.text for lb in t.frame(t.total / 2).labels if lb.tag == "log"]
        assert mid == old_log
        assert [lb.text for lb in t.frame(t.total).labels if lb.tag == "log"] == new_log
        return
    pytest.fail("no transition changed the log")


def test_the_show_does_not_announce_the_winner_before_the_count() -> None:
    """A game won in the show: "... wins!" appears only once the count is done."""
    found = 0
    for seed in range(60):
        c = TableController(seed, mode=Mode.WATCH, agents=("greedy", "greedy"))
        while not c.game.is_over:
            c.show.skip()
            c.computer.step()
        if not c.show.running:
            continue  # won during the play
        name = c.name(c.game.winner)
        while c.show.running:
            s = table_scene(c)
            texts = [lb.text for lb in s.all_labels()] + list(c.messages) + list(c.show.intro)
            assert not any("wins" in t for t in texts), texts
            c.show.advance()
        assert f"{name} wins!" in c.messages
        found += 1
        if found >= 2:
            return
    pytest.fail("no game was won in the show")


def test_face_letters_follow_the_catalog() -> None:
    c = TableController(1, lang="fr")
    assert table_scene(c).faces == ("V", "D", "R")
    assert table_scene(TableController(1, lang="es")).faces == ("J", "Q", "K")


def test_rect_helpers() -> None:
    a = Rect(0, 0, 10, 10)
    assert overlaps(a, Rect(9, 9, 5, 5)) and not overlaps(a, Rect(10, 0, 5, 5))
    c = index_corner(Rect(0, 0, 100, 100))
    assert c.x == pytest.approx(5) and c.y + c.h == pytest.approx(95)


def test_rules_screen_text_in_three_languages() -> None:
    """The rules screen shows R1-R11 of docs/RULES.md (the table's own rules included: the
    tutorial names R1 to R11); Spanish and French number the same rules; every rule is on some
    page, and pages fit above the buttons."""
    import re
    from pathlib import Path

    from ui.scenes.screens.rules_scene import PAGE_BOTTOM, RULES_DIR, pages, rules_scene, rules_text
    from ui.words.i18n import LANGUAGES

    doc = (Path(__file__).resolve().parents[3] / "docs" / "RULES.md").read_text()
    part = doc[doc.index("## R1 ") : doc.index("## Variants")]
    assert (RULES_DIR / "en.md").read_text().strip() == part.strip()
    numbers = {}
    for lang in LANGUAGES:
        items = rules_text(lang)
        numbers[lang] = [re.match(r"R\d+(\.\d+)?", t).group(0) for _, t in items]
        on_pages = [text for p in pages(lang) for _, text, _ in p]
        assert on_pages == [t for _, t in items]
        for i, page in enumerate(pages(lang)):
            assert sum(h for *_, h in page) <= 800 - 110 - PAGE_BOTTOM
            s = rules_scene(lang, i)
            assert {b.id for b in s.buttons} == {"rules:prev", "rules:next", "rules:back"}
            assert all(b.rect.h >= 48 and b.rect.w >= 48 for b in s.buttons)
    assert numbers["es"] == numbers["en"] == numbers["fr"] and len(numbers["en"]) > 40
    assert numbers["en"][-9:] == ["R11", *(f"R11.{i}" for i in range(1, 9))]


def test_pegs_walk_hole_by_hole_and_leapfrog() -> None:
    """A score of 12 moves the front peg through every hole in between, the old front peg
    staying behind as the back peg; the walk ends within the motion's limit."""
    from ui.scenes.motion import PegWalk

    w = PegWalk(0, 30, 42)
    seen = []
    t = 0.0
    while t <= w.duration + 0.01:
        at = w.holes(t)
        if at is not None:
            assert at[1] == 30  # the back peg is the old front
            seen.append(at[0])
        t += 0.002
    assert seen[0] <= 31 and seen[-1] == 42
    assert all(b - a in (0, 1) for a, b in zip(seen, seen[1:], strict=False))
    assert set(range(31, 43)) <= set(seen)
    assert w.duration <= MAX_SECONDS


def test_count_and_who_said_go_stay_in_sight() -> None:
    """During the play the count is always on the table, and after a Go a line under it says
    who said it, until the count starts again."""
    found = 0
    for c, _, scene in _games(3):
        if c.game.phase.name != "PLAY" or c.show.running:
            continue
        tags = [lb.tag for lb in scene.labels]
        assert "count" in tags
        view = c.view(c.bottom_seat)
        go = [lb.text for lb in scene.labels if lb.tag == "go" and " — " in lb.text]
        if any(view.go_said):
            assert go and all(c.name(p) in go[0] for p in (0, 1) if view.go_said[p])
            found += 1
        else:
            assert not go
    assert found >= 2


def test_a_count_the_game_never_made_is_a_dash_not_zero() -> None:
    """The deal summary of a game won in the show: the dealer's crib (never counted: the game
    ended before it) and the pone's crib (the pone has none) are marked uncounted and drawn as
    a dash, not as 0 points."""
    from cribbage_env.rules.core import Phase
    from ui.scenes.scene import Scene
    from ui.scenes.summary_scene import deal_summary_items

    c = TableController(2, mode=Mode.HOTSEAT, rules="short")
    rng = np.random.default_rng(2)
    while not c.game.is_over:
        if c.needs_reveal:
            c.reveal()
        elif c.show.running:
            c.show.skip()
        elif c.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            c.selection.cut_at(5)
        else:
            legal = c.game.legal_actions()
            c.decide(legal[int(rng.integers(len(legal)))])
    summary = c.show.summary
    assert summary is not None
    dealer = c.game.dealer
    assert summary[dealer].uncounted == {"crib"} and summary[1 - dealer].uncounted == {"crib"}
    s = Scene()
    deal_summary_items(s, c, Rect(100, 110, 800, 600))
    assert sum(lb.text == "—" for lb in s.labels) == 2


def test_the_table_board_lies_across_the_middle_the_upright_board_turned() -> None:
    """Across the table between the play and the other hand: the first street along the top
    from the left, the streets alternating, the game hole at the left of the last; every hole
    the upright board's, turned a quarter clockwise."""
    lying = BOARD_RECT
    assert lying.w > 2.5 * lying.h and lying.x < 495 < lying.x + lying.w  # long, at the centre
    up = type(lying)(0, 0, lying.h, lying.w)
    for p in (0, 1):
        for hole in range(-1, BOARD_HOLES + 2):
            ux, uy = hole_position(up, p, hole)
            x, y = hole_position(lying, p, hole)
            assert (x, y) == (lying.x + uy, lying.y + lying.h - ux)
            assert lying.x < x < lying.x + lying.w and lying.y < y < lying.y + lying.h
    xs = [hole_position(lying, 0, h)[0] for h in (1, 30, 31, 60, 61, 90, 91, 120)]
    assert xs[0] < xs[1] and xs[2] > xs[3] and xs[4] < xs[5] and xs[6] > xs[7]
    ys = [hole_position(lying, 0, h)[1] for h in (1, 31, 61, 91)]
    assert ys == sorted(ys, reverse=True)  # street by street down the board
    assert hole_position(lying, 0, BOARD_HOLES + 1)[0] < xs[7]  # the game hole at the left
    assert hole_position(lying, 0, 5)[1] > hole_position(lying, 1, 5)[1]  # two lanes a street
