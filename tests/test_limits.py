"""Upload limits: real photos pass and decode; oversized, bomb-like, foreign and damaged files are refused.

The limits need no particular photo: the formats and the damage are checked on a board photo rendered in
memory (`vision.synth`, any clone has it); the real photos of `../shared/data/boards` are checked too
when they are there."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.limits import MAX_UPLOAD_BYTES, UploadError, check_upload, decode_upload, image_size
from tests.conftest import shared_path
from vision.synth import render


def _photos(n: int) -> list[Path]:
    paths = sorted(shared_path("boards").glob("*/*.jpg"))
    return random.Random(5).sample(paths, n)


def _rendered_photo() -> np.ndarray:
    """A board photo drawn in memory (1400 x 1200, tiles, grid, perspective, noise)."""
    return render("worn_wood", 7).image


def _png(width: int, height: int) -> bytes:
    """A PNG whose header says width x height, with a (short) real zlib body: what a bomb looks like."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(
        b"IEND", b"")


def test_real_board_photos_pass_and_decode_at_their_header_size() -> None:
    for path in _photos(12):
        data = path.read_bytes()
        check_upload(data)
        kind, (w, h) = image_size(data)
        image = decode_upload(data)
        assert kind == "JPEG" and image.shape[2] == 3 and {image.shape[0], image.shape[1]} == {w, h}


@pytest.mark.parametrize("ext", [".png", ".jpg", ".webp"])
def test_every_accepted_format_is_sized_from_its_header(ext: str) -> None:
    small = cv2.resize(_rendered_photo(), (641, 479))
    ok, buf = cv2.imencode(ext, small)
    assert ok
    data = buf.tobytes()
    assert image_size(data)[1] == (641, 479)
    assert decode_upload(data).shape == (479, 641, 3)


def test_a_lossless_webp_is_sized_too() -> None:
    image = np.full((37, 53, 3), 200, dtype=np.uint8)
    ok, buf = cv2.imencode(".webp", image, [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert ok and image_size(buf.tobytes())[1] == (53, 37)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty"),
    (b"\xff\xd8\xff" + b"\x00" * MAX_UPLOAD_BYTES, "more than the 25.0 MB limit"),
    (b"GIF89a" + b"\x00" * 100, "not a JPEG, PNG or WebP"),
    (b"%PDF-1.7 hello", "not a JPEG, PNG or WebP"),
    (_png(12001, 10), "12001x10 pixels, more than the limit"),
    (_png(11000, 11000), "11000x11000 pixels, more than the limit of 12000 pixels a side and 100 megapixels"),
    (_png(0, 10), "damaged"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 10, "damaged or cut short"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "damaged or cut short"),
], ids=["empty", "too-big", "gif", "pdf", "wide", "100mp", "zero", "png-cut", "jpeg-cut"])
def test_bad_uploads_are_one_sentence(data: bytes, message: str) -> None:
    with pytest.raises(UploadError, match=message) as err:
        check_upload(data)
    assert "\n" not in str(err.value) and ": " in str(err.value)


def test_a_real_oversized_png_is_refused_before_decoding() -> None:
    # 12500 x 8 black pixels: a real image, tiny on disk, one side over the limit
    ok, buf = cv2.imencode(".png", np.zeros((8, 12500), dtype=np.uint8))
    assert ok and len(buf) < 10_000
    with pytest.raises(UploadError, match="12500x8 pixels"):
        decode_upload(buf.tobytes())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_are_refused_or_accepted_never_crash(data: bytes) -> None:
    try:
        image = decode_upload(data)
    except UploadError as exc:
        assert "\n" not in str(exc)
        return
    assert {image.shape[0], image.shape[1]} == set(image_size(data)[1])  # accepted: decoded at its header size


@pytest.fixture(scope="module")
def small_jpeg() -> bytes:
    image = cv2.resize(_rendered_photo(), (96, 80))
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return buf.tobytes()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_photos_decode_at_the_checked_size_or_are_refused(small_jpeg: bytes, data: st.DataObject) -> None:
    raw = bytearray(small_jpeg)
    for _ in range(data.draw(st.integers(0, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(raw)))
    try:
        image = decode_upload(bytes(raw[:cut]))
    except UploadError:
        return
    w, h = image_size(bytes(raw[:cut]))[1]
    assert {image.shape[0], image.shape[1]} == {w, h}
