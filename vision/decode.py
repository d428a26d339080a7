"""Photo bytes -> the pixels the reader works on, decoded no larger than the grid needs.

Owns opening a photo (bytes, a path or an array) with the upload limits checked from the header first,
and choosing how big to decode it. A phone's 12 MP JPEG has ~4000 pixels on its long side, while
finding the grid needs ~1600 and reading 15 squares of 48 pixels at most ~1500 along the board: libjpeg
can decode at 1/2, 1/4 or 1/8 of the size straight from the DCT coefficients (the scaling is part of
the inverse transform, so it averages like an area resize and costs less than a full decode), and every
later step then handles a quarter of the pixels. When the board turns out small in the frame the reader
asks `Photo.finer()` for a sharper decode of the same bytes (`vision.read` decides when).

Corners the reader finds or is given are in the pixels of the photo as the user sees it (EXIF
orientation applied, full size); `Photo.scale` converts between those and the decoded pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.limits import UploadError, check_upload, image_size
from vision.errors import NotAnImage

U8 = npt.NDArray[Any]  # OpenCV types its results loosely

# Long side (pixels) a reduced decode keeps at least: the locator refines the grid on a copy with a long
# side of 1600 (`vision.locate.REFINE_SIDE`) and accepts one a little smaller as it is; 1500 keeps a
# board that fills half the frame at >= 50 pixels a square. Measured on the labelled photos resized to
# 12 MP: decoding at 1/2 (2040 px) instead of full size takes the median decode from 56 to 25 ms CPU.
MIN_WORK_SIDE = 1500
# libjpeg's reduced decodes, coarsest first
_REDUCED = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))


@dataclass
class Photo:
    """A decoded photo: `image` (BGR) is the photo at `scale` times its full size (1/reduction)."""

    image: U8
    scale: float
    full_size: tuple[int, int]  # (width, height) of the full photo as the user sees it
    data: bytes | None = None  # the JPEG bytes, kept so a sharper decode can be made when needed

    @property
    def reduction(self) -> int:
        return round(1 / self.scale)

    def finer(self, min_scale: float) -> Photo:
        """This photo decoded at the coarsest reduction whose scale is at least `min_scale` (itself when
        it is already that sharp or cannot be decoded sharper)."""
        if self.scale >= min_scale or self.data is None:
            return self
        for reduction, flag in (*_REDUCED, (1, cv2.IMREAD_COLOR)):
            if reduction < self.reduction and 1 / reduction >= min_scale:
                img = cv2.imdecode(np.frombuffer(self.data, np.uint8), flag)
                if img is None or not _same_frame(img, reduction, self.full_size):
                    return self
                return Photo(img, 1 / reduction, self.full_size, self.data if reduction > 1 else None)
        return self


def _same_frame(img: U8, reduction: int, full_size: tuple[int, int]) -> bool:
    """A reduced decode covers the whole frame in the same orientation (libjpeg rounds sizes up)."""
    w, h = full_size
    return abs(int(img.shape[1]) - -(-w // reduction)) <= 1 and abs(int(img.shape[0]) - -(-h // reduction)) <= 1


def _read_bytes(image: bytes | bytearray | str | Path) -> tuple[bytes, str]:
    if isinstance(image, (str, Path)):
        path = Path(image)
        try:
            return path.read_bytes(), str(path)
        except OSError as exc:
            raise NotAnImage(f"cannot open {path}: {exc.strerror or exc}") from None
    return bytes(image), "the data"


def _as_bgr(image: npt.NDArray[np.uint8]) -> U8:
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.ndim == 3 and image.shape[2] in (3, 4):
        return image[:, :, :3] if image.shape[2] == 3 else np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), np.uint8)
    raise NotAnImage(f"an array of shape {image.shape} is not an image: give an H x W x 3 BGR array")


def decode_image(image: bytes | bytearray | str | Path | U8) -> U8:
    """A BGR image at full size from bytes, a file path or an array; `NotAnImage` with a clear reason."""
    photo = decode_photo(image, min_side=0)
    if photo.scale != 1.0:  # pragma: no cover - min_side=0 never reduces
        raise AssertionError("a full-size decode was asked for")
    return photo.image


def decode_photo(image: bytes | bytearray | str | Path | U8, min_side: int = MIN_WORK_SIDE) -> Photo:
    """Decode a photo, a JPEG at the coarsest reduction that keeps `min_side` pixels on its long side
    (0: full size). `NotAnImage` with a reason for anything that is not a decodable photo."""
    if isinstance(image, np.ndarray):
        img = _as_bgr(image)
        return Photo(img, 1.0, (img.shape[1], img.shape[0]))
    data, where = _read_bytes(image)
    kind = _check_limits(data, where)
    buf = np.frombuffer(data, np.uint8)
    if kind == "JPEG" and min_side > 0:
        w, h = image_size(data)[1]  # the stored size: EXIF orientation may swap it, never change the long side
        for reduction, flag in _REDUCED:
            if max(w, h) / reduction < min_side:
                continue
            reduced = cv2.imdecode(buf, flag)
            if reduced is not None:
                small = np.asarray(reduced, np.uint8)
                size = (w, h) if (small.shape[1] >= small.shape[0]) == (w >= h) else (h, w)
                if _same_frame(small, reduction, size):
                    return Photo(small, 1 / reduction, size, data)
            break
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if data else None
    if decoded is None:
        raise NotAnImage(f"{where} is not an image this reader can decode: give a JPEG or PNG photo of the board")
    return Photo(decoded, 1.0, (decoded.shape[1], decoded.shape[0]))


def _check_limits(data: bytes, where: str) -> str | None:
    """Refuse from the header alone a JPEG/PNG/WebP beyond the app's limits (`companion.limits`): a small
    file can announce a picture that needs gigabytes once decoded (a decompression bomb). Returns the
    format the header names (None when it names none: OpenCV decides then whether it is an image)."""
    try:
        kind = image_size(data)[0]
    except UploadError:
        return None
    try:
        check_upload(data)
    except UploadError as exc:
        raise NotAnImage(f"{where}: {exc}" if where != "the data" else str(exc)) from None
    return kind
