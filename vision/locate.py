"""Find and straighten the 15x15 playing grid in a photo of a physical board.

Owns the step from a raw photo to four grid corners (TL, TR, BR, BL in image orientation, outer edge of
the 15x15 grid, in the input image's pixels) and the straightened grid image. Reading squares is not done
here (`vision.cells`, `vision.read` do that).

How it works, and why:
1. Candidate quadrilaterals (board outlines, printed frames, the whole photo) come from contours of
   several edge/threshold maps of a downscaled copy. The biggest quadrilateral is often not the grid
   (a Monopoly Scrabble track, the board's frame), so a candidate is only a rough plane: each one is
   straightened and searched for a comb of 16 regularly spaced lines in both directions.
2. A comb fixes the spacing but not which 15 squares are the grid (a frame edge one square outside looks
   like a 17th line), so the premium-square colours of the standard layout pick the window: each premium
   class is one colour, so the right window explains most of the colour variance between squares.
3. The grid found this way is refined: the 16+16 lines are traced band by band in the straightened image,
   and a correcting homography is solved directly from "this point lies on line i" constraints, with
   outliers (tile edges, glare) dropped. This is repeated at a finer scale.
4. Confidence combines how much of the traced line evidence agrees with the final grid and how well the
   premium colours fit; a low value sets `doubtful` so the app asks the user for the corners instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

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
DOUBT_BELOW = 0.5

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class GridLocation:
    """Where the 15x15 grid is in a photo."""

    corners: F32  # float32 (4, 2): TL, TR, BR, BL outer corners of the 15x15 grid, input-image pixels
    confidence: float  # 0..1
    doubtful: bool  # True when the locator is not sure: the app then asks the user for four corners
    method: str  # which strategy found it (for debugging/benchmarks)


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


def _to_bgr(image: npt.NDArray[np.generic]) -> U8:
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


def _resize_long(img: U8, side: int) -> tuple[U8, float]:
    h, w = img.shape[:2]
    s = min(1.0, side / max(h, w))
    if s >= 1.0:
        return img, 1.0
    return cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA), s


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
    return p[:, :2] / p[:, 2:3]


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


def _line_maps(bgr: U8) -> tuple[F32, F32]:
    """|d/dx| and |d/dy| of lightness and colour, clipped so one strong outline cannot outweigh many thin lines."""
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = np.zeros(lab.shape[:2], np.float32)
    gy = np.zeros(lab.shape[:2], np.float32)
    for ch, wgt in ((0, 1.0), (1, 1.5), (2, 1.5)):
        gx += wgt * np.abs(cv2.Sobel(lab[:, :, ch], cv2.CV_32F, 1, 0, ksize=3))
        gy += wgt * np.abs(cv2.Sobel(lab[:, :, ch], cv2.CV_32F, 0, 1, ksize=3))
    both = np.concatenate([gx.ravel()[::7], gy.ravel()[::7]])
    cap = float(np.percentile(both, 97)) + 1e-3
    return np.minimum(gx, cap), np.minimum(gy, cap)


def _comb(profile: F64, lo: float, hi: float, top: int = 3) -> list[tuple[float, float, float]]:
    """Best (score, first line, spacing) for 16 equally spaced lines in a 1-D line-evidence profile.

    The score is the mean evidence on the 16 lines minus the mean half-way between them, in units of the
    profile's spread, so a comb of twice or half the true spacing scores low.
    """
    n = len(profile)
    p = (profile - np.median(profile)) / (profile.std() + 1e-6)
    p = np.convolve(p, np.array([0.25, 0.5, 0.25]), mode="same")
    xs = np.arange(n, dtype=np.float64)
    found: list[tuple[float, float, float]] = []
    for d in np.arange(lo, hi, 0.25):
        span = SIZE * d
        if span >= n - 1:
            break
        x0 = np.arange(0.0, n - 1 - span, 0.5)
        on = x0[:, None] + d * np.arange(LINES)[None, :]
        off = x0[:, None] + d * (np.arange(SIZE)[None, :] + 0.5)
        s = np.interp(on, xs, p).mean(axis=1) - np.interp(off, xs, p).mean(axis=1)
        k = int(np.argmax(s))
        found.append((float(s[k]), float(x0[k]), float(d)))
    found.sort(reverse=True)
    return found[:top]


def _cell_colours(bgr: U8, h_grid: F64, cells: range) -> F64:
    """Mean Lab colour of the middle of squares (row, col in `cells`) for a grid->image homography."""
    c = 12
    n = len(cells)
    first = cells.start
    # grid (u, v) -> small image of n x n squares of c pixels
    to_img = h_grid @ np.array([[1 / c, 0, first], [0, 1 / c, first], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(bgr, np.linalg.inv(to_img), (n * c, n * c), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).astype(np.float64)
    inner = lab.reshape(n, c, n, c, 3)[:, 3:9, :, 3:9, :]
    return inner.mean(axis=(1, 3))


def _premium_fit(colours: F64) -> float:
    """Share of the colour differences among 15x15 squares explained by the standard premium classes.

    Distances are capped, so a few tiles, glare spots or squares outside the photo cannot dominate either
    the explained or the unexplained part; uniform noise explains nothing.
    """
    x = colours.reshape(-1, 3)
    cls = _CLASSES.ravel()
    d0 = ((x - np.median(x, axis=0)) ** 2).sum(axis=1)
    cap = float(np.percentile(d0, 90)) + 1e-6
    total = float(np.minimum(d0, cap).sum()) + 1e-6
    within = 0.0
    for k in range(6):
        sel = x[cls == k]
        dk = ((sel - np.median(sel, axis=0)) ** 2).sum(axis=1)
        within += float(np.minimum(dk, cap).sum())
    return max(0.0, 1.0 - within / total)


# ----------------------------------------------------------------------------------------------------
# candidates


def _candidate_quads(small: U8) -> list[F64]:
    """Rough board/grid outlines: convex four-cornered contours of several edge and threshold maps."""
    h, w = small.shape[:2]
    area_min = 0.04 * h * w
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    maps: list[U8] = []
    med = float(np.median(blur))
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

    quads: list[tuple[float, F64]] = []
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
                        quads.append((a, _order_clockwise(q)))
                    break
    # the whole photo: a board filling the frame, or a photo already cropped to the grid
    inset = 0.01 * max(h, w)
    full = np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset], [inset, h - inset]])
    quads.append((float(h * w), full))

    quads.sort(key=lambda t: -t[0])
    kept: list[F64] = []
    for _, q in quads:
        tol = 0.02 * max(h, w)
        if all(np.abs(q - k2).max() > tol for k2 in kept):
            kept.append(q)
        if len(kept) >= 24:
            break
    return kept


@dataclass
class _Found:
    h: F64  # grid (u, v in squares) -> detection-image pixels
    score: float
    premium: float
    method: str


def _grid_in_quad(small: U8, quad: F64, method: str) -> _Found | None:
    """The best 15x15 grid inside (or around) a roughly straightened candidate outline."""
    n = SCORE_SIDE
    m = round(0.08 * n)
    side = n + 2 * m
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], dtype=np.float32)
    to_warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst).astype(np.float64)
    warped = cv2.warpPerspective(small, to_warp, (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    gx, gy = _line_maps(warped)
    inner = slice(m, m + n)
    px = gx[inner, :].mean(axis=0).astype(np.float64)
    py = gy[:, inner].mean(axis=1).astype(np.float64)
    lo, hi = 0.4 * n / SIZE, 1.08 * n / SIZE
    cx = _comb(px, lo, hi)
    cy = _comb(py, lo, hi)
    if not cx or not cy:
        return None
    from_warp = np.linalg.inv(to_warp)
    best: _Found | None = None
    for sx, x0, dx in cx:
        for sy, y0, dy in cy:
            if max(dx, dy) > 1.5 * min(dx, dy):
                continue  # a straightened outline keeps squares roughly square
            # the comb fixes spacing; the window of 15 squares along it is chosen by premium colours
            lattice = from_warp @ np.array([[dx, 0, x0], [0, dy, y0], [0, 0, 1]], dtype=np.float64)
            cols = _cell_colours(small, lattice, range(-2, SIZE + 2))
            for ky in range(-2, 3):
                for kx in range(-2, 3):
                    win = cols[ky + 2:ky + 2 + SIZE, kx + 2:kx + 2 + SIZE]
                    prem = _premium_fit(win)
                    # line evidence of this window (the comb score applies exactly only to k = 0)
                    score = prem + 0.08 * (sx + sy) - 0.05 * (abs(kx) + abs(ky))
                    if best is None or score > best.score:
                        shift = np.array([[1, 0, kx], [0, 1, ky], [0, 0, 1]], dtype=np.float64)
                        hg = lattice @ shift
                        if _is_sane(_grid_corners(hg), small.shape):
                            best = _Found(hg, score, prem, method)
    return best


# ----------------------------------------------------------------------------------------------------
# refinement


def _refine(img: U8, h_grid: F64, cell: int) -> tuple[F64, float]:
    """One pass of line tracing: returns a corrected grid->image homography and the inlier share."""
    c = cell
    side = (SIZE + 2) * c
    to_img = h_grid @ np.array([[1 / c, 0, -1], [0, 1 / c, -1], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    gx, gy = _line_maps(warped)
    half = int(0.45 * c)
    rows: list[list[float]] = []
    weights: list[float] = []
    offs = np.arange(-half, half + 1, dtype=np.float64)
    for axis, g in ((0, gx), (1, gy)):
        for i in range(LINES):
            pos = (i + 1) * c
            for j in range(SIZE):
                a, b = (j + 1) * c + c // 6, (j + 2) * c - c // 6
                if axis == 0:
                    prof = g[a:b, pos - half:pos + half + 1].mean(axis=0)
                else:
                    prof = g[pos - half:pos + half + 1, a:b].mean(axis=1)
                k = int(np.argmax(prof))
                peak = float(prof[k])
                base = float(np.median(prof))
                if peak <= base * 1.3 or k in (0, len(prof) - 1):
                    continue
                # parabolic sub-pixel peak
                y0, y1, y2 = float(prof[k - 1]), peak, float(prof[k + 1])
                den = y0 - 2 * y1 + y2
                frac = 0.5 * (y0 - y2) / den if den < 0 else 0.0
                at = (pos + offs[k] + frac) / c - 1  # in squares, 0..15
                along = (j + 1.5) - 1  # centre of the band, in squares
                u, v = (at, along) if axis == 0 else (along, at)
                if axis == 0:
                    rows.append([u, v, 1, 0, 0, 0, -i * u, -i * v, -i])
                else:
                    rows.append([0, 0, 0, u, v, 1, -i * u, -i * v, -i])
                weights.append(peak - base)
    if len(rows) < 40:
        return h_grid, 0.0
    a_mat = np.array(rows, dtype=np.float64)
    w = np.array(weights, dtype=np.float64)
    w = w / w.max()
    keep = np.ones(len(w), dtype=bool)
    g = np.eye(3)
    for tol in (0.3, 0.18, 0.12):
        sel = a_mat[keep] * np.sqrt(w[keep])[:, None]
        _, _, vt = np.linalg.svd(sel, full_matrices=False)
        g = vt[-1].reshape(3, 3)
        g = g / g[2, 2]
        pu = a_mat[:, :3] + a_mat[:, 3:6]  # (u, v, 1) of each point (one half is zero)
        mapped = pu @ g.T
        uv = mapped[:, :2] / mapped[:, 2:3]
        target = -a_mat[:, 8]
        is_v = a_mat[:, 2] == 1
        res = np.where(is_v, uv[:, 0], uv[:, 1]) - target
        keep = np.abs(res) < tol
        if keep.sum() < 40:
            return h_grid, 0.0
    share = float((w * keep).sum() / w.sum())
    # g maps warped squares -> true squares; the new grid->image map goes through its inverse
    new = to_img @ np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64) @ np.linalg.inv(g)
    return new / new[2, 2], share


# ----------------------------------------------------------------------------------------------------
# public API


def locate_grid(image_bgr: npt.NDArray[np.generic]) -> GridLocation:
    """Locate the 15x15 grid; raises `NoBoardFound` when no grid can be seen at all."""
    img = _to_bgr(image_bgr)
    small, s_small = _resize_long(img, DETECT_SIDE)
    best: _Found | None = None
    for i, quad in enumerate(_candidate_quads(small)):
        found = _grid_in_quad(small, quad, "outline")
        if found is not None and (best is None or found.score > best.score):
            best = found
    if best is None or best.score < 0.15:
        raise NoBoardFound("no Scrabble grid found in the photo: photograph the whole board from above, "
                           "or mark its four corners")
    refine_img, s_ref = _resize_long(img, REFINE_SIDE)
    scale = np.diag([s_ref / s_small, s_ref / s_small, 1.0])
    h = scale @ best.h
    share = 0.0
    for cell in (16, 24, 32):
        h_new, share_new = _refine(refine_img, h, cell)
        if share_new <= 0.0 or not _is_sane(_grid_corners(h_new), refine_img.shape):
            break
        h, share = h_new, share_new
    corners = _grid_corners(np.diag([1 / s_ref, 1 / s_ref, 1.0]) @ h)
    corners = _orient(corners)
    prem = _premium_fit(_cell_colours(refine_img, h, range(SIZE)))
    confidence = float(np.clip(0.6 * share + 0.6 * prem, 0.0, 1.0))
    return GridLocation(corners=corners.astype(np.float32), confidence=confidence,
                        doubtful=confidence < DOUBT_BELOW, method=best.method)


def warp_grid(image_bgr: npt.NDArray[np.generic], corners: npt.ArrayLike, cell_px: int = 64,
              margin_cells: float = 0.0) -> U8:
    """The straightened grid: a square of 15*cell_px (+ margin_cells squares each side) BGR pixels."""
    img = _to_bgr(image_bgr)
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
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
