"""The table controller without a window: every R11 behaviour of the game (RULES R11.1-R11.8)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from table_play import CUT_PHASES, advance, human_move

import cribbage_env as ce
from cribbage_env.rules.actions import CUT_BASE, is_cut
from cribbage_env.rules.cards import VALUE
from cribbage_env.rules.core import Phase
from ui.saved import autosave
from ui.scenes.scene import MIN_TARGET
from ui.scenes.table_scene import table_scene
from ui.table import controller as controller_module
from ui.table import saves
from ui.table.controller import Mode, TableController
from ui.table.saves import SaveError
from ui.words import i18n


def human_decision_count(ctl: TableController) -> int:
    return sum(1 for i in range(len(ctl.decisions)) if ctl.is_human(ctl.history.actors[i]))


def test_ui_doctests() -> None:
    for module in (i18n, saves, controller_module):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


# ------------------------------------------------------------------------------------ R11.1
@pytest.mark.parametrize("seed", [0, 5, 11])
def test_cut_depth_never_changes_the_card_R11_1(seed: int) -> None:
    """Every cut spot gives the same cards: first-deal cuts, the deal and the starter."""
    base = TableController(seed, mode=Mode.HOTSEAT)
    outcomes = set()
    for depth in (0, 4, 17, 30, 47, 51):
        c = TableController(seed, mode=Mode.HOTSEAT)
        while c.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT):
            c.selection.cut_at(depth)
        outcomes.add((tuple(map(tuple, c.game.hands)), c.cut.cards, c.game.dealer))
    assert len(outcomes) == 1
    # The starter: discard the same cards, then cut at different depths.
    starters = set()
    for depth in (4, 20, 36):
        c = TableController(seed, mode=Mode.HOTSEAT)
        rng = np.random.default_rng(1)
        while c.phase is not Phase.STARTER_CUT:
            human_move(c, rng)
        c.selection.cut_at(depth)
        starters.add(c.game.starter)
    assert len(starters) == 1
    assert base.game.starter is None


def test_undo_cannot_fish_for_another_starter_R11_1() -> None:
    c = TableController(2, mode=Mode.HOTSEAT)
    rng = np.random.default_rng(0)
    while c.phase is not Phase.STARTER_CUT:
        human_move(c, rng)
    c.selection.cut_at(5)
    first = c.game.starter
    for depth in (6, 19, 33):
        assert c.undo()
        assert c.phase is Phase.STARTER_CUT
        c.selection.cut_at(depth)
        assert c.game.starter == first


# ------------------------------------------------------------------------------------ R11.2
def test_selection_and_hint_are_previews_R11_2() -> None:
    rng = np.random.default_rng(3)
    for mode in (Mode.COMPUTER, Mode.HOTSEAT):
        c = TableController(9, mode=mode)
        for _ in range(60):
            if c.game.is_over:
                break
            c.show.skip()
            if c.human_to_act and c.phase in (Phase.DISCARD, Phase.PLAY):
                c.reveal()
                before = c.game.fingerprint()
                hand = c.hand_cards(c.to_act)
                for _ in range(3):
                    c.selection.toggle(hand[int(rng.integers(len(hand)))])
                    c.selection.select_position(int(rng.integers(0, 7)))
                    c.selection.move_focus(int(rng.choice([-1, 1])))
                    c.coach.request_hint()
                    table_scene(c)
                    c.coach.clear_hint()
                c.coach.request_hint()
                assert c.coach.hint is not None and c.coach.hint.lines
                assert c.game.fingerprint() == before
                assert c.decisions == tuple(c.game.decisions)
                c.selection.cards = ()
            advance(c, rng)


def test_hint_suggests_a_legal_move_with_numbers() -> None:
    c = TableController(4, mode=Mode.COMPUTER)
    rng = np.random.default_rng(0)
    while c.phase is not Phase.DISCARD or not c.human_to_act:
        advance(c, rng)
    h = c.coach.request_hint()
    assert h is not None and h.action in c.game.legal_actions()
    assert len(h.cards) == 2 and all(
        ch.isdigit() for line in h.lines for ch in line if ch.isdigit()
    )
    assert any(any(ch.isdigit() for ch in line) for line in h.lines)


# ------------------------------------------------------------------------------------ R11.4
def face_up_cards(c: TableController) -> set[int]:
    scene = table_scene(c)
    return {item.card for item in scene.all_cards() if item.card is not None}


def test_hotseat_hides_both_hands_until_see_my_hand_R11_4() -> None:
    c = TableController(8, mode=Mode.HOTSEAT)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(300):
        if c.game.is_over:
            break
        c.show.skip()
        p = c.to_act
        if c.phase in (Phase.DISCARD, Phase.PLAY) and c.revealed != p:
            hands = set(c.game.hands[0]) | set(c.game.hands[1])
            assert c.needs_reveal
            assert not (face_up_cards(c) & hands), "a hand is visible before See my hand"
            reveal = table_scene(c).button("reveal")
            assert reveal is not None and c.name(p) in reveal.label
            assert not c.selection.toggle(
                c.game.hands[p][0]
            )  # nothing can be selected while hidden
            c.reveal()
            shown = face_up_cards(c)
            assert set(c.game.hands[p]) <= shown
            assert not (shown & set(c.game.hands[1 - p]))
            checked += 1
        human_move(c, rng)
        if c.to_act is not None and c.to_act != p and c.phase in (Phase.DISCARD, Phase.PLAY):
            assert c.revealed is None
    assert checked > 20


def test_computer_mode_never_lays_out_the_computers_hand_R11_4() -> None:
    c = TableController(12, mode=Mode.COMPUTER)
    rng = np.random.default_rng(5)
    for _ in range(120):
        if c.game.is_over:
            break
        if not c.show.running:
            assert not (face_up_cards(c) & set(c.game.hands[1]))
        advance(c, rng)


def test_the_computer_sees_only_its_player_view() -> None:
    seen = []

    class Spy:
        name = "spy"

        def act(self, view, rng):
            seen.append(view)
            assert isinstance(view, ce.PlayerView) and view.seat == 1
            assert isinstance(rng, np.random.Generator)
            return view.legal_actions[0]

    c = TableController(1, mode=Mode.COMPUTER)
    c.seats[1].agent = Spy()
    rng = np.random.default_rng(0)
    for _ in range(80):
        if c.game.is_over:
            break
        advance(c, rng)
    assert seen and all(not hasattr(v, "hands") for v in seen)


# ------------------------------------------------------------------------------------ R11.5
@pytest.mark.parametrize("seed", [3, 21])
def test_undo_redo_round_trip_across_deals_R11_5(seed: int) -> None:
    c = TableController(seed, mode=Mode.COMPUTER)
    rng = np.random.default_rng(seed)
    before_human: list[tuple] = []  # fingerprint just before each human decision
    while len(before_human) < 40 and not c.game.is_over:
        c.show.skip()
        if c.computer.to_act:
            c.computer.step()
            continue
        before_human.append(c.game.fingerprint())
        human_move(c, rng)
    assert c.game.deal_no >= 2, "the test must span several deals"
    final = c.game.fingerprint()
    final_decisions = c.decisions
    for fp in reversed(before_human):
        assert c.undo()
        assert c.game.fingerprint() == fp  # computer replies taken back too
        assert c.human_to_act or c.phase in CUT_PHASES
    assert not c.undo() and not c.can_undo
    while c.redo():
        pass
    assert c.game.fingerprint() == final
    assert c.decisions == final_decisions


def test_new_decision_after_undo_drops_the_redo_tail() -> None:
    c = TableController(6, mode=Mode.COMPUTER)
    rng = np.random.default_rng(1)
    while human_decision_count(c) < 6:
        advance(c, rng)
    c.undo()
    assert c.can_redo
    human_move(c, rng)
    assert not c.can_redo


def test_hotseat_undo_goes_back_one_decision() -> None:
    """Pass and play: undo takes back one decision, and only one of the person still to act
    (a decision that passed the turn is the other person's to keep)."""
    c = TableController(6, mode=Mode.HOTSEAT)
    rng = np.random.default_rng(1)
    for _ in range(12):
        advance(c, rng)
    while c.history.actors[-1] != c.to_act:  # play on to a move after which the same person acts
        assert not c.can_undo
        advance(c, rng)
    n = len(c.decisions)
    assert c.undo()
    assert len(c.decisions) == n - 1


def test_redo_restores_the_same_computer_moves() -> None:
    c = TableController(14, mode=Mode.COMPUTER, opponent="random")
    rng = np.random.default_rng(4)
    while human_decision_count(c) < 10:
        advance(c, rng)
    tail = c.decisions
    c.undo()
    c.undo()
    c.redo()
    c.redo()
    assert c.decisions == tail


# ------------------------------------------------------------------------------------ R11.6
def test_restart_is_the_same_game_R11_6() -> None:
    c = TableController(31, mode=Mode.COMPUTER)
    rng = np.random.default_rng(0)
    while c.game.deal_no < 2:
        advance(c, rng)
    played = c.decisions
    final = c.game.fingerprint()
    c.restart()
    assert c.game == ce.new_game(31, interactive_cuts=True)
    assert c.decisions == () and not c.can_redo
    assert c.can_undo  # only to bring the game back as it was
    fresh = ce.new_game(31, interactive_cuts=True)
    for a in played:  # the same decisions meet the same shuffles
        fresh.apply(a)
    assert fresh == ce.replay(31, played, interactive_cuts=True)
    assert fresh.fingerprint() == final


# ------------------------------------------------------------------------------------ table flow
def test_unplayable_cards_are_dimmed_and_refused_R6_2() -> None:
    found = False
    for seed in range(30):
        c = TableController(seed, mode=Mode.COMPUTER)
        rng = np.random.default_rng(seed)
        for _ in range(200):
            if c.game.is_over:
                break
            c.show.skip()
            if c.human_to_act and c.phase is Phase.PLAY:
                bad = [x for x in c.game.hands[0] if VALUE[x] > 31 - c.game.count]
                if bad:
                    before = c.game.fingerprint()
                    assert not c.selection.selectable(bad[0]) and not c.selection.toggle(bad[0])
                    dimmed = {i.card for i in table_scene(c).cards if i.dimmed}
                    assert set(bad) <= dimmed
                    assert c.game.fingerprint() == before
                    found = True
                    break
            advance(c, rng)
        if found:
            break
    assert found


def test_discard_needs_two_cards_and_keeps_the_last_two() -> None:
    c = TableController(2, mode=Mode.COMPUTER)
    rng = np.random.default_rng(0)
    while not (c.human_to_act and c.phase is Phase.DISCARD):
        advance(c, rng)
    a, b, d = c.hand_cards(0)[:3]
    c.selection.toggle(a)
    assert not c.selection.can_confirm and not c.confirm()
    c.selection.toggle(b)
    c.selection.toggle(d)
    assert set(c.selection.cards) == {b, d}
    assert c.confirm()
    assert set(c.game.discards[0]) == {b, d}


def test_show_counts_pone_dealer_crib_with_running_totals_R9_1() -> None:
    c = TableController(5, mode=Mode.COMPUTER)
    rng = np.random.default_rng(0)
    while not c.show.steps:
        if c.computer.to_act:
            c.computer.step()
        else:
            human_move(c, rng)
    steps = c.show.steps
    order = [(s.player, s.what) for s in steps if not s.line]  # the header of each count
    dealer = c.game.dealer if c.game.phase is not Phase.DEAL_CUT else 1 - c.game.dealer
    assert [w for _, w in order] == ["hand", "hand", "crib"][: len(order)]
    assert order[0][0] == 1 - order[-1][0] or len(order) < 3
    assert dealer in (0, 1)
    shows = [e for e in c.game.events if e.kind is ce.EventKind.SHOW][-len(order) :]
    for e in shows:
        mine = [s for s in steps if s.player == e.player and s.what == e.what]
        assert mine[-1].points == e.points  # the final line says the event's points
        assert mine[-1].scores == e.scores
        totals = [s.points for s in mine]
        assert totals == sorted(totals)  # running totals only grow
    assert c.show.running and c.display_scores == steps[0].scores
    assert c.pegs()[0][0] == c.display_scores[0] and c.pegs()[1][0] == c.display_scores[1]
    c.show.advance()
    assert c.show.pos == 1
    c.show.skip()
    assert not c.show.running and c.display_scores == c.game.scores


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_full_game_to_game_over_in_each_language_R10(lang: str) -> None:
    c = TableController(17, mode=Mode.COMPUTER, lang=lang)
    rng = np.random.default_rng(17)
    seen = set()
    while not c.game.is_over:
        advance(c, rng)
        seen.update(c.messages)
        seen.add(c.prompt())
        for s in c.show.steps:
            seen.add(s.line)
            seen.add(s.title)
    assert max(c.game.scores) >= 121 and c.game.winner is not None
    lines = c.game_over_lines()
    # The winner's peg stops in the game hole: a score past 121 reads 121.
    shown = [min(v, 121) for v in c.game.scores]
    assert f"{shown[0]} – {shown[1]}" in lines[1] and 121 in shown
    if ce.skunk_level(c.game.scores, c.game.rules) > 1:
        assert len(lines) == 3
    assert all("{" not in t and "}" not in t for t in seen)
    c.show.skip()
    scene = table_scene(c)
    assert scene.layer is not None and scene.layer.modal
    assert {b.id for b in scene.layer.buttons} == {"newgame", "review", "restart"}
    words = {"en": "Go", "es": "Paso", "fr": "Passe"}[lang]
    assert any(words in t for t in seen)


def test_pegs_leapfrog() -> None:
    c = TableController(3, mode=Mode.COMPUTER)
    rng = np.random.default_rng(3)
    while max(c.game.scores) < 30:
        advance(c, rng)
    c.show.skip()
    for p in (0, 1):
        front, back = c.pegs()[p]
        assert front == c.game.scores[p] and back < front


def test_every_target_is_at_least_48px_R11_7() -> None:
    for mode in (Mode.COMPUTER, Mode.HOTSEAT):
        c = TableController(7, mode=mode)
        rng = np.random.default_rng(7)
        for _ in range(150):
            if c.game.is_over:
                break
            scene = table_scene(c)
            for sc in (scene, scene.layer):
                if sc is None:
                    continue
                for b in sc.buttons:
                    assert b.rect.w >= MIN_TARGET and b.rect.h >= MIN_TARGET, b
                for t in sc.targets:
                    assert t.rect.w >= MIN_TARGET and t.rect.h >= MIN_TARGET, t
            if c.show.running:
                c.show.advance()
                continue
            advance(c, rng)


def test_watch_mode_two_agents_play_to_the_end() -> None:
    c = TableController(0, mode=Mode.WATCH, agents=("random", "random"))
    while not c.game.is_over:
        assert c.computer.step()
    assert c.game.winner is not None


def test_replay_script_reproduces_a_record() -> None:
    g = ce.new_game(9)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    c = TableController(
        9, mode=Mode.WATCH, agents=("record", "record"), script=g.decisions, interactive_cuts=False
    )
    while c.computer.step():
        pass
    assert c.game == g


def test_stale_computer_move_is_ignored_after_undo() -> None:
    c = TableController(4, mode=Mode.COMPUTER)
    rng = np.random.default_rng(0)
    while not c.computer.to_act or human_decision_count(c) < 3:
        advance(c, rng)
    ticket, job = c.computer.job()
    action = job()
    c.undo()
    assert not c.computer.apply(action, ticket)


# ------------------------------------------------------------------------------------ saves
def test_save_round_trip_keeps_cursor_and_redo_tail(tmp_path) -> None:
    c = TableController(10, mode=Mode.COMPUTER, opponent="random", lang="fr")
    rng = np.random.default_rng(2)
    while human_decision_count(c) < 8:
        advance(c, rng)
    c.undo()
    store = autosave.SaveStore(tmp_path)
    store.save(c)
    d = store.load()
    assert (
        d.game == c.game
        and d.history.actions == c.history.actions
        and d.history.cursor == c.history.cursor
    )
    assert d.lang == "fr" and d.mode is Mode.COMPUTER and d.seats[1].spec == "random"
    d.redo()
    c.redo()
    assert d.game == c.game


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"[]",
        b'{"format": "cribbage-env/autosave", "version": 99}',
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": 1, "mode": "computer",'
        b' "agents": [null, "random"], "decisions": ["KS KS"], "cursor": 1}',
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": 1, "mode": "computer",'
        b' "agents": [null, "random"], "decisions": ["cut 20"], "cursor": 7}',
        b'{"format": "cribbage-env/autosave", "version": 1, "seed": -1, "mode": "computer",'
        b' "agents": [null, "random"], "decisions": [], "cursor": 0}',
        b"\xff\xfe garbage",
    ],
)
def test_corrupt_save_is_refused_and_left_untouched(tmp_path, content: bytes) -> None:
    store = autosave.SaveStore(tmp_path)
    store.path.write_bytes(content)
    with pytest.raises(SaveError) as err:
        store.load()
    assert str(store.path) in str(err.value) or "saved game" in str(err.value)
    assert store.path.read_bytes() == content


def test_finished_game_moves_to_history(tmp_path) -> None:
    store = autosave.SaveStore(tmp_path)
    c = TableController(13, mode=Mode.COMPUTER, on_change=store.save)
    rng = np.random.default_rng(0)
    advance(c, rng)
    assert store.exists()
    while not c.game.is_over:
        advance(c, rng)
    assert not store.exists()
    files = list(store.history.glob("*.json"))
    assert len(files) == 1
    import json

    data = json.loads(files[0].read_text())
    assert ce.GameState.from_record(data["record"]) == c.game


def test_save_is_refused_with_illegal_decisions(tmp_path) -> None:
    c = TableController(1, mode=Mode.COMPUTER)
    data = c.to_save()
    data["decisions"] = ["5H"]
    data["cursor"] = 1
    with pytest.raises(SaveError, match="does not replay"):
        TableController.from_save(data)


def test_cut_actions_are_cuts() -> None:
    c = TableController(1, mode=Mode.HOTSEAT)
    c.selection.cut_at(100)  # spots past the end snap to the last legal spot
    assert is_cut(c.decisions[0]) and c.decisions[0] >= CUT_BASE


def test_cut_tie_is_announced_and_recut_R2_2() -> None:
    from cribbage_env.rules.cards import RANK

    for seed in range(500):
        c = TableController(seed, mode=Mode.HOTSEAT)
        c.selection.cut_at(10)
        c.selection.cut_at(20)
        a, b = c.cut.cards
        if RANK[a] == RANK[b]:
            assert c.cut.tie and c.phase is Phase.CUT_FOR_DEAL
            assert any("Tie" in m for m in c.messages)
            shown = {i.card for i in table_scene(c).cards if i.card is not None}
            assert {a, b} <= shown  # both cut cards stay on the table
            return
        assert not c.cut.tie and c.cut.first_dealer == (0 if RANK[a] < RANK[b] else 1)
    pytest.fail("no tie in 500 seeds")
