"""Poor photos on purpose: glare, a hand over the board and a nudged tile painted onto a real photo.

Used by `benchmarks/vision_sequence.py` and the sequence tests to show what reading a game's photos in
sequence holds that a fresh reading of each photo does not. Each painter takes the photo, its grid
corners (TL, TR, BR, BL) and the squares to spoil, and returns a new image; nothing is random unless a
seed is given, so a benchmark run can be repeated exactly.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

SIZE = 15
U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]


def _to_image(corners: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Grid (column, row in squares) -> photo pixels."""
    src = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32).reshape(4, 2)), np.float64)


def square_centre(corners: npt.ArrayLike, row: float, col: float) -> tuple[float, float]:
    """Pixel position of the centre of square (row, col); fractional squares allowed."""
    h = _to_image(corners)
    p = h @ np.array([col + 0.5, row + 0.5, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def _square_px(corners: npt.ArrayLike) -> float:
    c = np.asarray(corners, np.float64).reshape(4, 2)
    return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]) / SIZE)


def glare(image: U8, corners: npt.ArrayLike, row: float, col: float, radius: float = 1.3) -> U8:
    """A specular highlight centred on square (row, col): white, saturating the middle, fading over
    `radius` squares (a lamp reflected in a glossy board or plastic tiles)."""
    cx, cy = square_centre(corners, row, col)
    r = radius * _square_px(corners)
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d2 = ((xx - cx) ** 2 + (yy - cy) ** 2 * 1.6) / (r * r)
    a = np.clip(1.4 * np.exp(-d2 * 1.5), 0.0, 1.0)[:, :, None]
    out = image.astype(np.float32) * (1 - a) + 255.0 * a
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def hand(image: U8, corners: npt.ArrayLike, row: float, col: float, seed: int = 0) -> U8:
    """A hand reaching in from the nearest edge of the photo, its fingertips over square (row, col):
    a skin-coloured palm and four fingers with soft shading, covering the target square and a square or two around it."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    tx, ty = square_centre(corners, row, col)
    sq = _square_px(corners)
    # come in from the nearest photo edge
    edges = {(tx, h + 2 * sq): h - ty, (tx, -2 * sq): ty, (-2 * sq, ty): tx, (w + 2 * sq, ty): w - tx}
    (ex, ey) = min(edges, key=lambda k: edges[k])
    direction = np.array([tx - ex, ty - ey], np.float64)
    direction /= np.linalg.norm(direction) + 1e-9
    side = np.array([-direction[1], direction[0]])
    mask = np.zeros((h, w), np.uint8)
    palm_c = np.array([tx, ty]) - direction * 3.2 * sq
    # the arm and palm
    arm = np.array([palm_c + side * 1.5 * sq, palm_c - side * 1.5 * sq,
                    np.array([ex, ey]) - side * 1.6 * sq, np.array([ex, ey]) + side * 1.6 * sq])
    cv2.fillConvexPoly(mask, arm.astype(np.int32), 255)
    axes = (int(1.8 * sq), int(1.5 * sq))
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    cv2.ellipse(mask, (int(palm_c[0]), int(palm_c[1])), axes, angle, 0, 360, 255, -1)
    # four fingers, the middle ones reaching the target square
    for k, reach in zip((-1.5, -0.5, 0.5, 1.5), (3.2, 3.9, 4.0, 3.4), strict=True):
        base = palm_c + side * k * 0.62 * sq
        tip = base + direction * reach * sq
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255, max(2, int(0.6 * sq)))
        cv2.circle(mask, (int(tip[0]), int(tip[1])), max(1, int(0.3 * sq)), 255, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.08 * sq)).astype(np.float32)[:, :, None] / 255.0
    skin = np.array([120, 150, 205], np.float32) * (0.9 + 0.2 * rng.random())  # BGR
    # shading: darker towards the edges of the hand, lighter on the back of it
    shade = cv2.GaussianBlur(mask, (0, 0), 0.6 * sq).astype(np.float32)[:, :, None] / 255.0
    colour = skin[None, None, :] * (0.65 + 0.45 * shade)
    out = image.astype(np.float32) * (1 - soft) + colour * soft
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def nudge(image: U8, corners: npt.ArrayLike, row: int, col: int, dx: float = 0.3, dy: float = 0.0) -> U8:
    """The tile on square (row, col) pushed by (dx, dy) squares, as a sleeve does: its pixels copied that
    far along the board, leaving the board's own square partly uncovered where it was."""
    h_img = _to_image(corners)
    cell = 64
    pad = 1
    size = (2 * pad + 1) * cell
    # straighten the 3x3 squares around the tile, move the middle square's content, warp back
    to_patch = h_img @ np.array([[1 / cell, 0, col - pad], [0, 1 / cell, row - pad], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(image, np.linalg.inv(to_patch), (size, size), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    tile = patch[pad * cell:(pad + 1) * cell, pad * cell:(pad + 1) * cell].copy()
    # the uncovered part shows the empty board colour: the median of the patch's border squares' middles
    moved = patch.copy()
    q = cell // 4
    corners_px = np.concatenate([patch[y:y + q, x:x + q].reshape(-1, 3)
                                 for y in (q, size - 2 * q) for x in (q, size - 2 * q)])
    moved[pad * cell:(pad + 1) * cell, pad * cell:(pad + 1) * cell] = np.median(corners_px, axis=0)
    ox, oy = round(pad * cell + dx * cell), round(pad * cell + dy * cell)
    moved[oy:oy + cell, ox:ox + cell] = tile
    mask = np.zeros((size, size), np.uint8)
    mask[min(oy, pad * cell):max(oy, pad * cell) + cell, min(ox, pad * cell):max(ox, pad * cell) + cell] = 255
    back = cv2.warpPerspective(moved, to_patch, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR)
    m = cv2.warpPerspective(mask, to_patch, (image.shape[1], image.shape[0]), flags=cv2.INTER_NEAREST)
    out = image.copy()
    out[m > 0] = back[m > 0]
    return out
