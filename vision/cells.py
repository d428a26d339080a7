"""Straightened board -> per-square crops and the glyph on each tile.

Owns the geometry after the grid is located: warping a photo to a square image with a margin (so
tiles sitting off-grid near the edge are still whole), cutting one window per square, and isolating
the letter glyph on a tile as a normalised binary image. Letter classifiers and the occupancy model
only ever see what this module produces, so training and reading share one definition.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

SIZE = 15
CELL = 48  # pixels per square in the straightened image: enough for a glyph, cheap to warp
MARGIN = 0.5  # squares of border kept around the grid so edge tiles off-grid stay visible
GLYPH = 24  # side of the normalised glyph image

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]


def warp_board(image_bgr: U8, corners: npt.ArrayLike, cell_px: int = CELL, margin_cells: float = MARGIN) -> U8:
    """The board straightened to (15 + 2*margin) squares of `cell_px`, grid corners TL, TR, BR, BL."""
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    m = margin_cells * cell_px
    n = SIZE * cell_px
    dst = np.float32([[m, m], [m + n, m], [m + n, m + n], [m, m + n]])
    side = round(n + 2 * m)
    h = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image_bgr, h, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def cell_window(warped: U8, row: int, col: int, scale: float = 1.0,
                cell_px: int = CELL, margin_cells: float = MARGIN) -> U8:
    """The square at (row, col) with `scale` squares of context, centred on the square's centre."""
    m = round(margin_cells * cell_px)
    cy = m + (row + 0.5) * cell_px
    cx = m + (col + 0.5) * cell_px
    half = round(scale * cell_px / 2)
    y0, x0 = round(cy) - half, round(cx) - half
    h, w = warped.shape[:2]
    pad = max(0, -y0, -x0, y0 + 2 * half - h, x0 + 2 * half - w)
    if pad:
        warped = cv2.copyMakeBorder(warped, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        y0 += pad
        x0 += pad
    return warped[y0:y0 + 2 * half, x0:x0 + 2 * half]


def dark_ink(gray: U8, cell_px: int = CELL, strict: bool = False) -> U8:
    """Pixels clearly darker than their surroundings (letters, numbers, printed text) as a 0/1 mask.

    Dividing by a closed (locally brightest) background makes the test independent of lighting and of
    the tile colour (white plastic, pale wood, darker wood). Blurred or dim photos print letters at low
    contrast, so Otsu may loosen the cut-off within limits; `strict` keeps the firm cut-off, for textured
    wood where the loose one merges a letter with grain and shadow.
    """
    return ink_cut(ink_ratio(gray, cell_px), strict)


def ink_ratio(gray: U8, cell_px: int = CELL) -> F32:
    """Each pixel's brightness over its local background (a closing: the locally brightest): under 1 is ink."""
    k = max(3, (cell_px // 4) | 1)
    background = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return gray.astype(np.float32) / np.maximum(background.astype(np.float32), 1.0)


def ink_cut(ratio: F32, strict: bool = False) -> U8:
    """`dark_ink`'s cut-off applied to an `ink_ratio` (computed once when both cut-offs are tried)."""
    return (ratio < (FIRM_INK_CUT if strict else loose_ink_cut(ratio))).astype(np.uint8)


FIRM_INK_CUT = 0.72  # the strict cut-off, also the loosest Otsu may go below


def loose_ink_cut(ratio: F32) -> float:
    """The Otsu cut-off of an `ink_ratio`, kept within [FIRM_INK_CUT, 0.86]."""
    r8 = np.clip(ratio * 255.0, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(r8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(np.clip(otsu / 255.0, FIRM_INK_CUT, 0.86))


@dataclass(frozen=True)
class Glyph:
    """The letter found on a square: a normalised 0..1 image and where it sat (in squares)."""

    image: F32  # GLYPH x GLYPH, ink = 1
    height: float  # glyph height in squares
    width: float
    dx: float  # centre offset from the square's centre, in squares
    dy: float
    ink: float  # share of the square's area covered by the glyph
    inverted: bool = False  # a light letter on a dark tile


def find_glyph(window_gray: U8, cell_px: int = CELL, light_letters: bool = False,
               exclude: tuple[float, float] | None = None) -> Glyph | None:
    """The letter-sized dark blob nearest the centre of a 1.5-square window, normalised; None if absent.

    The tile's small point number is skipped because it is much shorter than a letter; neighbouring
    tiles' letters lose to the one nearest the centre. With `light_letters`, when no dark letter is
    found a light one is looked for (some sets have dark tiles printed in white); the reader asks for
    that only on squares already judged to hold a tile, since empty premium squares carry light print.
    `exclude` (dx, dy in squares from the window centre) skips a blob a neighbouring square has claimed.
    """
    found = _find_glyph(window_gray, cell_px, False, exclude)
    if found is None and light_letters and dark_centre(window_gray):
        found = _find_glyph(255 - window_gray, cell_px, True, exclude)
    return found


def dark_centre(window_gray: U8) -> bool:
    """Whether the middle of the window is darker than its surroundings, as on a dark tile."""
    h, w = window_gray.shape
    centre = float(np.median(window_gray[h // 3:2 * h // 3, w // 3:2 * w // 3]))
    return centre < 0.8 * float(np.percentile(window_gray, 90))


def _find_glyph(window_gray: U8, cell_px: int, inverted: bool,
                exclude: tuple[float, float] | None = None) -> Glyph | None:
    ratio = ink_ratio(window_gray, cell_px)
    cut = loose_ink_cut(ratio)
    found = _glyph_in_mask((ratio < cut).astype(np.uint8), window_gray.shape[0], cell_px, inverted, exclude)
    # The loose cut-off may have merged the letter with wood grain: try the firm one (unless it was the
    # firm one already: the same mask finds the same nothing).
    if found is None and cut > FIRM_INK_CUT:
        found = _glyph_in_mask((ratio < FIRM_INK_CUT).astype(np.uint8), window_gray.shape[0], cell_px, inverted,
                               exclude)
    return found


def _glyph_in_mask(mask: U8, side: int, cell_px: int, inverted: bool,
                   exclude: tuple[float, float] | None) -> Glyph | None:
    n, labels, stats, _centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    c = side / 2.0
    best = -1
    best_cost = 1e9
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        hh = h / cell_px
        ww = w / cell_px
        if hh < 0.28 or hh > 0.9 or ww > 0.95 or area < 0.012 * cell_px * cell_px:
            continue
        bx, by = x + w / 2.0, y + h / 2.0
        dist = np.hypot(bx - c, by - c) / cell_px
        if dist > 0.55:
            continue
        if exclude is not None and np.hypot(bx / cell_px - c / cell_px - exclude[0],
                                            by / cell_px - c / cell_px - exclude[1]) < 0.15:
            continue
        # Prefer blobs near the centre and of a letter's height (about half a square): the point number
        # is shorter, the dark gap between two touching tiles is taller and thinner.
        cost = dist + 0.6 * abs(hh - 0.55) + (0.3 if h > 10 * w else 0.0)
        if cost < best_cost:
            best_cost, best = cost, i
    if best < 0:
        return None
    x, y, w, h, area = stats[best]
    comp = (labels[y:y + h, x:x + w] == best).astype(np.float32)
    return Glyph(
        image=normalise_glyph(comp),
        height=h / cell_px,
        width=w / cell_px,
        dx=(x + w / 2.0 - c) / cell_px,
        dy=(y + h / 2.0 - c) / cell_px,
        ink=float(area) / (cell_px * cell_px),
        inverted=inverted,
    )


def normalise_glyph(comp: F32) -> F32:
    """A glyph mask scaled so its longer side fills the frame, aspect kept (an I stays thin), centred."""
    h, w = comp.shape
    inner = GLYPH - 4
    s = inner / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    small = cv2.resize(comp, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((GLYPH, GLYPH), np.float32)
    y0, x0 = (GLYPH - nh) // 2, (GLYPH - nw) // 2
    out[y0:y0 + nh, x0:x0 + nw] = small
    return out


def glyph_features(images: F32) -> F32:
    """Feature vectors for glyph images (N, GLYPH, GLYPH): blurred pixels plus gradient-direction histograms.

    The histograms over a 4x4 grid of cells carry stroke direction, which separates O/D/Q and M/W
    better than pixels alone; the blurred pixels carry overall shape.
    """
    n = images.shape[0]
    feats = []
    for i in range(n):
        g = images[i]
        blur = cv2.GaussianBlur(g, (3, 3), 0.8)
        small = cv2.resize(blur, (12, 12), interpolation=cv2.INTER_AREA).ravel()
        gx = cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3)
        mag = np.hypot(gx, gy)
        ang = (np.arctan2(gy, gx) + np.pi) * (8 / (2 * np.pi))
        bins = np.minimum(ang.astype(np.int32), 7)
        hist = np.zeros((4, 4, 8), np.float32)
        cs = GLYPH // 4
        for by in range(4):
            for bx in range(4):
                b = bins[by * cs:(by + 1) * cs, bx * cs:(bx + 1) * cs].ravel()
                mg = mag[by * cs:(by + 1) * cs, bx * cs:(bx + 1) * cs].ravel()
                hist[by, bx] = np.bincount(b, weights=mg, minlength=8)[:8]
        hv = hist.ravel()
        hv = hv / (np.linalg.norm(hv) + 1e-6)
        sv = small / (np.linalg.norm(small) + 1e-6)
        feats.append(np.concatenate([sv, hv]))
    return np.asarray(feats, dtype=np.float32)
