"""Synthetic board photos with known grid corners, for testing the grid locator where no real photos exist.

No labelled photo of a Monopoly Scrabble board is available, and its hard case is exactly the one a
locator can get wrong: the 15x15 grid sits inside a ring of Monopoly spaces, so the biggest quadrilateral
in the photo is the track, not the grid. `monopoly_photo` draws such a board (track spaces with colour
bars and print, the standard premium layout, letter tiles sitting off-grid) and views it in perspective
on a textured table. `tile_wall` is a regular 20x20 grid that is not a Scrabble board.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

SIZE = 15
LAYOUT = Path(__file__).resolve().parents[1] / "assets" / "layouts" / "standard.json"

U8 = npt.NDArray[Any]  # 8-bit images; OpenCV's stubs type its results loosely
F32 = npt.NDArray[Any]  # float32 maps (loosely typed for the same reason)

_PREMIUM_BGR = {"T": (40, 40, 200), "D": (170, 150, 240), "t": (200, 120, 40), "d": (230, 200, 150)}
_BAR_BGR = [(40, 60, 140), (230, 200, 120), (150, 60, 170), (40, 140, 240), (40, 40, 210), (40, 220, 240),
            (60, 160, 60), (140, 60, 30)]


def _table(rng: np.random.Generator, w: int, h: int) -> U8:
    """A wood-like table: streaks of low-frequency noise in a brown tone."""
    streak = cv2.resize(rng.random((h // 8, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = rng.random((h, w)).astype(np.float32) * 0.15
    tone = np.clip(0.55 + 0.3 * streak + fine, 0, 1)
    base = np.array([70, 110, 150], np.float32)
    return np.asarray(np.clip(tone[:, :, None] * base[None, None, :] * 1.4, 0, 255), dtype=np.uint8)


def _board(rng: np.random.Generator, side: int) -> tuple[U8, float, float]:
    """A flat Monopoly Scrabble board image and the grid's first pixel and square size on it."""
    rows = json.loads(LAYOUT.read_text(encoding="utf-8"))["rows"]
    img = np.full((side, side, 3), (205, 225, 215), np.uint8)  # Monopoly board cream-green
    corner = side * 0.13
    space = (side - 2 * corner) / 9
    dark = (30, 30, 30)
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), dark, max(2, side // 200))
    for edge in range(4):
        for k in range(10):
            a = corner + k * space
            pts = [(a, 0), (a, corner)]
            rot = [(x, y) for x, y in pts]
            if edge == 1:
                rot = [(side - y, x) for x, y in pts]
            elif edge == 2:
                rot = [(side - x, side - y) for x, y in pts]
            elif edge == 3:
                rot = [(y, side - x) for x, y in pts]
            p0, p1 = (np.array(rot[0]).round().astype(int), np.array(rot[1]).round().astype(int))
            cv2.line(img, tuple(int(v) for v in p0), tuple(int(v) for v in p1), dark, max(1, side // 400))
            if k < 9 and rng.random() < 0.7:
                colour = _BAR_BGR[int(rng.integers(len(_BAR_BGR)))]
                bar = np.array([[a + 2, corner * 0.72], [a + space - 2, corner * 0.72],
                                [a + space - 2, corner - 2], [a + 2, corner - 2]])
                if edge == 1:
                    bar = np.stack([side - bar[:, 1], bar[:, 0]], axis=1)
                elif edge == 2:
                    bar = side - bar
                elif edge == 3:
                    bar = np.stack([bar[:, 1], side - bar[:, 0]], axis=1)
                cv2.fillConvexPoly(img, bar.round().astype(np.int32), colour)
    # the inner edge of the track
    cv2.rectangle(img, (round(corner), round(corner)), (round(side - corner), round(side - corner)), dark,
                  max(1, side // 300))
    for _ in range(12):  # print on the track
        x, y = (int(v) for v in rng.integers(int(corner * 0.2), int(side - corner * 0.2), 2))
        if corner < x < side - corner and corner < y < side - corner:
            continue
        cv2.putText(img, "MONO", (x, y), cv2.FONT_HERSHEY_SIMPLEX, side / 2500, dark, 1)
    # the grid
    g0 = side * 0.19
    cell = (side - 2 * g0) / SIZE
    line = (235, 240, 240)
    for r in range(SIZE):
        for c in range(SIZE):
            ch = rows[r][c]
            colour = _PREMIUM_BGR.get(ch, (170, 200, 215))
            x0, y0 = g0 + c * cell, g0 + r * cell
            cv2.rectangle(img, (round(x0), round(y0)), (round(x0 + cell), round(y0 + cell)), colour, -1)
    for i in range(SIZE + 1):
        p = round(g0 + i * cell)
        cv2.line(img, (p, round(g0)), (p, round(g0 + SIZE * cell)), line, max(1, round(cell / 14)))
        cv2.line(img, (round(g0), p), (round(g0 + SIZE * cell), p), line, max(1, round(cell / 14)))
    # tiles, sitting off-grid by up to a fifth of a square
    letters = "AEIOURSTLNDGHMPBCKWYZ"
    for _ in range(int(rng.integers(10, 45))):
        r, c = (int(v) for v in rng.integers(0, SIZE, 2))
        dx, dy = rng.uniform(-0.2, 0.2, 2) * cell
        x0, y0 = g0 + c * cell + 0.06 * cell + dx, g0 + r * cell + 0.06 * cell + dy
        x1, y1 = x0 + 0.88 * cell, y0 + 0.88 * cell
        cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), (150, 200, 230), -1)
        cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), (110, 150, 180), 1)
        ch = letters[int(rng.integers(len(letters)))]
        cv2.putText(img, ch, (round(x0 + 0.2 * cell), round(y1 - 0.2 * cell)), cv2.FONT_HERSHEY_SIMPLEX,
                    cell / 40, (20, 20, 20), max(1, round(cell / 20)))
    return img, g0, cell


def _view(rng: np.random.Generator, flat: U8, grid: F32, out_w: int, out_h: int,
          tilt: float, turn: float) -> tuple[U8, F32]:
    """The flat board seen in perspective on a table; returns the photo and the grid corners in it."""
    side = flat.shape[0]
    fill = rng.uniform(0.55, 0.8) * min(out_w, out_h)
    centre = np.array([out_w / 2, out_h / 2]) + rng.uniform(-0.08, 0.08, 2) * min(out_w, out_h)
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * fill / 2
    ang = np.deg2rad(turn)
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    pts = sq @ rot.T
    # foreshortening: the far (top) edge shrinks and moves down
    far = pts[:, 1] < 0
    pts[far, 0] *= 1 - tilt
    pts[far, 1] *= 1 - 0.6 * tilt
    pts += centre
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    h = cv2.getPerspectiveTransform(src, pts.astype(np.float32))
    photo = _table(rng, out_w, out_h)
    warped = cv2.warpPerspective(flat, h, (out_w, out_h))
    mask = cv2.warpPerspective(np.full(flat.shape[:2], 255, np.uint8), h, (out_w, out_h))
    photo[mask > 127] = warped[mask > 127]
    # uneven light and a glare spot
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    gx, gy = rng.uniform(0, out_w), rng.uniform(0, out_h)
    glare = 90 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.06 * out_w) ** 2))
    shade = 0.8 + 0.3 * xx / out_w
    out = np.clip(photo.astype(np.float32) * shade[:, :, None] + glare[:, :, None], 0, 255).astype(np.uint8)
    out = cv2.GaussianBlur(out, (3, 3), 0)
    corners = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h).reshape(4, 2)
    return out, corners.astype(np.float32)


def monopoly_photo(seed: int, size: tuple[int, int] = (1600, 1200)) -> tuple[U8, F32]:
    """A photo of a synthetic Monopoly Scrabble board and its grid corners TL, TR, BR, BL (board order)."""
    rng = np.random.default_rng(seed)
    flat, g0, cell = _board(rng, 1400)
    g1 = g0 + SIZE * cell
    grid = np.array([[g0, g0], [g1, g0], [g1, g1], [g0, g1]], np.float32)
    w, h = size
    return _view(rng, flat, grid, w, h, tilt=float(rng.uniform(0.0, 0.3)), turn=float(rng.uniform(-180, 180)))


def tile_wall(seed: int, size: tuple[int, int] = (1600, 1200), squares: int = 20) -> U8:
    """A regular wall of square tiles in perspective: a grid of lines that is not a Scrabble board."""
    rng = np.random.default_rng(seed)
    side = 1400
    flat = np.full((side, side, 3), (225, 228, 230), np.uint8)
    flat = np.clip(flat.astype(np.int16) + rng.integers(-12, 12, (squares, squares, 1)).repeat(
        side // squares + 1, 0).repeat(side // squares + 1, 1)[:side, :side], 0, 255).astype(np.uint8)
    for i in range(squares + 1):
        p = round(i * side / squares)
        cv2.line(flat, (p, 0), (p, side), (150, 150, 150), 5)
        cv2.line(flat, (0, p), (side, p), (150, 150, 150), 5)
    grid = np.zeros((4, 2), np.float32)
    w, h = size
    photo, _ = _view(rng, flat, grid, w, h, tilt=0.2, turn=float(rng.uniform(-30, 30)))
    return photo
