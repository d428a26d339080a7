"""The app's games on disk: every confirmed event goes to the project's SQLite store (`companion.store`),
and an open game is picked up again when the app restarts.

What it owns: the file name inside the `--data` folder (`games.sqlite`), the table details the UI needs
to rebuild a game that the events do not carry (token colours, banker, clock settings; kept in the
store's per-game settings), and syncing the in-memory log to the store after each change. The store
does the crash safety (one transaction per append, WAL + FULL) and refuses stale appends.

Clock time used is not in the event log until the game ends: it is kept beside the store in
`clocks.json` (per game id: seconds used by each player, who was running), written at every published
change and every few seconds while a clock runs, so a restarted game's clocks come back (paused) within
those few seconds of where they stood.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from companion.ui.table import ClassicEngine, PlayerInfo, TableGame

LOG = logging.getLogger("companion.ui")
FILE_NAME = "games.sqlite"
CLOCKS_FILE = "clocks.json"
CLOCK_SAVE_SECONDS = 5.0  # while a clock runs, at most this much of its time is lost when the app stops


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "table-referee"


class GameStore:
    """Syncs `TableGame` logs into one store file. Opens a connection per call (the store's connection
    belongs to one thread, and Flet handlers run on several)."""

    def __init__(self, data_dir: str | Path | None) -> None:
        self.data_dir = str(data_dir) if data_dir else None
        self._lock = threading.Lock()
        self._saved: dict[str, int] = {}  # game id -> events already in the store
        self._clocks_saved_at = 0.0
        self.error = ""

    @property
    def path(self) -> Path | None:
        return Path(self.data_dir) / FILE_NAME if self.data_dir else None

    def _open(self) -> Any:
        from companion.store import Store

        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return Store(self.path)

    def save(self, game: TableGame) -> None:
        """Append the events not yet stored; mark the game finished when it is. Errors become `self.error`."""
        if self.path is None:
            return
        from companion.store import StoreError

        with self._lock:
            try:
                with self._open() as store:
                    self._save(store, game)
                self._save_clocks(game)
                self.error = ""
            except (StoreError, OSError) as exc:
                LOG.error("saving game %s failed: %s", game.id, exc)
                self.error = f"The game could not be saved ({exc})."

    def save_clocks(self, game: TableGame) -> None:
        """While a clock runs (called every second by the tabs): its time, at most every few seconds."""
        if self.path is None or game.clocks is None or game.clocks.paused():
            return
        if time.monotonic() - self._clocks_saved_at < CLOCK_SAVE_SECONDS:
            return
        with self._lock:
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

    def _save_clocks(self, game: TableGame) -> None:
        if game.clocks is None or self.data_dir is None:
            return
        data = self._read_clocks()
        data[game.id] = {**game.clocks.snapshot(), "saved_at": time.time()}
        path = self._clocks_path()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # a stop mid-write leaves the previous file whole
        self._clocks_saved_at = time.monotonic()

    def _save(self, store: Any, game: TableGame) -> None:
        events = list(game.engine.log.events)
        if game.id not in self._saved:
            known = {g.id for g in store.games()}
            if game.id not in known:
                store.create_game(game.engine.variant, {"table": table_settings(game)}, game_id=game.id,
                                  pin=game.new_pin or None)
                game.new_pin = ""  # only its salted hash is kept, in the store
                self._saved[game.id] = 0
            else:
                self._saved[game.id] = store.last_seq(game.id)
        done = self._saved[game.id]
        if len(events) > done:
            self._saved[game.id] = store.append(game.id, events[done:], expected_seq=done, device="referee")
        if game.finished and store.game(game.id).status != "finished":
            store.set_status(game.id, "finished")

    def has_pin(self, game: TableGame) -> bool:
        if self.path is None:
            return bool(game.new_pin)
        from companion.store import StoreError

        try:
            with self._open() as store:
                return bool(store.game(game.id).has_pin)
        except (StoreError, OSError):
            # The store cannot say whether a PIN guards this game: fail closed, so a damaged or locked
            # file never lets another phone referee a protected game (check_pin then says what is wrong).
            return True

    def check_pin(self, game: TableGame, pin: str) -> str:
        """'' when the PIN opens the referee's screens, else a sentence (wrong PIN, or wait after 5 tries)."""
        if self.path is None:
            return "" if pin == game.new_pin else "That PIN is not the referee's PIN."
        from companion.store import PinLockedError, StoreError

        try:
            with self._open() as store:
                ok = store.check_pin(game.id, pin)
        except PinLockedError as exc:
            return f"Too many wrong PINs: wait {exc.wait_seconds} s and try again."
        except (StoreError, OSError) as exc:
            return f"The PIN could not be checked ({exc})."
        return "" if ok else "That PIN is not the referee's PIN."

    def resume(self) -> tuple[TableGame | None, str]:
        """The most recent unfinished game in the store, rebuilt, and a sentence for the table."""
        if self.path is None or not self.path.exists():
            return None, ""
        from companion.store import StoreError

        try:
            with self._open() as store:
                open_games = [g for g in store.games() if g.status == "active" and g.last_seq > 0]
                if not open_games:
                    return None, ""
                info = open_games[-1]
                events = store.events(info.id)
        except (StoreError, OSError) as exc:
            return None, f"The saved games could not be read ({exc})."
        try:
            game = rebuild(info.id, info.variant, info.settings.get("table", {}), events)
        except Exception as exc:  # a log the current rules refuse: start fresh, keep the file untouched
            LOG.exception("resuming game %s failed", info.id)
            return None, f"The open game {info.id} could not be resumed ({exc})."
        self._saved[game.id] = len(events)
        note = ""
        if game.clocks is not None:
            saved = self._read_clocks().get(game.id)
            if isinstance(saved, dict):
                game.clocks.restore(saved)
                note = " The clocks are as they were saved, paused: tap Start clocks."
            else:
                note = " No clock times were saved for it: the clocks start again from zero."
        return game, f"Resumed the open game of {', '.join(game.players)} ({len(events)} events).{note}"


def table_settings(game: TableGame) -> dict[str, Any]:
    return {
        "kind": game.kind,
        "players": [[p.name, p.colour] for p in game.player_info],
        "banker": game.banker,
        "lexicon": game.lexicon,
        "clock_minutes": game.clock_minutes,
        "penalty_per_minute": game.penalty_per_minute,
        "preset_label": game.preset_label,
    }


def rebuild(game_id: str, variant: str, table: dict[str, Any], events: list[Any]) -> TableGame:
    """A TableGame from stored events and the table details saved beside them."""
    from companion.events import GameLog

    if variant == "monopoly":
        from companion.games.monopoly_scrabble.rules import new_state
        from companion.games.monopoly_scrabble.table import MonopolyEngine, MonopolyTable

        engine: Any = MonopolyEngine.__new__(MonopolyEngine)
        engine.log = GameLog(lambda: new_state(None), events)
        cls: type[TableGame] = MonopolyTable
    else:
        from companion.games.classic.rules import new_state as classic_state

        engine = ClassicEngine.__new__(ClassicEngine)
        engine.log = GameLog(classic_state, events)
        cls = TableGame
    names = engine.log.state.players
    colours = {n: c for n, c in table.get("players", [])}
    players = [PlayerInfo(n, colours.get(n, "grey")) for n in names]
    game = cls(variant if variant == "monopoly" else "classic", players, engine, banker=table.get("banker"),
               lexicon=table.get("lexicon", "ENABLE"), clock_minutes=table.get("clock_minutes"),
               penalty_per_minute=table.get("penalty_per_minute", 10), preset_label=table.get("preset_label", ""))
    game.id = game_id
    if game.clocks is not None:
        game.clocks.switch(None)
    return game
