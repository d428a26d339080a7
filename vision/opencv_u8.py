"""The OpenCV calls of `vision.train`'s measuring code, typed as that code uses them: 8-bit images in,
8-bit images out.

OpenCV's stubs type every result as `MatLike` (any integer or float array, or a `cv2.Mat`), so a strict
caller converts each result with `np.asarray(..., np.uint8)`. `vision.train.blank_tiles` and
`vision.train._measured` cannot take those conversions: their source text is part of the training
feature-cache key (`vision.train._code_version`), and changing it would measure every labelled photo again.
`vision.train` imports this module under the name `cv2`, so the same source text calls these typed
functions. Each returns what OpenCV returns (`np.asarray` of an 8-bit array is that array, not a copy).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cells import U8

COLOR_BGR2GRAY = cv2.COLOR_BGR2GRAY
INPAINT_TELEA = cv2.INPAINT_TELEA


def cvtColor(src: U8, code: int) -> U8:
    return np.asarray(cv2.cvtColor(src, code), np.uint8)


def dilate(src: U8, kernel: U8, iterations: int = 1) -> U8:
    return np.asarray(cv2.dilate(src, kernel, iterations=iterations), np.uint8)


def inpaint(src: U8, mask: U8, radius: float, flags: int) -> U8:
    return np.asarray(cv2.inpaint(src, mask, radius, flags), np.uint8)


def imread(path: str) -> U8 | None:
    """The image at `path` as 8-bit BGR, or None when OpenCV cannot read it (as `cv2.imread`)."""
    image = cv2.imread(path)
    return None if image is None else np.asarray(image, np.uint8)
