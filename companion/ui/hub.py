"""The process-wide hub: the tables of one server (every game in progress, keyed by game id), the
browser tabs watching each, and who may change each game.

One server runs several games at once (a club's tables, a family's two boards). Each game is a
`TableBase` with its own id, its own address (`/table/<id>`, see `table_path`), its own referee PIN and
its own rows in the one store file (`persist.GameStore`). Each browser tab is its own Flet session and
watches one table (or none: the home screen). A change to a game is saved to the store, then every tab
watching that game re-renders (`publish`); tabs on the home screen are told too, so the list of tables
stays current. The save runs off the server's event loop (one table waiting for the disk does not hold
the others' updates), and no tab watching the game draws until it has returned (`hold`). Subscribers
are callables that schedule work on their own session (`page.run_task`).

Who may change a game is decided here, on the server, per game and per tab (`may_change`): a game
with a referee PIN accepts changes only from the tabs that started it or have given its PIN, whatever a
tab's own screen or role says. A tab whose session was lost and made again is a referee again only when
it presents the key of a tab that was (`reseat`, `seats.RefereeSeats`: kept on disk, so also after a
restart); any other new tab starts as nobody.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.net import LOOPBACK
from companion.ui.persist import CLOCK_SAVE_SECONDS, GameStore, SavedGame
from companion.ui.seats import SEATS_FILE, RefereeSeats
from companion.ui.table import TableBase

LOG = logging.getLogger("companion.ui")
TABLE_PREFIX = "/table/"
PIN_NEEDED = "This game has a referee PIN: type it and tap 'Referee this game' first. Nothing was changed."


def table_path(game_id: str) -> str:
    """The address path of one table: open it to follow that game (or referee it with its PIN)."""
    return f"{TABLE_PREFIX}{game_id}"


def table_from_path(route: str) -> str:
    """The game id in an address path (`/table/<id>`, with or without a query), '' for any other path."""
    path = (route or "").split("?", 1)[0].split("#", 1)[0].rstrip("/")
    if not path.startswith(TABLE_PREFIX):
        return ""
    game_id = path[len(TABLE_PREFIX):]
    return game_id if game_id and "/" not in game_id else ""


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # tab key -> (the game id the tab watches, "" for the home screen; its redraw callback)
        self._subscribers: dict[str, tuple[str, Callable[[], None]]] = {}
        self.tables: dict[str, TableBase] = {}  # every game loaded: the open ones, finished ones once opened
        self._referees: dict[str, set[str]] = {}  # game id -> the tab keys allowed to change it
        self._seats = RefereeSeats(None)  # the same, for tabs whose session is gone (`reseat`)
        self.store = GameStore(None)
        self.resume_note = ""
        # Where phones reach this server (set by `companion.ui.main.serve`): the QR codes point here.
        self.base_urls: list[str] = []
        self._clock_saver: threading.Thread | None = None
        # The saves on their way to disk (`publish` on the event loop), per game id: how many, the tabs
        # that made the changes (they redraw by themselves), and the redraws held until they are saved.
        self._unsaved: dict[str, int] = {}
        self._excluded: dict[str, set[str]] = {}
        self._held: dict[str, list[Callable[[], None]]] = {}

    def configure(self, data_dir: str | None) -> None:
        """Use the store in `data_dir` and pick up every open game in it."""
        self.store = GameStore(data_dir)
        games, notes = self.store.resume_all()
        with self._lock:
            self.tables = {g.id: g for g in games}
            self._referees = {}
            self._seats = RefereeSeats(Path(data_dir) / SEATS_FILE if data_dir else None)
        self.resume_note = " ".join(notes) if len(games) <= 1 else (
            f"Resumed {len(games)} open games: pick a table below."
            + "".join(f" {n}" for n in notes if "could not" in n))
        self.store.start_writer()
        if data_dir and self._clock_saver is None:
            self._clock_saver = threading.Thread(target=self._save_clocks_while_running, daemon=True,
                                                 name="clock-saver")
            self._clock_saver.start()

    def _save_clocks_while_running(self) -> None:
        """A running clock's time goes to disk every few seconds (turn changes save it at once), so a
        restart loses at most those seconds. A thread, not a tab's task: it must run with no tab open."""
        while True:
            time.sleep(CLOCK_SAVE_SECONDS)
            for game in list(self.tables.values()):
                if not game.finished:
                    self.store.save_clocks(game)

    # ----- the tables
    def table(self, game_id: str) -> TableBase | None:
        """The game with this id: in memory, else read from the store (a finished game opened from the
        home screen); None when there is no such game."""
        if not game_id:
            return None
        game = self.tables.get(game_id)
        if game is None:
            game, _ = self.store.load(game_id)
            if game is not None:
                with self._lock:
                    game = self.tables.setdefault(game_id, game)
        return game

    def open_tables(self) -> list[TableBase]:
        """The games in progress, in the order they were started or resumed."""
        return [g for g in list(self.tables.values()) if not g.finished]

    def listing(self) -> list[SavedGame]:
        """Every game the home screen lists: those in the store (newest first), and any not saved yet."""
        saved = self.store.listing()
        known = {s.id for s in saved}
        fresh = [SavedGame(g.id, g.kind, g.players, g.finished, "", len(g.log.events))
                 for g in self.tables.values() if g.id not in known]
        return fresh + saved

    def add(self, game: TableBase, referee: str = "") -> None:
        """A new game on its own table; the tab `referee` (the one that started it) may change it."""
        with self._lock:
            self.tables[game.id] = game
            if referee:
                self._referees.setdefault(game.id, set()).add(referee)
        self._seats.remember(game.id, referee)
        self.publish(game)

    def set_game(self, game: TableBase) -> None:
        """A new game on its own table (the name kept from the one-table hub)."""
        self.add(game)

    def table_url(self, game_id: str) -> str:
        """The full address of a table as phones reach it: the network address when the server listens
        on the network (`--host 0.0.0.0`), else the one address it listens on."""
        urls = self.base_urls or [f"http://{LOOPBACK}:8550"]
        reachable = [u for u in urls if f"//{LOOPBACK}:" not in u and "//localhost:" not in u]
        return (reachable or urls)[0] + table_path(game_id)

    def phones_can_reach(self) -> bool:
        """Whether the server listens beyond this machine (else a phone cannot open any table's address)."""
        return any(f"//{LOOPBACK}:" not in u and "//localhost:" not in u for u in self.base_urls)

    # ----- who may change a game
    def authorise(self, game_id: str, key: str) -> None:
        """The tab `key` may now change the game (it started it, or gave the referee PIN)."""
        if key:
            with self._lock:
                self._referees.setdefault(game_id, set()).add(key)
            self._seats.remember(game_id, key)

    def reseat(self, old_key: str, new_key: str) -> list[str]:
        """A tab whose session `old_key` is gone came back as the new session `new_key`: the games
        `old_key` refereed, `new_key` may change too (returned). A key that refereed nothing gets nothing."""
        games = self._seats.games_of(old_key) if old_key and new_key and old_key != new_key else []
        for game_id in games:
            self.authorise(game_id, new_key)
        return games

    def is_referee(self, game: TableBase, key: str) -> bool:
        return bool(key) and key in self._referees.get(game.id, set())

    def may_change(self, game: TableBase, key: str) -> str:
        """'' when the tab `key` may change `game`, else the sentence to show. Every change a tab makes
        passes here (`AppState._act`, the clocks, a photo read), whatever the tab's screen says."""
        if self.is_referee(game, key) or not self.store.has_pin(game):
            return ""
        return PIN_NEEDED

    # ----- the tabs
    def subscribe(self, key: str, callback: Callable[[], None], table: str = "") -> None:
        """The tab `key` redraws (`callback`) when the game `table` changes ('' = the home screen's list)."""
        with self._lock:
            self._subscribers[key] = (table, callback)

    def watch(self, key: str, table: str) -> None:
        """The tab `key` now shows the game `table` ('' = the home screen)."""
        with self._lock:
            entry = self._subscribers.get(key)
            if entry is not None:
                self._subscribers[key] = (table, entry[1])

    def unsubscribe(self, key: str) -> None:
        with self._lock:
            self._subscribers.pop(key, None)

    def publish(self, game: TableBase | None = None, exclude: str | None = None) -> None:
        """Save `game` (every confirmed event, before any tab shows it), then redraw the tabs watching it
        and the tabs on the home screen (not `exclude`, the tab that made the change: it redraws by
        itself). No game: redraw every tab (e.g. the store's error line).

        On the server's event loop the save runs on the store's writer thread (`GameStore.save_soon`),
        so the loop serves the other tables meanwhile; until it has returned, no tab watching the game
        draws (`hold`: the acting tab's own redraw waits too), so a tab never shows an unsaved change.
        Elsewhere (a thread, a script) it saves here and redraws at once."""
        if game is None:
            self._redraw(None, set())
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self.store.save(game)
            self._redraw(game, {exclude} if exclude else set())
            return
        with self._lock:
            self._unsaved[game.id] = self._unsaved.get(game.id, 0) + 1
            if exclude:
                self._excluded.setdefault(game.id, set()).add(exclude)
        self.store.save_soon(game).add_done_callback(
            lambda _: loop.call_soon_threadsafe(self._saved, game))

    def notify(self, game: TableBase) -> None:
        """Redraw every tab showing `game` (the acting tab too) for a change that is not the game's and
        has nothing to save: the watch state of a table watched by a camera (`companion.ui.watching`)."""
        self._redraw(game, set())

    def _saved(self, game: TableBase) -> None:
        """A save of `game` has returned (on the event loop): once none is left, its tabs draw."""
        with self._lock:
            left = self._unsaved.get(game.id, 1) - 1
            if left > 0:
                self._unsaved[game.id] = left
                return
            self._unsaved.pop(game.id, None)
            excluded = self._excluded.pop(game.id, set())
            held = self._held.pop(game.id, [])
        for redraw in held:
            try:
                redraw()
            except Exception:  # one tab's failure must not keep the others from drawing
                LOG.warning("a held redraw failed", exc_info=True)
        self._redraw(game, excluded)

    def hold(self, key: str, redraw: Callable[[], None]) -> bool:
        """Whether the tab `key` must not draw now: the game it watches has a change on its way to disk.
        Then `redraw` runs once the change is saved (called for every redraw of a tab, `main.py`)."""
        with self._lock:
            entry = self._subscribers.get(key)
            if entry is None or entry[0] not in self._unsaved:
                return False
            self._held.setdefault(entry[0], []).append(redraw)
            return True

    def _redraw(self, game: TableBase | None, exclude: set[str]) -> None:
        with self._lock:
            callbacks = [(key, cb) for key, (table, cb) in self._subscribers.items()
                         if game is None or table in ("", game.id)]
        for key, cb in callbacks:
            if key in exclude:
                continue  # the tab that made the change re-renders by itself
            try:
                # page.run_task() sets the "current page" context variable as a side effect; run each
                # callback in a copied context so the caller's page stays current (otherwise the
                # caller's later re-renders are sent to another tab).
                contextvars.copy_context().run(cb)
            except Exception:  # a closed tab, or a bug: logged, and the tab is no longer redrawn
                LOG.warning("redrawing the tab %s failed: it is no longer redrawn", key, exc_info=True)
                self.unsubscribe(key)

    @property
    def watchers(self) -> int:
        return len(self._subscribers)

    def watching(self, game_id: str) -> int:
        """How many tabs show this game now."""
        return sum(1 for table, _ in list(self._subscribers.values()) if table == game_id)


HUB = Hub()
