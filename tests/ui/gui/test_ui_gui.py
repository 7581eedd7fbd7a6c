"""The real Arcade window, headless: clicks and keys go through the window's event dispatch and
the results are checked in the game and in the pixels of screenshots (RULES R11.2, R11.4, R11.7).

Skipped cleanly when Arcade or a headless OpenGL (EGL + Mesa) is not available. The monkey test
sends hundreds of random clicks and keys (thousands with motion, in the integration tier);
``CRIBBAGE_MONKEY_EVENTS=100000`` runs a long one.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from gui_window import click, click_id, finish_game, image, key, patch, press_new_game

from cribbage_env.rules.actions import discard_cards, is_discard
from cribbage_env.rules.core import Phase
from ui.table.controller import Mode, TableController

pytestmark = pytest.mark.gui


def to_phase(w, phase: Phase, *, human: bool = True) -> None:
    """Click cuts (and skip shows) until the person must decide in ``phase``."""
    ctl = w.ctl
    rng = np.random.default_rng(0)
    for _ in range(400):
        ctl.show.skip()
        if ctl.phase is phase and (ctl.human_to_act or not human):
            return
        if ctl.computer.to_act:
            ctl.computer.step()
        elif ctl.needs_reveal:
            click_id(w, "reveal")
        elif ctl.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL_CUT, Phase.STARTER_CUT):
            t = next(t for t in w.current_scene().targets if t.id.startswith("spread:"))
            click(w, t.rect.x + t.rect.w * rng.uniform(0.05, 0.95), t.rect.cy)
        else:
            legal = ctl.game.legal_actions()
            a = legal[int(rng.integers(len(legal)))]
            for c in discard_cards(a) if is_discard(a) else (a,):
                click_id(w, f"card:{c}")
            click_id(w, "confirm")
    raise AssertionError(f"never reached {phase}")


def test_start_screen_by_mouse(window) -> None:
    window.show_menu()
    click_id(window, "mode:hotseat")
    click_id(window, "lang:es")
    assert window.options.hotseat and window.options.lang == "es"
    labels = {lb.text for lb in window.current_scene().labels}
    assert "Jugadores" in labels and "Idioma" in labels
    click_id(window, "lang:fr")
    click_id(window, "mode:computer")
    click_id(window, "level:hard")
    assert window.options.level == "hard" and not window.options.hotseat
    press_new_game(window)
    assert window.ctl is not None and window.ctl.mode is Mode.COMPUTER and window.ctl.lang == "fr"
    assert window.ctl.seats[1].spec
    window.options.lang = "en"


def test_cut_discard_and_play_by_clicking_with_pixels_R11_2(window) -> None:
    window.start_table(TableController(5, mode=Mode.COMPUTER, lang="en"))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    hand = ctl.hand_cards(0)
    before = ctl.game.fingerprint()
    click_id(window, f"card:{hand[0]}")
    click_id(window, f"card:{hand[3]}")
    assert set(ctl.selection.cards) == {hand[0], hand[3]}
    assert ctl.game.fingerprint() == before  # selection is a preview
    img = image(window)
    scene = window.current_scene()
    item = next(i for i in scene.cards if i.card == hand[0])
    gold = patch(img, window, item.rect, fx=-3 / item.rect.w, fy=0.5, r=1)  # frame left of it
    ref = next(i for i in scene.cards if i.card == hand[1])
    plain = patch(img, window, ref.rect, fx=-3 / ref.rect.w, fy=0.5, r=1)
    assert gold[0] > 200 and gold[1] > 150 and gold[2] < 120, gold  # gold selection frame
    assert item.rect.y > ref.rect.y  # selected cards are lifted
    assert not (plain[0] > 200 and plain[2] < 120)
    click_id(window, "confirm")
    assert set(ctl.game.discards[0]) == {hand[0], hand[3]}
    to_phase(window, Phase.PLAY)
    card = ctl.game.legal_actions()[0]
    click_id(window, f"card:{card}")
    click_id(window, "pile")  # a tap on the pile lays the selected card
    assert card in [c for _, c in ctl.game.played]
    to_phase(window, Phase.PLAY)
    card = ctl.game.legal_actions()[-1]
    click_id(window, f"card:{card}")
    click_id(window, "confirm")
    assert card in [c for _, c in ctl.game.played]


def test_tap_on_the_crib_confirms(window) -> None:
    window.start_table(TableController(8, mode=Mode.COMPUTER))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    hand = ctl.hand_cards(0)
    click_id(window, f"card:{hand[1]}")
    click_id(window, f"card:{hand[2]}")
    click_id(window, "crib")
    assert set(ctl.game.discards[0]) == {hand[1], hand[2]}


def test_unplayable_cards_are_drawn_dimmed(window) -> None:
    for seed in range(40):
        window.start_table(TableController(seed, mode=Mode.COMPUTER))
        ctl = window.ctl
        to_phase(window, Phase.PLAY)
        for _ in range(8):
            ctl.show.skip()
            if ctl.phase is not Phase.PLAY or not ctl.human_to_act:
                break
            scene = window.current_scene()
            dim = [i for i in scene.cards if i.dimmed and i.card in ctl.game.hands[0]]
            ok = [i for i in scene.cards if i.card in ctl.game.legal_actions()]
            if dim and ok:
                img = image(window)
                # The white margin near a card's right edge: grey when dimmed.
                d = patch(img, window, dim[0].rect, fx=0.93, fy=0.5, r=2).mean()
                n = patch(img, window, ok[0].rect, fx=0.93, fy=0.5, r=2).mean()
                assert d < 0.75 * n, (d, n)
                return
            click_id(window, f"card:{ok[0].card}")
            click_id(window, "confirm")
            while ctl.computer.to_act:
                ctl.computer.step()
    pytest.fail("no position with a dimmed card found")


def test_hotseat_shows_backs_until_see_my_hand_R11_4(window) -> None:
    window.start_table(TableController(3, mode=Mode.HOTSEAT))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    assert ctl.needs_reveal
    img = image(window)
    scene = window.current_scene()
    own = [i for i in scene.cards if i.rect.y < 100]
    assert len(own) == 6 and all(i.card is None for i in own)
    back = patch(img, window, own[0].rect, r=4)
    assert back[2] > back[0] + 40  # a blue card back, not a white face
    assert scene.layer is not None
    assert "Player" in scene.layer.buttons[0].label
    click_id(window, "reveal")
    scene = window.current_scene()
    own = [i for i in scene.cards if i.rect.y < 100 and i.card is not None]
    assert {i.card for i in own} == set(ctl.game.hands[ctl.to_act])
    img = image(window)
    face = patch(img, window, own[0].rect, fx=0.93, fy=0.5, r=2)
    assert face.min() > 200  # white card face


def test_keyboard_aids_R11_7(window) -> None:
    import arcade

    window.start_table(TableController(11, mode=Mode.COMPUTER))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    hand = ctl.hand_cards(0)
    key(window, arcade.key.KEY_1)
    key(window, arcade.key.RIGHT)
    key(window, arcade.key.RIGHT)
    key(window, arcade.key.UP)  # toggles the focused card (the third)
    assert set(ctl.selection.cards) == {hand[0], hand[2]}
    key(window, arcade.key.H)
    assert ctl.coach.hint is not None
    key(window, arcade.key.ENTER)
    assert set(ctl.game.discards[0]) == {hand[0], hand[2]}
    key(window, arcade.key.Z, arcade.key.MOD_CTRL)
    assert ctl.phase is Phase.DISCARD and not ctl.game.discards[0]
    key(window, arcade.key.Y, arcade.key.MOD_CTRL)
    assert set(ctl.game.discards[0]) == {hand[0], hand[2]}


@pytest.mark.parametrize(("size", "scale"), [((900, 800), 900 / 1280), ((1024, 640), 0.8),
                                           ((1920, 1080), 1.35)])  # fmt: skip
def test_resized_window_scales_the_table(window, size, scale) -> None:
    """From 1024x640 to full HD the table scales as a whole (letterboxed) and clicks land."""
    window.start_table(TableController(2, mode=Mode.COMPUTER))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    window.on_resize(*size)
    try:
        assert window.scale_ == pytest.approx(scale)
        assert window.offset[0] >= 0 and window.offset[1] >= 0  # letterboxed, never cropped
        hand = ctl.hand_cards(0)
        click_id(window, f"card:{hand[4]}")
        assert ctl.selection.cards == (hand[4],)
    finally:
        window.on_resize(1280, 800)
    assert window.scale_ == 1


def test_computer_thinks_without_blocking_the_window(window) -> None:
    import threading

    from ui.gui.app import GameWindow, Settings

    gate = threading.Event()

    class Slow:
        name = "slow"

        def act(self, view, rng):
            gate.wait(5)
            return view.legal_actions[0]

    old = window.settings, window._pool  # reuse the window, with a worker thread
    import concurrent.futures as cf

    window.settings = Settings(computer_delay=0.0, show_delay=0.0, threaded=True)
    window._pool = cf.ThreadPoolExecutor(max_workers=1)
    try:
        ctl = TableController(6, mode=Mode.COMPUTER)
        ctl.seats[1].agent = Slow()
        window.start_table(ctl)
        to_phase(window, Phase.DISCARD, human=False)
        # Put the computer on turn: it is the dealer's discard or the pone's; step until it acts.
        for _ in range(50):
            if ctl.computer.to_act and ctl.phase is Phase.DISCARD:
                break
            if ctl.human_to_act:
                hand = ctl.hand_cards(0)
                ctl.selection.toggle(hand[0])
                ctl.selection.toggle(hand[1])
                ctl.confirm()
        n = len(ctl.decisions)
        for _ in range(5):
            window.pump(0.1)  # frames keep coming while the agent is still thinking
        assert len(ctl.decisions) == n and window._future is not None
        gate.set()
        window._future.result(timeout=5)
        window.pump(0.1)
        assert len(ctl.decisions) == n + 1
    finally:
        gate.set()
        window._pool.shutdown(wait=True)
        window.settings, window._pool = old
    assert isinstance(window, GameWindow)


def test_a_failing_agent_does_not_stop_the_table(window) -> None:
    class Broken:
        name = "broken"

        def act(self, view, rng):
            raise RuntimeError("agent bug")

    ctl = TableController(2, mode=Mode.COMPUTER)
    ctl.seats[1].agent = Broken()
    window.start_table(ctl)
    try:
        for _ in range(300):
            if ctl.phase is Phase.PLAY or ctl.game.is_over:
                break
            ctl.show.skip()
            if ctl.human_to_act:
                legal = ctl.game.legal_actions()
                ctl.decide(legal[len(legal) // 2])
            else:
                window.on_update(0.1)
        assert window.errors and "agent bug" in window.errors[0]
        assert ctl.phase is Phase.PLAY and len(ctl.game.discards[1]) == 2  # it went on
    finally:
        window.errors.clear()


def test_game_over_screen_and_new_game(window) -> None:
    ctl = finish_game(window, 4, np.random.default_rng(0))
    labels = {lb.text for lb in window.current_scene().all_labels()}
    assert any("win" in t for t in labels)
    image(window)
    click_id(window, "newgame")
    assert window.ctl is not ctl and window.ctl.game.deal_no == -1


def test_continue_resumes_the_autosaved_game(window) -> None:
    """The start screen's Continue resumes where the game was, redo tail included."""
    window.options.hotseat = False
    window.options.lang = "fr"
    window.new_game(seed=77)
    ctl = window.ctl
    to_phase(window, Phase.PLAY)
    ctl.undo()
    state, actions, cursor = ctl.game.fingerprint(), list(ctl.history.actions), ctl.history.cursor
    click_id(window, "menu")
    assert window.ctl is None and window.options.has_save
    click_id(window, "continue")
    resumed = window.ctl
    assert resumed is not ctl and resumed.game.fingerprint() == state
    assert (
        list(resumed.history.actions) == actions
        and resumed.history.cursor == cursor
        and resumed.lang == "fr"
    )
    # The language picked on the start screen applies to the resumed game.
    click_id(window, "menu")
    click_id(window, "lang:es")
    click_id(window, "continue")
    assert window.ctl.lang == "es" and window.ctl.game.fingerprint() == state
    es_words = ("Juega", "Elige", "Corta", "Pasa")
    assert any(w in window.ctl.prompt() for w in es_words), window.ctl.prompt()
    window.options.lang = "en"


def test_corrupt_save_is_reported_on_the_start_screen(window) -> None:
    store = window.store
    store.path.write_text('{"format": "cribbage-env/autosave", "version": 1, "seed": 3}')
    before = store.path.read_bytes()
    window.show_menu()
    click_id(window, "continue")
    assert window.ctl is None
    assert "cannot be resumed" in window.options.message
    assert any("cannot be resumed" in lb.text for lb in window.current_scene().labels)
    assert store.path.read_bytes() == before
    image(window)


def test_watch_mode_on_the_table(window) -> None:
    from ui.gui.autoplay import autoplay

    window.start_table(TableController(1, mode=Mode.WATCH, agents=("hard", "medium")))
    autoplay(window, 400, None)
    ctl = window.ctl
    assert ctl.game.is_over or len(ctl.decisions) == 400
    assert ctl.hand_visible(0) and ctl.hand_visible(1)


@pytest.mark.parametrize(
    ("mode", "lang", "motion"),
    [(Mode.COMPUTER, "es", False), (Mode.HOTSEAT, "fr", False), (Mode.COMPUTER, "en", True)],
)
def test_a_whole_game_by_mouse_R11_7(window, mode: Mode, lang: str, motion: bool) -> None:
    """Every decision of a game to 121 made by clicks on the cards, the spread, Confirm and
    See my hand, through the window's event dispatch (the computer at 'hard')."""
    from ui.gui.autoplay import autoplay

    window.start_table(TableController(21, mode=mode, opponent="hard", lang=lang))
    autoplay(window, 5000, None, pilot="greedy", motion=motion)
    g = window.ctl.game
    assert g.is_over and g.scores[g.winner] >= 121


@pytest.mark.parametrize(
    "motion",
    [False, pytest.param(True, marks=pytest.mark.integration)],  # motion: the integration tier
    ids=["still", "motion"],
)
def test_monkey_random_clicks_and_keys(window, motion: bool) -> None:
    """A thousand random clicks, taps and keys across phases, languages and both modes, with
    the animations off and on (clicks then land while cards and pegs are still moving)."""
    default = "2000" if motion else "500"  # the moving one runs in the integration tier
    _monkey(window, motion, int(os.environ.get("CRIBBAGE_MONKEY_EVENTS", default)))


@pytest.mark.integration
@pytest.mark.parametrize("motion", [False, True], ids=["still", "motion"])
def test_monkey_longer(window, motion: bool) -> None:
    """The monkey with more events (more games finished, endings hammered more)."""
    _monkey(window, motion, 4000)


def _monkey(window, motion: bool, events: int) -> None:
    import arcade

    from ui.scenes.scene import HEIGHT, WIDTH

    rng = np.random.default_rng(int(os.environ.get("CRIBBAGE_MONKEY_SEED", "0")))
    keys = [
        arcade.key.KEY_1,
        arcade.key.KEY_2,
        arcade.key.KEY_3,
        arcade.key.KEY_4,
        arcade.key.KEY_5,
        arcade.key.KEY_6,
        arcade.key.LEFT,
        arcade.key.RIGHT,
        arcade.key.UP,
        arcade.key.ENTER,
        arcade.key.SPACE,
        arcade.key.H,
        arcade.key.Z,
        arcade.key.Y,
        arcade.key.ESCAPE,
    ]
    finished = 0
    langs = ("en", "es", "fr")
    window.store.durable = False  # the saves are still written, without waiting for the disk
    weights = {
        "restart": 0.0005,
        "undo": 0.02,
        "redo": 0.02,
        "newgame": 0.3,
        "hint": 0.1,
        "skip": 0.3,
        "rules": 0.02,
        "export": 0.005,
    }
    games = 0

    def fresh_game() -> None:
        nonlocal games
        window.options.lang = langs[games % 3]
        window.options.hotseat = bool((games // 3) % 2) if games else False
        window.new_game(seed=int(rng.integers(1 << 30)))
        games += 1
        if games % 2 == 0:  # half the games start near the end, so endings get hammered too
            c = window.ctl
            while max(c.game.scores) < 100 and not c.game.is_over:
                legal = c.game.legal_actions()
                c.decide(legal[int(rng.integers(len(legal)))])
            if c.game.is_over:
                c.restart()

    window.settings.motion = motion
    fresh_game()
    for i in range(events):
        if window.ctl is None:
            fresh_game()
        if i and i % min(1500, max(events // 6, 1)) == 0:  # every language and both modes
            fresh_game()
        r = rng.random()
        scene = window.current_scene()
        if r < 0.65:  # aim at something that answers, mostly the game's own moves
            spots = [
                (b.rect, weights.get(b.id, 1.0))
                for b in scene.buttons
                if b.enabled and b.id != "menu"
            ]
            spots += [(t.rect, 1.0) for t in scene.targets]
            if scene.layer is not None:
                spots += [(b.rect, weights.get(b.id, 1.0)) for b in scene.layer.buttons]
            if spots:
                p = np.array([w for _, w in spots])
                rect = spots[int(rng.choice(len(spots), p=p / p.sum()))][0]
                click(window, rect.x + rect.w * rng.random(), rect.y + rect.h * rng.random())
        elif r < 0.8:
            click(window, rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT))
        else:
            k = keys[int(rng.integers(len(keys)))]
            mod = (
                arcade.key.MOD_CTRL
                if k in (arcade.key.Z, arcade.key.Y) and rng.random() < 0.7
                else 0
            )
            key(window, k, mod)
        if type(window.current_view).__name__ == "RulesView":  # Rules: read on, then back
            click_id(window, "rules:next" if rng.random() < 0.5 else "rules:back")
            if type(window.current_view).__name__ == "RulesView":
                click_id(window, "rules:back")
        if window.ctl is None:  # Escape: back to the start screen, then on
            click_id(
                window, "continue" if window.options.has_save and rng.random() < 0.9 else "play"
            )
        window.on_update(0.05)
        if i % 25 == 0:
            window.on_draw()
        ctl = window.ctl
        if ctl is not None and ctl.game.is_over:
            assert max(ctl.game.scores) >= 121 and ctl.game.winner is not None
            assert ctl.game.scores[ctl.game.winner] >= 121
            finished += 1
            fresh_game()
    window.store.durable = True
    window.settings.motion = False
    print(
        f"monkey: {events} events, {games} games started, {finished} finished, every winner >= 121"
    )
    assert not window.errors


def test_key_map_table() -> None:
    """The key map answers like the table did: Ctrl+Z undo, Ctrl+Shift+Z redo, digits only on a
    turn, Enter per state."""
    pytest.importorskip("arcade")
    import arcade

    from ui.gui.keys import TABLE_KEYS, lookup

    k = arcade.key

    def act(state: str, sym: int, mod: int = 0):
        b = lookup(TABLE_KEYS, state, sym, mod)
        return (b.command.act.value, b.command.arg) if b else None

    assert act("show", k.Z, k.MOD_CTRL) == ("undo", 0)
    assert act("turn", k.Z, k.MOD_CTRL | k.MOD_SHIFT) == ("redo", 0)
    assert act("turn", k.Z) is None
    assert act("over", k.ESCAPE) == ("menu", 0)
    assert act("show", k.ENTER) == ("next", 0) and act("over", k.SPACE) == ("newgame", 0)
    assert act("reveal", k.RETURN) == ("reveal", 0) and act("reveal", k.KEY_1) is None
    assert act("turn", k.KEY_3) == ("select", 2) and act("turn", k.NUM_6) == ("select", 5)
    assert act("turn", k.SPACE) == ("go_or_select", 0) and act("turn", k.NUM_ENTER) == ("go", 0)


def test_rules_screen_export_and_four_colours(window, tmp_path) -> None:
    """The table's Rules button opens the rules in the game's language and Back returns; Export
    writes a record that replays to the same game; the four-colour deck recolours diamonds."""
    import json

    import cribbage_env as ce
    from ui.gui.drawing.card_art import card_image
    from ui.gui.rules_view import RulesView

    window.start_table(TableController(9, mode=Mode.COMPUTER, lang="fr"))
    ctl = window.ctl
    to_phase(window, Phase.PLAY)
    table = window.current_view
    click_id(window, "rules")
    assert isinstance(window.current_view, RulesView) and window.ctl is None
    assert any("Carte" in lb.text for lb in window.current_scene().labels)
    click_id(window, "rules:next")
    assert window.current_view.page == 1
    image(window)
    click_id(window, "rules:back")
    assert window.current_view is table and window.ctl is ctl
    click_id(window, "export")
    exported = sorted((window.store.dir / "exports").glob("*.json"))
    assert exported
    g = ce.GameState.from_record(json.loads(exported[-1].read_text()))
    assert g.fingerprint() == ctl.game.fingerprint()
    assert any("export" in lb.text for lb in window.current_view.frame_scene().all_labels())
    # French faces: the letter of the Queen's index is repainted (D), other cards untouched
    qd = np.asarray(card_image(11 + 13, ("V", "D", "R"), False))
    q_en = np.asarray(card_image(11 + 13, ("J", "Q", "K"), False))
    assert (qd[9:38, 8:35] != q_en[9:38, 8:35]).any() and (qd[60:130] == q_en[60:130]).all()
    blue = np.asarray(card_image(13 + 4, ("J", "Q", "K"), True))[..., :3].reshape(-1, 3)
    red = np.asarray(card_image(13 + 4, ("J", "Q", "K"), False))[..., :3].reshape(-1, 3)
    inked = lambda a: a[(a.max(axis=1) - a.min(axis=1)) > 60]  # noqa: E731
    assert inked(blue)[:, 2].mean() > inked(blue)[:, 0].mean()  # diamonds blue
    assert inked(red)[:, 0].mean() > inked(red)[:, 2].mean()  # red in the classic deck
    window.show_menu()
    click_id(window, "four_colour")
    assert window.options.four_colour
    click_id(window, "four_colour")


def test_fresh_seeds_come_from_os_entropy_not_the_clock(window, monkeypatch) -> None:
    """A clock seed (``time_ns() % 2e9``) can be brute-forced from the cards
    one sees. With the clock frozen, two new games still get different seeds, from 63 bits, and
    the seed is recorded in the save so Continue and Restart give the same deals."""
    import time

    monkeypatch.setattr(time, "time_ns", lambda: 1_234_567_890_123)
    window.options.hotseat = False
    seeds = set()
    for _ in range(3):
        window.new_game()
        seeds.add(window.ctl.seed)
        assert window.ctl.to_save()["seed"] == window.ctl.seed
    assert len(seeds) == 3 and max(seeds) >= 2**40  # 2e9 clock seeds stay below 2**31
    window.show_menu()


def test_continue_asks_before_building_an_agent_named_by_the_save(window, monkeypatch) -> None:
    """A planted save naming a model file shows the spec; only the
    person's second press of Continue builds it."""
    import json

    from agents.players.random_agent import RandomAgent
    from ui.table import seats as seats_module

    store = window.store
    data = TableController(8, mode=Mode.COMPUTER, opponent="random").to_save()
    planted = "maskable_ppo:path=/tmp/planted-model.zip"
    data["agents"][1] = planted
    store.path.write_text(json.dumps(data))
    built = []
    monkeypatch.setattr(
        seats_module, "_make_agent", lambda spec: built.append(spec) or RandomAgent()
    )
    window.show_menu()
    window.options.lang = "en"
    click_id(window, "continue")
    assert window.ctl is None and built == []
    assert planted in window.options.message and "trust" in window.options.message
    assert any(planted in lb.text for lb in window.current_scene().labels)
    click_id(window, "continue")
    assert window.ctl is not None and built == [planted]
    window.show_menu()
    store.clear()


def test_motion_is_short_skippable_and_idle_frames_draw_nothing(window) -> None:
    """With motion on, a decision starts a transition of at most 400 ms; a click anywhere ends
    it at once; once it is over, the event loop's frames draw nothing until the table changes."""
    from ui.gui.table_view import TableView
    from ui.scenes.motion import MAX_SECONDS

    window.settings.motion = True
    try:
        window.start_table(TableController(12, mode=Mode.COMPUTER))
        ctl = window.ctl
        to_phase(window, Phase.DISCARD)
        view = window.current_view
        assert isinstance(view, TableView)
        hand = ctl.hand_cards(0)
        click_id(window, f"card:{hand[0]}")
        click_id(window, f"card:{hand[1]}")
        click_id(window, "confirm")
        window.current_scene()
        assert view.transition is not None and view.transition.total <= MAX_SECONDS
        click(window, 600, 290)  # empty felt: ends the motion, changes nothing in the game
        assert view.transition is None and len(ctl.game.discards[0]) == 2
        for _ in range(30):  # the computer's reply and its motion run out
            window.on_update(1 / 60)
            window.draw(1 / 60)
        assert ctl.human_to_act and view.transition is None
        drawn = []
        plain = window.on_draw
        window.on_draw = lambda: drawn.append(1) or plain()
        try:
            for _ in range(10):
                window.on_update(1 / 60)
                window.draw(1 / 60)
        finally:
            del window.on_draw
        assert not drawn  # idle: no redraw, no buffer swap
    finally:
        window.settings.motion = False


def test_export_waits_for_the_end_of_a_pass_and_play_game(window) -> None:
    """An exported record shows every hand, so pass and play exports nothing
    while the game is under way (the button is off, and the action does nothing)."""
    window.start_table(TableController(6, mode=Mode.HOTSEAT))
    ctl = window.ctl
    to_phase(window, Phase.DISCARD)
    folder = window.store.dir / "exports"
    before = sorted(folder.glob("*.json")) if folder.exists() else []
    assert window.current_scene().button("export").enabled is False
    assert window.current_view.export() is None
    after = sorted(folder.glob("*.json")) if folder.exists() else []
    assert after == before and not ctl.game.is_over
    window.show_menu()


def test_the_command_line_seed_is_the_first_games_only(window) -> None:
    """``--seed N`` deals the first New game; Menu, New game again draws a fresh seed (in pass
    and play the same seed again would be a restart of the game under way)."""
    window.show_menu()
    window.options.hotseat = True
    window.settings.seed = 12345
    try:
        press_new_game(window)
        assert window.ctl.seed == 12345
        click_id(window, "menu")
        press_new_game(window)
        assert window.ctl.seed != 12345
    finally:
        window.settings.seed = None
        window.options.hotseat = False
        window.show_menu()
