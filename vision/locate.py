"""Find and straighten the 15x15 playing grid in a photo of a physical board.

Owns the step from a raw photo to four grid corners (TL, TR, BR, BL in image orientation, outer edge of
the 15x15 grid, in the input image's pixels) and the straightened grid image. Reading squares is not done
here (`vision.cells`, `vision.read` do that).

How it works, and why:
1. Candidate quadrilaterals (board outlines, printed frames, the whole photo) come from contours of
   several edge/threshold maps of a copy downscaled to 800 px. The biggest quadrilateral is often not the
   grid (a Monopoly Scrabble track, the board's frame), so a candidate is only a rough plane: each one is
   straightened and searched for a comb of 16 regularly spaced lines across and down, cheaply and coarsely
   first (most candidates are tiles, shadows or the table); the few with the strongest combs are searched
   again in full (straightened from a sharper copy when the board is far away).
2. A comb fixes the spacing but not which 15 squares are the grid (a frame edge one square outside looks
   like a 17th line), so the premium-square colours of the standard layout pick the window: each premium
   class is one colour, so the right window explains most of the colour differences between squares.
   The layout is symmetric, so this cannot tell the board's rotation; corners follow the image anyway.
3. The grid is refined: the 14+14 inner lines are traced square by square in the straightened image and
   a correcting homography is solved directly from "this point lies on line i" constraints, dropping
   outliers (tile edges, glare), three times at finer scales. The outer lines are not traced then (a
   frame edge beside them is often stronger); instead each corner is finally moved onto the visible
   outer edge of the grid when most of that edge agrees.
4. Confidence: the share of traced evidence the grid explains, how well the premium colours fit, whether
   the lines stop at the grid's edge (floor tiles and graph paper do not) and whether every inner line
   is really there (a half-spacing grid on a close-up of part of a board is not). Below 0.5 the result
   is `doubtful`, so the app asks the user for the corners.
5. Folding boards (issue 27): when the halves either side of the centre column or row fit apart, each half
   gets its own map and the grid is kept as a 3x3 net (`GridLocation.fold`, straightened by `folding.fold_warp`);
   a grid found half a board wide beside a fold is completed across it: `vision.fold`, docs/reader-fold.md.
The line tracing and solving that both share is `vision.gridlines`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import fold as folding
from vision.errors import NoBoardFound
from vision.gridlines import (
    F32,
    F64,
    LINES,
    SIZE,
    U8,
    apply_homography,
    bands_across,
    comb,
    corrected,
    grid_corners,
    line_maps,
    median_u8,
    order_clockwise,
    orient_corners,
    outer_edges,
    smooth_lab,
    solve_lines,
    straightened,
    trace_lines,
)

LAYOUT = Path(__file__).resolve().parents[1] / "assets" / "layouts" / "standard.json"

DETECT_SIDE = 800  # long side of the copy used to find candidates: boards fill >= ~10% of a phone photo
REFINE_SIDE = 1600  # long side of the copy used for the final line fit (sub-cell accuracy needs no more)
SCORE_SIDE = 300  # side of a straightened candidate while searching it for a comb of lines
DOUBT_BELOW = 0.5  # confidence under which the app should ask the user for the corners
# Every candidate is first searched for combs straightened to PRESCREEN_SIDE pixels, coarsely (a quarter
# of the pixels, no fine search, all candidates' profiles in one pass: ~6x cheaper than the full search).
# Only the PRESCREEN_KEEP strongest are searched again at SCORE_SIDE, and the WINDOW_SEARCHES strongest of
# those for the premium-colour window. Measured on the 119 labelled photos, each as stored, at 2 MP and at
# 12 MP (benchmarks/vision_speed.py's copies): the grid chosen, and so the corners, are the same to the
# bit as when all candidates were searched in full and six for the window, on 356 of the 357; on the
# other, four candidates held the same grid with window scores within 0.04 and another of them won
# (corners 0.9 px apart, the same letters read). Keeping 2 instead of 3 changed the grid on 5 of 238.
PRESCREEN_SIDE = 150
PRESCREEN_KEEP = 3
WINDOW_SEARCHES = 3  # candidates (strongest full line combs first) searched for the premium-colour window


@dataclass(frozen=True)
class GridLocation:
    """Where the 15x15 grid is in a photo."""

    corners: F32  # float32 (4, 2): TL, TR, BR, BL outer corners of the 15x15 grid, input-image pixels
    confidence: float  # 0..1
    doubtful: bool  # True when the locator is not sure: the app then asks the user for four corners
    method: str  # which strategy found it (for debugging/benchmarks)
    # A board found folded (its halves not one plane): (3, 3, 2) input-image points of grid (u, v) for u, v in
    # 0, 7.5, 15 ([v][u]; the corners are its four ends), each quarter straightened by its own map
    # (`folding.fold_warp`, `fold_points`). None for a board lying flat: the corners say everything.
    fold: F32 | None = None


def _premium_classes() -> npt.NDArray[np.int8]:
    """Per square: 0 plain, 1..4 premium class, 5 the centre, from the standard layout asset."""
    rows = json.loads(LAYOUT.read_text(encoding="utf-8"))["rows"]
    code = {".": 0, "T": 1, "D": 2, "t": 3, "d": 4}
    out = np.array([[code[ch] for ch in row] for row in rows], dtype=np.int8)
    out[SIZE // 2, SIZE // 2] = 5  # the star is often printed differently from the double-word squares
    return out


_CLASSES = _premium_classes()
PREMIUM_CLASSES = _CLASSES  # per square: 0 a plain square, 1-4 a premium class, 5 the centre


# ----------------------------------------------------------------------------------------------------
# small geometry helpers


def _to_bgr(image: npt.NDArray[Any]) -> U8:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise NoBoardFound("the picture is empty: take a photo of the whole board")
    img = image
    if img.dtype != np.uint8:
        img = np.clip(img, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.ndim == 3 and img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    elif img.ndim != 3 or img.shape[2] != 3:
        raise NoBoardFound("the picture is not a colour or grey image: take a photo of the whole board")
    if min(img.shape[:2]) < 60:
        raise NoBoardFound("the picture is too small to show a board: take a photo of the whole board")
    return np.ascontiguousarray(img)


def _resize_long(img: U8, side: int, keep_above: float = 1.0, halve_below: float = 0.5,
                 linear_from: float = 0.75) -> tuple[U8, float]:
    """`img` shrunk to a long side of `side` pixels, and the scale; unchanged if the scale would be
    `keep_above` or more.

    While the scale still to go is `halve_below` or less, shrinks by exact halves (linear interpolation at
    exactly 1/2 averages 2x2 pixels, so nothing aliases, at a tenth of the cost of OpenCV's area
    interpolation in this build: 14-20 ms per 2 MP photo); the rest is one area step, or a linear one
    when it is a small step (`linear_from` or more).
    """
    h, w = img.shape[:2]
    s = min(1.0, side / max(h, w))
    if s >= keep_above:
        return img, 1.0
    out = img
    while side / max(out.shape[:2]) <= halve_below:
        out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2), interpolation=cv2.INTER_LINEAR)
    size = (round(w * s), round(h * s))
    if (out.shape[1], out.shape[0]) != size:
        rest = size[0] / out.shape[1]
        out = cv2.resize(out, size, interpolation=cv2.INTER_AREA if rest < linear_from else cv2.INTER_LINEAR)
    return out, s


def _is_sane(corners: F64, shape: tuple[int, ...]) -> bool:
    """A convex quadrilateral of reasonable size that does not reach far outside the photo."""
    h, w = shape[:2]
    if not np.all(np.isfinite(corners)):
        return False
    c = corners.astype(np.float32).reshape(-1, 1, 2)
    if not cv2.isContourConvex(c):
        return False
    area = abs(cv2.contourArea(c))
    if area < 0.01 * h * w:
        return False
    slack = 0.15 * max(h, w)
    return bool(np.all(corners[:, 0] > -slack) and np.all(corners[:, 0] < w + slack)
                and np.all(corners[:, 1] > -slack) and np.all(corners[:, 1] < h + slack))


def _cell_colours(bgr: U8, h_grid: F64, cells: range, fold: F64 | None = None) -> F64:
    """Mean Lab colour of the middle of squares (row, col in `cells`) for a grid->image homography (or, on a
    folded board, the grid's `fold` net: `folding.fold_warp`)."""
    c = 12
    n = len(cells)
    first = cells.start
    if fold is not None:
        warped = folding.fold_warp(bgr, fold, c, -first, flags=cv2.INTER_LINEAR, border=cv2.BORDER_CONSTANT)
    else:
        # grid (u, v) -> small image of n x n squares of c pixels
        to_img = h_grid @ np.array([[1 / c, 0, first], [0, 1 / c, first], [0, 0, 1]], dtype=np.float64)
        warped = cv2.warpPerspective(bgr, np.linalg.inv(to_img), (n * c, n * c), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    # means of the middle 6x6 pixels of each square, summed as integers (exact; no float copy of the image);
    # only those pixels are converted to Lab (per pixel, so the same values, a quarter of the work)
    middles = np.ascontiguousarray(warped.reshape(n, c, n, c, 3)[:, 3:9, :, 3:9, :]).reshape(n * 6, n * 6, 3)
    inner = cv2.cvtColor(middles, cv2.COLOR_BGR2LAB).reshape(n, 6, n, 6, 3)
    return np.asarray(inner.sum(axis=(1, 3), dtype=np.int64) / 36.0, dtype=np.float64)


def _median_last(a: F64) -> F64:
    """`np.median(a, axis=-1)` by one partition of the last (contiguous) axis: several times cheaper on
    the small arrays the window search measures by the thousand."""
    n = a.shape[-1]
    m = n // 2
    if n % 2:
        return np.asarray(np.partition(a, m, axis=-1)[..., m], dtype=np.float64)
    part = np.partition(a, (m - 1, m), axis=-1)
    return np.asarray(0.5 * (part[..., m - 1] + part[..., m]), dtype=np.float64)


# squares ordered by premium class, and where each class starts in that order
_BY_CLASS = np.argsort(_CLASSES.ravel(), kind="stable")
_CLASS_BOUNDS = np.searchsorted(_CLASSES.ravel()[_BY_CLASS], np.arange(7))


def _premium_fit(colours: F64) -> F64:
    """Share of the colour differences among 15x15 squares explained by the standard premium classes.

    `colours` is (..., 15, 15, 3); the result has the leading shape. Distances are capped, so a few tiles,
    glare spots or squares outside the photo cannot dominate either the explained or the unexplained
    part; uniform noise explains nothing.
    """
    lead = colours.shape[:-3]
    # (window, channel, square) with the squares grouped by class: every median is then a partition of
    # a contiguous run (the same values as np.median over the squares, ~5x cheaper)
    x = np.ascontiguousarray(colours.reshape(-1, SIZE * SIZE, 3)[:, _BY_CLASS].transpose(0, 2, 1))
    d0 = ((x - _median_last(x)[:, :, None]) ** 2).sum(axis=1)
    # the 90th percentile of d0 per window (np.percentile's linear rule)
    pos = 0.9 * (SIZE * SIZE - 1)
    lo = int(pos)
    part = np.partition(d0, (lo, lo + 1), axis=1)
    cap = (part[:, lo] + (part[:, lo + 1] - part[:, lo]) * (pos - lo))[:, None] + 1e-6
    total = np.minimum(d0, cap).sum(axis=1) + 1e-6
    within = np.zeros(len(x))
    for k in range(6):
        sel = x[:, :, _CLASS_BOUNDS[k]:_CLASS_BOUNDS[k + 1]]
        dk = ((sel - _median_last(sel)[:, :, None]) ** 2).sum(axis=1)
        within += np.minimum(dk, cap).sum(axis=1)
    fit = np.maximum(0.0, 1.0 - within / total)
    # squares that barely differ (a blank wall, an unprinted board) explain nothing, whatever the ratio
    fit[cap[:, 0] < 50.0] = 0.0
    return np.asarray(fit, dtype=np.float64).reshape(lead)


# ----------------------------------------------------------------------------------------------------
# candidates


def _candidate_quads(small: U8) -> list[tuple[F64, str]]:
    """Rough board/grid outlines: convex four-cornered contours of several edge and threshold maps."""
    h, w = small.shape[:2]
    area_min = 0.012 * h * w  # a board far away still covers ~1.5% of the photo
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    maps: list[U8] = []
    med = median_u8(blur)
    for lo, hi in ((0.66 * med, 1.33 * med), (30, 90)):
        e = cv2.Canny(blur, lo, hi)
        maps.append(cv2.dilate(e, np.ones((3, 3), np.uint8)))
    for ch in (blur, cv2.GaussianBlur(hsv[:, :, 1], (5, 5), 0)):
        _, t = cv2.threshold(ch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        maps.append(t)
        maps.append(255 - t)
    k = max(15, (min(h, w) // 12) | 1)
    maps.append(cv2.adaptiveThreshold(blur, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, k, 5))
    maps.append(cv2.adaptiveThreshold(blur, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, k, 5))

    quads: list[tuple[float, F64, str]] = []
    for m in maps:
        contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if cv2.contourArea(c) < area_min * 0.5:
                continue
            hull = cv2.convexHull(c)
            a = cv2.contourArea(hull)
            if a < area_min or a > 0.995 * h * w:
                continue
            peri = cv2.arcLength(hull, True)
            for eps in (0.02, 0.04):
                approx = cv2.approxPolyDP(hull, eps * peri, True)
                if len(approx) == 4:
                    q = approx.reshape(4, 2).astype(np.float64)
                    # a quadrilateral must fill most of its hull: blobs are not outlines
                    if cv2.contourArea(approx) > 0.85 * a:
                        quads.append((a, order_clockwise(q), "outline"))
                    break
    # the whole photo: a board filling the frame, or a photo already cropped to the grid
    inset = 0.01 * max(h, w)
    full = np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset], [inset, h - inset]])
    quads.append((float(h * w), full, "whole photo"))

    quads.sort(key=lambda t: -t[0])
    kept: list[tuple[F64, str]] = []
    for _, q, kind in quads:
        tol = 0.02 * max(h, w)
        if all(np.abs(q - k2).max() > tol for k2, _ in kept):
            kept.append((q, kind))
        if len(kept) >= 32:
            break
    return kept


@dataclass
class _Found:
    h: F64  # grid (u, v in squares) -> detection-image pixels
    score: float
    premium: float
    method: str


_Comb = tuple[float, float, float]  # score, first line, spacing (straightened-candidate pixels)


def _comb_strengths(small_lab: U8, quads: list[tuple[F64, str]]) -> F64:
    """How strongly each candidate outline holds combs of 16 lines across and down, found cheaply: to rank
    candidates before the full search (`_combs_in_quad`).

    Each outline is straightened to PRESCREEN_SIDE pixels from the Lab copy of `small` made once for all
    candidates (`smooth_lab`); the comb search is `comb`'s coarse one (spacings on a 1/2 px step, first
    lines on a 1 px step, the same score) for every candidate's two profiles at once.
    """
    n = PRESCREEN_SIDE
    m = round(0.08 * n)
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], dtype=np.float32)
    profiles: list[F64] = []
    for quad, _ in quads:
        to_warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
        lab = cv2.warpPerspective(small_lab, to_warp, (n + 2 * m, n + 2 * m), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        gx, gy = line_maps(lab, lab)
        profiles += [gx[m:m + n, :].mean(axis=0), gy[:, m:m + n].mean(axis=1)]
    if not profiles:
        return np.zeros(0)
    prof = np.array(profiles, dtype=np.float64)
    length = prof.shape[1]
    p = (prof - np.median(prof, axis=1, keepdims=True)) / (prof.std(axis=1, keepdims=True) + 1e-6)
    padded = np.pad(p, ((0, 0), (1, 1)))
    p = 0.25 * padded[:, :-2] + 0.5 * padded[:, 1:-1] + 0.25 * padded[:, 2:]
    up = 16
    x = np.arange((length - 1) * up + 1, dtype=np.float64) / up
    i = np.minimum(x.astype(np.intp), length - 2)
    q = np.concatenate([p[:, i] + (p[:, i + 1] - p[:, i]) * (x - i), np.zeros((len(p), 1))], axis=1)
    best = np.full(len(p), -np.inf)
    for d in np.arange(0.4 * n / SIZE, 1.08 * n / SIZE, 0.5):
        xi = np.arange(0.0, length - 1 - SIZE * d, 1.0)
        if len(xi) == 0:
            continue
        start = np.rint(xi * up).astype(np.intp)[:, None]
        di = round(float(d) * up)
        on = q[:, start + di * np.arange(LINES)].mean(axis=2)
        off = q[:, start + di // 2 + di * np.arange(SIZE)].mean(axis=2)
        best = np.maximum(best, (on - off).max(axis=1))
    best = np.where(np.isfinite(best), best, 0.0)
    return np.asarray(best[0::2] + best[1::2], dtype=np.float64)


def _combs_in_quad(small: U8, quad: F64, detail: tuple[tuple[U8, float], ...] = ()
                   ) -> tuple[F64, list[_Comb], list[_Comb]] | None:
    """Straighten a candidate outline and find the best combs of 16 lines across and down.

    Returns the straightened->`small` homography and the combs. `detail` holds sharper copies of the
    photo and their scales relative to `small`, coarsest first: a small, far-away board is straightened
    from the first one that gives its squares enough pixels.
    """
    n = SCORE_SIDE
    m = round(0.08 * n)
    side = n + 2 * m
    src, k = small, 1.0
    shortest = min(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))
    for level, scale in detail:
        if shortest * k >= 0.8 * n:
            break
        if scale > k:
            src, k = level, scale
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], dtype=np.float32)
    to_warp = cv2.getPerspectiveTransform((quad * k).astype(np.float32), dst).astype(np.float64)
    warped = cv2.warpPerspective(src, to_warp, (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    # back to `small` pixels
    to_warp = to_warp @ np.diag([k, k, 1.0])
    gx, gy = line_maps(warped)
    inner = slice(m, m + n)
    px = gx[inner, :].mean(axis=0).astype(np.float64)
    py = gy[:, inner].mean(axis=1).astype(np.float64)
    lo, hi = 0.4 * n / SIZE, 1.08 * n / SIZE
    cx = comb(px, lo, hi, top=2)
    cy = comb(py, lo, hi, top=2)
    if not cx or not cy:
        return None
    return np.linalg.inv(to_warp), cx, cy


def _window(small: U8, from_warp: F64, cx: list[_Comb], cy: list[_Comb], method: str) -> _Found | None:
    """The 15x15 window along the combs that the premium colours fit best (with the comb evidence)."""
    best: _Found | None = None
    for sx, x0, dx in cx:
        for sy, y0, dy in cy:
            if max(dx, dy) > 1.5 * min(dx, dy):
                continue  # a straightened outline keeps squares roughly square
            # the comb fixes spacing; the window of 15 squares along it is chosen by premium colours
            lattice = from_warp @ np.array([[dx, 0, x0], [0, dy, y0], [0, 0, 1]], dtype=np.float64)
            cols = _cell_colours(small, lattice, range(-2, SIZE + 2))
            shifts = [(kx, ky) for ky in range(-2, 3) for kx in range(-2, 3)]
            wins = np.stack([cols[ky + 2:ky + 2 + SIZE, kx + 2:kx + 2 + SIZE] for kx, ky in shifts])
            prems = _premium_fit(wins)
            # line evidence of the comb (exact only for k = 0) and a mild preference for the comb's own
            # window; the premium colours decide between neighbouring windows
            scores = prems + 0.08 * (sx + sy) - 0.05 * np.array([abs(kx) + abs(ky) for kx, ky in shifts])
            for idx in np.argsort(-scores):
                if best is not None and scores[idx] <= best.score:
                    break
                kx, ky = shifts[idx]
                shift = np.array([[1, 0, kx], [0, 1, ky], [0, 0, 1]], dtype=np.float64)
                hg = lattice @ shift
                if _is_sane(grid_corners(hg), small.shape):
                    best = _Found(hg, float(scores[idx]), float(prems[idx]), method)
                    break
    return best


# ----------------------------------------------------------------------------------------------------
# public API


def _line_checks(img: U8, h_grid: F64, cell: int = 16, fold: F64 | None = None) -> tuple[int, float]:
    """(sides on which the lines carry on past the grid, share of inner lines that are really there).

    A Scrabble grid ends at its edge (a frame, a track or the table follows); graph paper, floor tiles or
    a bigger grid do not, so a grid whose lines continue for two more squares is not a 15x15 board (or
    not this one's edge). And every inner line of a real grid shows along most of its length: a grid of
    half squares fitted to a close-up of part of a board finds nothing on every other line.
    """
    c = cell
    pad = 3
    if fold is not None:  # a folded board: each quarter straightened by its own map
        warped = folding.fold_warp(img, fold, c, pad, flags=cv2.INTER_LINEAR)
    else:
        warped, _ = straightened(img, h_grid, c, pad)
    gx, gy = line_maps(warped)
    half = c // 2

    def strength(g: F32, u: int) -> float:
        # evidence right on line u against the typical level across the square around it
        pos = (u + pad) * c
        strip = g[pad * c:(pad + SIZE) * c, pos - half:pos + half + 1].reshape(SIZE, c, 2 * half + 1)
        prof = strip.mean(axis=1)
        at = prof[:, half - 1:half + 2].max(axis=1)
        return float(np.median(at / (np.median(prof, axis=1) + 1e-3)))

    sides = 0
    present: list[bool] = []
    inner_pos = (np.arange(1, SIZE) + pad) * c
    for g, rows in ((gx, False), (gy, True)):
        # `strength` of the 14 inner lines at once (the same values, one gather)
        prof = bands_across(g, inner_pos, half, c, rows=rows, first=pad, trim=False)
        at = prof[:, :, half - 1:half + 2].max(axis=2)
        inner_all = [float(v) for v in np.median(at / (np.median(prof, axis=2) + 1e-3), axis=1)]
        inner = float(np.median(inner_all))
        present.extend(v > 1.25 for v in inner_all)
        if inner < 1.5:
            continue
        for outside in ((-1, -2), (SIZE + 1, SIZE + 2)):
            if all(strength(gy.T if rows else gx, u) > 1 + 0.5 * (inner - 1) for u in outside):
                sides += 1
    return sides, float(np.mean(present))


def locate_grid(image_bgr: npt.NDArray[Any]) -> GridLocation:
    """Locate the 15x15 grid; raises `NoBoardFound` when no grid can be seen at all."""
    img = _to_bgr(image_bgr)
    # the copy that candidates and premium colours come from: up to ~3 MP exactly one area step as before
    # (halving first nudges corners by a fraction of a pixel, enough to flip a borderline letter)
    small, s_small = _resize_long(img, DETECT_SIDE, halve_below=0.25, linear_from=2.0)
    # a photo little bigger than the refinement size is refined as it is (shrinking it gains nothing)
    refine_img, s_ref = _resize_long(img, REFINE_SIDE, keep_above=0.85)
    detail = ((refine_img, s_ref / s_small), (img, 1.0 / s_small))
    # every candidate is searched for combs of lines, coarsely first; only the few with the strongest combs
    # are worth the full search and the premium-colour search (most candidates are tiles, shadows or the
    # table)
    quads = _candidate_quads(small)
    strength = _comb_strengths(smooth_lab(small), quads)
    ranked = sorted(range(len(quads)), key=lambda i: -strength[i])
    strongest = sorted(ranked[:PRESCREEN_KEEP])  # searched in the candidates' own order, as before
    combs = [(c, kind) for quad, kind in (quads[i] for i in strongest) if (c := _combs_in_quad(small, quad, detail))]
    combs.sort(key=lambda ck: -(ck[0][1][0][0] + ck[0][2][0][0]))
    best: _Found | None = None
    for (from_warp, cx, cy), kind in combs[:WINDOW_SEARCHES]:
        found = _window(small, from_warp, cx, cy, kind)
        if found is not None and (best is None or found.score > best.score):
            best = found
    if best is None or best.score < 0.15:
        raise NoBoardFound("no Scrabble grid found in the photo: photograph the whole board from above, "
                           "or mark its four corners")
    # refine where the grid has enough pixels: a far-away board is traced in the full-resolution photo
    grid_side = min(float(np.linalg.norm(q)) for q in np.diff(grid_corners(best.h), axis=0, append=grid_corners(
        best.h)[:1])) / s_small
    if grid_side * s_ref < 500 and s_ref < 1.0:
        refine_img, s_ref = img, 1.0
    scale = np.diag([s_ref / s_small, s_ref / s_small, 1.0])
    h = scale @ best.h
    share = 0.0
    suspects: list[tuple[int, F64, F64]] = []
    first_to_img = np.eye(3)
    for cell, reach in ((16, 0.45), (24, 0.3), (32, 0.2)):
        # (`refine`, keeping the first tracing: the halves of a folding board are told apart on it)
        traced = trace_lines(refine_img, h, cell, reach)
        solved = solve_lines(traced[0], traced[1]) if traced is not None else None
        if traced is None or solved is None:
            break
        h_new = corrected(traced[2], cell, solved[0])
        if cell == 16:
            suspects, first_to_img = folding.fold_suspects(traced[0], traced[1], solved[0]), traced[2]
        share_new = solved[1]
        if share_new <= 0.0 or not _is_sane(grid_corners(h_new), refine_img.shape):
            break
        h, share = h_new, share_new
    if share <= 0.0:
        raise NoBoardFound("no Scrabble grid lines could be traced in the photo: photograph the whole board "
                           "from above, or mark its four corners")
    corners, fold, confidence = _assess(img, refine_img, s_ref, h, share, None)
    folded = folding.folded(refine_img, h, share, suspects, first_to_img)
    if folded is not None:
        # (kept only as sure a grid as the one plane: on the labelled photos two fits per half, of boards seen
        # steeply from the side, were kept by the halves' shares alone and their confidence fell to a third)
        c2, f2, conf2 = _assess(img, refine_img, s_ref, h, share, folded)
        if conf2 >= confidence:
            corners, fold, confidence = c2, f2, conf2
    method = best.method + ("+lines" if share > 0 else "")
    if not folding.HALF_ASPECT < folding.aspect(h) < 1 / folding.HALF_ASPECT:
        # A grid half a board wide beside the fold (one half's outline, lit apart from the other, taken for
        # the board): the rest of the board may lie across the fold
        for net, share_half in folding.half_boards(refine_img, h):
            c2, f2, conf2 = _assess(img, refine_img, s_ref, h, share_half, (net, share_half))
            if conf2 >= DOUBT_BELOW and conf2 > confidence:
                corners, fold, confidence, method = c2, f2, conf2, method + "+other half"
    return GridLocation(corners=corners.astype(np.float32), confidence=confidence,
                        doubtful=confidence < DOUBT_BELOW,
                        method=method + ("+fold" if fold is not None else ""),
                        fold=None if fold is None else fold.astype(np.float32))


def _assess(img: U8, refine_img: U8, s_ref: float, h: F64, share: float, folded: tuple[F64, float] | None
            ) -> tuple[F64, F64 | None, float]:
    """The grid's corners (oriented, `img`'s pixels), its net when `folded` (net and share of `refine_img`)
    and the confidence that it is the board's grid, from the one-plane fit `h` (`refine_img`'s pixels, which
    are `s_ref` of `img`'s) and its inlier `share` otherwise."""
    if folded is not None:
        net, share = folded  # (the halves' lines: the one-plane fit explains a folded board's lines poorly)
        grid_corners = net[[0, 0, 2, 2], [0, 2, 2, 0]]
        corners = orient_corners(grid_corners / s_ref)
        fold: F64 | None = folding.net_in_orientation(net / s_ref, grid_corners / s_ref, corners)
        prem = float(_premium_fit(_cell_colours(refine_img, h, range(SIZE), net)))
        continued, support = _line_checks(refine_img, h, fold=net)
    else:
        edges = outer_edges(refine_img, h)
        corners = orient_corners(apply_homography(np.diag([1 / s_ref, 1 / s_ref, 1.0]) @ h, edges))
        fold = None
        prem = float(_premium_fit(_cell_colours(refine_img, h, range(SIZE))))
        continued, support = _line_checks(refine_img, h)
    # Lines alone do not make a Scrabble grid (floor tiles, graph paper): premium colours that follow the
    # standard layout, and lines that stop at the grid's edge, are what make it one.
    # Every inner line of a real grid shows (measured: all 28 on every labelled photo); a grid fitted to
    # part of a board, at half its spacing, misses several.
    confidence = share * min(1.0, 0.4 + 2.0 * prem) * (0.6 if continued >= 2 else 0.9 if continued else 1.0)
    if support < 0.93:
        confidence *= 0.5 * support
    # a grid running out of the photo cannot be read whole: ask for a photo of the whole board
    square = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)])) / SIZE
    ih, iw = img.shape[:2]
    out = max(float(-corners[:, 0].min()), float(corners[:, 0].max() - iw),
              float(-corners[:, 1].min()), float(corners[:, 1].max() - ih))
    if out > 0.5 * square:
        confidence *= 0.5
    return corners, fold, float(np.clip(confidence, 0.0, 1.0))


def warp_grid(image_bgr: npt.NDArray[Any], corners: npt.ArrayLike, cell_px: int = 64,
              margin_cells: float = 0.0) -> U8:
    """The straightened grid: a square of 15*cell_px (+ margin_cells squares each side) BGR pixels."""
    img = _to_bgr(image_bgr)
    flat = np.asarray(corners, dtype=np.float32).reshape(-1)
    if flat.size != 8 or not np.all(np.isfinite(flat)):
        raise ValueError("corners must be four x,y points: top-left, top-right, bottom-right, bottom-left")
    if cell_px < 1 or margin_cells < 0:
        raise ValueError("cell_px must be at least 1 and margin_cells not negative")
    src = flat.reshape(4, 2)
    m = margin_cells * cell_px
    n = SIZE * cell_px
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], dtype=np.float32)
    out = round(n + 2 * m)
    h = cv2.getPerspectiveTransform(src, dst)
    # shrinking a big photo: warp from a copy near the target scale so thin lines do not alias away
    side = float(max(np.linalg.norm(src[1] - src[0]), np.linalg.norm(src[2] - src[3]),
                     np.linalg.norm(src[3] - src[0]), np.linalg.norm(src[2] - src[1])))
    f = min(1.0, 1.5 * n / max(side, 1.0))
    if f < 0.7:
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        h = cv2.getPerspectiveTransform(src * f, dst)
    return cv2.warpPerspective(img, h, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
