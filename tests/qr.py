"""Reading a QR code back from an image in tests, as a phone's camera app would.

OpenCV's classic `QRCodeDetector` misses the finder patterns of some perfectly drawn codes: measured on
400 table addresses with random game ids (clean drawings at scale 8, now `drawn`), it found no code in 9 of
them (2.2%), and at other scales in other ones; `QRCodeDetectorAruco` (OpenCV >= 4.8) read all 400.
Phones' readers are of the robust kind, so the tests read with the Aruco-based detector and fall back
to the classic one: a code neither reads is a code a phone may not read either.
"""

from __future__ import annotations

from typing import Any


def decode_qr(image: Any) -> str:
    """The text of the QR code in a greyscale image, or "" when no code is read."""
    import cv2

    detectors: list[Any] = []
    if hasattr(cv2, "QRCodeDetectorAruco"):
        detectors.append(cv2.QRCodeDetectorAruco())
    detectors.append(cv2.QRCodeDetector())
    for detector in detectors:
        text, _, _ = detector.detectAndDecode(image)
        if text:
            return str(text)
    return ""


def drawn(code: Any, scale: int = 8) -> Any:
    """The greyscale picture `companion.ui.components.join.TableQr` draws of `code` (a `QrModules`): white,
    with each run of dark modules a black rectangle of whole pixels."""
    import numpy as np

    image = np.full((code.size * scale, code.size * scale), 255, np.uint8)
    for r, c, n in code.runs:
        image[r * scale:(r + 1) * scale, c * scale:(c + n) * scale] = 0
    return image
