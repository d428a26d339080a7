"""Hostile input the user can hand the app: word lists, table logs and photos.

Each reader must read the input or refuse it with its own one-sentence error (`LexiconError`,
`CommandError` / `LogFormatError`, `NotAnImage` / `UploadError`); no other exception may escape and
nothing may allocate memory for a picture the limits refuse (decompression bombs are refused from the
header alone). Damaged inputs start from real data (the ENABLE list, a real game's log, a real board
photo) so the damage lands deep inside otherwise valid files.
"""

from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import CommandError
from companion.commands.replay import replay_text
from companion.events import LogFormatError, dump_events, load_events
from companion.games.classic import rules as classic
from companion.games.monopoly_scrabble import rules as monopoly
from companion.limits import MAX_PIXELS, UploadError, check_upload, decode_upload
from lexicon.store import LexiconError, load_word_list
from lexicon.wordlist import MAX_WORD_LENGTH, parse_word_list, read_word_list
from tests.conftest import SHARED_DATA
from vision.errors import NotAnImage, VisionError
from vision.read import decode_image, read_board


def fuzz(n: int) -> settings:
    return settings(max_examples=n, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


def one_sentence(exc: BaseException) -> None:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, text


def damage(data: bytes, rnd: random.Random, edits: int) -> bytes:
    """Cut, insert, flip or duplicate a few byte runs."""
    buf = bytearray(data)
    for _ in range(edits):
        i = rnd.randrange(len(buf) + 1)
        kind = rnd.choice(["cut", "insert", "flip", "dup", "nul"])
        if kind == "cut":
            del buf[i:i + rnd.randint(1, 64)]
        elif kind == "insert":
            buf[i:i] = rnd.randbytes(rnd.randint(1, 16))
        elif kind == "flip" and i < len(buf):
            buf[i] ^= 1 << rnd.randrange(8)
        elif kind == "dup":
            buf[i:i] = buf[i:i + rnd.randint(1, 200)] * rnd.randint(2, 50)
        else:
            buf[i:i] = b"\x00" * rnd.randint(1, 8)
    return bytes(buf)


# ---------------------------------------------------------------- word lists


def _enable_sample() -> bytes:
    path = SHARED_DATA / "lexicon" / "enable.txt"
    if path.exists():
        return b"\n".join(path.read_bytes().splitlines()[::600])  # ~290 real words from the whole list
    return b"aa\naah\naahed\ncat\nzymurgy\nquixotic\n"


ENABLE = _enable_sample()


@fuzz(300)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_any_text_is_a_word_list_with_a_report(text: str) -> None:
    report = parse_word_list(text)
    assert all(w.isalpha() and w == w.upper() and len(w) <= MAX_WORD_LENGTH for w in report.words)
    assert report.words == sorted(set(report.words))
    assert "\n" not in report.summary()


@fuzz(150)
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 12), tail=st.binary(max_size=64))
def test_damaged_word_list_files_load_or_are_refused(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                     edits: int, tail: bytes) -> None:
    data = damage(ENABLE, random.Random(seed), edits) + tail
    path = tmp_path_factory.mktemp("words") / "mine.txt"
    path.write_bytes(data)
    report = read_word_list(path)  # UTF-8, else Latin-1: any bytes read
    assert all(w.isalpha() and len(w) <= MAX_WORD_LENGTH for w in report.words)
    try:
        lex = load_word_list(path, use_cache=False)
    except LexiconError as exc:
        one_sentence(exc)
        return
    for word in report.words[:50]:
        assert word in lex


@pytest.mark.parametrize("data", [
    b"a" * 5_000_000,  # one huge line
    b"\x00" * 100_000 + b"\ncat\n",
    b"\xff\xfe" + "cat\ndog\n".encode("utf-16-le"),  # UTF-16: Latin-1 fallback, lines with NULs skipped
    b"\xef\xbb\xbfcat\r\ndog\r\n\r\n#comment\n",
    bytes(range(256)) * 200,
    "".join(chr(0x4E00 + i) + "\n" for i in range(300)).encode(),  # more letters than the graph codes
])
def test_hostile_word_list_files(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    report = read_word_list(path)
    assert "\n" not in report.summary()
    try:
        load_word_list(path, use_cache=False)
    except LexiconError as exc:
        one_sentence(exc)


# ---------------------------------------------------------------- table logs (companion replay)


def _real_logs() -> list[str]:
    """A classic game (from a real GCG record, else made by play) and a short Monopoly game, in the documented log format."""
    from companion.games.classic.gcg import classic_events_from_record
    from companion.gcg import GcgError, read_gcg
    from companion.rules.errors import RulesError

    logs = []
    folder = SHARED_DATA / "gcg" / "human" / "domino14+macondo" / "gcgio" / "testdata"
    for path in sorted(folder.glob("*.gcg")) if folder.is_dir() else []:
        try:
            logs.append(dump_events(classic_events_from_record(read_gcg(path)), classic.VARIANT))
            break
        except (GcgError, RulesError):
            continue
    if not logs:  # no ../shared: a whole legal game made by play (the move generator, the shipped word list)
        from tests.games.classic_play import self_play

        logs.append(dump_events(self_play(1), classic.VARIANT))
    logs.append(json.dumps({"format": 1, "variant": "monopoly", "events": [
        {"type": "start", "settings": {"players": ["Ann", "Bob"]}}]}))
    return logs


LOGS = _real_logs()


@fuzz(250)
@given(which=st.integers(0, len(LOGS) - 1), seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 8))
def test_damaged_logs_replay_or_are_one_sentence(which: int, seed: int, edits: int) -> None:
    text = damage(LOGS[which].encode(), random.Random(seed), edits).decode("utf-8", "replace")
    try:
        replay_text(text)
    except CommandError as exc:
        one_sentence(exc)
    for adapter, variant in ((classic.EVENT_ADAPTER, classic.VARIANT), (monopoly.EVENT_ADAPTER, monopoly.VARIANT)):
        try:
            load_events(text, adapter, variant)
        except LogFormatError as exc:
            one_sentence(exc)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                         max_size=4), max_leaves=20)


@fuzz(250)
@given(value=json_values, variant=st.sampled_from(["classic", "monopoly", None, 3]))
def test_any_json_replays_or_is_one_sentence(value: object, variant: object) -> None:
    doc = {"format": 1, "variant": variant, "events": value} if isinstance(value, list) else value
    try:
        replay_text(json.dumps(doc))
    except CommandError as exc:
        one_sentence(exc)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"variant": "classic", "format": 1' + "0" * 5000 + "}",
                                  '{"variant": "classic", "events": [' + "{}," * 50_000 + "{}]}", "\x00" * 1000, ""])
def test_what_json_itself_chokes_on_is_one_sentence(text: str, tmp_path: Path, capsys) -> None:
    from companion.cli import main

    with pytest.raises(CommandError) as err:
        replay_text(text)
    one_sentence(err.value)
    path = tmp_path / "log.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# ---------------------------------------------------------------- photos


def _real_photo() -> bytes:
    photos = sorted((SHARED_DATA / "boards").rglob("*.jpg")) if (SHARED_DATA / "boards").is_dir() else []
    if photos:
        import cv2
        import numpy as np

        # A real photo, made small so each decode in the fuzz loop is cheap.
        img = cv2.imdecode(np.frombuffer(photos[0].read_bytes(), np.uint8), cv2.IMREAD_COLOR)
        img = cv2.resize(img, (320, 240))
        return bytes(cv2.imencode(".jpg", img)[1])
    import cv2
    import numpy as np

    return bytes(cv2.imencode(".jpg", np.full((240, 320, 3), 128, np.uint8))[1])


PHOTO = _real_photo()


def _png(width: int, height: int, body: bytes | None = None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body or zlib.compress(b"\x00" * 64)) \
        + chunk(b"IEND", b"")


def _bomb() -> bytes:
    """A real, valid PNG of 11000 x 9500 black pixels (104.5 MP) that is only ~100 KB."""
    width, height = 11000, 9500
    comp = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    parts = [comp.compress(row * 500) for _ in range(height // 500)]
    parts.append(comp.flush())
    return _png(width, height, b"".join(parts))


def _jpeg_claiming(width: int, height: int) -> bytes:
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + sof + b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" + b"\x00" * 100 + b"\xff\xd9"


@fuzz(200)
@given(data=st.binary(max_size=2000))
def test_random_bytes_are_not_an_image(data: bytes) -> None:
    with pytest.raises(NotAnImage) as err:
        decode_image(data)
    one_sentence(err.value)
    with pytest.raises(UploadError) as up:
        decode_upload(data)
    one_sentence(up.value)


@fuzz(120)
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 10), cut=st.floats(0.0, 1.0))
def test_damaged_and_truncated_photos_decode_or_are_refused(seed: int, edits: int, cut: float) -> None:
    data = damage(PHOTO, random.Random(seed), edits)
    data = data[:max(1, int(len(data) * cut))] if cut < 0.5 else data
    for decode, errors in ((decode_image, (NotAnImage,)), (decode_upload, (UploadError,))):
        try:
            img = decode(data)
        except errors as exc:
            one_sentence(exc)
        else:
            assert img.ndim == 3 and img.shape[2] == 3 and img.shape[0] * img.shape[1] <= MAX_PIXELS


@fuzz(8)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0.02, 0.9))
def test_read_board_on_truncated_photos_is_a_vision_error_or_a_reading(seed: int, cut: float) -> None:
    data = damage(PHOTO, random.Random(seed), 3)[: int(len(PHOTO) * cut)]
    try:
        read_board(data, second_opinion=False)
    except VisionError as exc:
        one_sentence(exc)


@pytest.mark.parametrize(("make", "limit"), [
    (_bomb, "megapixels"),
    (lambda: _png(60_000, 60_000), "pixels a side"),
    (lambda: _png(0, 50), "damaged"),
    (lambda: _png(2**31, 2**31 - 1), "pixels a side"),
    (lambda: _jpeg_claiming(65_000, 65_000), "pixels a side"),
    (lambda: _jpeg_claiming(11_999, 11_999), "megapixels"),
])
def test_bombs_and_huge_dimensions_are_refused_from_the_header(make, limit: str) -> None:
    import tracemalloc

    data = make()
    with pytest.raises(UploadError, match=limit):
        check_upload(data)
    tracemalloc.start()
    try:
        with pytest.raises(NotAnImage, match=limit) as err:  # the reader the app calls refuses it too
            decode_image(data)
        with pytest.raises(NotAnImage, match=limit):
            read_board(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    one_sentence(err.value)
    assert peak < 20 * 1024 * 1024  # nothing was decoded
