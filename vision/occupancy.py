"""Which squares hold a tile: per-square features and a small learned model over them.

A tile differs from an empty square in two ways this module measures: it carries one letter-sized
glyph near its centre (premium text is several small words; the star is not letter-shaped in the
places it matters), and its colour matches the other tiles on the same board rather than the empty
squares of the same premium kind. Both comparisons are made within the photo, so lighting and board
colours cancel out. The weights (`assets/vision/occupancy.npz`) are produced by `vision/train.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.cells import CELL, SIZE, U8, Glyph, cell_window, dark_ink, find_glyph
from vision.mlp import Mlp

ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "occupancy.npz"

F32 = npt.NDArray[np.float32]

# Premium kinds of the standard layout; the board reader compares each square only with empty squares
# of the same kind, so a pink double-word square is never judged against a beige plain one.
_LAYOUT_ROWS = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
KINDS = {".": 0, "d": 1, "t": 2, "D": 3, "T": 4}


@dataclass
class SquareLook:
    """What the reader measured on every square of one photo (arrays are 15x15 unless noted)."""

    glyphs: list[list[Glyph | None]]
    features: F32  # (225, n_features)
    board_evidence: float = 0.0  # how much the premium squares differ in colour from plain ones (Lab units)


def _lab_stats(window_bgr: U8, ink: U8) -> tuple[F32, float, float]:
    """Median Lab colour of the non-ink pixels in the central part of a square, their spread, and edge density."""
    h, w = ink.shape
    y0, x0 = h // 5, w // 5
    core = window_bgr[y0:h - y0, x0:w - x0]
    core_ink = ink[y0:h - y0, x0:w - x0]
    lab = cv2.cvtColor(core, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    keep = core_ink.ravel() == 0
    if keep.sum() < 10:
        keep[:] = True
    pix = lab[keep]
    med = np.median(pix, axis=0).astype(np.float32)
    spread = float(np.mean(np.std(pix, axis=0)))
    gray = cv2.cvtColor(core, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, 60, 150)
    return med, spread, float(np.mean(edges > 0))


def _settle_shared_glyphs(gray: U8, glyphs: list[list[Glyph | None]], cell_px: int) -> None:
    """A letter seen from two neighbouring squares belongs to the one it is nearer to.

    Tiles sit off-grid by up to a third of a square, so a square's 1.5-square window can take its
    neighbour's letter. The farther square loses the blob and looks again without it (finding its own
    letter, or nothing if it is empty).
    """
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 < SIZE and 0 <= c2 < SIZE):
                    continue
                a, b = glyphs[r][c], glyphs[r2][c2]
                if a is None or b is None:
                    continue
                # Same blob: its position in board squares agrees from both squares.
                if abs((c + a.dx) - (c2 + b.dx)) > 0.15 or abs((r + a.dy) - (r2 + b.dy)) > 0.15:
                    continue
                if abs(a.dx) + abs(a.dy) > abs(b.dx) + abs(b.dy):
                    glyphs[r][c] = find_glyph(cell_window(gray, r, c, 1.5, cell_px), cell_px,
                                              exclude=(a.dx, a.dy))
                else:
                    glyphs[r2][c2] = find_glyph(cell_window(gray, r2, c2, 1.5, cell_px), cell_px,
                                                exclude=(b.dx, b.dy))


def measure(warped_bgr: U8, cell_px: int = CELL) -> SquareLook:
    """Glyphs and occupancy features of all 225 squares of a straightened board (from `warp_board`)."""
    gray = cv2.cvtColor(warped_bgr, cv2.COLOR_BGR2GRAY)
    glyphs: list[list[Glyph | None]] = []
    colour = np.zeros((SIZE, SIZE, 3), np.float32)
    spread = np.zeros((SIZE, SIZE), np.float32)
    edges = np.zeros((SIZE, SIZE), np.float32)
    inkshare = np.zeros((SIZE, SIZE), np.float32)
    for r in range(SIZE):
        row: list[Glyph | None] = []
        for c in range(SIZE):
            g = find_glyph(cell_window(gray, r, c, 1.5, cell_px), cell_px)
            row.append(g)
            win = cell_window(warped_bgr, r, c, 1.0, cell_px)
            ink = dark_ink(cell_window(gray, r, c, 1.0, cell_px), cell_px)
            colour[r, c], spread[r, c], edges[r, c] = _lab_stats(win, ink)
            inkshare[r, c] = float(ink.mean())
        glyphs.append(row)
    _settle_shared_glyphs(gray, glyphs, cell_px)

    present = np.array([[g is not None for g in row] for row in glyphs])
    centred = np.array([[g is not None and 0.38 <= g.height <= 0.9 and abs(g.dx) < 0.22 and abs(g.dy) < 0.22
                         for g in row] for row in glyphs])
    flat = colour.reshape(-1, 3)
    # The tile colour: squares with a well-centred letter are almost always tiles.
    tile_col = np.median(colour[centred], axis=0) if centred.sum() >= 3 else np.percentile(flat, 90, axis=0)
    kinds = np.array([[KINDS[ch] for ch in row] for row in _LAYOUT_ROWS])
    empty_col = np.zeros_like(colour)
    board_empty = np.median(colour[~present], axis=0) if (~present).sum() >= 5 else np.median(flat, axis=0)
    for k in range(5):
        sel = (kinds == k) & ~present
        ref = np.median(colour[sel], axis=0) if sel.sum() >= 2 else board_empty
        empty_col[kinds == k] = ref
    d_tile = np.linalg.norm(colour - tile_col, axis=2)
    d_empty = np.linalg.norm(colour - empty_col, axis=2)
    scale = float(np.linalg.norm(tile_col - board_empty)) + 8.0

    feats = np.zeros((SIZE, SIZE, 14), np.float32)
    for r in range(SIZE):
        for c in range(SIZE):
            g = glyphs[r][c]
            feats[r, c] = [
                1.0 if g is not None else 0.0,
                g.height if g else 0.0,
                g.width if g else 0.0,
                abs(g.dx) + abs(g.dy) if g else 1.0,
                g.ink * 10 if g else 0.0,
                d_tile[r, c] / scale,
                d_empty[r, c] / scale,
                (d_empty[r, c] - d_tile[r, c]) / scale,
                spread[r, c] / 20.0,
                edges[r, c] * 5,
                inkshare[r, c] * 5,
                (colour[r, c, 0] - board_empty[0]) / 50.0,
                1.0 if centred[r, c] else 0.0,
                scale / 50.0,
            ]
    # A real board shows its premium pattern: the median colours of premium kinds differ from the plain
    # squares' (tiles cover some, never most). A picture with no board shows no such pattern.
    plain = np.median(colour[kinds == 0], axis=0)
    evidence = max(float(np.linalg.norm(np.median(colour[kinds == k], axis=0) - plain)) for k in range(1, 5))
    return SquareLook(glyphs, feats.reshape(SIZE * SIZE, -1), evidence)


class OccupancyModel:
    """P(tile) for each square from its features; weights from `assets/vision/occupancy.npz`."""

    def __init__(self, net: Mlp) -> None:
        self.net = net

    @classmethod
    def load(cls, path: Path = ASSET) -> OccupancyModel:
        return cls(Mlp.load(path))

    def probabilities(self, look: SquareLook) -> F32:
        p = self.net.predict_proba(look.features)[:, 1]
        return p.reshape(SIZE, SIZE).astype(np.float32)
