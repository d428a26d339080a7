"""The app's games on disk: every confirmed event goes to the project's SQLite store (`companion.store`),
and an open game is picked up again when the app restarts.

What it owns: the file name inside the `--data` folder (`games.sqlite`), the table details the UI needs
to rebuild a game that the events do not carry (each table's `table_settings()`: token colours, banker,
clock settings...; kept in the store's per-game settings, and handed back to the game's own
`GameUI.rebuild`, found in the registry by the stored variant), and syncing the in-memory log to the
store after each change: on the server, on one writer thread that commits every table's waiting change
in one transaction (`save_soon`). The store does the crash safety (one transaction per append or per
batch, WAL + FULL) and refuses stale appends.

Clock time used is not in the event log until the game ends: it is kept beside the store in
`clocks.json` (per game id: seconds used by each player, who was running), written at every published
change and every few seconds while a clock runs, so a restarted game's clocks come back (paused) within
those few seconds of where they stood.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games import GAMES
from companion.store import PinLockedError, Store, StoreError
from companion.ui.table import TableBase

LOG = logging.getLogger("companion.ui")
FILE_NAME = "games.sqlite"
CLOCKS_FILE = "clocks.json"
CLOCK_SAVE_SECONDS = 5.0  # while a clock runs, at most this much of its time is lost when the app stops


@dataclass(frozen=True)
class SavedGame:
    """One line of the home screen's list of games."""

    id: str
    kind: str
    players: list[str]
    finished: bool
    created: str
    events: int


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "table-referee"


class GameStore:
    """Syncs `TableBase` logs into one store file. Reads open a connection per call (the store's
    connection belongs to one thread, and Flet handlers run on several); saving, which every change of
    every table does, keeps one open connection per thread (`_writer`). On the server, saves run on one
    writer thread (`save_soon`), off the event loop, several tables' at once in one commit."""

    def __init__(self, data_dir: str | Path | None) -> None:
        self.data_dir = str(data_dir) if data_dir else None
        # Guards the store's bookkeeping and its connection while a save runs, which may wait for the disk or
        # for another program's write lock: the event loop never takes it (`save_soon`, `save_clocks`).
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()  # starting the writer thread only
        self._clocks_lock = threading.Lock()  # the clocks' JSON file only
        self._saved: dict[str, int] = {}  # game id -> events already in the store
        # game id -> its settings as stored (`{"table": table_settings(), ...}`): a table setting changed
        # during the game (a watched table's settle seconds) is written when it differs from these
        self._settings: dict[str, dict[str, Any]] = {}
        self._clocks_saved_at: dict[str, float] = {}  # game id -> when its clocks were last written
        self._pins: dict[str, bool] = {}  # game id -> whether a referee PIN guards it, once read
        self._writers = threading.local()  # this thread's open store for saving, and the file it opened
        self._waiting: queue.SimpleQueue[tuple[TableBase, Future[None]]] = queue.SimpleQueue()  # for `save_soon`
        self._writer_thread: threading.Thread | None = None
        self.error = ""

    @property
    def path(self) -> Path | None:
        return Path(self.data_dir) / FILE_NAME if self.data_dir else None

    def _open(self) -> Store:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return Store(self.path)

    def _writer(self) -> Any:
        """This thread's open store for saving. Opening one checks the whole file (`store.probe`: its
        mark, version and an integrity check) and closing it checkpoints the write-ahead log: per save,
        with ten tables changing at once, that was most of the save's time on the server's one event
        loop. Opened again when the file on disk is no longer the one it opened (moved, replaced)."""
        assert self.path is not None
        held = getattr(self._writers, "store", None)
        try:
            st = self.path.stat()
            here = (st.st_dev, st.st_ino)
        except OSError:
            here = None
        if held is not None and here is not None and held[1] == here:
            return held[0]
        self._drop_writer()
        store = self._open()
        st = self.path.stat()
        self._writers.store = (store, (st.st_dev, st.st_ino))
        return store

    def _drop_writer(self) -> None:
        held = getattr(self._writers, "store", None)
        self._writers.store = None
        if held is not None:
            try:
                held[0].close()
            except Exception:
                LOG.warning("closing the game file's connection failed", exc_info=True)

    def save(self, game: TableBase) -> None:
        """Append the events not yet stored; mark the game finished when it is. Errors become `self.error`."""
        self._save_all([game])

    def save_soon(self, game: TableBase) -> Future[None]:
        """Save `game` on the store's writer thread; the future is done once the save has returned (on
        disk, or failed: `self.error`). The server's event loop serves every table's tabs: a save waits
        for the disk (an fsync of the write-ahead log per commit, median 6 ms, p99 148 ms on the shared
        disk of the development machine), and one table's wait on the loop held every other table's
        update. The saves waiting when the writer comes round are committed together (`Store.batch`):
        one fsync for all the tables that changed meanwhile."""
        done: Future[None] = Future()
        if self.path is None:
            done.set_result(None)
            return done
        self.start_writer()
        self._waiting.put((game, done))
        return done

    def start_writer(self) -> None:
        """Start the writer thread (`save_soon`), which opens its connection at once (opening checks the
        whole file, `store.probe`), so the tables' first change does not wait for that check."""
        if self.path is None or self._writer_thread is not None:
            return
        # Not `_lock`: the writer holds that while a save waits for the file, and `save_soon` runs on the
        # event loop (with it, a table's change on the loop waited out another connection's write lock,
        # up to the 10 s busy timeout, and every other table with it).
        with self._start_lock:
            if self._writer_thread is None:
                self._writer_thread = threading.Thread(target=self._write_waiting, daemon=True,
                                                       name="game-writer")
                self._writer_thread.start()

    def _write_waiting(self) -> None:
        """The writer thread: everything waiting, saved in one batch, then the next."""
        with self._lock:
            try:
                if self.path is not None and self.path.exists():  # a new file is made by the first save
                    self._writer()
            except (StoreError, OSError, sqlite3.Error) as exc:  # the first save says it to the tables
                LOG.warning("opening the game file for saving failed: %s", exc)
        while True:
            waiting = [self._waiting.get()]
            while True:
                try:
                    waiting.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            try:
                self._save_all([game for game, _ in waiting])
            except Exception as exc:  # a bug: logged with its traceback; the tables show the line
                LOG.exception("saving the games failed")
                self.error = f"The game could not be saved ({exc})."
            finally:  # whatever happened (a BaseException goes on up), the waiting tabs are told
                for _, done in waiting:
                    done.set_result(None)

    def _save_all(self, games: list[TableBase]) -> None:
        """Save `games` in one transaction (one fsync); errors become `self.error`, the last one said."""
        if self.path is None:
            return
        unique = list({id(g): g for g in games}.values())
        with self._lock:
            before, settings_before = dict(self._saved), dict(self._settings)
            failed = ""
            try:
                store = self._writer()
                created: list[TableBase] = []
                with store.batch():
                    for game in unique:
                        try:
                            if self._save(store, game):
                                created.append(game)
                        except StoreError as exc:  # this game only (its savepoint is undone): the others go on
                            LOG.error("saving game %s failed: %s", game.id, exc)
                            failed = f"The game could not be saved ({exc})."
                            self._saved.pop(game.id, None)  # read again from the store next time
                            self._settings.pop(game.id, None)
                for game in created:
                    game.new_pin = ""  # only its salted hash is kept, in the store
            except (StoreError, OSError, sqlite3.Error) as exc:
                self._saved, self._settings = before, settings_before  # nothing of the batch was written
                LOG.error("saving games %s failed: %s", ", ".join(g.id for g in unique), exc)
                failed = f"The game could not be saved ({exc})."
            try:
                with self._clocks_lock:  # the loop's `save_clocks` writes the same file
                    for game in unique:
                        self._save_clocks(game)
            except OSError as exc:
                LOG.error("saving the clocks failed: %s", exc)
                failed = failed or f"The clock times could not be saved ({exc})."
            if failed:
                self._drop_writer()  # the next save opens (and checks) the file again
            self.error = failed

    def save_clocks(self, game: TableBase) -> None:
        """While a clock runs (called every second by the tabs): its time, at most every few seconds."""
        if self.path is None or game.clocks is None or game.clocks.paused():
            return
        if time.monotonic() - self._clocks_saved_at.get(game.id, 0.0) < CLOCK_SAVE_SECONDS:
            return
        with self._clocks_lock:  # not `_lock`, which a save holds while it waits for the disk
            try:
                self._save_clocks(game)
            except OSError as exc:
                LOG.error("saving the clocks of game %s failed: %s", game.id, exc)

    def _clocks_path(self) -> Path:
        assert self.data_dir is not None
        return Path(self.data_dir) / CLOCKS_FILE

    def _read_clocks(self) -> dict[str, Any]:
        try:
            data = json.loads(self._clocks_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or damaged: the clocks start from zero rather than stop the game
        return data if isinstance(data, dict) else {}

    def _save_clocks(self, game: TableBase) -> None:
        if game.clocks is None or self.data_dir is None:
            return
        data = self._read_clocks()
        data[game.id] = {**game.clocks.snapshot(), "saved_at": time.time()}
        path = self._clocks_path()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # a stop mid-write leaves the previous file whole
        self._clocks_saved_at[game.id] = time.monotonic()

    def _save(self, store: Any, game: TableBase) -> bool:
        """Append `game`'s events not yet stored (inside the writer's batch); True when it was created."""
        with game.lock:  # a whole action's events: the event loop may be in the middle of one
            events = list(game.log.events)
            finished = game.finished
            # as JSON gives it back, so that an unchanged setting compares equal to the stored one
            table = json.loads(json.dumps(game.table_settings(), sort_keys=True))
        created = False
        if game.id not in self._saved:
            known = {g.id for g in store.games()}
            if game.id not in known:
                store.create_game(game.kind, {"table": table}, game_id=game.id, pin=game.new_pin or None)
                created = True
                self._saved[game.id] = 0
                self._settings[game.id] = {"table": table}
            else:
                self._saved[game.id] = store.last_seq(game.id)
        if game.id not in self._settings:
            self._settings[game.id] = store.game(game.id).settings
        stored = self._settings[game.id]
        if stored.get("table") != table:  # a table setting changed during the game: not an event of it
            store.set_settings(game.id, {**stored, "table": table})
            self._settings[game.id] = {**stored, "table": table}
        done = self._saved[game.id]
        if len(events) > done:
            self._saved[game.id] = store.append(game.id, events[done:], expected_seq=done, device="referee")
        if finished and store.game(game.id).status != "finished":
            store.set_status(game.id, "finished")
        return created

    def has_pin(self, game: TableBase) -> bool:
        known = self._pins.get(game.id)
        if known is not None:
            return known  # a PIN is set when the game is created and never removed: read once (asked per redraw)
        if self.path is None:
            return bool(game.new_pin)
        try:
            with self._open() as store:
                self._pins[game.id] = bool(store.game(game.id).has_pin)
                return self._pins[game.id]
        except (StoreError, OSError):
            # The store cannot say whether a PIN guards this game: fail closed, so a damaged or locked
            # file never lets another phone referee a protected game (check_pin then says what is wrong).
            return True

    def check_pin(self, game: TableBase, pin: str) -> str:
        """'' when the PIN opens the referee's screens, else a sentence (wrong PIN, or wait after 5 tries)."""
        if self.path is None:
            return "" if pin == game.new_pin else "That PIN is not the referee's PIN."
        try:
            with self._open() as store:
                ok = store.check_pin(game.id, pin)
        except PinLockedError as exc:
            return f"Too many wrong PINs: wait {exc.wait_seconds} s and try again."
        except (StoreError, OSError) as exc:
            return f"The PIN could not be checked ({exc})."
        return "" if ok else "That PIN is not the referee's PIN."

    def resume(self) -> tuple[TableBase | None, str]:
        """The most recent unfinished game in the store, rebuilt, and a sentence for the table."""
        games, notes = self.resume_all(limit=1)
        return (games[-1] if games else None), " ".join(notes)

    def resume_all(self, limit: int | None = None) -> tuple[list[TableBase], list[str]]:
        """Every unfinished game in the store (oldest first; the last `limit` only), rebuilt, and a
        sentence per game for the home screen. A game the current rules refuse is left out, and said."""
        if self.path is None or not self.path.exists():
            return [], []
        try:
            with self._open() as store:
                infos = [g for g in store.games() if g.status == "active" and g.last_seq > 0]
        except (StoreError, OSError) as exc:
            return [], [f"The saved games could not be read ({exc})."]
        games: list[TableBase] = []
        notes: list[str] = []
        for info in infos[-limit:] if limit else infos:
            game, note = self.load(info.id)
            if game is not None:
                games.append(game)
            if note:
                notes.append(note)
        return games, notes

    def load(self, game_id: str) -> tuple[TableBase | None, str]:
        """One stored game (open or finished), rebuilt from its events, and a sentence for the table."""
        if self.path is None or not self.path.exists():
            return None, ""
        try:
            with self._open() as store:
                info = store.game(game_id)
                events = store.events(info.id)
        except (StoreError, OSError) as exc:
            return None, f"The saved game {game_id} could not be read ({exc})."
        try:
            game = rebuild(info.id, info.variant, info.settings.get("table", {}), events)
        except Exception as exc:  # a log the current rules refuse: leave it out, keep the file untouched
            LOG.exception("resuming game %s failed", info.id)
            return None, f"The open game {info.id} could not be resumed ({exc})."
        self._saved[game.id] = len(events)
        self._settings[game.id] = info.settings
        if info.status != "active":
            return game, ""
        note = ""
        if game.clocks is not None:
            saved = self._read_clocks().get(game.id)
            if isinstance(saved, dict):
                game.clocks.restore(saved)
                note = " The clocks are as they were saved, paused: tap Start clocks."
            else:
                note = " No clock times were saved for it: the clocks start again from zero."
        return game, f"Resumed the open game of {', '.join(game.players)} ({len(events)} events).{note}"

    def listing(self) -> list[SavedGame]:
        """The games in the store, newest first, as the home screen lists them (no event is folded)."""
        if self.path is None or not self.path.exists():
            return []
        try:
            with self._open() as store:
                infos = store.games()
        except (StoreError, OSError) as exc:
            LOG.error("listing the saved games failed: %s", exc)
            return []
        out = []
        for info in reversed(infos):
            table = info.settings.get("table", {})
            players = [str(p[0]) for p in table.get("players", []) if isinstance(p, list) and p]
            out.append(SavedGame(info.id, info.variant, players, info.status == "finished", info.created,
                                 info.last_seq))
        return out

    def export_json(self, game_id: str) -> str:
        """A stored game's log in the documented format (what `companion games export` writes)."""
        with self._open() as store:
            return str(store.export_json(game_id))


def rebuild(game_id: str, variant: str, table: dict[str, Any], events: list[Any]) -> TableBase:
    """A table from stored events and the table details saved beside them: the game's own `rebuild`,
    found in the registry by the stored variant."""
    game: TableBase = GAMES.get(variant).load_ui().rebuild(game_id, table, events)
    game.restore_table_settings(table)  # what may change during a game (e.g. a watched table's settle seconds)
    return game
