"""One judge: the hint is the review's best option, its table of options, and
coach mode's "Are you sure?" before a costly move, all through the controller."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents.coaching.judge import judge, position_rng, rate
from agents.review import review_game
from cribbage_env.rules.actions import discard_cards
from cribbage_env.rules.cards import RANK
from ui.scenes.scene import apply_click, hit
from ui.scenes.table_scene import table_scene
from ui.table.controller import Mode, TableController


def _positions(n: int, seed: int):
    """Decision positions of random games (discards and plays with a choice)."""
    rng = np.random.default_rng(seed)
    out = []
    g = ce.new_game(seed)
    while len(out) < n:
        if g.is_over:
            g = ce.new_game(int(rng.integers(1 << 30)))
        v = g.view(g.to_act)
        if g.phase is ce.Phase.DISCARD or (
            g.phase is ce.Phase.PLAY and len({RANK[c] for c in v.legal_actions}) > 1
        ):
            out.append(v)
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return out


def _at_human_discard(seed: int = 3, **kw) -> TableController:
    ctl = TableController(seed, mode=Mode.COMPUTER, opponent="random", interactive_cuts=False,
                          agent_seed=1, **kw)  # fmt: skip
    while not (ctl.human_to_act and ctl.phase is ce.Phase.DISCARD):
        ctl.computer.step()
    return ctl


def test_the_hint_is_the_reviews_best_option_on_random_positions() -> None:
    for view in _positions(24, 8):
        hint = judge(view, position_rng(view))[0].action
        best, loss, *_ = rate(view, hint, position_rng(view))
        assert best == hint and loss == 0.0


def test_following_every_hint_is_never_flagged_by_the_review() -> None:
    ctl = TableController(12, mode=Mode.COMPUTER, opponent="greedy", interactive_cuts=False,
                          agent_seed=2, rules="short")  # fmt: skip
    while not ctl.game.is_over:
        ctl.show.skip()
        if ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.human_to_act:
            h = ctl.coach.request_hint()
            assert h is not None
            ctl.decide(h.action)
    rev = review_game(ctl.game)
    mine = [r for r in rev.ratings if r.seat == 0 and r.options > 1]
    assert mine and all(r.loss == 0.0 and r.flag == "" for r in mine)


def test_the_discard_table_has_all_15_keeps_with_hand_crib_pegging_and_chance() -> None:
    ctl = _at_human_discard()
    h = ctl.coach.request_hint()
    assert h is not None and len(h.rows) == 15 and len(h.header) == 6
    chances = [float(r[-1].rstrip("%")) for r in h.rows]
    assert chances == sorted(chances, reverse=True)  # best first
    assert h.rows[0][0] == ctl.narrator.cards(discard_cards(h.action))
    assert h.lines[0].startswith("→") and h.rows[0][-1] in h.lines[0]
    # the table is shown on request only, from its button
    s = table_scene(ctl)
    assert not any(lab.text == h.header[-1] for lab in s.labels)
    b = next(b for b in s.buttons if b.id == "options")
    apply_click(ctl, s, b.rect.cx, b.rect.cy)
    s = table_scene(ctl)
    assert ctl.coach.show_options and s.layer is not None
    assert any(lab.text == h.rows[14][1] for lab in s.layer.labels)


def _worst(ctl: TableController) -> int:
    view = ctl.game.view(0)
    return judge(view, position_rng(view))[-1].action


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_coach_mode_holds_a_costly_discard_back_and_says_why(lang) -> None:
    ctl = _at_human_discard(lang=lang)
    ctl.coach.set_limit(0.02)
    worst = _worst(ctl)
    for c in discard_cards(worst):
        ctl.selection.toggle(c)
    before = ctl.decisions
    assert ctl.confirm() is False and ctl.decisions == before  # held back, nothing played
    w = ctl.coach.shown_warning
    assert w is not None and w.loss > 0.02 and w.action == worst
    s = table_scene(ctl)
    assert s.layer is not None and any(w.lines[0] == lab.text for lab in s.layer.labels)
    assert {"coach:anyway", "coach:back"} <= {b.id for b in s.layer.buttons}
    b = next(b for b in s.layer.buttons if b.id == "coach:anyway")
    apply_click(ctl, s, b.rect.cx, b.rect.cy)
    assert ctl.decisions[len(before)] == worst  # played on the second word


def test_coach_take_back_and_a_good_move_goes_through() -> None:
    ctl = _at_human_discard()
    ctl.coach.set_limit(0.02)
    for c in discard_cards(_worst(ctl)):
        ctl.selection.toggle(c)
    assert ctl.confirm() is False
    s = table_scene(ctl)
    b = next(b for b in s.layer.buttons if b.id == "coach:back")
    assert hit(s, b.rect.cx, b.rect.cy) == "coach:back"
    apply_click(ctl, s, b.rect.cx, b.rect.cy)
    assert (
        ctl.selection.cards == ()
        and ctl.coach.shown_warning is None
        and ctl.phase is ce.Phase.DISCARD
    )
    best = ctl.coach.request_hint().action
    for c in discard_cards(best):
        ctl.selection.toggle(c)
    n = len(ctl.decisions)
    assert ctl.confirm() is True and ctl.decisions[n] == best  # the best move: no question


def test_coach_mode_off_plays_at_once() -> None:
    ctl = _at_human_discard()
    for c in discard_cards(_worst(ctl)):
        ctl.selection.toggle(c)
    assert ctl.confirm() is True


def test_the_coach_agent_plays_the_hint_and_its_review_reads_zero() -> None:
    """``coach`` (the agent) plays the judge's best option with the hint's generator; a game it
    plays is reviewed with every one of its decisions at a loss of exactly 0."""
    from agents import make_agent
    from agents.tournament.play import play_game

    coach = make_agent("coach")
    for view in _positions(10, 4):
        assert (
            coach.act(view, np.random.default_rng(0)) == judge(view, position_rng(view))[0].action
        )
    g = play_game("coach", "greedy", 5, agent_seed=1, rules="short")
    mine = [r for r in review_game(g).ratings if r.seat == 0 and r.options > 1]
    assert mine and all(r.loss == 0.0 for r in mine)
