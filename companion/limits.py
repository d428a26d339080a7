"""Limits on what the app accepts from outside: uploaded photos of the board.

`check_upload(data)` refuses, with one sentence saying what is wrong and what to do, an upload that is
empty, larger than 25 MB, not a JPEG, PNG or WebP image, or whose header announces more than
12000 pixels on a side or 100 megapixels in all. It reads only the image header, so a small file that
claims to be enormous (a "decompression bomb") is refused before anything allocates memory for it.
`decode_upload(data)` checks and then decodes with OpenCV, refusing a file whose body is damaged.
"""

from __future__ import annotations

import struct

import cv2
import numpy as np
import numpy.typing as npt

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
MAX_SIDE = 12000
MAX_PIXELS = 100_000_000

_PNG = b"\x89PNG\r\n\x1a\n"


class UploadError(ValueError):
    """An upload the app will not read; the message says why and what to do."""


def _megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_upload(data: bytes) -> None:
    """Raise `UploadError` unless `data` is a JPEG, PNG or WebP photo within the size limits."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UploadError("the upload is not file data: send the photo file itself")
    data = bytes(data)
    if not data:
        raise UploadError("the uploaded file is empty: take or choose the photo again")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"the photo is {_megabytes(len(data))}, more than the {_megabytes(MAX_UPLOAD_BYTES)} "
                          "limit: send a smaller photo (a lower camera resolution is plenty)")
    kind, size = image_size(data)
    width, height = size
    if width <= 0 or height <= 0:
        raise UploadError(f"the {kind} file says it is {width}x{height} pixels: the file is damaged, "
                          "take or choose the photo again")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise UploadError(f"the photo is {width}x{height} pixels, more than the limit of {MAX_SIDE} pixels a side "
                          f"and {MAX_PIXELS // 1_000_000} megapixels: send a smaller photo")


def image_size(data: bytes) -> tuple[str, tuple[int, int]]:
    """The format and (width, height) read from the header alone; `UploadError` if it cannot be read."""
    if data.startswith(_PNG):
        return "PNG", _png_size(data)
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG", _jpeg_size(data)
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP", _webp_size(data)
    raise UploadError("the file is not a JPEG, PNG or WebP image: send a photo in one of those formats")


def _damaged(kind: str) -> UploadError:
    return UploadError(f"the {kind} file is damaged or cut short: take or choose the photo again")


def _png_size(data: bytes) -> tuple[int, int]:
    # The first chunk must be IHDR: length 13, then width and height as big-endian 32-bit numbers.
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise _damaged("PNG")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


# Start-of-frame markers carry the frame size; C4 (Huffman tables), C8 and CC (arithmetic coding
# conditioning) share the range but are not frames.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            raise _damaged("JPEG")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or scan data before any frame header
            break
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if length < 2:
            raise _damaged("JPEG")
        if marker in _SOF:
            if i + 9 > n or length < 7:
                break
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return int(width), int(height)
        i += 2 + length
    raise _damaged("JPEG")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    body = data[20:]
    if chunk == b"VP8 " and len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", body[6:10])
        return int(width & 0x3FFF), int(height & 0x3FFF)
    if chunk == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        bits = int.from_bytes(body[1:5], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(body) >= 10:
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return width, height
    raise _damaged("WebP")


def decode_upload(data: bytes) -> npt.NDArray[np.uint8]:
    """Check the upload, then decode it with OpenCV into a BGR image; `UploadError` if it does not decode."""
    check_upload(data)
    kind, (width, height) = image_size(bytes(data))
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise _damaged(kind)
    if (image.shape[1], image.shape[0]) not in ((width, height), (height, width)):
        # The header we checked and the picture OpenCV found disagree: trust neither. (Swapped sides are
        # fine: OpenCV turns a phone photo upright by its EXIF orientation.)
        raise _damaged(kind)
    return np.asarray(image, dtype=np.uint8)
