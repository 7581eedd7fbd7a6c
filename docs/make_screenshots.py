"""Regenerate the screenshots in docs/screenshots (headless): ``python docs/make_screenshots.py``.

Every phase of a game in English, Spanish and French, pass-and-play (the handover screen and a
turn after it), the winning-chance indicator, the review of a finished game, the statistics
screen, the rules screen, the four-colour deck and a 1024x640 window. Motion is off, so
the images are the same on every run. Also the coach (the hint's table of options, coach
mode's question), Restart's question, the deal and game-over summaries, the list of
unfinished games, the list of past games, the Settings panel and a table in another theme,
the hint in words, the guided first deal and the large central board. Saved as 256-colour PNGs
to keep the repository small.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ["ARCADE_HEADLESS"] = "1"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import arcade  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from agents.coaching.judge import judge, position_rng  # noqa: E402
from cribbage_env.rules.actions import discard_cards  # noqa: E402
from cribbage_env.rules.core import STANDARD, VARIANTS, Phase  # noqa: E402
from ui.gui.app import GameWindow, Settings  # noqa: E402
from ui.saved.autosave import SaveStore  # noqa: E402
from ui.scenes.preferences import Preferences  # noqa: E402
from ui.table.commands import Act, Command  # noqa: E402
from ui.table.controller import Mode, TableController  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def save(w: GameWindow, name: str) -> None:
    w.on_draw()
    img = arcade.get_image(0, 0, w.width, w.height).convert("RGB")
    img.quantize(256, method=Image.Quantize.MEDIANCUT).save(OUT / f"{name}.png", optimize=True)
    w.flip()


def step(c: TableController, rng: np.random.Generator) -> None:
    c.show.skip()
    if c.computer.to_act:
        c.computer.step()
    elif c.needs_reveal:
        c.reveal()
    else:
        legal = c.game.legal_actions()
        c.decide(legal[int(rng.integers(len(legal)))])


def until(c: TableController, rng: np.random.Generator, ready) -> None:
    for _ in range(5000):
        if ready(c):
            return
        step(c, rng)
    raise RuntimeError("state not reached")


def one_language(w: GameWindow, lang: str) -> None:
    rng = np.random.default_rng(0)
    w.options.lang, w.options.has_save = lang, True
    w.show_menu()
    save(w, f"start_{lang}")
    c = TableController(
        11, mode=Mode.COMPUTER, lang=lang, opponent="greedy", agent_seed=1
    )  # Medium
    w.start_table(c)
    first = (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT)
    until(c, rng, lambda c: c.phase in first and None not in c.cut.cards and c.game.deal_no <= 0)
    save(w, f"cut_for_deal_{lang}")
    until(c, rng, lambda c: c.phase is Phase.DISCARD and c.human_to_act)
    for card in c.coach.request_hint().cards:
        c.selection.toggle(card)
    save(w, f"discard_hint_{lang}")
    c.coach.toggle_options()  # the table of every option, on request
    save(w, f"hint_options_{lang}")
    c.coach.toggle_options()
    c.coach.set_limit(0.02)  # coach mode: the worst discard is held back with a question
    view = c.game.view(0)
    worst = judge(view, position_rng(view))[-1].action
    c.selection.cards = ()
    for card in discard_cards(worst):
        c.selection.toggle(card)
    c.confirm()
    save(w, f"coach_warning_{lang}")
    c.coach.take_back()
    c.coach.set_limit(0.0)
    until(c, rng, lambda c: c.phase is Phase.STARTER_CUT or (c.phase is Phase.PLAY))
    if c.phase is Phase.STARTER_CUT:
        save(w, f"starter_cut_{lang}")

    def pegging(c: TableController) -> bool:
        return (c.phase is Phase.PLAY and c.human_to_act and len(c.game.seq) >= 3
                and any(not c.selection.selectable(x) for x in c.game.hands[0]))  # fmt: skip

    until(c, rng, pegging)
    c.selection.toggle(c.game.legal_actions()[0])
    save(w, f"pegging_{lang}")
    c.guard.ask_restart()
    save(w, f"restart_question_{lang}")
    c.guard.answer(False)
    table = w.screen
    table.meter.toggle()  # the winning-chance indicator (estimated here without a thread)
    table.on_update(0.0)
    save(w, f"chances_{lang}")
    table.meter.toggle()
    until(c, rng, lambda c: bool(c.show.steps) and c.show.running)
    while c.show.step is not None and len(c.show.step.said) < 3:
        c.show.advance()
    save(w, f"show_{lang}")
    while not c.show.at_end:
        c.show.advance()
    save(w, f"deal_summary_{lang}")
    e = TableController(5, mode=Mode.COMPUTER, lang=lang, agent_seed=1)
    w.start_table(e)
    until(e, rng, lambda e: e.game.is_over)
    e.show.skip()
    w.screen.on_update(0.0)  # the game-over summary's review (at once: no thread here)
    save(w, f"game_over_{lang}")
    w.show_review(e, w.screen)  # reviewed at once without a thread: the first mistake shown
    save(w, f"review_{lang}")
    if lang == "en":
        b = w.screen.browser
        b.mistakes_only = False
        b.current = next(i for i, r in enumerate(b.review.ratings)
                         if r.phase == "play" and r.seat == 0 and r.options > 1
                         and len(b.position(i)[0].sequence) >= 2)  # fmt: skip
        save(w, "review_play_en")
    h = TableController(3, mode=Mode.HOTSEAT, lang=lang, agent_seed=1)
    w.start_table(h)
    until(h, rng, lambda h: h.phase is Phase.PLAY and h.needs_reveal and len(h.game.seq) >= 1)
    save(w, f"hotseat_handover_{lang}")
    h.reveal()
    save(w, f"hotseat_turn_{lang}")
    w.show_rules()
    save(w, f"rules_{lang}")


def tutorial(w: GameWindow, lang: str) -> None:
    """The guided first deal: the welcome, a lesson whole, a lesson folded in the play, the
    show with its lesson, the end; then the large board of a game under way."""
    rng = np.random.default_rng(4)
    w.options.lang = lang
    w.show_menu()
    w.start_view.do(Command(Act.TUTORIAL))
    t = w.current_view.tutorial
    c = t.ctl
    save(w, f"tutorial_welcome_{lang}")
    t.start()
    shots = {("discard", False): "discard", ("play", True): "play", ("show", False): "show"}
    for _ in range(600):
        lesson = t.lesson()
        name = shots.get((lesson.key, lesson.read))
        if name == "play" and not (c.human_to_act and c.game.seq):
            name = None  # the pile has a card or two
        if name is not None:
            shots = {k: v for k, v in shots.items() if v != name}
            save(w, f"tutorial_{name}_{lang}")
        if t.done:
            break
        if t.step_alone():
            continue
        if c.phase is Phase.DISCARD:
            for card in c.coach.request_hint().cards:
                c.selection.toggle(card)
            c.confirm()
        else:
            step(c, rng)
    save(w, f"tutorial_done_{lang}")
    g = TableController(11, mode=Mode.COMPUTER, lang=lang, opponent="expert", agent_seed=1)
    w.start_table(g)
    until(g, rng, lambda g: g.game.deal_no >= 3 and g.phase is Phase.PLAY and g.human_to_act)
    w.current_view.do(Command(Act.BOARD))
    save(w, f"big_board_{lang}")


def history(w: GameWindow) -> None:
    """A few finished games at the table (archived in the history the statistics read)."""
    rng = np.random.default_rng(2)
    for seed in (21, 22, 23):
        c = TableController(seed, mode=Mode.COMPUTER, agent_seed=1)
        w.start_table(c)
        until(c, rng, lambda c: c.game.is_over)


def unfinished_games(w: GameWindow) -> None:
    """Two games left unfinished (New game keeps the one under way), listed to resume."""
    rng = np.random.default_rng(3)
    for seed, rules in ((31, STANDARD), (32, VARIANTS["short"])):
        w.options.rules = rules
        w.new_game(seed)
        c = w.ctl
        until(c, rng, lambda c: c.game.deal_no >= 1 and c.phase is Phase.PLAY)
    w.options.rules = STANDARD
    for lang in ("en", "es", "fr"):
        w.options.lang = lang
        w.show_menu()
        save(w, f"start_unfinished_{lang}")
        w.options.listing = True
        save(w, f"unfinished_{lang}")
        w.options.listing = False


def kept_and_chosen(w: GameWindow) -> None:
    """The Settings panel, a table in another theme, the hint in words (a discard, a card in the
    play; the play in French at 1024x640 is in :func:`main`), each player's last peg move."""
    for lang in ("en", "es", "fr"):
        w.options.lang = lang
        w.show_menu()
        w.options.settings_open = True
        save(w, f"settings_{lang}")
        w.options.settings_open = False
    rng = np.random.default_rng(3)
    for lang in ("en", "es"):
        c = TableController(21, mode=Mode.COMPUTER, lang=lang, agent_seed=1, opponent="greedy")
        w.start_table(c)
        until(c, rng, lambda c: c.phase is Phase.DISCARD and c.human_to_act)
        w.current_view.do(Command(Act.HINT))
        save(w, f"hint_words_discard_{lang}")
    w.options.prefs = Preferences(felt="blue", backs="red", board="dark")
    w.apply_prefs()
    c = TableController(11, mode=Mode.COMPUTER, lang="fr", agent_seed=1, opponent="greedy")
    w.start_table(c)
    until(c, rng, lambda c: c.game.deal_no >= 3 and c.phase is Phase.PLAY and c.human_to_act)
    save(w, "theme_and_last_moves_fr")
    w.options.prefs = Preferences()
    w.apply_prefs()


def hint_in_words_small(rng: np.random.Generator) -> None:
    """The hint in words on a card of the play, in French, in a 1024x640 window."""
    small = GameWindow(settings=Settings(threaded=False, motion=False), size=(1024, 640))
    c = TableController(21, mode=Mode.COMPUTER, lang="fr", agent_seed=1, opponent="greedy")
    small.start_table(c)
    until(c, rng, lambda c: c.phase is Phase.PLAY and c.human_to_act and len(c.game.seq) >= 1)
    small.current_view.do(Command(Act.HINT))
    save(small, "hint_words_play_fr_1024x640")
    small.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    store = SaveStore(Path(tempfile.mkdtemp(prefix="cribbage-shots-")))
    store.open()
    w = GameWindow(settings=Settings(threaded=False, motion=False), store=store)
    history(w)
    kept_and_chosen(w)
    unfinished_games(w)
    for lang in ("en", "es", "fr"):
        one_language(w, lang)
        tutorial(w, lang)
        w.options.lang = lang
        w.show_stats()  # the games finished so far, reviewed at once
        save(w, f"stats_{lang}")
        w.screen.show_past()  # the list of past games, each to review or replay
        save(w, f"past_games_{lang}")
    rng = np.random.default_rng(1)
    w.options.four_colour = True
    c = TableController(11, mode=Mode.COMPUTER, lang="en", agent_seed=1)
    w.start_table(c)
    until(c, rng, lambda c: c.phase is Phase.PLAY and len(c.game.seq) >= 3 and c.human_to_act)
    save(w, "four_colour_en")
    w.options.four_colour = False
    w.close()
    small = GameWindow(settings=Settings(threaded=False, motion=False), size=(1024, 640))
    c = TableController(11, mode=Mode.COMPUTER, lang="fr", agent_seed=1)
    small.start_table(c)
    until(c, rng, lambda c: c.phase is Phase.PLAY and len(c.game.seq) >= 2 and c.human_to_act)
    save(small, "window_1024x640_fr")
    small.close()
    hint_in_words_small(rng)
    print("\n".join(str(p.relative_to(ROOT)) for p in sorted(OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
