"""The review screen, the statistics screen and the winning-chance indicator, as
scenes (no window) and as the seat's own estimate; the windowed paths are in test_ui_gui.py."""

from __future__ import annotations

import numpy as np
import pytest

import cribbage_env as ce
from agents.coaching.chance import seat_chance
from agents.review import review_game
from agents.tournament.play import play_game
from cribbage_env.equity import win_probability
from cribbage_env.rules.actions import discard_cards, is_discard, parse_action
from cribbage_env.rules.cards import parse_cards as p
from cribbage_env.rules.core import Phase
from cribbage_env.rules.engine import GameState
from ui.scenes.review_scene import CHART, ReviewBrowser, review_scene
from ui.scenes.scene import MIN_TARGET
from ui.scenes.screens.stats_scene import stats_scene
from ui.table.controller import Mode, TableController
from ui.table.teaching.chances import ChanceMeter
from ui.words.i18n import Catalog
from ui.words.narration import Narrator


@pytest.fixture(scope="module")
def reviewed():
    game = play_game("random", "expectimax", 21, agent_seed=3)
    return game, review_game(game, samples=8)


def _nar(lang: str = "en") -> Narrator:
    return Narrator(Catalog(lang), ("You", "Computer"), you=0)


# --------------------------------------------------------------------------------- the estimate
def test_seat_chance_is_exact_where_the_rules_decide() -> None:
    """The pone at 120 holding three fives counts first in the show (15s: at least 2 points),
    and the dealer at 0 cannot reach 121 in one deal: the pone wins in every play-out, so its
    own estimate is 1 and the dealer's 0, whatever either guesses about the other's cards."""
    g = GameState.in_play(
        dealer=0,
        kept=[p("2C 3C 4C 6C"), p("5H 5D 5C JS")],
        discards=[p("QS QC"), p("KH KD")],
        starter=p("9S")[0],
        scores=(0, 120),
    )
    rng = np.random.default_rng(1)
    assert seat_chance(g.view(1), rng) == 1.0
    assert seat_chance(g.view(0), rng) == 0.0


def test_seat_chance_between_deals_is_the_table_and_the_end_is_exact() -> None:
    g = ce.new_game(8, interactive_cuts=True)
    rng = np.random.default_rng(0)
    assert seat_chance(g.view(0), rng) == 0.5  # before the cut for deal: nothing is known
    agent_rng = np.random.default_rng(2)
    import agents

    a = agents.make_agent("greedy")
    while g.phase is not Phase.DEAL_CUT or g.deal_no < 1:
        g.apply(a.act(g.view(g.to_act), agent_rng))
    v = g.view(0)
    me, opp = v.scores[0], v.scores[1]
    assert seat_chance(v, rng) == win_probability(me, opp, dealer=v.is_dealer)
    while not g.is_over:
        g.apply(a.act(g.view(g.to_act), agent_rng))
    assert seat_chance(g.view(g.winner), rng) == 1.0
    assert seat_chance(g.view(1 - g.winner), rng) == 0.0


def test_seat_chance_reads_nothing_but_the_view() -> None:
    """Two deals that look the same to seat 0 (the other hand and crib cards swapped for other
    unseen cards) get the same estimate from the same generator."""
    kept0, disc0 = p("2C 3C 4C 6C"), p("QS QC")
    a = GameState.in_play(dealer=0, kept=[kept0, p("5H 5D 5C JS")], discards=[disc0, p("KH KD")],
                          starter=p("9S")[0], scores=(40, 50))  # fmt: skip
    b = GameState.in_play(dealer=0, kept=[kept0, p("7H 8D 9C TS")], discards=[disc0, p("AH AD")],
                          starter=p("9S")[0], scores=(40, 50))  # fmt: skip
    assert a.view(0) == b.view(0)
    ca = seat_chance(a.view(0), np.random.default_rng(5))
    cb = seat_chance(b.view(0), np.random.default_rng(5))
    assert ca == cb and 0.0 < ca < 1.0


def test_seat_chance_of_a_short_game_reads_the_61_table() -> None:
    g = ce.new_game(3, rules="short")
    rng = np.random.default_rng(0)
    view = g.view(g.to_act)
    short = seat_chance(view, np.random.default_rng(0))
    g121 = ce.new_game(3)
    assert g121.view(g121.to_act).hand == view.hand  # same deal, longer game
    long = seat_chance(g121.view(g121.to_act), rng)
    assert short is not None and long is not None and short != long


# --------------------------------------------------------------------------------- the indicator
def test_meter_is_off_by_default_hidden_on_handover_and_per_seat() -> None:
    ctl = TableController(5, mode=Mode.HOTSEAT)
    while ctl.phase is not Phase.DISCARD:
        ctl.selection.cut_at(20)
    meter = ChanceMeter()
    assert not meter.wanted(ctl) and meter.shown(ctl) is None
    meter.toggle()
    assert ctl.needs_reveal and not meter.wanted(ctl)  # the screen is changing hands
    ctl.reveal()
    assert meter.wanted(ctl)
    job = meter.job(ctl)
    assert not meter.wanted(ctl)  # one estimate at a time
    meter.done(job(), ctl)
    reading = meter.shown(ctl)
    assert reading is not None and reading.seat == ctl.bottom_seat
    v = ctl.view(ctl.bottom_seat)
    legal = v.legal_actions
    ctl.selection.toggle(discard_cards(legal[0])[0])
    ctl.selection.toggle(discard_cards(legal[0])[1])
    ctl.confirm()  # the other person's turn: the first reading is not theirs
    assert ctl.needs_reveal and meter.shown(ctl) is None
    ctl.reveal()
    assert meter.shown(ctl) is None and meter.wanted(ctl)


def test_meter_reads_the_seats_own_estimate_the_hints_figure() -> None:
    ctl = TableController(9, mode=Mode.COMPUTER)
    while ctl.phase is not Phase.DISCARD:
        ctl.selection.cut_at(20) if ctl.human_to_act else ctl.computer.step()
    meter = ChanceMeter(on=True)
    meter.done(meter.job(ctl)(), ctl)
    expected = seat_chance(ctl.view(0))
    assert meter.shown(ctl) is not None and meter.shown(ctl).chance == expected
    assert ctl.human_to_act  # the person's discard: the hint prints the same figure
    hint = ctl.coach.request_hint()
    assert hint is not None and ctl.cat.percent(expected) in hint.lines[0]


def test_table_scene_draws_the_bar_and_not_under_the_show() -> None:
    from ui.scenes.table_layout import CHANCE_BAR
    from ui.scenes.table_scene import table_scene
    from ui.table.teaching.chances import Reading

    ctl = TableController(9, mode=Mode.COMPUTER)
    reading = Reading(0, 0.25, ChanceMeter.key(ctl))
    s = table_scene(ctl, reading, True)
    assert any(lb.tag == "chance" and "25%" in lb.text for lb in s.labels)
    fills = [r for r, _ in s.panels if r.y == CHANCE_BAR.y and r.x == CHANCE_BAR.x]
    assert any(abs(r.w - CHANCE_BAR.w * 0.25) < 1e-9 for r in fills)
    assert s.button("chances").toggled
    assert not any(lb.tag == "chance" for lb in table_scene(ctl).labels)


# --------------------------------------------------------------------------------- review scene
def test_browser_steps_through_exactly_the_chosen_seats_mistakes(reviewed) -> None:
    game, review = reviewed
    b = ReviewBrowser(review, game, seats=(0,))
    want = [i for i, r in enumerate(review.ratings) if r.seat == 0 and r.flag and r.options > 1]
    assert want, "random's game should hold mistakes"
    seen = [b.current]
    while b.can_step(1):
        b.step(1)
        seen.append(b.current)
    assert seen == want
    b.mistakes_only = False
    b.refilter()
    assert b.current == want[-1]
    allowed = [i for i, r in enumerate(review.ratings) if r.seat == 0 and r.options > 1]
    assert b.items() == allowed and len(allowed) > len(want)
    b.jump_to_fraction(0.0)
    assert b.current == 0
    b.jump_to_fraction(0.9999)
    assert b.current == len(review.ratings) - 1


def test_review_scene_marks_played_and_better_and_hides_the_other_hand(reviewed) -> None:
    game, review = reviewed
    b = ReviewBrowser(review, game, seats=(0,))
    for i in b.items():
        b.current = i
        r = review.ratings[i]
        s = review_scene(b, _nar(), ("You", "Computer"))
        view, _ = b.position(i)
        hand = set(view.hand)
        a, best = parse_action(r.action), parse_action(r.best)
        played = set(discard_cards(a) if is_discard(a) else (a,))
        better = set(discard_cards(best) if is_discard(best) else (best,))
        faces = {c.card for c in s.cards if c.card is not None}
        assert faces <= hand | set(view.sequence) | {c for _, c in view.played} | {view.starter}
        assert sum(c.card is None for c in s.cards) == view.opponent_cards_left
        assert {c.card for c in s.cards if c.selected} == played
        assert {c.card for c in s.cards if c.hinted} == (better if better != played else set())
        text = " ".join(lb.text for lb in s.labels)
        assert f"{100 * r.loss:.1f}% lost" in text  # winning chance, not game points
        assert s.board is not None and s.board.scores == tuple(min(x, 121) for x in r.scores)
        for t in [*s.buttons, *s.targets]:
            assert t.rect.w >= MIN_TARGET and t.rect.h >= MIN_TARGET, t


def test_review_scene_chart_follows_the_curve(reviewed) -> None:
    game, review = reviewed
    b = ReviewBrowser(review, game, seats=(0,))
    s = review_scene(b, _nar(), ("You", "Computer"))
    cols = [r for r, c in s.panels if r.y == CHART.y and r.h < CHART.h and c == (230, 60, 50)]
    heights = [round(r.h / CHART.h, 6) for r in cols]
    assert heights == [round(v, 6) for v in review.curve if v > 0]
    assert s.targets[-1].id == "chart"


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_review_and_stats_scenes_are_translated(reviewed, lang) -> None:
    game, review = reviewed
    s = review_scene(ReviewBrowser(review, game), _nar(lang), ("A", "B"))
    texts = [lb.text for lb in s.labels] + [bt.label for bt in s.buttons]
    assert all("{" not in t for t in texts)
    if lang != "en":
        assert not {"Previous", "Mistakes only", "Both players", "Back"} & set(texts)


def test_stats_scene_shows_the_record_and_one_bar_per_game() -> None:
    stats = {
        "games": 3,
        "wins": 2,
        "losses": 1,
        "win_rate": 2 / 3,
        "skunks": {"given": 1, "taken": 0, "double_given": 0, "double_taken": 0},
        "by_opponent": {"expectimax": {"wins": 2, "losses": 1}},
        "points_per_deal": {
            "dealer": {
                "deals": 9,
                "pegging": 3.1,
                "hand": 7.0,
                "crib": 4.0,
                "expected": {"pegging": 3.36, "hand": 7.5, "crib": 4.32},
            },
            "pone": {
                "deals": 8,
                "pegging": 2.0,
                "hand": 8.0,
                "expected": {"pegging": 2.1, "hand": 7.98, "crib": 0.0},
            },
        },  # fmt: skip
        "error_rate": [
            {"game": f"g{i}", "error_rate": v} for i, v in enumerate([0.01, 0.02, 0.005])
        ],
    }
    s = stats_scene(stats, "en")
    text = " ".join(lb.text for lb in s.labels)
    assert "Games 3: 2 wins, 1 loss (66.7%)" in text and "Hard 2–1" in text
    assert "10.0" in text and "20.0" in text and "5.0" in text
    bars = [r for r, c in s.panels if c == (230, 60, 50) and r.y == 290]
    assert len(bars) == 3 and bars[1].h > bars[0].h > bars[2].h
    empty = stats_scene(None, "fr")
    assert any("Aucune partie" in lb.text for lb in empty.labels)


def test_review_text_counts_as_its_json_does_and_says_1_point() -> None:
    """The text counted players and deals from 1 while the JSON counts from 0, and
    printed "1 points"."""
    from agents.review import Rating, Review
    from ui.cli.cmd_review import review_text

    def rating(seat: int, deal: int, loss: float, points: float, flag: str) -> Rating:
        return Rating(0, seat, deal, "play", "5H", "6H", loss, points, 0.4, 0.5, 3, (10, 12), flag)

    review = Review(
        (rating(1, 2, 0.07, 1.0, "blunder"), rating(0, 0, 0.01, 2.5, "doubtful")),
        (0.5, 0.4),
        1,
        (100, 121),
    )
    text = review_text(review, ce.STANDARD)
    js = review.to_json()
    assert js["winner"] == 1 and js["rows"][0]["seat"] == 1 and js["rows"][0]["deal"] == 2
    assert "seat 1 won" in text
    row = next(line for line in text.splitlines() if line.rstrip().endswith("blunder"))
    assert row.split()[:2] == ["2", "1"]  # deal 2, seat 1: the JSON's numbers
    seat1 = next(line for line in text.splitlines() if line.startswith("Seat 1:"))
    assert "1 decision with a choice" in seat1 and "1 point lost" in seat1
    assert "7 points of winning chance" in seat1 and "1 blunder," in seat1
    seat0 = next(line for line in text.splitlines() if line.startswith("Seat 0:"))
    assert "2.5 points lost" in seat0 and "0 blunders" in seat0


# --------------------------------------------------------------------------------- luck vs skill
def test_review_scene_shows_luck_vs_skill_in_every_language(reviewed) -> None:
    """The line names each player's luck and decisions (adding up to how the game went), and
    the luck-alone line runs over the chart, one mark per chart column, ending at that luck."""
    game, review = reviewed
    from ui.scenes.review_scene import LUCK_COLOR

    s0, s1 = review.luck_summary(0), review.luck_summary(1)
    assert s0["end"] + s1["end"] == pytest.approx(1.0)
    for s in (s0, s1):  # the parts add up to how the game went
        total = s["luck"] + s["own_decisions"] + s["other_decisions"] + s["unexplained"]
        assert total == pytest.approx(s["end"] - s["start"], abs=1e-4)
        assert s["luck"] == pytest.approx(s["scale"] * s["events_luck"], abs=1e-4)
    path = review.luck_path()  # the green line: the luck so far, ending at the split's luck
    assert len(path) == len(review.curve) and path[-1] == pytest.approx(review.split(0).luck)
    first = review.luck.cut + review.luck.deals[0].cards  # the cut and the first cards
    assert path[0] == pytest.approx(review.split(0).scale * first)
    words = {"en": "Green line", "es": "Línea verde", "fr": "Ligne verte"}
    for lang, word in words.items():
        s = review_scene(ReviewBrowser(review, game), _nar(lang), ("You", "Computer"))
        (legend,) = [lb for lb in s.labels if lb.text.startswith(word)]
        assert legend.color == LUCK_COLOR and legend.anchor_x == "right"  # the title's row
        luck = Catalog(lang).number(review.split(0).points()[1], sign=True)
        (line,) = [lb for lb in s.labels if f" {luck}," in lb.text]  # the viewer's luck row
        assert line.color == LUCK_COLOR and "of a win" not in line.text
        marks = [r for r, c in s.panels if c == LUCK_COLOR]
        assert len(marks) == len(review.curve)
        assert all(CHART.y - 2 <= r.y <= CHART.y + CHART.h for r in marks)


def test_the_cli_review_splits_each_seat_in_parts_that_add_up(reviewed) -> None:
    """``cribbage review`` prints each seat's change of winning chance as luck plus both seats'
    decisions plus what is unexplained (the figures of the game-over panel), then the luck per
    deal."""
    import re

    from ui.cli.cmd_review import luck_text

    game, review = reviewed
    lines = luck_text(review)
    for seat in (0, 1):
        (line,) = [t for t in lines if t.startswith(f"Seat {seat}: from 50% to ")]
        change, luck, own, other, rest = (float(x) for x in re.findall(r"[-+]\d+\.\d", line))
        total = round(luck + own + other + rest, 1)
        assert total == change == (50.0 if game.winner == seat else -50.0)
        assert (change, luck, own, other, rest) == review.split(seat).points()
    assert sum(t.startswith("Luck is the chance events") for t in lines) == 1
    assert "of a win" not in "\n".join(lines)


def test_review_scene_counts_each_players_decisions_in_words(reviewed) -> None:
    """The seat's line: each flag counted in the language's plural form, the winning chance
    lost in per cent (the game-over summary's unit)."""
    game, review = reviewed
    for lang in ("en", "es", "fr"):
        cat = Catalog(lang)
        s = review_scene(ReviewBrowser(review, game), _nar(lang), ("You", "Computer"))
        m = review.seat_summary(0)
        words = [
            cat.ntr("{n} blunder", "{n} blunders", m["blunder"]),
            cat.ntr("{n} bad move", "{n} bad moves", m["bad"]),
            cat.ntr("{n} decision", "{n} decisions", m["decisions"]),
            cat.percent(m["total_loss"]),
        ]
        (line,) = [lb.text for lb in s.labels if lb.text.startswith("You —")]
        assert all(w in line for w in words), (lang, line, words)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_review_header_gives_each_summary_and_the_legend_its_own_place(reviewed, lang) -> None:
    """Top down: the title with the legend at its right; then, for each player shown, their
    decisions' summary and their luck split, each on a row of its own, readable and above the
    chart (two rows with one player, four with both)."""
    from ui.scenes.review_scene import ROW_SIZE, ROW_STEP, ROW_TOP
    from ui.scenes.scene import HEIGHT, PLAYER_COLORS, TABLE_RIGHT
    from ui.scenes.summary_scene import LUCK_COLOR

    game, review = reviewed
    for seats in ((0,), (0, 1)):
        s = review_scene(ReviewBrowser(review, game, seats=seats), _nar(lang), ("You", "Computer"))
        above = [lb for lb in s.labels if lb.y > CHART.y + CHART.h and lb.x < TABLE_RIGHT]
        header = sorted(above, key=lambda lb: -lb.y)
        title, legend, *rows = header
        assert title.y == legend.y == HEIGHT - 26 and title.x < legend.x
        assert legend.color == LUCK_COLOR and legend.text == Catalog(lang).tr(
            "Green line: luck alone"
        )
        assert len(rows) == 2 * len(seats)
        assert [lb.y for lb in rows] == [ROW_TOP - ROW_STEP * j for j in range(len(rows))]
        for seat, (summary, luck) in zip(
            seats, zip(rows[::2], rows[1::2], strict=True), strict=True
        ):
            assert summary.color == PLAYER_COLORS[seat] and luck.color == LUCK_COLOR
            assert summary.text.startswith(("You", "Computer")[seat])
            assert luck.text.startswith(("You", "Computer")[seat])
        assert min(lb.size for lb in rows) >= 10 and max(lb.size for lb in rows) <= ROW_SIZE
        labels = {lb.text for lb in s.labels}
        assert Catalog(lang).percent(1.0, digits=0) in labels  # the axis in the language's numbers
