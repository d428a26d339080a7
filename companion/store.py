"""The game store: every game's event log in one SQLite file, crash-safe, with the banker PIN.

What it owns:

- Where the file is: `games.sqlite` (`FILE_NAME`) in the app's data folder (`default_data_dir()` unless
  `--data DIR` is given).
- The file format. Table `games` (id, variant, created, settings JSON, banker PIN hash, PIN failure
  count and lockout, status) and table `events` (game_id, seq, turn, event JSON, at, device), with
  `PRAGMA application_id` marking the file as ours and `PRAGMA user_version` its schema version.
- Appending a confirmed turn: `append(game_id, events, expected_seq)` writes all the turn's events in ONE
  transaction, or none. `expected_seq` is the last seq the appending device has seen; when the log has
  moved on since (another device confirmed a turn first) the append is refused with `StaleLogError` and
  nothing is written, so two devices acting at once never lose or double an update. The write lock is
  taken up front (`BEGIN IMMEDIATE`), so the check and the insert cannot interleave with another writer.
- Opening an existing file safely: a file that is not SQLite, another program's SQLite database, a
  damaged database or one written by a newer version of the app is refused with one sentence
  (`StoreOpenError`) BEFORE anything is written to it (the checks run on a read-only connection). An
  older schema is backed up beside the file before it is migrated.
- Export and import: a game's log as the documented JSON (`companion.events.dump_events`), and a classic
  game as GCG; importing either gives back the same game.
- The banker PIN: a salted scrypt hash, compared in constant time, 5 wrong PINs lock the game for 30 s;
  the failure count and the lockout are stored in the file, so restarting the app does not reset them.
  The PIN itself is never stored, logged or put into an error message.

Journal and sync choice: WAL with `synchronous=FULL`. With WAL a commit is one append to the `-wal` file,
readers never block the writer (the scoreboard on a second device can read while a turn is written), and
a process killed at any instant leaves either the whole transaction or none of it. FULL makes SQLite
fsync the WAL at every commit, so a turn the app has shown as confirmed survives even a power cut or an
OS crash. NORMAL would fsync only at checkpoints: still safe against a killed app, but a power cut could
silently drop the last turns that players saw confirmed. A table confirms a turn every few tens of
seconds, so one fsync per turn costs nothing noticeable (measured on the development VM: 0.42 ms wall /
0.26 ms CPU per appended turn with FULL against 0.09 / 0.09 ms with NORMAL; flash storage on a phone
takes a few milliseconds), and we take the stronger guarantee. A server with many tables commits the
turns waiting at one moment together (`batch`: one transaction, one fsync, each turn still all or none).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import math
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, Self, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from companion.events import Event, GameLog, LogFormatError, dump_events, load_events
from companion.gcg import GcgError
from companion.rules.errors import RulesError

# "TRef" in ASCII: marks a SQLite file as a table referee game file (PRAGMA application_id).
APPLICATION_ID = 0x54526566
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"

PIN_MAX_FAILURES = 5
PIN_LOCKOUT_SECONDS = 30
PIN_MIN_LENGTH = 4
PIN_MAX_LENGTH = 64
# scrypt cost: n=2**14, r=8 needs 16 MiB and takes tens of milliseconds, cheap at the table, costly
# for someone trying every PIN against a copied file.
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1

STATUSES = ("active", "finished", "abandoned")

FILE_NAME = "games.sqlite"  # the app's game file inside its data folder (`companion app --data DIR`)


def default_data_dir() -> Path:
    """The app's data folder when `--data` is not given (the app and `companion games` both use it)."""
    return Path.home() / ".local" / "share" / "table-referee"


_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    created TEXT NOT NULL,
    settings TEXT NOT NULL CHECK (json_valid(settings)),
    pin_hash TEXT,
    pin_failures INTEGER NOT NULL DEFAULT 0,
    pin_locked_until REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned'))
) STRICT;
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    turn INTEGER NOT NULL CHECK (turn >= 1),
    event TEXT NOT NULL CHECK (json_valid(event)),
    at TEXT NOT NULL,
    device TEXT,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
"""

# Migrations from schema version N to N+1, run in one transaction after a backup; none yet.
MIGRATIONS: dict[int, str] = {}


class StoreError(Exception):
    """A problem the user can act on; the message is one sentence saying what and what to do."""


class StoreOpenError(StoreError):
    """The file cannot be used as a game store; it was left exactly as it was."""


class StaleLogError(StoreError):
    """The appending device had not seen the latest turns; nothing was written."""


class PinLockedError(StoreError):
    """Too many wrong PINs: the game refuses PIN checks for a while."""

    def __init__(self, message: str, wait_seconds: int) -> None:
        super().__init__(message)
        self.wait_seconds = wait_seconds


@dataclass(frozen=True)
class GameInfo:
    id: str
    variant: str
    created: str
    settings: dict[str, Any]
    status: str
    has_pin: bool
    last_seq: int


@dataclass(frozen=True)
class Variant:
    """How the store reads a variant's events back and folds them."""

    adapter: TypeAdapter[Any]
    new_state: Callable[[], Any]


def variants() -> dict[str, Variant]:
    """The variants the store knows: every game of the registry (`companion.games`) that loads. Each is
    imported on demand, so one broken game cannot break the others."""
    from companion.games import GAMES

    return {spec.id: Variant(spec.adapter, spec.new_state) for spec in GAMES.available()}


def _variant(name: str) -> Variant:
    known = variants()
    if name not in known:
        raise StoreError(f"unknown game variant {name!r}: use one of {', '.join(sorted(known))}")
    return known[name]


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _event_json(event: Event) -> str:
    return json.dumps(event.model_dump(mode="json", exclude_none=True), separators=(",", ":"), sort_keys=True)


# ---------------------------------------------------------------- opening a file safely


def _describe(path: Path) -> str:
    return f"'{path}'"


def probe(path: Path) -> int | None:
    """Check an existing file without writing to it: its schema version, or None when it holds no schema yet.

    Raises `StoreOpenError` for a file that is not SQLite, another program's database, a damaged
    database or one from a newer app. Only a read-only connection touches the file."""
    name = _describe(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except IsADirectoryError:
        raise StoreOpenError(f"{name} is a folder, not a game file: give a file name") from None
    except OSError as exc:
        raise StoreOpenError(f"{name} cannot be read ({exc.strerror}): check the path and its permissions") from None
    if not head:
        return None
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        raise StoreOpenError(
            f"{name} is not a game file (it is not an SQLite database): choose another file, it was left as it is")
    # Read-only, and `immutable` when no write-ahead log is waiting: then SQLite creates no -wal/-shm
    # files either, so a refused file leaves no trace. A waiting -wal (after a crash) holds committed turns
    # that the check must see, so then the ordinary read-only mode reads it (and may add a -shm file).
    wal = path.with_name(path.name + "-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0
    uri = path.resolve().as_uri() + ("?mode=ro" if has_wal else "?mode=ro&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=5.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreOpenError(f"{name} cannot be opened ({exc}): check the file and its permissions") from None
    try:
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            objects = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise StoreOpenError(_damaged(name, exc)) from None
        if app_id != APPLICATION_ID:
            if app_id == 0 and objects == 0 and version == 0:
                return None  # an empty database (e.g. creation was interrupted): nothing to lose
            raise StoreOpenError(
                f"{name} is another program's database, not a table referee game file: "
                "choose another file name, it was left as it is")
        if version > SCHEMA_VERSION:
            raise StoreOpenError(
                f"{name} was written by a newer version of the app (file format {version}, this app reads up to "
                f"{SCHEMA_VERSION}): update the app to open it, the file was left as it is")
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise StoreOpenError(_damaged(name, exc)) from None
        if problems != ["ok"]:
            raise StoreOpenError(_damaged(name, problems[0]))
        if version < 1:
            # ours by its mark but without a schema version: not something this app ever writes
            raise StoreOpenError(_damaged(name, "it has no file format version"))
        _check_tables(conn, name)
        return int(version)
    finally:
        conn.close()


def _damaged(name: str, detail: object) -> str:
    # quick_check reports look like "*** in database main ***\nPage 3: ...": keep the first real line.
    lines = [ln for ln in str(detail).splitlines() if ln.strip() and not ln.startswith("***")]
    detail = lines[0] if lines else str(detail).strip()
    return (f"{name} is damaged ({detail}): restore it from a backup or re-import an exported game; "
            "the file was left as it is")


def _check_tables(conn: sqlite3.Connection, name: str) -> None:
    try:
        games = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        events = {row[1] for row in conn.execute("PRAGMA table_info(events)")}
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise StoreOpenError(_damaged(name, exc)) from None
    if not {"id", "variant", "settings", "pin_hash", "status"} <= games or not {"game_id", "seq", "event"} <= events:
        raise StoreOpenError(_damaged(name, "its game tables are missing or incomplete"))


def backup_file(path: Path, suffix: str) -> Path:
    """A consistent copy of the database beside it (SQLite's backup API), e.g. before a migration."""
    target = path.with_name(f"{path.name}.{suffix}.bak")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{suffix}-{n}.bak")
    src = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return target


def backup_to(path: Path, target: Path) -> None:
    """A consistent copy of the database at `target`, taken with SQLite's backup API while the app may be
    writing: the copy is one committed state (including turns still in the -wal file), written to a temporary
    name first so a failure never leaves a half file under `target`. The copy is checked before it is kept."""
    probe(path)  # refuse a file that is not a game store, before anything is written anywhere
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        src = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=10.0)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)  # all pages in one step: one read transaction, so one consistent state
                dst.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file, no -wal beside it
            finally:
                dst.close()
        finally:
            src.close()
        probe(tmp)
        os.replace(tmp, target)
    except sqlite3.Error as exc:
        raise StoreError(f"the backup could not be made ({exc}): check the disk space and try again") from None
    finally:
        tmp.unlink(missing_ok=True)


# ---------------------------------------------------------------- the store

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    """SQLite errors met while using the file become one sentence (`StoreError`), never a traceback."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(f"the game file is busy ({exc}): try again in a moment") from None
            if "decode" not in str(exc):
                raise StoreError(f"the game file cannot be used ({exc}): check the disk and restore a backup "
                                 "if it is damaged") from None
            raise StoreError(f"the game file is damaged ({exc}): restore it from a backup or re-import "
                             "an exported game") from None
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise StoreError(f"the game file is damaged ({exc}): restore it from a backup or re-import "
                             "an exported game") from None

    return wrapper



class Store:
    """One SQLite game file. Each instance holds one connection; use one instance per thread."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._clock = clock
        self._batched = False  # inside `batch`: each write is a savepoint of the batch's transaction
        version = probe(self.path) if self.path.exists() else None
        if not self.path.parent.is_dir():
            raise StoreOpenError(f"the folder of '{self.path}' does not exist: create it or choose another place")
        try:
            self._conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=True)
        except sqlite3.Error as exc:
            raise StoreOpenError(f"'{self.path}' cannot be opened ({exc}): check the path and its permissions") from None
        try:
            self._conn.execute("PRAGMA foreign_keys = ON")
            # WAL + FULL: see the module docstring for why.
            mode = self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StoreOpenError(f"'{self.path}' cannot use write-ahead logging (mode {mode}): "
                                     "put the game file on a local disk")
            self._conn.execute("PRAGMA synchronous = FULL")
            if version is None:
                self._create()
            elif version < SCHEMA_VERSION:
                self._migrate(version)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self._conn.close()
            raise StoreOpenError(_damaged(f"'{self.path}'", exc)) from None
        except BaseException:
            self._conn.close()
            raise

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # -- schema

    def _create(self) -> None:
        with self._write():
            if self._conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]:
                return  # another process created it between our check and our lock
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _migrate(self, version: int) -> None:
        backup_file(self.path, f"v{version}")
        with self._write():
            current = self._conn.execute("PRAGMA user_version").fetchone()[0]
            while current < SCHEMA_VERSION:
                if current not in MIGRATIONS:
                    raise StoreOpenError(f"'{self.path}' has file format {current}, which this app cannot update: "
                                         "open it with the app version that wrote it and export the games")
                # Statement by statement: executescript would commit in the middle of our transaction.
                for statement in MIGRATIONS[current].split(";"):
                    if statement.strip():
                        self._conn.execute(statement)
                current += 1
                self._conn.execute(f"PRAGMA user_version = {current}")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Several writes committed together: one transaction, so one fsync of the WAL for all of them
        (group commit: the app saves every table whose change is waiting in one go, `persist.GameStore`).
        Each write inside keeps its own all-or-none (a savepoint): one refused (`StaleLogError`...) leaves
        the others. Nothing of the batch is on disk, nor seen by another connection, before it commits."""
        with self._write():
            self._batched = True
            try:
                yield
            finally:
                self._batched = False

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the write lock from its start (no check-then-write race); inside
        a `batch`, a savepoint of the batch's transaction."""
        if self._batched:
            self._conn.execute("SAVEPOINT write")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK TO write")
                self._conn.execute("RELEASE write")
                raise
            self._conn.execute("RELEASE write")
            return
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"the game file is busy ({exc}): try again in a moment") from None
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        try:
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise StoreError(f"the turn could not be saved ({exc}): nothing was written, try again") from None

    def _row(self, game_id: str) -> sqlite3.Row | tuple[Any, ...]:
        row = self._conn.execute(
            "SELECT id, variant, created, settings, pin_hash, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id!r} in this file: check the game id")
        return tuple(row)

    # -- games

    @_guarded
    def create_game(self, variant: str, settings: dict[str, Any] | BaseModel | None = None, *,
                    pin: str | None = None, game_id: str | None = None) -> str:
        """A new empty game; returns its id. `pin` is the banker PIN (stored only as a salted hash)."""
        _variant(variant)
        if isinstance(settings, BaseModel):
            settings = settings.model_dump(mode="json")
        settings_json = json.dumps(settings or {}, sort_keys=True)
        pin_hash = hash_pin(pin) if pin is not None else None
        game_id = game_id if game_id is not None else secrets.token_hex(8)
        if not game_id.strip() or len(game_id) > 100:
            raise StoreError("a game id must be 1 to 100 characters: choose another id")
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                raise StoreError(f"a game {game_id!r} already exists in this file: choose another id")
            conn.execute("INSERT INTO games (id, variant, created, settings, pin_hash) VALUES (?, ?, ?, ?, ?)",
                         (game_id, variant, _now_iso(), settings_json, pin_hash))
        return game_id

    @_guarded
    def games(self) -> list[GameInfo]:
        rows = self._conn.execute(
            "SELECT g.id, g.variant, g.created, g.settings, g.pin_hash, g.status, "
            "(SELECT coalesce(max(seq), 0) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.created, g.id"
        ).fetchall()
        try:
            return [GameInfo(str(r[0]), str(r[1]), str(r[2]), dict(json.loads(r[3])), str(r[5]), r[4] is not None,
                             int(r[6])) for r in rows]
        except (ValueError, TypeError):
            raise StoreError("the list of games is damaged in the file: restore it from a backup or re-import "
                             "an exported game") from None

    @_guarded
    def game(self, game_id: str) -> GameInfo:
        for info in self.games():
            if info.id == game_id:
                return info
        raise StoreError(f"there is no game {game_id!r} in this file: check the game id")

    @_guarded
    def set_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        """Replace a game's settings (what its table keeps beside the events and may change during the game,
        e.g. a watched table's settle seconds); the events are untouched."""
        settings_json = json.dumps(settings, sort_keys=True)
        with self._write() as conn:
            self._row(game_id)
            conn.execute("UPDATE games SET settings = ? WHERE id = ?", (settings_json, game_id))

    @_guarded
    def set_status(self, game_id: str, status: str) -> None:
        if status not in STATUSES:
            raise StoreError(f"unknown game status {status!r}: use one of {', '.join(STATUSES)}")
        with self._write() as conn:
            self._row(game_id)
            conn.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    # -- the log

    @_guarded
    def last_seq(self, game_id: str) -> int:
        self._row(game_id)
        return int(self._conn.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])

    @_guarded
    def append(self, game_id: str, events: Sequence[Event], expected_seq: int, *, device: str | None = None) -> int:
        """Write one confirmed turn (all its events or none); returns the new last seq.

        `expected_seq` is the last seq this device has seen (0 for a game without events). When the log
        holds more (or fewer) events, `StaleLogError` says so and nothing is written."""
        if not events:
            raise StoreError("a turn needs at least one event: nothing was written")
        variant_name = self._row(game_id)[1]
        adapter = _variant(variant_name).adapter
        rows = []
        for event in events:
            text = _event_json(event)
            try:
                # What is stored must read back: refuse an event of another variant before writing.
                adapter.validate_python(json.loads(text))
            except ValidationError as exc:
                first = exc.errors()[0]
                raise StoreError(f"a {event.type!r} event is not a valid {variant_name} event "
                                 f"({first['msg']}): nothing was written") from None
            rows.append((text, (event.at.isoformat() if event.at else _now_iso()), event.device or device))
        with self._write() as conn:
            current = int(conn.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])
            if current != expected_seq:
                raise StaleLogError(
                    f"the game has moved on: this device saw {expected_seq} events but the log holds {current}; "
                    "reload the game and confirm the turn again (nothing was written)")
            turn = int(conn.execute(
                "SELECT coalesce(max(turn), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]) + 1
            conn.executemany(
                "INSERT INTO events (game_id, seq, turn, event, at, device) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, current + i, turn, text, at, dev) for i, (text, at, dev) in enumerate(rows, 1)])
        return current + len(rows)

    @_guarded
    def events(self, game_id: str) -> list[Any]:
        """The game's events, in order, as the variant's event models."""
        adapter = _variant(self._row(game_id)[1]).adapter
        out = []
        for seq, text in self._conn.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)):
            try:
                out.append(adapter.validate_json(text))
            except (ValidationError, ValueError, TypeError):
                raise StoreError(f"event {seq} of game {game_id!r} is damaged in the file: restore the file from a "
                                 "backup or re-import an exported game") from None
        return out

    @_guarded
    def turns(self, game_id: str) -> list[list[int]]:
        """The seqs of each turn, in order (what was appended together)."""
        self._row(game_id)
        out: dict[int, list[int]] = {}
        for turn, seq in self._conn.execute(
                "SELECT turn, seq FROM events WHERE game_id = ? ORDER BY seq", (game_id,)):
            out.setdefault(turn, []).append(seq)
        return list(out.values())

    @_guarded
    def fold(self, game_id: str) -> Any:
        """The game's current state: its log folded through the rules."""
        variant = _variant(self._row(game_id)[1])
        try:
            return GameLog(variant.new_state, self.events(game_id)).state
        except (RulesError, ValueError) as exc:  # some rules checks raise a plain ValueError
            raise StoreError(f"the stored game {game_id!r} is refused by the rules ({exc}): "
                             "restore the file from a backup or re-import an exported game") from None

    # -- export / import

    @_guarded
    def export_json(self, game_id: str) -> str:
        """The game's log in the documented format (`dump_events`)."""
        return dump_events(self.events(game_id), self._row(game_id)[1])

    @_guarded
    def export_gcg(self, game_id: str) -> str:
        """The game as a GCG record, for the games whose record format is GCG (classic Scrabble)."""
        from companion.games import GAMES

        variant = self._row(game_id)[1]
        gcg_games = GAMES.with_gcg()
        spec = next((s for s in gcg_games if s.id == variant), None)
        if spec is None or spec.to_gcg is None:
            names = " and ".join(s.id for s in gcg_games) or "no"
            raise StoreError(f"only {names} games export as GCG and this is a {variant} game: export it as JSON")
        return spec.to_gcg(self.events(game_id))

    @_guarded
    def import_json(self, text: str, *, pin: str | None = None, game_id: str | None = None) -> str:
        """A new game from an exported log; returns its id. The log is checked completely first."""
        variant, events = read_log(text)
        return self._import(variant, events, pin, game_id)

    @_guarded
    def import_gcg(self, text: str, *, pin: str | None = None, game_id: str | None = None) -> str:
        """A new game from a GCG record (the first game whose record format is GCG: classic Scrabble)."""
        from companion.games import GAMES
        spec = next(iter(GAMES.with_gcg()), None)
        if spec is None or spec.from_gcg is None:
            raise StoreError("no game reads GCG records: import the game's JSON log instead")
        try:
            events = spec.from_gcg(text)
        except (GcgError, RulesError) as exc:
            raise StoreError(f"the GCG record cannot be imported: {exc}") from None
        return self._import(spec.id, events, pin, game_id)

    def _import(self, variant: str, events: Sequence[Event], pin: str | None, game_id: str | None) -> str:
        if not events:
            raise StoreError("the game log has no events: there is nothing to import")
        try:
            GameLog(_variant(variant).new_state, events)
        except (RulesError, ValueError) as exc:  # some rules checks (positions) raise a plain ValueError
            raise StoreError(f"the imported game is refused by the rules ({exc}): nothing was imported") from None
        settings = getattr(events[0], "settings", None)
        new_id = self.create_game(variant, settings if isinstance(settings, BaseModel) else None,
                                  pin=pin, game_id=game_id)
        try:
            self.append(new_id, events, 0)
        except BaseException:
            with self._write() as conn:
                conn.execute("DELETE FROM games WHERE id = ?", (new_id,))
            raise
        return new_id

    # -- the banker PIN

    @_guarded
    def check_pin(self, game_id: str, pin: str) -> bool:
        """Whether `pin` is the game's banker PIN. After 5 wrong PINs in a row the game is locked for 30 s:
        `PinLockedError` says how long to wait. The failure count is stored, so it survives a restart."""
        stored = self._row(game_id)[4]
        if stored is None:
            raise StoreError("this game has no banker PIN: set one when the game is created")
        now = self._clock()
        locked_until = float(self._conn.execute(
            "SELECT pin_locked_until FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        if now < locked_until:
            raise _locked(locked_until - now)
        ok = verify_pin(pin, stored)
        with self._write() as conn:
            failures, locked_until = conn.execute(
                "SELECT pin_failures, pin_locked_until FROM games WHERE id = ?", (game_id,)).fetchone()
            if now < locked_until:  # another device hit the limit while we were hashing
                raise _locked(locked_until - now)
            if ok:
                conn.execute("UPDATE games SET pin_failures = 0 WHERE id = ?", (game_id,))
                return True
            failures += 1
            if failures >= PIN_MAX_FAILURES:
                conn.execute("UPDATE games SET pin_failures = 0, pin_locked_until = ? WHERE id = ?",
                             (now + PIN_LOCKOUT_SECONDS, game_id))
            else:
                conn.execute("UPDATE games SET pin_failures = ? WHERE id = ?", (failures, game_id))
        return False


def _locked(remaining: float) -> PinLockedError:
    wait = max(1, math.ceil(remaining))
    return PinLockedError(f"too many wrong PINs: wait {wait} s and try again", wait)


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of the PIN, as `scrypt$n$r$p$salt$hash` (hex)."""
    if not isinstance(pin, str) or not PIN_MIN_LENGTH <= len(pin) <= PIN_MAX_LENGTH or not pin.strip():
        raise StoreError(f"the banker PIN must be {PIN_MIN_LENGTH} to {PIN_MAX_LENGTH} characters: choose another")
    salt = os.urandom(16)
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P, dklen=32)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    """Constant-time comparison of `pin` against a `hash_pin` string."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            raise ValueError(scheme)
        expected = bytes.fromhex(digest)
        candidate = hashlib.scrypt(str(pin).encode("utf-8", "surrogatepass"), salt=bytes.fromhex(salt),
                                   n=int(n), r=int(r), p=int(p), dklen=len(expected))
    except (ValueError, UnicodeEncodeError):
        return False
    return hmac.compare_digest(candidate, expected)


# ---------------------------------------------------------------- reading logs


def read_log(text: str | bytes) -> tuple[str, list[Any]]:
    """Read an exported game log of any known variant: (variant, events), or `StoreError` with the reason."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise StoreError("the game log is not UTF-8 text: give the JSON file the app exported") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(f"the game log is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except (RecursionError, ValueError):
        # json raises these for absurd nesting or numbers with thousands of digits.
        raise StoreError("the game log is not a log the app wrote (too deeply nested or too long numbers)") from None
    variant = raw.get("variant") if isinstance(raw, dict) else None
    known = variants()
    if not isinstance(variant, str) or variant not in known:
        raise StoreError(f'the game log\'s "variant" is {variant!r}: it must be one of {", ".join(sorted(known))}')
    try:
        found, events = load_events(text, known[variant].adapter, variant)
    except LogFormatError as exc:
        raise StoreError(str(exc)) from None
    except (RecursionError, ValueError) as exc:
        raise StoreError(f"the game log cannot be read ({type(exc).__name__}): give the JSON file the app exported"
                         ) from None
    return found or variant, events
