"""The game store: turns as transactions, optimistic concurrency, safe opening, export/import, banker PIN."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.events import Undo
from companion.games.classic.gcg import classic_events_from_record
from companion.games.classic.rules import Pass, Play, Settings, Start
from companion.gcg import GcgError, read_gcg
from companion.rules.errors import RulesError
from companion.store import (
    APPLICATION_ID,
    PIN_LOCKOUT_SECONDS,
    SCHEMA_VERSION,
    PinLockedError,
    StaleLogError,
    Store,
    StoreError,
    StoreOpenError,
)
from tests.conftest import REPO, shared_path
from tests.games.classic_play import self_play

SETTINGS = Settings(players=["Ann", "Bob"])


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "games.db") as s:
        yield s  # type: ignore[misc]


def _game(store: Store) -> str:
    game = store.create_game("classic", SETTINGS, game_id="g1")
    store.append(game, [Start(settings=SETTINGS)], 0)
    return game


def test_a_turn_is_appended_with_consecutive_seqs_and_folds(store: Store) -> None:
    game = _game(store)
    seq = store.append(game, [Play(player="Ann", position="8G", word="CAT"), Pass(player="Bob")], 1, device="tab")
    assert seq == 3
    assert store.last_seq(game) == 3
    assert store.turns(game) == [[1], [2, 3]]
    assert store.fold(game).scores == {"Ann": 10, "Bob": 0}
    assert [e.type for e in store.events(game)] == ["start", "play", "pass"]


def test_an_append_from_an_outdated_log_is_refused_and_writes_nothing(store: Store) -> None:
    game = _game(store)
    store.append(game, [Play(player="Ann", position="8G", word="CAT")], 1)
    with pytest.raises(StaleLogError, match="saw 1 events but the log holds 2; reload"):
        store.append(game, [Play(player="Ann", position="H7", word="ACT")], 1)
    with pytest.raises(StaleLogError, match="saw 5 events"):
        store.append(game, [Pass(player="Bob")], 5)
    assert store.last_seq(game) == 2


def test_bad_appends_say_why_and_write_nothing(store: Store) -> None:
    game = _game(store)
    with pytest.raises(StoreError, match="at least one event"):
        store.append(game, [], 1)
    with pytest.raises(StoreError, match="no game 'nope'"):
        store.append("nope", [Pass(player="Ann")], 0)
    from companion.games.monopoly_scrabble import rules as monopoly

    money = monopoly.Pass(player="Ann")
    with pytest.raises(StoreError, match="not a valid classic event"):
        # a classic pass and a monopoly pass share the tag; a monopoly-only event does not
        store.append(game, [monopoly.JailFee(player="Ann")], 1)  # type: ignore[call-arg]
    assert money.type == "pass"
    assert store.last_seq(game) == 1


def test_two_devices_acting_at_once_lose_and_double_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as s:
        game = s.create_game("classic", SETTINGS, game_id="g")
        s.append(game, [Start(settings=SETTINGS)], 0)
    per_device, devices = 15, 4
    refusals = []

    def device(name: str) -> None:
        with Store(path, timeout=30) as mine:
            done = 0
            while done < per_device:
                seen = mine.last_seq(game)
                try:
                    # a play then its undo: any interleaving of whole turns folds to a legal game
                    mine.append(game, [Play(player="Ann", position="8G", word="CAT"), Undo()], seen, device=name)
                    done += 1
                except StaleLogError:
                    refusals.append(name)

    threads = [threading.Thread(target=device, args=(f"d{i}",)) for i in range(devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with Store(path) as s:
        assert s.last_seq(game) == 1 + 2 * per_device * devices
        turns = s.turns(game)
        assert all(len(t) == 2 for t in turns[1:])
        rows = sqlite3.connect(path).execute("SELECT device, count(*) FROM events GROUP BY device").fetchall()
        assert dict(rows) == {None: 1, **{f"d{i}": 2 * per_device for i in range(devices)}}
        assert s.fold(game).scores == {"Ann": 0, "Bob": 0}


_DEVICE = """
import sys, time
from companion.events import Undo
from companion.games.classic.rules import Play
from companion.store import Store, StaleLogError
path, game, name, turns, start = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
refused = 0
with Store(path, timeout=30) as store:
    time.sleep(max(0.0, start - time.time()))  # all devices start appending at the same moment
    done = 0
    while done < turns:
        seen = store.last_seq(game)
        try:
            store.append(game, [Play(player="Ann", position="8G", word="CAT"), Undo()], seen, device=name)
            done += 1
        except StaleLogError:
            refused += 1
print(refused)
"""


def test_separate_processes_appending_at_once_lose_and_double_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as s:
        game = s.create_game("classic", SETTINGS, game_id="g")
        s.append(game, [Start(settings=SETTINGS)], 0)
    turns, names, start = 60, ["p0", "p1", "p2"], time.time() + 2.5
    procs = [subprocess.Popen([sys.executable, "-c", _DEVICE, str(path), game, name, str(turns), str(start)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in names]
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    refusals = sum(int(out) for out, _ in outs)
    assert refusals > 0  # they did collide, and each collision was refused
    print(f"\n{len(names)} processes x {turns} turns: {refusals} stale appends refused and retried")
    with Store(path) as s:
        assert s.last_seq(game) == 1 + 2 * turns * len(names)
        assert all(len(t) == 2 for t in s.turns(game)[1:])
        by_device = dict(sqlite3.connect(path).execute("SELECT device, count(*) FROM events GROUP BY device"))
        assert by_device == {None: 1, **{n: 2 * turns for n in names}}
        s.fold(game)


# ---------------------------------------------------------------- opening files


def test_a_new_file_is_marked_as_ours_with_its_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reopening_keeps_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as s:
        game = _game(s)
    with Store(path) as s:
        assert [g.id for g in s.games()] == [game]
        assert s.game(game).last_seq == 1 and s.game(game).has_pin is False


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('x')")
    conn.commit()
    conn.close()


def _newer(path: Path) -> None:
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


def _unversioned(path: Path) -> None:
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.commit()
    conn.close()


def _damaged(path: Path) -> None:
    with Store(path) as s:
        game = _game(s)
        for i in range(300):
            s.append(game, [Pass(player="Ann"), Undo()], 1 + 2 * i)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[2 * page: 3 * page] = bytes([0x5A]) * page  # scribble over a b-tree page
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.write_bytes(b"hello, this is a text file\n" * 10), "not an SQLite database"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 10), "not an SQLite database"),
    (_foreign, "another program's database"),
    (_newer, "newer version of the app"),
    (_damaged, "is damaged"),
    (_unversioned, "no file format version"),
    (lambda p: p.mkdir(), "is a folder"),
])
def test_unusable_files_are_refused_in_one_sentence_and_left_untouched(tmp_path: Path, make, message) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    path = folder / "games.db"
    make(path)
    before = _digest(folder) if path.is_file() else None
    with pytest.raises(StoreOpenError, match=message) as err:
        Store(path)
    text = str(err.value)
    assert text.count(": ") >= 1 and "\n" not in text
    if before is not None:
        assert _digest(folder) == before


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    with Store(path) as s:
        assert s.games() == []


def test_a_missing_folder_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(StoreOpenError, match="does not exist"):
        Store(tmp_path / "no" / "games.db")


# ---------------------------------------------------------------- export / import


def test_json_export_imports_back_identically(store: Store, tmp_path: Path) -> None:
    game = _game(store)
    store.append(game, [Play(player="Ann", position="8G", word="CAT")], 1)
    store.append(game, [Play(player="Bob", position="I7", word="AT")], 2)
    store.append(game, [Undo()], 3)
    text = store.export_json(game)
    with Store(tmp_path / "other.db") as other:
        copy = other.import_json(text)
        assert other.export_json(copy) == text
        assert other.events(copy) == store.events(game)
        assert other.fold(copy).scores == store.fold(game).scores
        assert other.game(copy).settings == json.loads(json.dumps(SETTINGS.model_dump(mode="json")))


def test_played_games_round_trip_through_json_and_gcg(tmp_path: Path) -> None:
    """Whole legal games (made by play, `tests/games/classic_play.py`), finished with their leftovers."""
    with Store(tmp_path / "games.db") as store:
        for seed in range(4):
            events = self_play(seed)
            game = store.create_game("classic", events[0].settings)
            store.append(game, events, 0)
            text = store.export_json(game)
            assert store.export_json(store.import_json(text)) == text
            gcg = store.export_gcg(game)
            again = store.import_gcg(gcg)
            assert store.export_gcg(again) == gcg
            assert store.fold(again).scores == store.fold(game).scores
            assert store.fold(again).finished and store.fold(again).scores != {"Ann": 0, "Bob": 0}


def test_real_games_round_trip_through_json_and_gcg(tmp_path: Path) -> None:
    folder = shared_path("gcg", "human", "domino14+macondo", "gcgio", "testdata")
    with Store(tmp_path / "games.db") as store:
        checked = 0
        for path in sorted(folder.glob("*.gcg"))[:8]:
            record = read_gcg(path)
            if len(record.players) != 2 or len({p.nick for p in record.players}) != 2:
                continue
            try:
                events = classic_events_from_record(record)
            except (GcgError, RulesError):  # records the classic game cannot load are covered in test_gcg
                continue
            game = store.create_game("classic", events[0].settings)
            store.append(game, events, 0)
            text = store.export_json(game)
            assert store.export_json(store.import_json(text)) == text
            gcg = store.export_gcg(game)
            again = store.import_gcg(gcg)
            assert store.export_gcg(again) == gcg
            assert store.fold(again).scores == store.fold(game).scores
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not valid JSON"),
    ('{"variant": "chess", "events": []}', "must be one of"),
    ('{"variant": "classic", "events": []}', "no events"),
    ('{"variant": "classic", "events": [{"type": "pass", "player": "Ann"}]}', "refused by the rules"),
    ('{"variant": "classic", "events": [{"type": "teleport"}]}', "event 1 of the game log is invalid"),
    ("[" * 100000, "too deeply nested"),
])
def test_bad_imports_say_why_and_change_nothing(store: Store, text: str, message: str) -> None:
    before = store.games()
    with pytest.raises(StoreError, match=message):
        store.import_json(text)
    assert store.games() == before


def test_gcg_export_is_for_classic_games_only(store: Store) -> None:
    game = store.create_game("monopoly")
    with pytest.raises(StoreError, match="only classic games export as GCG"):
        store.export_gcg(game)


# ---------------------------------------------------------------- banker PIN


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_pin_is_stored_salted_and_hashed(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    # Eight digits, not four: the file holds ~250 random hex digits (ids, salts, hashes), in which any
    # given four digits appear by chance about once in 250 files (CI met one); eight, once in 10^7.
    pin = "40271958"
    with Store(path) as s:
        a = s.create_game("monopoly", pin=pin)
        b = s.create_game("monopoly", pin=pin)
        assert s.check_pin(a, pin) and not s.check_pin(a, "1234")
    raw = path.read_bytes() + (path.with_name("games.db-wal").read_bytes()
                               if path.with_name("games.db-wal").exists() else b"")
    assert pin.encode() not in raw
    hashes = dict(sqlite3.connect(path).execute("SELECT id, pin_hash FROM games"))
    assert hashes[a].startswith("scrypt$") and hashes[a] != hashes[b]


def test_five_wrong_pins_lock_for_30_s_even_across_a_restart(tmp_path: Path) -> None:
    path, clock = tmp_path / "games.db", Clock()
    with Store(path, clock=clock) as s:
        game = s.create_game("monopoly", pin="2468")
        for _ in range(4):
            assert s.check_pin(game, "0000") is False
        assert s.check_pin(game, "2468") is True  # a right PIN resets the count
        for _ in range(5):
            assert s.check_pin(game, "0000") is False
        with pytest.raises(PinLockedError, match=f"too many wrong PINs: wait {PIN_LOCKOUT_SECONDS} s") as err:
            s.check_pin(game, "2468")
        assert err.value.wait_seconds == PIN_LOCKOUT_SECONDS
        assert "2468" not in str(err.value)
    clock.now += 12.5
    with Store(path, clock=clock) as s:  # restarting the app does not lift the lockout
        with pytest.raises(PinLockedError, match="wait 18 s"):
            s.check_pin(game, "2468")
        clock.now += 18
        assert s.check_pin(game, "2468") is True


def test_pin_rules_are_one_sentence(store: Store) -> None:
    with pytest.raises(StoreError, match="4 to 64 characters"):
        store.create_game("monopoly", pin="12")
    game = store.create_game("monopoly")
    with pytest.raises(StoreError, match="no banker PIN"):
        store.check_pin(game, "1234")
    assert store.games()[0].has_pin is False


def test_a_backup_is_a_consistent_copy(tmp_path: Path) -> None:
    from companion.store import backup_file

    path = tmp_path / "games.db"
    with Store(path) as s:
        game = _game(s)
        s.append(game, [Play(player="Ann", position="8G", word="CAT")], 1)
        copy = backup_file(path, "v1")  # while the store is open, with turns still in the -wal file
        assert copy.name == "games.db.v1.bak"
        assert backup_file(path, "v1").name == "games.db.v1-2.bak"
    with Store(copy) as b:
        assert b.fold(game).scores == {"Ann": 10, "Bob": 0}


def test_a_batch_commits_several_turns_at_once_and_a_refused_one_alone_writes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db") as store:
        games = []
        for n in range(3):
            game = store.create_game("classic", SETTINGS, game_id=f"g{n}")
            store.append(game, [Start(settings=SETTINGS)], 0)
            games.append(game)
        other = sqlite3.connect(tmp_path / "games.db")
        with store.batch():
            store.append("g0", [Pass(player="Ann")], 1)
            with pytest.raises(StaleLogError):
                store.append("g1", [Pass(player="Ann")], 5)  # refused: its savepoint is undone, the batch goes on
            store.append("g2", [Play(player="Ann", position="8G", word="CAT"), Pass(player="Bob")], 1)
            # Nothing of the batch is seen by another connection before it commits.
            assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 3
        assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 6
        assert [store.last_seq(g) for g in games] == [2, 1, 3]
        with pytest.raises(RuntimeError), store.batch():
            store.append("g0", [Pass(player="Bob")], 2)
            raise RuntimeError("the batch fails after a write")  # all of it is undone
        assert store.last_seq("g0") == 2
        other.close()
