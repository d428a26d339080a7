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
   gets its own map and the grid is kept as a 3x3 net (`GridLocation.fold`, straightened by `fold_warp`);
   a grid found half a board wide beside a fold is completed across it. See "folding boards" below and
   docs/reader-fold.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import NoBoardFound

SIZE = 15
LINES = SIZE + 1
LAYOUT = Path(__file__).resolve().parents[1] / "assets" / "layouts" / "standard.json"

DETECT_SIDE = 800  # long side of the copy used to find candidates: boards fill >= ~10% of a phone photo
REFINE_SIDE = 1600  # long side of the copy used for the final line fit (sub-cell accuracy needs no more)
SCORE_SIDE = 300  # side of a straightened candidate while searching it for a comb of lines
DOUBT_BELOW = 0.5  # confidence under which the app should ask the user for the corners
OUTERMOST = 0.8  # a peak this close to the strongest one counts as the same (thick) line's other side
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

F32 = npt.NDArray[Any]  # float32 maps (loosely typed for the same reason)
F64 = npt.NDArray[Any]  # float64 arrays (numpy reductions are typed loosely too)
U8 = npt.NDArray[Any]  # 8-bit images; OpenCV's stubs type its results loosely


@dataclass(frozen=True)
class GridLocation:
    """Where the 15x15 grid is in a photo."""

    corners: F32  # float32 (4, 2): TL, TR, BR, BL outer corners of the 15x15 grid, input-image pixels
    confidence: float  # 0..1
    doubtful: bool  # True when the locator is not sure: the app then asks the user for four corners
    method: str  # which strategy found it (for debugging/benchmarks)
    # A board found folded (its halves not one plane): (3, 3, 2) input-image points of grid (u, v) for u, v in
    # 0, 7.5, 15 ([v][u]; the corners are its four ends), each quarter straightened by its own map
    # (`fold_warp`, `fold_points`). None for a board lying flat: the corners say everything.
    fold: F32 | None = None


def _premium_classes() -> npt.NDArray[np.int8]:
    """Per square: 0 plain, 1..4 premium class, 5 the centre, from the standard layout asset."""
    rows = json.loads(LAYOUT.read_text(encoding="utf-8"))["rows"]
    code = {".": 0, "T": 1, "D": 2, "t": 3, "d": 4}
    out = np.array([[code[ch] for ch in row] for row in rows], dtype=np.int8)
    out[SIZE // 2, SIZE // 2] = 5  # the star is often printed differently from the double-word squares
    return out


_CLASSES = _premium_classes()


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


def _order_clockwise(pts: F64) -> F64:
    """Four points in clockwise order (image coordinates, y down) starting anywhere."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    return pts[np.argsort(ang)]


def _orient(corners: F64) -> F64:
    """Clockwise corners rotated so that TL is the grid's top-left as the image shows it."""
    pts = _order_clockwise(corners)
    best, best_cost = pts, np.inf
    for k in range(4):
        p = np.roll(pts, -k, axis=0)
        top = (p[1] - p[0]) + (p[2] - p[3])  # mean direction of the top and bottom edges
        cost = abs(float(np.arctan2(top[1], top[0])))
        if cost < best_cost:
            best, best_cost = p, cost
    return best


def _apply(h: F64, pts: F64) -> F64:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], dtype=np.float64)


def _grid_corners(h: F64) -> F64:
    return _apply(h, np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float64))


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


# ----------------------------------------------------------------------------------------------------
# line evidence


def _smooth_lab(bgr: U8) -> U8:
    """The image slightly blurred, in Lab (8 bits): what line evidence is measured on."""
    return np.asarray(cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2LAB), np.uint8)


def _line_maps(bgr: U8, lab8: U8 | None = None) -> tuple[F32, F32]:
    """|d/dx| and |d/dy| of lightness and colour, clipped so one strong outline cannot outweigh many thin lines.

    `lab8`: the Lab image already made (`_smooth_lab`), in place of `bgr`."""
    lab = _smooth_lab(bgr) if lab8 is None else lab8
    # all three channels in one Sobel call each way, weighted and summed by one cv2.transform (same
    # values as channel by channel, fewer passes: this runs on every candidate). Sobel of 8-bit values in
    # 16-bit integers is exact, so the same as in float32, at half the cost.
    weights = np.array([[1.0, 1.5, 1.5]], np.float32)
    gx = cv2.transform(np.abs(cv2.Sobel(lab, cv2.CV_16S, 1, 0, ksize=3)).astype(np.float32), weights)
    gy = cv2.transform(np.abs(cv2.Sobel(lab, cv2.CV_16S, 0, 1, ksize=3)).astype(np.float32), weights)
    both = np.concatenate([gx.ravel()[::7], gy.ravel()[::7]])
    cap = _percentile(both, 97.0) + 1e-3
    return np.minimum(gx, cap), np.minimum(gy, cap)


def _percentile(a: F32, q: float) -> float:
    """`np.percentile(a, q)` (its linear rule) of a 1-D array by one partition: the same value at a
    fraction of np.percentile's overhead, which showed in profiles of the many small line maps."""
    pos = q / 100.0 * (len(a) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(a) - 1)
    part = np.partition(a, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def _median_u8(img: U8) -> float:
    """`np.median` of an 8-bit image from its histogram: the same value, ~5x cheaper than sorting."""
    cum = np.cumsum(np.bincount(img.ravel(), minlength=256))
    lo = int(np.searchsorted(cum, (img.size - 1) // 2, side="right"))
    hi = int(np.searchsorted(cum, img.size // 2, side="right"))
    return (lo + hi) / 2


def _lerp(p: F64, x: F64) -> F64:
    """`np.interp(x, arange(len(p)), p, right=0.0)` for x >= 0, by direct indexing.

    np.interp binary-searches every point; the sample positions here are whole numbers, so the index is
    the floor. Same values, about 6x less CPU, and the comb search is the locator's hottest loop.
    """
    n = len(p)
    padded = np.concatenate([p, np.zeros(2)])
    i = np.minimum(x.astype(np.intp), n)
    lo = padded[i]
    v = lo + (padded[i + 1] - lo) * (x - i)
    return np.where(x > n - 1, 0.0, v)


def _comb(profile: F64, lo: float, hi: float, top: int = 3) -> list[tuple[float, float, float]]:
    """Best (score, first line, spacing) for 16 equally spaced lines in a 1-D line-evidence profile.

    The score is the mean evidence on the 16 lines minus the mean half-way between them, in units of the
    profile's spread, so a comb of twice or half the true spacing scores low.
    """
    n = len(profile)
    p = (profile - np.median(profile)) / (profile.std() + 1e-6)
    p = np.convolve(p, np.array([0.25, 0.5, 0.25]), mode="same")
    # Every position the search looks at (first lines on a 1/4 px step, spacings on a 1/8 px step, lines
    # half-way between) is a multiple of 1/16 px: interpolate the profile once at that resolution and the
    # search itself is integer indexing (the comb search is the locator's hottest loop)
    up = 16
    q = np.append(_lerp(p, np.arange((n - 1) * up + 1, dtype=np.float64) / up), 0.0)
    on_k = np.arange(LINES, dtype=np.intp)
    off_k = 2 * np.arange(SIZE, dtype=np.intp) + 1  # half-way lines, in half spacings

    def best_at(ds: F64, x_step: float, x_lo: float = 0.0, x_hi: float = np.inf) -> list[tuple[float, float, float]]:
        # a few spacings at a time, each batch one gather over a (d, x0, line) array; a batch's first
        # lines only go as far as its smallest comb still fits
        out: list[tuple[float, float, float]] = []
        last = len(q) - 1
        for b in range(0, len(ds), 6):
            dd = ds[b:b + 6]
            x0 = np.arange(max(0.0, x_lo), min(n - 1 - SIZE * float(dd.min()), x_hi), x_step)
            if len(x0) == 0:
                continue
            xi = np.rint(x0 * up).astype(np.intp)[None, :, None]
            di = np.rint(dd * up).astype(np.intp)[:, None, None]  # even: spacings are multiples of 1/8 px
            on = q[np.minimum(xi + di * on_k, last)].mean(axis=2)
            off = q[np.minimum(xi + (di * off_k) // 2, last)].mean(axis=2)
            score = np.where(x0[None, :] + SIZE * dd[:, None] < n - 1, on - off, -np.inf)
            k = np.argmax(score, axis=1)
            best = score[np.arange(len(dd)), k]
            out.extend((float(v), float(x0[i]), float(d)) for v, i, d in zip(best, k, dd) if np.isfinite(v))
        return out

    # coarse search, then a fine one around the best few (the score is smooth at this scale)
    coarse = sorted(best_at(np.arange(lo, hi, 0.5), 1.0), reverse=True)
    found: list[tuple[float, float, float]] = []
    for _, x0, d in coarse[:top + 2]:
        fine = best_at(np.arange(d - 0.5, d + 0.51, 0.125), 0.25, x0 - 1.5, x0 + 1.5)
        found.extend(fine)
    found.sort(reverse=True)
    kept: list[tuple[float, float, float]] = []
    for f in found:
        if all(abs(f[1] - g[1]) > 2 or abs(f[2] - g[2]) > 1 for g in kept):
            kept.append(f)
    return kept[:top]


def _cell_colours(bgr: U8, h_grid: F64, cells: range, fold: F64 | None = None) -> F64:
    """Mean Lab colour of the middle of squares (row, col in `cells`) for a grid->image homography (or, on a
    folded board, the grid's `fold` net: `fold_warp`)."""
    c = 12
    n = len(cells)
    first = cells.start
    if fold is not None:
        warped = fold_warp(bgr, fold, c, -first, flags=cv2.INTER_LINEAR, border=cv2.BORDER_CONSTANT)
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
    med = _median_u8(blur)
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
                        quads.append((a, _order_clockwise(q), "outline"))
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
    candidates (`_smooth_lab`); the comb search is `_comb`'s coarse one (spacings on a 1/2 px step, first
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
        gx, gy = _line_maps(lab, lab)
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
    gx, gy = _line_maps(warped)
    inner = slice(m, m + n)
    px = gx[inner, :].mean(axis=0).astype(np.float64)
    py = gy[:, inner].mean(axis=1).astype(np.float64)
    lo, hi = 0.4 * n / SIZE, 1.08 * n / SIZE
    cx = _comb(px, lo, hi, top=2)
    cy = _comb(py, lo, hi, top=2)
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
                if _is_sane(_grid_corners(hg), small.shape):
                    best = _Found(hg, float(scores[idx]), float(prems[idx]), method)
                    break
    return best


# ----------------------------------------------------------------------------------------------------
# refinement


def _band_profiles(g: F32, pos: int, half: int, c: int) -> F64:
    """Line evidence across column `pos` (+-half pixels), one profile per square-high band (15 rows).

    The middle two thirds of each band are used so the crossing lines do not blur the profile.
    """
    strip = g[c:(SIZE + 1) * c, pos - half:pos + half + 1].reshape(SIZE, c, 2 * half + 1)
    return np.asarray(strip[:, c // 6:c - c // 6, :].mean(axis=1), dtype=np.float64)


def _bands_across(g: F32, positions: npt.NDArray[np.intp], half: int, c: int, rows: bool = False,
                  first: int = 1, trim: bool = True) -> F32:
    """`_band_profiles` of `g` (of `g.T` with `rows`: lines along rows) at several positions at once,
    unconverted: (len(positions), 15, 2 * half + 1) from one gather instead of a call per line. The bands
    start `first` squares in; `trim` keeps their middle two thirds, as `_band_profiles` does.

    The values are the same to the bit as a strip per line: each band's mean adds the same pixels in the
    same order, because the gathered copy keeps the pixels to add along the same kind of axis (across
    rows for columns, along a row for rows) as such a strip.
    """
    idx = positions[:, None] - half + np.arange(2 * half + 1)
    core = slice(c // 6, c - c // 6) if trim else slice(0, c)
    span = slice(first * c, (first + SIZE) * c)
    if rows:
        strip = g[idx, span].reshape(len(positions), 2 * half + 1, SIZE, c)[..., core]
        return np.asarray(strip.mean(axis=3)).transpose(0, 2, 1)
    cols = np.ascontiguousarray(g[span][:, idx].transpose(1, 0, 2))
    return np.asarray(cols.reshape(len(positions), SIZE, c, 2 * half + 1)[:, :, core].mean(axis=2))


def _refine(img: U8, h_grid: F64, cell: int, reach: float = 0.45) -> tuple[F64, float]:
    """One pass of line tracing: returns a corrected grid->image homography and the inlier share.

    Only the 14+14 inner lines are traced: the outer ones often sit beside a printed frame or margin
    whose edge is stronger than the line itself, and a regular grid's inner lines fix the outer ones.
    `reach` is how far (in squares) from its expected place a line is looked for.
    """
    traced = _trace_lines(img, h_grid, cell, reach)
    if traced is None:
        return h_grid, 0.0
    a_mat, w, to_img = traced
    solved = _solve_lines(a_mat, w)
    if solved is None:
        return h_grid, 0.0
    g, share = solved
    return _corrected(to_img, cell, g), share


def _corrected(to_img: F64, cell: int, g: F64) -> F64:
    """The grid->image map once `g` (straightened squares -> true squares, `_solve_lines`) is solved."""
    c = cell
    # g maps warped squares -> true squares; the new grid->image map goes through its inverse
    new = to_img @ np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64) @ np.linalg.inv(g)
    return np.asarray(new / new[2, 2], dtype=np.float64)


def _trace_lines(img: U8, h_grid: F64, cell: int, reach: float,
                 lines: npt.NDArray[np.intp] | None = None) -> tuple[F64, F64, F64] | None:
    """The inner lines traced square by square in the grid straightened by `h_grid` (`cell` px squares):
    "point (u, v) lies on line i" constraints as rows of a linear system for `_solve_lines`, their weights,
    and the straightened->image map; None when fewer than 40 points were found. `lines`: which inner lines
    (1..14) to trace, the same across and down (all by default)."""
    c = cell
    side = (SIZE + 2) * c
    to_img = h_grid @ np.array([[1 / c, 0, -1], [0, 1 / c, -1], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    gx, gy = _line_maps(warped)
    half = int(reach * c)
    rows: list[F64] = []
    weights: list[F64] = []
    along = np.arange(SIZE, dtype=np.float64) + 0.5  # centre of each band, in squares
    if lines is None:
        lines = np.arange(1, LINES - 1)
    for axis, g in ((0, gx), (1, gy)):  # horizontal lines are traced as vertical ones of gy.T
        # every inner line at once: (line, band, offset) profiles; rows come out line by line, band by band
        pos = (lines + 1) * c
        prof = np.asarray(_bands_across(g, pos, half, c, rows=axis == 1), dtype=np.float64)
        k = np.argmax(prof, axis=2)
        peak = np.take_along_axis(prof, k[:, :, None], axis=2)[:, :, 0]
        base = np.median(prof, axis=2)
        ok = (peak > base * 1.3) & (k > 0) & (k < prof.shape[2] - 1)
        li, r = np.nonzero(ok)
        k, peak, base = k[ok], peak[ok], base[ok]
        y0, y2 = prof[li, r, k - 1], prof[li, r, k + 1]
        den = y0 - 2 * peak + y2
        frac = np.where(den < 0, 0.5 * (y0 - y2) / np.where(den < 0, den, -1.0), 0.0)  # parabolic peak
        at = (pos[li] - half + k + frac) / c - 1  # in squares, 0..15
        i = lines[li]
        u, v = (at, along[r]) if axis == 0 else (along[r], at)
        one, zero = np.ones_like(u), np.zeros_like(u)
        if axis == 0:
            rows.append(np.stack([u, v, one, zero, zero, zero, -i * u, -i * v, -i * one], axis=1))
        else:
            rows.append(np.stack([zero, zero, zero, u, v, one, -i * u, -i * v, -i * one], axis=1))
        weights.append(peak - base)
    if sum(len(x) for x in rows) < 40:
        return None
    return np.concatenate(rows), np.concatenate(weights), to_img


def _solve_lines(a_mat: F64, weights: F64) -> tuple[F64, float] | None:
    """The straightened->true squares homography the traced points fit best, dropping outliers (tile edges,
    glare) at three tolerances, and the share of the evidence it explains; None when under 40 points stay."""
    w = weights / weights.max()
    keep = np.ones(len(w), dtype=bool)
    g = np.eye(3)
    for tol in (0.3, 0.18, 0.12):
        sel = a_mat[keep] * np.sqrt(w[keep])[:, None]
        _, _, vt = np.linalg.svd(sel, full_matrices=False)
        g = vt[-1].reshape(3, 3)
        g = g / g[2, 2]
        keep = np.abs(_line_residuals(a_mat, g)) < tol
        if keep.sum() < 40:
            return None
    share = float((w * keep).sum() / w.sum())
    return g, share


def _line_residuals(a_mat: F64, g: F64) -> F64:
    """How far (squares) `g` maps each traced point from the line it lies on."""
    pu = a_mat[:, :3] + a_mat[:, 3:6]  # (u, v, 1) of each point (one half is zero)
    mapped = pu @ g.T
    uv = mapped[:, :2] / mapped[:, 2:3]
    target = -a_mat[:, 8]
    is_v = a_mat[:, 2] == 1
    return np.asarray(np.where(is_v, uv[:, 0], uv[:, 1]) - target, dtype=np.float64)


def _outer_edges(img: U8, h_grid: F64, cell: int = 32, reach: float = 0.3) -> F64:
    """Grid corners (in squares) moved onto the visible outer edge of the grid.

    The inner lines fix a regular grid, but printed boards are not always regular at the rim (a wider
    outer line, a margin) and the grid's outer edge is what the corners mean. Each outer line is looked
    for band by band near its expected place (nearer is preferred; of two nearly equal peaks, the outer
    one, since both sides of a thick border line show); it moves only when most bands agree on a
    straight edge.
    """
    c = cell
    side = (SIZE + 2) * c
    to_img = h_grid @ np.array([[1 / c, 0, -1], [0, 1 / c, -1], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    gx, gy = _line_maps(warped)
    half = int(reach * c)
    offs = np.arange(-half, half + 1, dtype=np.float64)
    prior = np.exp(-0.5 * (offs / (0.15 * c)) ** 2)
    lines: list[tuple[float, float]] = []  # per side: offset (squares) = a + b * position along
    for g, at in ((gx, 0), (gy.T, 0), (gx, SIZE), (gy.T, SIZE)):
        prof = _band_profiles(g, (at + 1) * c, half, c)
        strong = prof.max(axis=1) > 1.5 * np.median(prof, axis=1)
        weighted = prof * prior[None, :]
        k = np.argmax(weighted, axis=1)
        if OUTERMOST:
            # of the strong peaks, the outermost: a thick outer line's outer side is the grid's edge
            peak = np.zeros_like(weighted, dtype=bool)
            peak[:, 1:-1] = (weighted[:, 1:-1] >= weighted[:, :-2]) & (weighted[:, 1:-1] >= weighted[:, 2:])
            peak &= weighted >= OUTERMOST * weighted.max(axis=1, keepdims=True)
            idx = np.arange(weighted.shape[1])[None, :]
            k = np.where(peak, idx, 10**6 if at == 0 else -1)
            k = k.min(axis=1) if at == 0 else k.max(axis=1)
            k = np.where((k < 0) | (k >= weighted.shape[1]), np.argmax(weighted, axis=1), k)
        found_t = list((np.arange(SIZE) + 0.5)[strong])
        found_o = list((offs[k] / c)[strong])
        fit = (0.0, 0.0)
        if len(found_o) >= 6:
            t = np.array(found_t)
            o = np.array(found_o)
            keep = np.abs(o - np.median(o)) < 0.08
            if keep.sum() >= max(6, 0.5 * len(o)):
                if np.ptp(t[keep]) > 4:
                    b1, a1 = np.polyfit(t[keep], o[keep], 1)
                else:
                    b1, a1 = 0.0, float(np.median(o[keep]))
                fit = (float(a1), float(b1))
        lines.append(fit)
    (al, bl), (at_, bt), (ar, br), (ab, bb) = lines

    def meet(u0: float, bu: float, au: float, v0: float, bv: float, av: float) -> tuple[float, float]:
        # u = u0 + au + bu * v and v = v0 + av + bv * u
        u = (u0 + au + bu * (v0 + av)) / (1 - bu * bv)
        return u, v0 + av + bv * u

    return np.array([meet(0, bl, al, 0, bt, at_), meet(SIZE, br, ar, 0, bt, at_),
                     meet(SIZE, br, ar, SIZE, bb, ab), meet(0, bl, al, SIZE, bb, ab)], dtype=np.float64)


# ----------------------------------------------------------------------------------------------------
# folding boards (issue 27)
#
# A board that folds down its middle (the Crossword boards, most Scrabble boards) rarely lies as one plane:
# its two halves meet at a small angle along the fold, which runs down the middle of the centre column (or
# row). One homography then fits one half and misses the other by a growing share of a square. After the
# one-plane fit the traced lines are split at the fold; when the halves' own fits disagree with the one-plane
# fit, each half is traced and fitted again on its own, and the grid is kept as a net of 3x3 points (the
# grid's corners, the middles of its sides and its centre) whose four quarters are each straightened by the
# map of the half they lie on (`fold_warp`); both halves' maps meet on the fold line.

FOLD_AT = SIZE / 2  # squares: the fold runs down the middle of the centre column or row
NET = (0.0, FOLD_AT, float(SIZE))  # grid coordinates of the net's points along each axis
# Where the halves' fits on the one-plane fit's first tracing (16 px squares, lines looked for within 0.45
# squares) move a point of their half more than FOLD_SUSPECT squares from it, the halves are fitted on their
# own (each fit costs ~6 tracings). On the labelled photos (benchmarks/vision_fold.py --flat) they move it by
# median 0.075, 90% 0.23, max 0.57 squares (some boards are not quite flat either): at 0.12, 56 of 188 photos
# were fitted per half (none kept) and the locator's slowest 2 MP photo took 0.5 s CPU; at 0.2 fewer. Renders
# folded 6 degrees a side show 0.18-0.27, 10 degrees 0.3-0.5: the folds that cost a reading are all caught.
FOLD_SUSPECT = 0.2
# A fold is kept when the halves fitted on their own move a point of the grid by more than FOLD_FROM squares
# from where the one-plane fit has it: less changes no square's crop noticeably (a tile sits off-grid by up to
# a third of a square anyway), and flat boards never get there (same measurement).
FOLD_FROM = 0.15
# ... and when the halves' own maps explain at least FOLD_BETTER more of their traced lines than the one plane
# explains of all (both at the finest tracing). On the renders folded 4-20 degrees a side the halves explain
# 0.98-1.00 and one plane 0.02-0.24 less; on the labelled photos, whose boards lie (nearly) flat, the halves'
# maps explained as much or less, but for one photo 0.011 more (benchmarks/vision_fold.py --flat).
FOLD_BETTER = 0.02
_SWAP = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], dtype=np.float64)  # (u, v) <-> (v, u)
_SWAP_ROWS = [4, 3, 5, 1, 0, 2, 7, 6, 8]  # a traced point's row of `_trace_lines` with u and v swapped


def _half_rows(a_mat: F64, right: bool) -> npt.NDArray[np.bool_]:
    """Which traced points lie on the left (or right) half of a board folding down the centre column: the
    down lines 1..7 (8..14) and the across lines' points in columns 0..6 (8..14); column 7 holds the fold."""
    is_v = a_mat[:, 2] == 1
    line = -a_mat[:, 8]
    u = a_mat[:, 0] + a_mat[:, 3]
    if right:
        return np.asarray((is_v & (line >= FOLD_AT)) | (~is_v & (u > FOLD_AT + 0.5)))
    return np.asarray((is_v & (line <= FOLD_AT)) | (~is_v & (u < FOLD_AT - 0.5)))


def _solve_half(a_mat: F64, w: F64, right: bool) -> tuple[F64, float] | None:
    """`_solve_lines` on one half's points (`_half_rows`), solved about the half's middle: the linear
    solution is only well conditioned near the points (the right half's, solved about the grid's corner, comes
    out nearly degenerate)."""
    sel = _half_rows(a_mat, right)
    if sel.sum() < 40:
        return None
    a, du = a_mat[sel], (FOLD_AT + SIZE) / 2 if right else FOLD_AT / 2
    is_v = a[:, 2] == 1
    u = a[:, 0] + a[:, 3] - du
    v = a[:, 1] + a[:, 4]
    t = np.where(is_v, -a[:, 8] - du, -a[:, 8])
    one, zero = np.ones_like(u), np.zeros_like(u)
    rows = np.where(is_v[:, None], np.stack([u, v, one, zero, zero, zero, -t * u, -t * v, -t], axis=1),
                    np.stack([zero, zero, zero, u, v, one, -t * u, -t * v, -t], axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):  # a degenerate fit is dropped by its residuals
        solved = _solve_lines(rows, w[sel])
    if solved is None:
        return None
    shift = np.array([[1, 0, -du], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
    g = np.linalg.inv(shift) @ solved[0] @ shift
    return g / g[2, 2], solved[1]


def _half_points(right: bool) -> F64:
    """Points of one half (grid squares) where the halves' fits are compared with the one-plane fit."""
    us = (FOLD_AT, SIZE) if right else (0.0, FOLD_AT)
    return np.array([[u, v] for u in us for v in (0.0, FOLD_AT, SIZE)], dtype=np.float64)


def _fold_suspects(a_mat: F64, w: F64, g_one: F64) -> list[tuple[int, F64, F64]]:
    """The axes (0: a fold down the centre column, 1: across the centre row) along which the halves' own fits
    of one tracing (`_trace_lines`) differ from its one-plane fit `g_one` by more than FOLD_SUSPECT squares,
    with the halves' straightened->true maps."""
    return [(axis, g_l, g_r) for axis, gap, g_l, g_r in _fold_gaps(a_mat, w, g_one) if gap > FOLD_SUSPECT]


def _fold_gaps(a_mat: F64, w: F64, g_one: F64) -> list[tuple[int, float, F64, F64]]:
    """Per axis (`_fold_suspects`): how far (squares) the halves' own fits move points of their half from
    the one-plane fit, and the halves' straightened->true maps."""
    out: list[tuple[int, float, F64, F64]] = []
    for axis in (0, 1):
        a = a_mat if axis == 0 else a_mat[:, _SWAP_ROWS]
        one = g_one if axis == 0 else _SWAP @ g_one @ _SWAP
        fits = []
        for right in (False, True):
            solved = _solve_half(a, w, right)
            if solved is None:
                break
            g = solved[0]
            pts = _half_points(right)
            gap = np.abs(_apply(np.linalg.inv(g), pts) - _apply(np.linalg.inv(one), pts)).max()
            fits.append((g, float(gap)))
        if len(fits) == 2:
            out.append((axis, max(f[1] for f in fits), fits[0][0], fits[1][0]))
    return out


def _fit_half(img: U8, start: F64, right: bool) -> tuple[F64, float] | None:
    """One half's grid->image map traced and fitted on that half only (in the frame where the fold runs down
    the centre column), at the one-plane fit's three scales from `start`, and its inlier share; None when its
    lines cannot be traced."""
    h, share = start, 0.0
    for cell, reach in ((16, 0.45), (24, 0.3), (32, 0.2)):
        traced = _trace_lines(img, h, cell, reach)
        if traced is None:
            return None
        a_mat, w, to_img = traced
        solved = _solve_half(a_mat, w, right)
        if solved is None:
            return None
        h, share = _corrected(to_img, cell, solved[0]), solved[1]
    return h, share


# A half whose fit explains this share of its traced lines is taken as found; below, the half is fitted again
# from other starts (the one-plane fit, the other half's fit carried across the fold) and the best kept.
HALF_FOUND = 0.95


def _fit_halves(img: U8, starts: list[list[F64]]) -> tuple[list[F64], float] | None:
    """Both halves fitted on their own (`_fit_half`), each from the first of its `starts` that explains
    HALF_FOUND of its lines (else the best), then from the other half's fit; and the smaller of the two
    halves' inlier shares. None when a half's lines cannot be traced from any start."""
    found: list[tuple[F64, float] | None] = [None, None]
    for k, right in enumerate((False, True)):
        best: tuple[F64, float] | None = None
        for start in starts[k]:
            fit = _fit_half(img, start, right)
            if fit is not None and (best is None or fit[1] > best[1]):
                best = fit
            if best is not None and best[1] >= HALF_FOUND:
                break
        found[k] = best
    for k, right in enumerate((False, True)):
        other = found[1 - k]
        mine = found[k]
        if other is not None and (mine is None or mine[1] < HALF_FOUND):
            fit = _fit_half(img, _across_fold(img, other[0], right), right)
            if fit is not None and (mine is None or fit[1] > mine[1]):
                found[k] = fit
    left, right_fit = found
    if left is None or right_fit is None:
        return None
    return [left[0], right_fit[0]], min(left[1], right_fit[1])


# How far the half across the fold may turn from the plane of the half already found, as the parameters of
# the maps that keep the fold line in place (`_across_fold`): a1 stretches the half across the fold (its far
# edge +-3 squares), a2 shears it along the fold (+-1.1 squares) and a3 is its perspective (its far squares
# 0.55-1.45 times as big): more than a board folded 25 degrees each side shows in the renders.
_ACROSS_RANGE = ((-0.4, 0.4, 0.04), (-0.15, 0.15, 0.03), (-0.06, 0.06, 0.015))


def _across_fold(img: U8, h_found: F64, right: bool) -> F64:
    """A start for the half across the fold from the half whose map `h_found` is known (in the frame where the
    fold runs down the centre column; `right`: the half wanted).

    The two halves share the fold line, so the wanted half's map is `h_found` followed by a map of the plane
    that leaves the fold line u = 7.5 in place: about the fold's middle, p -> p + a (u - 7.5) (homogeneous),
    three parameters a. They are searched on
    a grid (`_ACROSS_RANGE`, then a finer one around the best) for the lines of the half: the most line
    evidence on its 8 lines down and 16 across, against the evidence half-way between them (as `_comb` does),
    in the grid straightened by `h_found` with 3 squares of margin."""
    c, pad = 16, 3
    side = (SIZE + 2 * pad) * c
    to_img = h_found @ np.array([[1 / c, 0, -pad], [0, 1 / c, -pad], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    gx, gy = (cv2.GaussianBlur(g, (5, 5), 0) for g in _line_maps(warped))
    cols = np.arange(8, SIZE + 1) if right else np.arange(0, 8)
    squares = np.arange(8, SIZE) if right else np.arange(0, 7)  # columns wholly on the half
    along_v = (np.arange(SIZE)[:, None] + np.array([0.3, 0.7])[None, :]).ravel()
    along_u = (squares[:, None] + np.array([0.3, 0.7])[None, :]).ravel().astype(np.float64)
    # (u, v) samples: on the lines down, half-way between them, on the lines across, half-way between them
    down_on = np.stack(np.meshgrid(cols.astype(np.float64), along_v), -1).reshape(-1, 2)
    down_off = down_on + np.array([0.5 if right else -0.5, 0.0])
    across_on = np.stack(np.meshgrid(along_u, np.arange(LINES, dtype=np.float64)), -1).reshape(-1, 2)
    across_off = across_on[across_on[:, 1] < SIZE] + np.array([0.0, 0.5])
    # and the lines must stop at the grid's edge: a grid squeezed short of it finds lines past its end
    beyond = np.stack(np.meshgrid(np.array([16.0, 17.0] if right else [-1.0, -2.0]), along_v), -1).reshape(-1, 2)

    def scores(cands: F64) -> F64:
        out = np.zeros(len(cands))
        for pts, g, sign in ((down_on, gx, 1.0), (down_off, gx, -1.0), (across_on, gy, 1.0), (across_off, gy, -1.0),
                             (beyond, gx, -0.5)):
            d = pts[:, 0] - FOLD_AT  # (about the fold's middle: the parameters then stay small)
            den = 1 + cands[:, 2:3] * d[None, :]
            u = FOLD_AT + (d[None, :] + cands[:, 0:1] * d[None, :]) / den
            v = FOLD_AT + (pts[None, :, 1] - FOLD_AT + cands[:, 1:2] * d[None, :]) / den
            x = np.clip(np.rint((u + pad) * c), 0, side - 1).astype(np.intp)
            y = np.clip(np.rint((v + pad) * c), 0, side - 1).astype(np.intp)
            out += sign * g[y, x].mean(axis=1)
        return out

    def grid(ranges: tuple[tuple[float, float, float], ...]) -> F64:
        axes = [np.arange(lo, hi + step / 2, step) for lo, hi, step in ranges]
        return np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 3)

    cands = grid(_ACROSS_RANGE)
    best = cands[int(np.argmax(scores(cands)))]
    fine = grid(tuple((b - step, b + step, step / 3) for b, (_, _, step) in zip(best, _ACROSS_RANGE)))
    best = fine[int(np.argmax(scores(fine)))]
    centre = np.array([[1, 0, -FOLD_AT], [0, 1, -FOLD_AT], [0, 0, 1]], dtype=np.float64)
    keep_fold = np.linalg.inv(centre) @ (np.eye(3) + np.outer(best, np.array([1.0, 0.0, 0.0]))) @ centre
    return np.asarray(h_found @ keep_fold, dtype=np.float64)


def _fold_net(img: U8, left: F64, right: F64) -> F64:
    """The 3x3 net (in the frame where the fold runs down the centre column): the left side from the left
    half's map, the right side from the right half's, the fold line where both put it (their mean); the
    corners moved onto the grid's visible outer edge as on a flat board (`_outer_edges`) by each half."""
    edges_l, edges_r = _outer_edges(img, left), _outer_edges(img, right)
    net = np.zeros((3, 3, 2), dtype=np.float64)
    tl, bl = edges_l[0], edges_l[3]
    tr, br = edges_r[1], edges_r[2]
    net[:, 0] = _apply(left, np.array([tl, (tl + bl) / 2, bl]))
    net[:, 2] = _apply(right, np.array([tr, (tr + br) / 2, br]))
    top_l, bottom_l = (edges_l[0] + edges_l[1]) / 2, (edges_l[3] + edges_l[2]) / 2
    top_r, bottom_r = (edges_r[0] + edges_r[1]) / 2, (edges_r[3] + edges_r[2]) / 2
    centre = np.array([FOLD_AT, FOLD_AT])
    net[:, 1] = 0.5 * (_apply(left, np.array([top_l, centre, bottom_l]))
                       + _apply(right, np.array([top_r, centre, bottom_r])))
    return net


def _quarter_maps(net: F64) -> list[list[F64]]:
    """[row][col] grid->image homography of each quarter of the grid (squares 0..7.5, 7.5..15) from the net."""
    out: list[list[F64]] = []
    for i in range(2):
        row: list[F64] = []
        for j in range(2):
            grid = np.array([[NET[j], NET[i]], [NET[j + 1], NET[i]], [NET[j + 1], NET[i + 1]], [NET[j], NET[i + 1]]],
                            dtype=np.float32)
            img = np.array([net[i, j], net[i, j + 1], net[i + 1, j + 1], net[i + 1, j]], dtype=np.float32)
            row.append(np.asarray(cv2.getPerspectiveTransform(grid, img), dtype=np.float64))
        out.append(row)
    return out


def fold_points(fold: npt.ArrayLike, uv: npt.ArrayLike) -> F64:
    """Where grid points (u, v in squares, (n, 2)) are in the photo on a board found folded (`fold`: the
    `GridLocation.fold` net): each by the quarter it lies in (the quarters agree along their shared sides)."""
    net = np.asarray(fold, dtype=np.float64).reshape(3, 3, 2)
    pts = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
    maps = _quarter_maps(net)
    out = np.zeros_like(pts)
    for i in range(2):
        for j in range(2):
            sel = ((pts[:, 0] >= FOLD_AT) == bool(j)) & ((pts[:, 1] >= FOLD_AT) == bool(i))
            if sel.any():
                out[sel] = _apply(maps[i][j], pts[sel])
    return out


def fold_warp(image: U8, fold: npt.ArrayLike, cell_px: int, margin_cells: float,
              flags: int = cv2.INTER_LINEAR, border: int = cv2.BORDER_REPLICATE) -> U8:
    """The grid of a board found folded straightened to (15 + 2 * margin) squares of `cell_px` (grid point
    (u, v) at pixel ((u + margin) * cell_px, (v + margin) * cell_px), as `warp_grid` and
    `vision.cells.warp_board` place it): each quarter of the grid, and the margin beside it, by its own map.
    `fold`: the (3, 3, 2) net of `GridLocation.fold`, in `image`'s pixels."""
    net = np.asarray(fold, dtype=np.float64).reshape(3, 3, 2)
    maps = _quarter_maps(net)
    c = float(cell_px)
    side = round((SIZE + 2 * margin_cells) * c)
    mid = round((FOLD_AT + margin_cells) * c)
    out = np.empty((side, side, 3), dtype=np.uint8)
    spans = ((0, mid), (mid, side))
    for i, (y0, y1) in enumerate(spans):
        for j, (x0, x1) in enumerate(spans):
            if y1 <= y0 or x1 <= x0:
                continue
            # output pixel (x, y) of this piece -> grid -> photo
            to_img = maps[i][j] @ np.array([[1 / c, 0, x0 / c - margin_cells], [0, 1 / c, y0 / c - margin_cells],
                                            [0, 0, 1]], dtype=np.float64)
            out[y0:y1, x0:x1] = cv2.warpPerspective(image, np.linalg.inv(to_img), (x1 - x0, y1 - y0), flags=flags,
                                                    borderMode=border, borderValue=(0, 0, 0))
    return out


def _net_in_orientation(net: F64, grid_corners: F64, oriented: F64) -> F64:
    """The net renamed as `_orient` renamed the corners: `grid_corners` (TL, TR, BR, BL of the fitted grid)
    became `oriented` by a turn (or mirror) of the square, which the net follows."""
    at = [int(np.argmin(np.linalg.norm(grid_corners - p, axis=1))) for p in oriented]
    ends = np.array([[0, 0], [2, 0], [2, 2], [0, 2]])  # (col, row) of each corner in the net
    # the affine map of net indices (col, row): new corner k -> old corner at[k]
    src = np.hstack([ends[:3], np.ones((3, 1))])
    m = np.linalg.solve(src, ends[at[:3]])
    out = np.zeros_like(net)
    for r in range(3):
        for c in range(3):
            oc, orow = np.rint(np.array([c, r, 1.0]) @ m).astype(int)
            out[r, c] = net[orow, oc]
    return out


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
    side = (SIZE + 2 * pad) * c
    if fold is not None:  # a folded board: each quarter straightened by its own map
        warped = fold_warp(img, fold, c, pad, flags=cv2.INTER_LINEAR)
    else:
        to_img = h_grid @ np.array([[1 / c, 0, -pad], [0, 1 / c, -pad], [0, 0, 1]], dtype=np.float64)
        warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    gx, gy = _line_maps(warped)
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
        prof = _bands_across(g, inner_pos, half, c, rows=rows, first=pad, trim=False)
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
    strength = _comb_strengths(_smooth_lab(small), quads)
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
    grid_side = min(float(np.linalg.norm(q)) for q in np.diff(_grid_corners(best.h), axis=0, append=_grid_corners(
        best.h)[:1])) / s_small
    if grid_side * s_ref < 500 and s_ref < 1.0:
        refine_img, s_ref = img, 1.0
    scale = np.diag([s_ref / s_small, s_ref / s_small, 1.0])
    h = scale @ best.h
    share = 0.0
    suspects: list[tuple[int, F64, F64]] = []
    first_to_img = np.eye(3)
    for cell, reach in ((16, 0.45), (24, 0.3), (32, 0.2)):
        # (`_refine`, keeping the first tracing: the halves of a folding board are told apart on it)
        traced = _trace_lines(refine_img, h, cell, reach)
        solved = _solve_lines(traced[0], traced[1]) if traced is not None else None
        if traced is None or solved is None:
            break
        h_new = _corrected(traced[2], cell, solved[0])
        if cell == 16:
            suspects, first_to_img = _fold_suspects(traced[0], traced[1], solved[0]), traced[2]
        share_new = solved[1]
        if share_new <= 0.0 or not _is_sane(_grid_corners(h_new), refine_img.shape):
            break
        h, share = h_new, share_new
    if share <= 0.0:
        raise NoBoardFound("no Scrabble grid lines could be traced in the photo: photograph the whole board "
                           "from above, or mark its four corners")
    corners, fold, confidence = _assess(img, refine_img, s_ref, h, share, None)
    folded = _folded(refine_img, h, share, suspects, first_to_img)
    if folded is not None:
        # (kept only as sure a grid as the one plane: on the labelled photos two fits per half, of boards seen
        # steeply from the side, were kept by the halves' shares alone and their confidence fell to a third)
        c2, f2, conf2 = _assess(img, refine_img, s_ref, h, share, folded)
        if conf2 >= confidence:
            corners, fold, confidence = c2, f2, conf2
    method = best.method + ("+lines" if share > 0 else "")
    if not HALF_ASPECT < _aspect(h) < 1 / HALF_ASPECT:
        # A grid half a board wide beside the fold (one half's outline, lit apart from the other, taken for
        # the board): the rest of the board may lie across the fold
        for net, share_half in _half_boards(refine_img, h):
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
        corners = _orient(grid_corners / s_ref)
        fold: F64 | None = _net_in_orientation(net / s_ref, grid_corners / s_ref, corners)
        prem = float(_premium_fit(_cell_colours(refine_img, h, range(SIZE), net)))
        continued, support = _line_checks(refine_img, h, fold=net)
    else:
        edges = _outer_edges(refine_img, h)
        corners = _orient(_apply(np.diag([1 / s_ref, 1 / s_ref, 1.0]) @ h, edges))
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


# A grid this much narrower one way than the other as photographed (width / height, or its inverse) may be
# half a folding board (`_half_boards`): a half is 7.5 squares by 15, so it shows about half the board's own
# 0.85-1.2, 0.42-0.6 on the renders. The labelled photos (boards lying flat, some photographed from the side)
# show 0.90-1.52 (benchmarks/vision_fold.py --flat). (Looking for it on every doubtful grid too cost the
# doubtful labelled photos ~0.3 s each and found nothing.)
HALF_ASPECT = 0.65


def _aspect(h: F64) -> float:
    """Width over height of the grid `h` as the photo shows it (mean of the opposite sides)."""
    c = _grid_corners(h)
    width = float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3]))
    height = float(np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1]))
    return width / max(height, 1e-9)


def _half_boards(img: U8, h: F64) -> list[tuple[F64, float]]:
    """Whole boards (net, smaller half's share) that a doubtful grid `h` could be half of.

    One half of a folding board, lit apart from the other, makes an outline of its own, and a comb at half
    the squares' spacing fits it: 15 "columns" over the 7.5 columns from the fold to the board's edge. Each
    reading is tried (the fold down the centre column or across the centre row, the grid found being the left or
    the right half): the found half is refitted as a half, the other half searched for across the fold
    (`_across_fold`) and fitted (`_fit_half`)."""
    out: list[tuple[F64, float]] = []
    for axis in (0, 1):
        swap = _SWAP if axis else np.eye(3)
        for found_right in (False, True):
            # board squares -> the found grid's squares: u_found = 2 (u - 7.5) for the right half, 2 u for the left
            half = h @ swap @ np.array([[2, 0, -2 * FOLD_AT if found_right else 0.0], [0, 1, 0], [0, 0, 1]])
            found = _fit_half(img, half, found_right)
            if found is None:
                continue
            other = _fit_half(img, _across_fold(img, found[0], not found_right), not found_right)
            if other is None:
                continue
            left, right = (other[0], found[0]) if found_right else (found[0], other[0])
            net = _fold_net(img, left, right)
            out.append((net.transpose(1, 0, 2) if axis else net, min(found[1], other[1])))
    return out


def _folded(img: U8, h: F64, share_one: float, suspects: list[tuple[int, F64, F64]], first_to_img: F64
            ) -> tuple[F64, float] | None:
    """The net of a board whose halves are not one plane (`img`'s pixels) and the smaller of its halves' shares
    of traced evidence explained, or None when it lies flat.

    `suspects` (`_fold_suspects` of the first tracing, whose straightened->image map is `first_to_img`) name
    the axes along which its halves looked apart; each half is then fitted on its own (`_fit_halves`) and the
    fold kept, along the axis whose halves' fits move the grid most, when they move it by more than FOLD_FROM
    squares from the one-plane fit `h` and explain their halves' lines FOLD_BETTER better than `h` (whose
    inlier share is `share_one`) explains the board's."""
    best: tuple[float, F64, float] | None = None
    if suspects:
        # the final one-plane map traced once more: its share, like the halves', is then of lines traced
        # from the map itself (the last pass traced from the one before)
        traced = _trace_lines(img, h, 32, 0.2)
        solved = _solve_lines(traced[0], traced[1]) if traced is not None else None
        share_one = max(share_one, solved[1] if solved is not None else 0.0)
    for axis, g_left, g_right in suspects:
        swap = _SWAP if axis else np.eye(3)
        one = h @ swap
        starts = [[_corrected(first_to_img @ swap, 16, g), one] for g in (g_left, g_right)]
        fitted = _fit_halves(img, starts)
        if fitted is None:
            continue
        (left, right), share = fitted
        square = float(np.mean([np.linalg.norm(q) for q in np.diff(_grid_corners(one), axis=0)])) / SIZE
        gap = max(float(np.linalg.norm(_apply(m, _half_points(r)) - _apply(one, _half_points(r)), axis=1).max())
                  for m, r in ((left, False), (right, True))) / square
        if gap > FOLD_FROM and share >= share_one + FOLD_BETTER and (best is None or gap > best[0]):
            net = _fold_net(img, left, right)
            best = (gap, net.transpose(1, 0, 2) if axis else net, share)
    return None if best is None else (best[1], best[2])


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
