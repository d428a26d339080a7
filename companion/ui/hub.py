"""The process-wide hub: the game on the table and the browser tabs that watch it.

Each browser tab is its own Flet session. The referee's tab changes the game through `TableBase`
and calls `publish()`; every subscribed tab (referee and followers) then re-renders from the shared
game, after saving it to the store (`persist.GameStore`). Subscribers are callables that schedule work on their own session (`page.run_task`).
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable

from companion.ui.persist import CLOCK_SAVE_SECONDS, GameStore
from companion.ui.table import TableBase


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, Callable[[], None]] = {}
        self.game: TableBase | None = None
        self.store = GameStore(None)
        self.resume_note = ""
        self._clock_saver: threading.Thread | None = None

    def configure(self, data_dir: str | None) -> None:
        """Use the store in `data_dir` and pick up its open game, if any."""
        self.store = GameStore(data_dir)
        game, self.resume_note = self.store.resume()
        if game is not None:
            self.game = game
        if data_dir and self._clock_saver is None:
            self._clock_saver = threading.Thread(target=self._save_clocks_while_running, daemon=True,
                                                 name="clock-saver")
            self._clock_saver.start()

    def _save_clocks_while_running(self) -> None:
        """A running clock's time goes to disk every few seconds (turn changes save it at once), so a
        restart loses at most those seconds. A thread, not a tab's task: it must run with no tab open."""
        while True:
            time.sleep(CLOCK_SAVE_SECONDS)
            game = self.game
            if game is not None and not game.finished:
                self.store.save_clocks(game)

    def subscribe(self, key: str, callback: Callable[[], None]) -> None:
        with self._lock:
            self._subscribers[key] = callback

    def unsubscribe(self, key: str) -> None:
        with self._lock:
            self._subscribers.pop(key, None)

    def set_game(self, game: TableBase | None) -> None:
        self.game = game
        self.publish()

    def publish(self, exclude: str | None = None) -> None:
        game = self.game
        if game is not None:
            self.store.save(game)  # every confirmed event, before any tab shows it
        with self._lock:
            callbacks = list(self._subscribers.items())
        for key, cb in callbacks:
            if key == exclude:
                continue  # the tab that made the change re-renders by itself
            try:
                # page.run_task() sets the "current page" context variable as a side effect; run each
                # callback in a copied context so the caller's page stays current (otherwise the
                # caller's later re-renders are sent to another tab).
                contextvars.copy_context().run(cb)
            except Exception:  # noqa: BLE001 - a closed tab: forget it
                self.unsubscribe(key)

    @property
    def watchers(self) -> int:
        return len(self._subscribers)


HUB = Hub()
