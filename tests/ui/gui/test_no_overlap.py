"""Nothing overlaps: on every screen, in every language and at every window size, no two texts
and no text and a button intersect, and no text runs off the screen.

The scenes are data (:mod:`ui.scenes`), so the check runs without a window: each label's ink is
measured with the font the window draws (:mod:`layout_boxes`) at the pixel size each window size
renders it. Screens: the table through whole games (against the computer with hints, the chances
bar and coach warnings; pass and play with its hand-overs), the show and the game over with the
review's lines, the start screen in its states, the Review, the statistics, every page of the
rules and the tutorial's lessons.
"""

from __future__ import annotations

import numpy as np
import pytest
from layout_boxes import SIZES, clashes, label_box, scale_of

from agents.review import review_game
from agents.tournament.play import play_game
from cribbage_env.rules.core import VARIANTS, Phase
from ui.scenes.preferences import Preferences
from ui.scenes.review_scene import CHART, ReviewBrowser, review_scene
from ui.scenes.scene import TABLE_RIGHT, Scene
from ui.scenes.screens.past_scene import past_scene
from ui.scenes.screens.rules_scene import pages, rules_scene
from ui.scenes.screens.settings_scene import settings_layer
from ui.scenes.screens.start_scene import StartOptions, start_scene
from ui.scenes.screens.stats_scene import stats_scene
from ui.scenes.table_scene import table_scene
from ui.scenes.tutorial_scene import tutorial_scene
from ui.table.controller import Mode, TableController
from ui.table.teaching.chances import Reading
from ui.table.teaching.tutorial import Tutorial
from ui.words.i18n import LANGUAGES, Catalog
from ui.words.narration import Narrator

SCALES = tuple(scale_of(size) for size in SIZES)

#: a whole game a language: English in the README's tier, the others (whose words run longer)
#: in the integration tier, which also plays four games to 121 in each language
ONE_GAME_LANGUAGES = [
    lang if lang == "en" else pytest.param(lang, marks=pytest.mark.integration)
    for lang in LANGUAGES
]


#: The smallest text the table draws, in points: 12 px at the smallest window size.
MIN_TEXT = 12


def _check(scenes: list[tuple[str, Scene]]) -> None:
    found: dict[str, str] = {}
    for where, scene in scenes:
        for scale in SCALES:
            for clash in clashes(scene, scale):
                found.setdefault(clash, f"{where} at scale {scale:.2f}")
        for lb in scene.all_labels():
            if lb.text.strip() and lb.size < MIN_TEXT:
                found.setdefault(f"{lb.text!r} is drawn at {lb.size} pt", where)
    assert not found, "\n".join(f"{k} ({v})" for k, v in list(found.items())[:12])


def _play(ctl: TableController, seed: int, hints: bool) -> list[tuple[str, Scene]]:
    """One game to its end (random decisions), a scene after each step; the person's hint asked
    for at each of their decisions when ``hints``."""
    rng = np.random.default_rng(seed)
    out = []
    reading = Reading(0, 0.635, ())
    while not ctl.game.is_over:
        if ctl.needs_reveal:
            ctl.reveal()
        elif ctl.show.running:
            ctl.show.advance()
        elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            ctl.selection.cut_at(int(rng.integers(40)))
            if ctl.computer.to_act:
                ctl.computer.step()
        elif ctl.computer.to_act:
            ctl.computer.step()
        else:
            hint = ctl.coach.request_hint() if hints and ctl.human_to_act else None
            if hint is not None:  # the hint's lines, then its cards chosen (the drop targets)
                out.append((f"hint, {ctl.phase.name}", table_scene(ctl, reading, True)))
                for card in hint.cards:
                    ctl.selection.toggle(card)
                out.append((f"chosen, {ctl.phase.name}", table_scene(ctl, reading, True)))
                ctl.selection.cards = ()
            legal = ctl.game.legal_actions()
            ctl.decide(legal[int(rng.integers(len(legal)))])
        out.append((ctl.phase.name, table_scene(ctl, reading, True)))
    while ctl.show.running:  # a game won in the show: its last counts, then the game over
        ctl.show.advance()
        out.append(("last show", table_scene(ctl, reading, True)))
    return out


def _game_over_and_review(ctl: TableController, every: int = 1) -> list[tuple[str, Scene]]:
    """The game-over panel with the review's lines, and the Review of the game played at
    every ``every``-th decision (the person's mistakes, then both players' decisions)."""
    review = review_game(ctl.game, samples=2)
    ctl.game_review = review
    ctl.version += 1
    out = [("game over", table_scene(ctl))]
    names = (ctl.name(0), ctl.name(1))
    for seats, only in (((0,), True), ((0, 1), False)):
        b = ReviewBrowser(review, ctl.game, seats=seats, mistakes_only=only)
        for k in range(10_000):
            if k % every == 0 or not b.can_step(1):
                out.append((f"review {seats} {b.current}", review_scene(b, ctl.narrator, names)))
            if not b.can_step(1):
                break
            b.step(+1)
    return out


@pytest.mark.parametrize("lang", ONE_GAME_LANGUAGES)
def test_the_table_against_the_computer(lang: str) -> None:
    ctl = TableController(3, mode=Mode.COMPUTER, opponent="greedy", lang=lang, agent_seed=1,
                          rules="short")  # fmt: skip
    scenes = _play(ctl, 3, hints=True)
    _check(scenes + _game_over_and_review(ctl, every=6))


@pytest.mark.integration
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_played_games_to_121(lang: str, seed: int) -> None:
    """Whole games to 121 against the expert, every phase, the hints, the game over and every
    decision of the Review, at the three window sizes."""
    ctl = TableController(seed, mode=Mode.COMPUTER, opponent="expert", lang=lang,
                          agent_seed=seed)  # fmt: skip
    _check(_play(ctl, seed, hints=True) + _game_over_and_review(ctl))


@pytest.mark.parametrize("lang", ONE_GAME_LANGUAGES)
def test_the_table_in_pass_and_play(lang: str) -> None:
    ctl = TableController(4, mode=Mode.HOTSEAT, lang=lang, rules="short")
    _check(_play(ctl, 4, hints=False))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_screen(lang: str) -> None:
    rules = list(VARIANTS.values())
    states = [
        StartOptions(lang=lang),
        StartOptions(lang=lang, hotseat=True, has_save=True, coach=0.02, rules=rules[-1]),
        StartOptions(lang=lang, has_save=True, unfinished=("a", "b", "c"), four_colour=True),
        StartOptions(
            lang=lang, unfinished=("You: 12–30, game to 121, last played",) * 3, listing=True
        ),  # fmt: skip
        StartOptions(lang=lang, message=Catalog(lang).tr("Autosave is off: {error}", error="x")),
    ]
    scenes = [(f"start {i}", start_scene(o)) for i, o in enumerate(states)]
    tr = Catalog(lang).tr
    for prefs in (Preferences(), Preferences("slow", "fast", True, True, "red", "green", "light")):
        s = start_scene(StartOptions(lang=lang))
        settings_layer(s, prefs, tr)
        scenes.append((f"settings {prefs}", s))
    _check(scenes)


@pytest.fixture(scope="module")
def reviewed():
    game = play_game("random", "greedy", 21, agent_seed=3)
    return game, review_game(game, samples=2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_review(reviewed, lang: str) -> None:
    game, review = reviewed
    nar = Narrator(Catalog(lang), ("You", "Computer"), you=0)
    scenes = []
    for seats, only in (((0,), True), ((0, 1), False)):
        b = ReviewBrowser(review, game, seats=seats, mistakes_only=only)
        for _ in range(12):
            scenes.append((f"review {seats} {only} {b.current}", review_scene(b, nar, nar.names)))
            b.step(+1)
    _check(scenes)
    for where, s in scenes:  # the header's texts in their places: above the chart, and every
        for scale in SCALES:  # text of the table left of the side panel
            for lb in s.labels:
                box = label_box(lb, scale)
                if lb.x < TABLE_RIGHT:
                    assert box.x + box.w <= TABLE_RIGHT, (where, lb.text)
                if lb.y > CHART.y + CHART.h:
                    assert box.y >= CHART.y + CHART.h + 12, (where, lb.text)  # over the flags


STATS = {
    "games": 12, "wins": 7, "losses": 5, "win_rate": 7 / 12,
    "skunks": {"given": 2, "taken": 1, "double_given": 0, "double_taken": 1},
    "by_opponent": {"expectimax": {"wins": 4, "losses": 3}, "person": {"wins": 3, "losses": 2}},
    "points_per_deal": {
        "dealer": {"deals": 40, "pegging": 3.1, "hand": 7.0, "crib": 4.0,
                   "expected": {"pegging": 3.36, "hand": 7.5, "crib": 4.32}},
        "pone": {"deals": 38, "pegging": 2.0, "hand": 8.0,
                 "expected": {"pegging": 2.1, "hand": 7.98, "crib": 0.0}},
    },
    "error_rate": [{"game": f"g{i}", "error_rate": 0.004 * (i % 5 + 1)} for i in range(12)],
    "error_rate_first_half": 0.012, "error_rate_second_half": 0.009,
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_statistics_and_the_rules(lang: str) -> None:
    prog = {
        "by_level": {"expectimax": {"wins": 14, "losses": 12, "best_margin": 45},
                     "agents.players.expert:ExpertAgent": {"wins": 0, "losses": 3, "best_margin": 0},
                     "person": {"wins": 3, "losses": 2, "best_margin": 31}},
        "streaks": {"current": -3, "best_wins": 11},
        "achievements": [{"key": k, "count": 12, "first": "2026-12-31"}
                         for k in ("hand24", "thirty_one", "skunk", "double_skunk", "hand29")],
        "by_month": [{"month": f"2026-{m:02d}", "games": 40, "wins": 21} for m in range(1, 13)],
    }  # fmt: skip
    scenes = [("stats", stats_scene(STATS, lang)), ("no stats", stats_scene(None, lang))]
    scenes.append(("progress", stats_scene(dict(STATS, progress=prog), lang)))
    none_yet = dict(prog, achievements=[], by_month=prog["by_month"][:1])
    scenes.append(("progress, none yet", stats_scene(dict(STATS, progress=none_yet), lang)))
    scenes += [(f"rules page {p}", rules_scene(lang, p)) for p in range(len(pages(lang)))]
    tr = Catalog(lang).tr
    rows = [
        ("2026-12-31 23:59", tr("Expert"), "121–119", tr("lost, double skunked")),
        ("2026-01-01 00:00", tr("Another person"), "61–30", tr("won, double skunk")),
    ] * 5
    scenes += [(f"past {p}", past_scene(rows, lang, p, note="x")) for p in (0, 1)]
    scenes.append(("no past", past_scene([], lang, 0)))
    _check(scenes)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutorial(lang: str) -> None:
    t = Tutorial(lang)
    scenes = [("welcome", tutorial_scene(t))]
    t.start()
    c = t.ctl
    for _ in range(300):
        if t.done:
            break
        scenes.append((t.lesson().key, tutorial_scene(t)))
        if t.step_alone():
            continue
        if c.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            c.selection.cut_at(10)
        else:
            c.decide(c.game.legal_actions()[0])
    scenes.append(("done", tutorial_scene(t)))
    _check(scenes)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_statistics_bars_stay_in_their_chart_and_counts_agree_in_number(lang: str) -> None:
    """A large average (a lucky first game: 29 in the hand) keeps its bar left of the error
    chart; one win and one loss are said in the singular ("1 ganada", "1 gagnée")."""
    from ui.scenes.screens.stats_scene import BAR_X, ERRORS

    big = dict(STATS, games=2, wins=1, losses=1, win_rate=0.5)
    big["points_per_deal"] = {
        "dealer": dict(STATS["points_per_deal"]["dealer"], hand=29.0, crib=24.0),
        "pone": dict(STATS["points_per_deal"]["pone"], pegging=14.0),
    }
    s = stats_scene(big, lang)
    bars = [r for r, _ in s.panels if r.x == BAR_X]
    assert bars and all(r.x + r.w < ERRORS.x - 20 for r in bars)
    first = next(lb.text for lb in s.labels if lb.bold and lb.y == s.labels[0].y - 60)
    one = {
        "en": ("1 win", "1 loss"),
        "es": ("1 ganada", "1 perdida"),
        "fr": ("1 gagnée", "1 perdue"),
    }
    assert all(w in first for w in one[lang]) and "ganadas" not in first and "gagnées" not in first
