"""Hostile input: fuzzed game logs and fuzzed database files give one clear error and change nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import LogFormatError, dump_events, load_events
from companion.games.classic import rules as classic
from companion.store import Store, StoreError, StoreOpenError, read_log
from tests.games.classic_play import self_play

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def real_log() -> str:
    """The exported log of a whole legal game (made by play with the shipped word list: any clone has it)."""
    return dump_events(self_play(7), classic.VARIANT)


def _one_sentence(exc: Exception) -> None:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """A real log with a few characters cut, inserted or replaced."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(chars)))
        action = draw(st.sampled_from(["cut", "insert", "replace"]))
        if action == "cut":
            del chars[i:i + draw(st.integers(1, 40))]
        elif action == "insert":
            chars[i:i] = draw(st.text(max_size=6))
        elif i < len(chars):
            chars[i] = draw(st.characters())
    return "".join(chars)


@st.composite
def tampered(draw: st.DrawFn, text: str) -> str:
    """A real log, valid JSON, with one field of one event (or of the envelope) replaced by random JSON."""
    raw: dict[str, Any] = json.loads(text)
    if draw(st.booleans()):
        raw[draw(st.sampled_from(["format", "variant", "events", "extra"]))] = draw(json_values)
    else:
        event = draw(st.sampled_from(raw["events"]))
        keys = [*event.keys(), "type", "extra"]
        event[draw(st.sampled_from(keys))] = draw(json_values)
    return json.dumps(raw)


@FUZZ
@given(data=st.data())
def test_load_events_refuses_mutated_logs_with_one_sentence(real_log: str, data: st.DataObject) -> None:
    """A damaged log is refused with one sentence, or (a change the format allows, such as another letter in
    a name) read whole: every event in the file comes back, each one an event of the game that writes
    itself back as it was read. Nothing is dropped or half read."""
    text = data.draw(st.one_of(mutated(real_log), tampered(real_log), st.text(max_size=200),
                               json_values.map(json.dumps)))
    try:
        variant, events = load_events(text, classic.EVENT_ADAPTER, classic.VARIANT)
    except LogFormatError as exc:
        _one_sentence(exc)
        return
    assert len(events) == len(json.loads(text)["events"])
    assert variant in ("", classic.VARIANT)
    assert load_events(dump_events(events, classic.VARIANT), classic.EVENT_ADAPTER)[1] == events


@pytest.mark.parametrize(("damage", "message"), [
    (lambda log: log[: len(log) // 2], "not valid JSON"),
    (lambda log: log.replace('"type": "play"', '"type": "plya"', 1), "event 2 of the game log is invalid"),
    (lambda log: log.replace('"position": "', '"position": 8, "x": "', 1), "event 2 of the game log is invalid"),
    (lambda log: log.replace('"variant": "classic"', '"variant": "monopoly"', 1), "is a monopoly game"),
    (lambda log: log.replace('"format": 1', '"format": 99', 1), "newer than this app reads"),
])
def test_load_events_refuses_each_kind_of_damage_with_its_reason(real_log: str, damage: Any, message: str) -> None:
    text = damage(real_log)
    assert text != real_log
    with pytest.raises(LogFormatError, match=message) as err:
        load_events(text, classic.EVENT_ADAPTER, classic.VARIANT)
    _one_sentence(err.value)


@FUZZ
@given(data=st.data())
def test_read_log_turns_anything_into_events_or_one_sentence(real_log: str, data: st.DataObject) -> None:
    blob = data.draw(st.one_of(mutated(real_log).map(str.encode), tampered(real_log).map(str.encode),
                               st.binary(max_size=300)))
    try:
        read_log(blob)
    except StoreError as exc:
        _one_sentence(exc)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"events": [], "variant": "classic", "format": 1' + "0" * 5000 + "}"])
def test_read_log_survives_what_json_itself_chokes_on(text: str) -> None:
    # load_events lets RecursionError / ValueError through for these; the store's reader does not.
    with pytest.raises(StoreError, match="not a log the app wrote") as err:
        read_log(text)
    _one_sentence(err.value)


@FUZZ
@given(data=st.data())
def test_a_bad_import_changes_nothing(tmp_path_factory: pytest.TempPathFactory, real_log: str,
                                     data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("imp")
    with Store(folder / "games.db") as store:
        before = [(g.id, g.last_seq) for g in store.games()]
        text = data.draw(st.one_of(mutated(real_log), tampered(real_log)))
        try:
            new = store.import_json(text)
        except StoreError as exc:
            _one_sentence(exc)
            assert [(g.id, g.last_seq) for g in store.games()] == before
        else:
            assert store.export_json(new) == json.dumps(json.loads(store.export_json(new)), indent=1)
            store.fold(new)


# ---------------------------------------------------------------- damaged database files


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory, real_log: str) -> Path:
    """A checkpointed store holding a real game and a banker PIN: the file the fuzzing damages."""
    path = tmp_path_factory.mktemp("db") / "games.db"
    with Store(path) as store:
        store.import_json(real_log, pin="1357", game_id="real")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _use(path: Path) -> None:
    """Open the file and read everything in it, as the app would."""
    with Store(path) as store:
        for game in store.games():
            store.events(game.id)
            store.fold(game.id)
            store.export_json(game.id)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_database_files_are_refused_untouched_or_read_cleanly(
        tmp_path_factory: pytest.TempPathFactory, real_db: Path, data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("fz")
    path = folder / "games.db"
    raw = bytearray(real_db.read_bytes())
    # positions from a seeded random generator: spread evenly over the file, not bunched at small numbers
    rng = data.draw(st.randoms(use_true_random=False))
    kind = data.draw(st.sampled_from(["flip", "flip", "truncate", "random", "header"]))
    if kind == "flip":
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif kind == "truncate":
        raw = raw[:rng.randrange(len(raw))]
    elif kind == "header":
        raw[rng.randrange(16, 100)] = rng.randrange(256)
    else:
        raw = bytearray(data.draw(st.binary(min_size=1, max_size=9000)))
        if data.draw(st.booleans()):
            raw[:16] = b"SQLite format 3\x00"
    path.write_bytes(bytes(raw))
    before = _snapshot(folder)
    try:
        _use(path)
    except StoreOpenError as exc:
        _one_sentence(exc)
        assert _snapshot(folder) == before  # refused before anything was written
    except StoreError as exc:
        _one_sentence(exc)
    finally:
        shutil.rmtree(folder)


def test_an_undamaged_copy_reads_back_the_game(real_db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "games.db"
    shutil.copy(real_db, copy)
    with Store(copy) as store:
        assert store.check_pin("real", "1357")
        assert store.fold("real").finished
