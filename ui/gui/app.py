"""The Arcade application: a window with one :class:`arcade.View` per screen.

Nothing here decides anything about the game: the :class:`~ui.table.controller.TableController` does,
and :mod:`ui.scenes.scene` lays it out on a 1280x800 virtual table that is scaled to fit the window
(letterboxed), so every target keeps its size relative to the table. The screens are
:class:`~ui.gui.start_view.StartView` and :class:`~ui.gui.table_view.TableView`; the window owns
what they share (settings, the autosave, the start options, the computer's worker thread).
"""

from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import arcade

from ..saved.autosave import SaveStore
from ..saved.seeds import new_game_seed
from ..saved.shelf import shelve, take_from_shelf, unfinished, unfinished_label
from ..scenes.preferences import COMPUTER_DELAY, SHOW_DELAY
from ..scenes.scene import HEIGHT, WIDTH, Scene
from ..scenes.screens.start_scene import StartOptions, loading_scene
from ..table.commands import Command
from ..table.controller import Mode, TableController
from ..table.saves import SaveError, UntrustedSave
from ..table.warmup import warm_in_background
from .drawing.render import Renderer, color_clear
from .drawing.window import ScaledWindow
from .rules_view import RulesView
from .sound import Sounds
from .start_view import StartView
from .table_view import TableView

if TYPE_CHECKING:  # imported when shown: the review and the statistics import the agents
    from ..saved.past_games import PastGame
    from .review_view import ReviewView
    from .stats_view import StatsView

__all__ = ["GameWindow", "Settings"]


@dataclass
class Settings:
    """How the window behaves (command-line options)."""

    computer_delay: float = 0.6  # seconds before the computer's move appears
    show_delay: float = 1.0  # seconds per combination said in the show
    threaded: bool = True  # compute the computer's move in a worker thread
    seed: int | None = None
    watch: tuple[str, str] | None = None
    motion: bool = True  # cards fly, pegs walk (off for autoplay and screenshots)
    four_colour: bool = False  # diamonds blue, clubs green
    chances: bool = False  # the winning-chance indicator (always on when watching agents)
    isolate: float | None = None  # computers in sealed seats, this many seconds a decision
    pace_from_prefs: bool = False  # the delays follow the Settings panel (no --delay given)


class GameWindow(ScaledWindow):
    """The game: a start screen and the table, each an :class:`arcade.View`."""

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        store: SaveStore | None = None,
        options: StartOptions | None = None,
        fullscreen: bool = False,
        size: tuple[int, int] = (WIDTH, HEIGHT),
    ) -> None:
        super().__init__(*size, fullscreen=fullscreen)
        self.settings = settings or Settings()
        self.store = store
        self.options = options or StartOptions()
        self.renderer = Renderer(self)
        self.renderer.four_colour = self.settings.four_colour
        self.apply_prefs()
        self._paint(loading_scene(self.options))  # never a black window, whatever comes next
        self._warm_wanted = False
        self._pool = cf.ThreadPoolExecutor(max_workers=1) if self.settings.threaded else None
        # Estimates and reviews run in a thread of their own: the computer's move never waits.
        self._side_pool = cf.ThreadPoolExecutor(max_workers=1) if self.settings.threaded else None
        self.errors: list[str] = []
        self.refresh_saves()
        self.options.four_colour = self.options.four_colour or self.settings.four_colour
        self.sounds = Sounds()
        self.warm_after_frame()  # compiling overlaps the start screen and the first deal
        self.start_view = StartView(self)
        self.show_view(self.start_view)

    # ------------------------------------------------------------------------ screens
    @property
    def screen(self) -> StartView | TableView | RulesView | ReviewView | StatsView:
        view = self.current_view
        assert view is not None
        return cast("StartView | TableView | RulesView | ReviewView | StatsView", view)

    def show_screen(self, view: arcade.View) -> None:
        self.show_view(view)
        self._redraw = True

    def show_rules(self) -> None:
        """The rules in the current language; Back returns to this screen."""
        view = self.current_view
        ctl = self.ctl
        lang = ctl.lang if ctl is not None else self.options.lang
        self.show_screen(RulesView(self, lang, view if view is not None else self.start_view))

    def show_review(self, ctl: TableController, back: arcade.View) -> None:
        """The review of ``ctl``'s finished game; Back returns to ``back`` (the table)."""
        from .review_view import ReviewView

        self.show_screen(ReviewView(self, ctl, back))

    def show_stats(self) -> None:
        """The player's statistics from the game history; Back returns to the start screen."""
        from .stats_view import StatsView

        history = self.store.history if self.store is not None else None
        self.show_screen(StatsView(self, history, self.options.lang, self.start_view))

    def open_past(self, game: PastGame, back: arcade.View, *, replay: bool) -> None:
        """A past game in the Review (Back returns to ``back``), or replayed on the table."""
        from ..saved.past_games import past_table

        try:
            ctl = past_table(game.path, self.options.lang, replay=replay)
        except (SaveError, OSError, ValueError) as exc:  # the file changed since it was listed
            self.errors.append(f"past game {game.path.name} could not be opened: {exc}")
            return
        if replay:
            self.start_table(ctl)
        else:
            self.show_review(ctl, back)

    @property
    def ctl(self) -> TableController | None:
        """The game on the table, or None on the start screen."""
        view = self.current_view
        return view.ctl if isinstance(view, TableView) else None

    @property
    def _future(self) -> cf.Future | None:
        view = self.current_view
        return view.future if isinstance(view, TableView) else None

    def start_table(self, ctl: TableController) -> None:
        self.warm_after_frame()  # the expert's first move must not wait for numba
        if ctl.mode is not Mode.WATCH:
            ctl.coach.set_limit(self.options.coach)
        if self.store is not None and ctl.on_change is None and ctl.mode.value != "watch":
            ctl.on_change = self.store.save
        self.show_view(TableView(self, ctl))
        self._redraw = True

    def start_tutorial(self) -> None:
        """The guided first deal (:mod:`ui.table.teaching.tutorial`): never saved, never in the history."""
        from ..table.teaching.tutorial import Tutorial
        from .tutorial_view import TutorialView

        self.warm_after_frame()
        self.show_view(TutorialView(self, Tutorial(self.options.lang)))
        self._redraw = True

    def new_game(self, seed: int | None = None) -> None:
        """A new game; ``--seed`` (``settings.seed``) is the first one's only, later New games
        draw fresh seeds (else Menu, New game would deal a pass-and-play game under way again:
        a restart in disguise)."""
        from agents import LEVELS

        o = self.options
        if seed is not None and seed == self.settings.seed:
            self.settings.seed = None
        if seed is None:
            seed = new_game_seed()
        if self.store is not None:
            shelve(self.store)  # the game under way is kept, never replaced
        spec = LEVELS[o.level].spec if o.level in LEVELS else "random"
        mode = "hotseat" if o.hotseat else "computer"
        ctl = self._table(seed, mode=mode, opponent=spec, lang=o.lang, rules=o.rules)
        self.start_table(ctl)  # saved from its first decision on

    def _table(self, seed: int, **kwargs) -> TableController:
        """A new game with the window's seats: under ``--isolate`` the computers sit sealed
        and the deal comes from the seed and a secret key (a seat may know the seed)."""
        isolate = self.settings.isolate
        if isolate is not None:
            from agents.arena.seat import secret_seed

            seed = secret_seed(seed)
        return TableController(seed, isolate=isolate, **kwargs)

    def continue_saved(self) -> None:
        """Resume the autosave. A seat naming code or a file (not a built-in agent) is shown
        first; the person's second press of Continue is their yes."""
        if self.store is None:
            return
        from ..words.i18n import Catalog

        asked: tuple[str, ...] = getattr(self, "_asked_trust", ())
        self._asked_trust: tuple[str, ...] = ()
        try:
            ctl = self.store.load(trusted=asked, isolate=self.settings.isolate)
        except UntrustedSave as exc:
            self._asked_trust = exc.specs
            self.options.message = Catalog(self.options.lang).tr(
                "This saved game plays against {agents}, which runs code or reads a file that is "
                "not part of the game. Press Continue again only if you trust it.",
                agents=", ".join(exc.specs),
            )
            return
        except SaveError as exc:
            self.options.message = Catalog(self.options.lang).tr(
                "The saved game could not be resumed (the file is left as it was): {error}",
                error=str(exc),
            )
            self.options.has_save = False
            return
        if ctl.lang != self.options.lang:  # the language chosen on the start screen wins
            ctl.set_language(self.options.lang)
        self.options.hotseat = ctl.mode is Mode.HOTSEAT
        self.options.rules = ctl.rules
        from agents import LEVELS

        level = {lv.spec: name for name, lv in LEVELS.items()}.get(str(ctl.seats[1].spec))
        if level is not None:
            self.options.level = level
        self.start_table(ctl)

    def refresh_saves(self) -> None:
        """The start screen's Continue button and list of unfinished games."""
        found = unfinished(self.store) if self.store is not None else []
        self._unfinished = [u for u in found if not u.error]
        self.options.unfinished = tuple(
            unfinished_label(u, self.options.lang) for u in self._unfinished
        )
        self.options.has_save = bool(self._unfinished) or bool(self.store and self.store.exists())

    def resume_unfinished(self, i: int) -> None:
        """Resume the ``i``-th game of the list (a shelved one becomes the autosave first)."""
        if self.store is None or not 0 <= i < len(self._unfinished):
            return
        u = self._unfinished[i]
        if not u.current:
            try:
                take_from_shelf(self.store, u.path)
            except (SaveError, OSError) as exc:
                self.options.message = str(exc)
                return
        self.continue_saved()

    def show_menu(self) -> None:
        self.refresh_saves()
        self.start_view.scene_key = None
        self.show_view(self.start_view)
        self._redraw = True

    def next_game(self) -> None:
        """New game after a game over: the same seats (two agents keep watching each other; a
        replayed record starts again)."""
        ctl = self.ctl
        if ctl is not None and ctl.mode is Mode.WATCH:
            if ctl.script is not None:
                ctl.restart()
                return
            seed = new_game_seed()
            self.start_table(
                self._table(
                    seed,
                    mode=Mode.WATCH,
                    lang=ctl.lang,
                    agents=[str(s.spec) for s in ctl.seats],
                    rules=ctl.rules,
                )
            )
            return
        self.new_game()

    def apply_prefs(self) -> None:
        """The Settings panel's pace (unless the command line set the delays) and look."""
        prefs = self.options.prefs
        if self.settings.pace_from_prefs:
            self.settings.computer_delay = COMPUTER_DELAY[prefs.computer]
            self.settings.show_delay = SHOW_DELAY[prefs.show]
        self.renderer.theme(prefs)
        self._redraw = True

    # ------------------------------------------------------------------------ frame
    def warm_after_frame(self) -> None:
        """Compile the table's kernels in the background (:func:`warm_in_background`), starting
        once the next frame is on the screen: importing the compiler holds the interpreter for
        a second or more, which the first frame of a screen must not wait for."""
        self._warm_wanted = self.settings.threaded

    def _paint(self, scene: Scene) -> None:
        """Draw ``scene`` and show it now, outside the event loop."""
        self.ctx.screen.use()
        color_clear(self, self.renderer.felt, (0, 0, *self.get_framebuffer_size()))
        with self.camera.activate():
            self.renderer.draw(scene)
        self.flip()

    def current_scene(self) -> Scene:
        return self.screen.current_scene()

    @property
    def _scene_key(self) -> tuple | None:
        return self.screen.scene_key

    def on_draw(self) -> None:
        self.ctx.screen.use()
        color_clear(self, self.renderer.felt, (0, 0, *self.get_framebuffer_size()))  # + bars
        screen = self.screen
        scene = screen.frame_scene() if isinstance(screen, TableView) else screen.current_scene()
        self.renderer.four_colour = self.options.four_colour
        with self.camera.activate():
            self.renderer.draw(scene)
        self._drawn_key = self._scene_key
        self._redraw = False

    def draw(self, dt: float) -> None:
        """Called by the event loop every frame: the table is redrawn (and the buffers swapped)
        only when something on it changed, so an idle table costs almost nothing. Skipping the
        swap leaves the last frame on screen."""
        self.current_scene()
        moving = isinstance(self.screen, TableView) and self.screen.animating
        if self._redraw or moving or self._scene_key != self._drawn_key:
            self.switch_to()
            self.on_draw()
            self.flip()
        if self._warm_wanted:
            self._warm_wanted = False
            warm_in_background()

    def on_expose(self) -> None:
        self._redraw = True

    def on_show(self) -> None:
        self._redraw = True

    def on_update(self, delta_time: float) -> None:
        """Direct calls (tests, benchmarks) reach the screen; the event loop's ``on_update``
        events reach it first through the view's handlers, which stop them there."""
        self.screen.on_update(delta_time)

    # ------------------------------------------------------------------------ input
    def click(self, wx: float, wy: float) -> Command | None:
        """A click in virtual coordinates (tests and the mouse handler)."""
        return self.screen.click(wx, wy)

    def close(self) -> None:
        for pool in (self._pool, self._side_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        super().close()
