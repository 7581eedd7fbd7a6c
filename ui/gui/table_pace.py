"""The table screen's clock: what it does each frame besides drawing and answering input.

The computer's move comes after its delay (computed in the window's worker thread when it has
one), a forced card is played for the person when the Settings ask, the show is counted one
combination at a time, and the side jobs run in the window's side thread: the winning-chance
estimate and, at game over, the game's review for the summary. :class:`TablePace` is a base
class of :class:`~ui.gui.table_view.TableView` (which draws and takes the clicks and keys);
an agent that fails never stops the window.
"""

from __future__ import annotations

import concurrent.futures as cf

from ..table.controller import Mode, TableController
from ..table.selection import forced_card
from ..table.teaching.chances import ChanceMeter
from .screen_view import TableShell


class TablePace:
    """The table screen's pace: its computer's moves, its show, its side jobs."""

    ctl: TableController
    game_window: TableShell
    meter: ChanceMeter
    meter_future: cf.Future | None
    review_future: cf.Future | None
    future: cf.Future | None
    ticket: int | None
    _wait: float
    _show_wait: float

    def pace(self, delta_time: float) -> bool:
        """One frame of the table's clock: the side jobs collected or started, the show
        counted on, the computer's move (or the person's forced card) after its delay."""
        ctl = self.ctl
        self._update_meter()
        self._update_review()
        if ctl.show.running:
            self._pace_show(delta_time)
            return True
        self._show_wait = 0.0
        if self.future is not None:
            if self.future.done():
                fut, self.future = self.future, None
                try:
                    ctl.computer.apply(fut.result(), self.ticket)
                except Exception as exc:  # noqa: BLE001 - an agent bug must not kill the window
                    self._agent_failed(exc)
            return True
        if ctl.computer.should_move or self._forced() is not None:
            self._wait += delta_time
            if self._wait >= self.game_window.settings.computer_delay:
                self._wait = 0.0
                forced = self._forced()
                if forced is not None:  # the person's only card, played for them (Settings)
                    ctl.decide(forced)
                else:
                    self._start_computer()
        else:
            self._wait = 0.0
        return True

    def _forced(self) -> int | None:
        """The person's forced move when the Settings panel plays it by itself."""
        return forced_card(self.ctl) if self.game_window.options.prefs.forced_card else None

    def _update_meter(self) -> None:
        """Collect a finished winning-chance estimate; start the next one when it is due."""
        meter, fut = self.meter, self.meter_future
        if fut is not None:
            if not fut.done():
                return
            self.meter_future = None
            try:
                meter.done(fut.result(), self.ctl)
            except Exception as exc:  # noqa: BLE001 - the indicator must not stop the game
                meter.done(None, self.ctl)
                meter.on = False
                self.game_window.errors.append(f"winning chance failed: {exc!r}")
        if not meter.wanted(self.ctl):
            return
        job = meter.job(self.ctl)
        pool = self.game_window._side_pool
        if pool is not None:
            self.meter_future = pool.submit(job)
        else:
            meter.done(job(), self.ctl)

    def _update_review(self) -> None:
        """At game over, review the game (side thread) for the summary's error rate."""
        ctl = self.ctl
        fut = getattr(self, "review_future", None)
        if fut is not None:
            if fut.done():
                self.review_future = None
                try:
                    ctl.game_review = fut.result()
                except Exception as exc:  # noqa: BLE001 - the summary must not stop the game
                    self.game_window.errors.append(f"review failed: {exc!r}")
                    ctl.game_review = False
                ctl.version += 1
                self._remember_review()
            return
        if not ctl.game.is_over or getattr(ctl, "game_review", None) is not None:
            return
        if not any(ctl.is_human(s) for s in (0, 1)):
            return
        from agents.review import review_game

        game = ctl.game.clone()
        pool = self.game_window._side_pool
        if pool is not None:
            self.review_future = pool.submit(review_game, game)
        else:
            ctl.game_review = review_game(game)
            ctl.version += 1
            self._remember_review()

    def _remember_review(self) -> None:
        """Keep the finished game's review beside the history: Statistics reads its figures
        (the same judge, never a second review); a failed write only costs a review later."""
        from agents.review import Review

        from ..reports.player_stats import CACHE_NAME, remember_review

        rev, store = self.ctl.game_review, self.game_window.store
        if store is None or not store.writable or not isinstance(rev, Review):
            return
        try:
            remember_review(store.history.parent / CACHE_NAME, rev)
        except OSError as exc:
            self.game_window.errors.append(f"review not kept: {exc}")

    def _pace_show(self, delta_time: float) -> None:
        """One combination of the show per ``show_delay`` (longer on a hand's total)."""
        settings = self.game_window.settings
        at_end = self.ctl.show.at_end
        auto = self.game_window.options.prefs.auto_continue
        if at_end and settings.show_delay > 0 and self.ctl.mode is not Mode.WATCH and not auto:
            return  # the deal summary waits for Continue (show delay 0: the fastest, no wait)
        self._show_wait += delta_time
        step = self.ctl.show.step
        pause = self.game_window.settings.show_delay * (
            3.0 if at_end else 1.6 if step is not None and step.points and not step.highlight else 1
        )
        if self._show_wait >= pause:
            self._show_wait = 0.0
            self.ctl.show.advance()

    def _start_computer(self) -> None:
        ctl = self.ctl
        ticket, job = ctl.computer.job()
        self.ticket = ticket
        pool = self.game_window._pool
        if pool is not None:
            self.future = pool.submit(job)
            return
        try:
            ctl.computer.apply(job(), ticket)
        except Exception as exc:  # noqa: BLE001 - see _agent_failed
            self._agent_failed(exc)

    def _agent_failed(self, exc: Exception) -> None:
        """An agent raised or answered an illegal move: keep the game going with the first legal
        move of its own view, and keep the error (tests assert there are none)."""
        from agents.arena.client import SeatForfeit

        ctl = self.ctl
        if isinstance(exc, SeatForfeit):  # an isolated seat failed: it loses, with its reason
            ctl.computer.forfeit_game(str(exc))
            return
        self.game_window.errors.append(f"computer move failed: {exc!r}")
        if ctl.computer.to_act and ctl.to_act is not None:
            legal = ctl.game.view(ctl.to_act).legal_actions
            if legal:
                ctl.computer.apply(int(legal[0]))
