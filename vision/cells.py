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
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], np.float32)
    side = round(n + 2 * m)
    h = cv2.getPerspectiveTransform(src, dst)
    return np.asarray(cv2.warpPerspective(image_bgr, h, (side, side), flags=cv2.INTER_AREA,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


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
        warped = np.asarray(cv2.copyMakeBorder(warped, pad, pad, pad, pad, cv2.BORDER_REPLICATE), np.uint8)
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
    return np.asarray(gray.astype(np.float32) / np.maximum(np.asarray(background, np.float32), 1.0), np.float32)


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


def _find_glyph(window_gray: U8, cell_px: int, inverted: bool, exclude: tuple[float, float] | None = None,
                tile_level: float | None = None, within: tuple[int, int, int, int] | None = None) -> Glyph | None:
    ratio = ink_ratio(window_gray, cell_px)
    cut = loose_ink_cut(ratio)
    side = window_gray.shape[0]
    gray = window_gray if tile_level is not None else None
    found = _glyph_in_mask((ratio < cut).astype(np.uint8), side, cell_px, inverted, exclude, gray, tile_level,
                           within)
    # The loose cut-off may have merged the letter with wood grain: try the firm one (unless it was the
    # firm one already: the same mask finds the same nothing).
    if found is None and cut > FIRM_INK_CUT:
        found = _glyph_in_mask((ratio < FIRM_INK_CUT).astype(np.uint8), side, cell_px, inverted, exclude, gray,
                               tile_level, within)
    return found


# A tile's letter is printed clearly darker than the tile (after inverting light letters): the mean grey of
# its pixels is under this share of the tile's median grey. A blob as light as the tile is a piece of the tile
# itself: its frame where it meets a lighter board, the counter of a light O, the tile between light strokes.
# Labelled photos' letters: 0.2-0.6 (99th percentile 0.78, umich's worn tiles); such pieces: 0.9-1.5.
LETTER_DARKER_THAN_TILE = 0.85
# A letter inside a frame-sized blob may stick out of that blob's box by this much (in squares): when the blob
# is a tile's L-shaped shadow its box ends where the shadow does, short of the tile's far edges (rendered
# kraft_narrow_warm 503 N10: the O's top 0.04 above the shadow's box).
INSIDE_MARGIN = 0.1
FIRMER_INK_CUTS = (0.6, 0.5)  # b3nkang's Q: 0.46 of the tile, the grid lines its shadow joins it to 0.65


def tile_level(window_gray: U8, glyph: Glyph, cell_px: int = CELL) -> float:
    """The median grey of the square-sized box centred on a glyph: the tile's colour (its letter is a minority)."""
    side = window_gray.shape[0]
    cx, cy = side / 2.0 + glyph.dx * cell_px, side / 2.0 + glyph.dy * cell_px
    h = cell_px // 2
    x0, y0 = max(0, round(cx) - h), max(0, round(cy) - h)
    return float(np.median(window_gray[y0:y0 + cell_px, x0:x0 + cell_px]))


def print_polarity(windows: U8, cell_px: int = CELL) -> npt.NDArray[np.int8]:
    """Per window (n, side, side): 1 when the tile in its middle carries a light letter (printed in white),
    -1 a dark letter, 0 when its print does not say.

    In the middle 0.6 of a square, mostly the tile, the pixels that differ from its median grey by more
    than 20 levels are its print: lighter ones outweighing darker ones twice over mean a light letter,
    provided the tile is dark (its middle darker than the window's light parts, as `dark_centre` asks:
    glare on a cream tile is no letter); darker ones outweighing lighter ones twice over, a dark letter.
    All windows at once (a per-window call costs more than the arithmetic).
    """
    if not len(windows):
        return np.zeros(0, np.int8)
    side = windows.shape[1]
    c, b = side // 2, round(0.3 * cell_px)
    mid = windows[:, c - b:c + b, c - b:c + b].reshape(len(windows), -1).astype(np.float32)
    t = np.median(mid, axis=1, keepdims=True)
    lighter = np.clip(mid - t - 20.0, 0, None).sum(axis=1)
    darker = np.clip(t - mid - 20.0, 0, None).sum(axis=1)
    h = side // 3
    centre = np.median(windows[:, h:2 * h, h:2 * h].reshape(len(windows), -1), axis=1)
    dark_tile = centre < 0.8 * np.percentile(windows.reshape(len(windows), -1), 90, axis=1)
    light = (lighter > 2.0 * darker) & dark_tile
    dark = darker > 2.0 * lighter
    return np.asarray(light.astype(np.int8) - dark.astype(np.int8), np.int8)


def letter_in_window(window_gray: U8, found: Glyph, inverted: bool, cell_px: int = CELL,
                     inside: bool = False) -> Glyph | None:
    """Another glyph for a tile whose found glyph is a piece of the tile (`vision.recognise.tile_letter`).

    Looked for in the given polarity among the blobs clearly darker than the tile
    (`LETTER_DARKER_THAN_TILE`); with `inside`, only among blobs lying within the found glyph's box (the
    letter inside a tile's frame). None when there is no letter-sized blob.
    """
    within = None
    if inside:
        side = window_gray.shape[0]
        w, h = found.width * cell_px, found.height * cell_px
        x0, y0 = side / 2.0 + found.dx * cell_px - w / 2, side / 2.0 + found.dy * cell_px - h / 2
        within = (int(np.floor(x0)), int(np.floor(y0)), int(np.ceil(x0 + w)), int(np.ceil(y0 + h)))
    src = 255 - window_gray if inverted else window_gray
    level = tile_level(src, found, cell_px)
    g = _find_glyph(src, cell_px, inverted, tile_level=level, within=within)
    if g is None:
        # The letter may be joined to the dark grid lines around its tile by their shadows (b3nkang's Q):
        # firmer cut-offs keep the printed letter and drop the fainter joins.
        ratio = ink_ratio(src, cell_px)
        for cut in FIRMER_INK_CUTS:
            g = _glyph_in_mask((ratio < cut).astype(np.uint8), src.shape[0], cell_px, inverted, None, src, level,
                               within)
            if g is not None:
                break
    return g


def _glyph_in_mask(mask: U8, side: int, cell_px: int, inverted: bool, exclude: tuple[float, float] | None,
                   gray: U8 | None = None, level: float | None = None,
                   within: tuple[int, int, int, int] | None = None) -> Glyph | None:
    n, labels, stats, _centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    c = side / 2.0
    best = -1
    best_cost = 1e9
    margin = INSIDE_MARGIN * cell_px
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
        if within is not None and not (within[0] - margin <= x and within[1] - margin <= y
                                       and x + w <= within[2] + margin and y + h <= within[3] + margin
                                       and h < 0.9 * (within[3] - within[1])):
            continue  # only what lies inside a frame-like blob (or its L-shaped shadow's box)
        if gray is not None and level is not None and (
                float(gray[y:y + h, x:x + w][labels[y:y + h, x:x + w] == i].mean()) >= LETTER_DARKER_THAN_TILE * level):
            continue  # as light as the tile: a piece of the tile, not its letter
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


_BLUR = cv2.getGaussianKernel(3, 0.8).ravel().astype(np.float32)  # the 3x3 Gaussian, sigma 0.8, per axis


def _along(a: F32, k: tuple[float, float, float], axis: int) -> F32:
    """A 3-tap filter along one axis of (n, h, w) images, edges reflected as OpenCV's default border."""
    pad = [(0, 0), (0, 0), (0, 0)]
    pad[axis] = (1, 1)
    p = np.pad(a, pad, mode="reflect")
    n = a.shape[axis]
    sl = [slice(None)] * 3
    out = np.zeros_like(a)
    for j, kj in enumerate(k):
        if kj:
            sl[axis] = slice(j, j + n)
            out += np.float32(kj) * p[tuple(sl)]
    return out


def glyph_features(images: F32) -> F32:
    """Feature vectors for glyph images (N, GLYPH, GLYPH): blurred pixels plus gradient-direction histograms.

    The histograms over a 4x4 grid of cells carry stroke direction, which separates O/D/Q and M/W
    better than pixels alone; the blurred pixels carry overall shape. All images at once in numpy (a
    Gaussian blur, 2x2 averaging and Sobel gradients as OpenCV computes them per image, ~3x cheaper).
    """
    g = np.asarray(images, np.float32).reshape(-1, GLYPH, GLYPH)
    n = len(g)
    k = (float(_BLUR[0]), float(_BLUR[1]), float(_BLUR[2]))
    blur = _along(_along(g, k, 2), k, 1)
    small = blur.reshape(n, GLYPH // 2, 2, GLYPH // 2, 2).mean(axis=(2, 4)).reshape(n, -1)
    gx = _along(_along(blur, (-1.0, 0.0, 1.0), 2), (1.0, 2.0, 1.0), 1)
    gy = _along(_along(blur, (-1.0, 0.0, 1.0), 1), (1.0, 2.0, 1.0), 2)
    mag = np.hypot(gx, gy)
    ang = (np.arctan2(gy, gx) + np.pi) * (8 / (2 * np.pi))
    bins = np.minimum(ang.astype(np.int32), 7)
    # one bincount over (image, cell of the 4x4 grid, direction bin)
    cell = (np.arange(GLYPH) // (GLYPH // 4))
    where = (cell[:, None] * 4 + cell[None, :]) * 8
    idx = (np.arange(n)[:, None, None] * 128 + where[None] + bins).ravel()
    hv = np.bincount(idx, weights=mag.ravel(), minlength=n * 128).reshape(n, 128).astype(np.float32)
    hv = hv / (np.linalg.norm(hv, axis=1, keepdims=True) + 1e-6)
    sv = small / (np.linalg.norm(small, axis=1, keepdims=True) + 1e-6)
    return np.concatenate([sv, hv], axis=1).astype(np.float32)
