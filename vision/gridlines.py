"""The grid's lines in an image: tracing them square by square and solving the map that puts them there.

Owns the geometry every grid fit shares (`vision.locate` for a board lying as one plane, `vision.fold` for
the two halves of a folding board): a homography from grid coordinates (u, v in squares, 0-15) to image
pixels and back, the line-strength maps of an image, a comb of regularly spaced lines in a profile, the
inner lines traced square by square and a correcting homography solved from "this point lies on line i"
constraints with outliers dropped, and the grid's visible outer edges.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

SIZE = 15
LINES = SIZE + 1
OUTERMOST = 0.8  # a peak this close to the strongest one counts as the same (thick) line's other side

F32 = npt.NDArray[Any]  # float32 maps (loosely typed for the same reason)
F64 = npt.NDArray[Any]  # float64 arrays (numpy reductions are typed loosely too)
U8 = npt.NDArray[Any]  # 8-bit images; OpenCV's stubs type its results loosely


def order_clockwise(pts: F64) -> F64:
    """Four points in clockwise order (image coordinates, y down) starting anywhere."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    return pts[np.argsort(ang)]


def orient_corners(corners: F64) -> F64:
    """Clockwise corners rotated so that TL is the grid's top-left as the image shows it."""
    pts = order_clockwise(corners)
    best, best_cost = pts, np.inf
    for k in range(4):
        p = np.roll(pts, -k, axis=0)
        top = (p[1] - p[0]) + (p[2] - p[3])  # mean direction of the top and bottom edges
        cost = abs(float(np.arctan2(top[1], top[0])))
        if cost < best_cost:
            best, best_cost = p, cost
    return best


def apply_homography(h: F64, pts: F64) -> F64:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], dtype=np.float64)


def grid_corners(h: F64) -> F64:
    return apply_homography(h, np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float64))


# ----------------------------------------------------------------------------------------------------
# line evidence


def smooth_lab(bgr: U8) -> U8:
    """The image slightly blurred, in Lab (8 bits): what line evidence is measured on."""
    return np.asarray(cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2LAB), np.uint8)


def line_maps(bgr: U8, lab8: U8 | None = None) -> tuple[F32, F32]:
    """|d/dx| and |d/dy| of lightness and colour, clipped so one strong outline cannot outweigh many thin lines.

    `lab8`: the Lab image already made (`smooth_lab`), in place of `bgr`."""
    lab = smooth_lab(bgr) if lab8 is None else lab8
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


def median_u8(img: U8) -> float:
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


def comb(profile: F64, lo: float, hi: float, top: int = 3) -> list[tuple[float, float, float]]:
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


# ----------------------------------------------------------------------------------------------------
# refinement


def band_profiles(g: F32, pos: int, half: int, c: int) -> F64:
    """Line evidence across column `pos` (+-half pixels), one profile per square-high band (15 rows).

    The middle two thirds of each band are used so the crossing lines do not blur the profile.
    """
    strip = g[c:(SIZE + 1) * c, pos - half:pos + half + 1].reshape(SIZE, c, 2 * half + 1)
    return np.asarray(strip[:, c // 6:c - c // 6, :].mean(axis=1), dtype=np.float64)


def bands_across(g: F32, positions: npt.NDArray[np.intp], half: int, c: int, rows: bool = False,
                  first: int = 1, trim: bool = True) -> F32:
    """`band_profiles` of `g` (of `g.T` with `rows`: lines along rows) at several positions at once,
    unconverted: (len(positions), 15, 2 * half + 1) from one gather instead of a call per line. The bands
    start `first` squares in; `trim` keeps their middle two thirds, as `band_profiles` does.

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


def refine(img: U8, h_grid: F64, cell: int, reach: float = 0.45) -> tuple[F64, float]:
    """One pass of line tracing: returns a corrected grid->image homography and the inlier share.

    Only the 14+14 inner lines are traced: the outer ones often sit beside a printed frame or margin
    whose edge is stronger than the line itself, and a regular grid's inner lines fix the outer ones.
    `reach` is how far (in squares) from its expected place a line is looked for.
    """
    traced = trace_lines(img, h_grid, cell, reach)
    if traced is None:
        return h_grid, 0.0
    a_mat, w, to_img = traced
    solved = solve_lines(a_mat, w)
    if solved is None:
        return h_grid, 0.0
    g, share = solved
    return corrected(to_img, cell, g), share


def corrected(to_img: F64, cell: int, g: F64) -> F64:
    """The grid->image map once `g` (straightened squares -> true squares, `solve_lines`) is solved."""
    c = cell
    # g maps warped squares -> true squares; the new grid->image map goes through its inverse
    new = to_img @ np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64) @ np.linalg.inv(g)
    return np.asarray(new / new[2, 2], dtype=np.float64)


def straightened(img: U8, h_grid: F64, cell: int, pad: int = 1) -> tuple[U8, F64]:
    """The grid `h_grid` maps straightened to `cell` px squares with `pad` squares of margin all round, and
    the straightened->image map."""
    side = (SIZE + 2 * pad) * cell
    to_img = h_grid @ np.array([[1 / cell, 0, -pad], [0, 1 / cell, -pad], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return warped, to_img


def trace_lines(img: U8, h_grid: F64, cell: int, reach: float,
                 lines: npt.NDArray[np.intp] | None = None) -> tuple[F64, F64, F64] | None:
    """The inner lines traced square by square in the grid straightened by `h_grid` (`cell` px squares):
    "point (u, v) lies on line i" constraints as rows of a linear system for `solve_lines`, their weights,
    and the straightened->image map; None when fewer than 40 points were found. `lines`: which inner lines
    (1..14) to trace, the same across and down (all by default)."""
    c = cell
    warped, to_img = straightened(img, h_grid, c)
    gx, gy = line_maps(warped)
    half = int(reach * c)
    rows: list[F64] = []
    weights: list[F64] = []
    along = np.arange(SIZE, dtype=np.float64) + 0.5  # centre of each band, in squares
    if lines is None:
        lines = np.arange(1, LINES - 1)
    for axis, g in ((0, gx), (1, gy)):  # horizontal lines are traced as vertical ones of gy.T
        # every inner line at once: (line, band, offset) profiles; rows come out line by line, band by band
        pos = (lines + 1) * c
        prof = np.asarray(bands_across(g, pos, half, c, rows=axis == 1), dtype=np.float64)
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


def solve_lines(a_mat: F64, weights: F64) -> tuple[F64, float] | None:
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


def outer_edges(img: U8, h_grid: F64, cell: int = 32, reach: float = 0.3) -> F64:
    """Grid corners (in squares) moved onto the visible outer edge of the grid.

    The inner lines fix a regular grid, but printed boards are not always regular at the rim (a wider
    outer line, a margin) and the grid's outer edge is what the corners mean. Each outer line is looked
    for band by band near its expected place (nearer is preferred; of two nearly equal peaks, the outer
    one, since both sides of a thick border line show); it moves only when most bands agree on a
    straight edge.
    """
    c = cell
    warped, _ = straightened(img, h_grid, c)
    gx, gy = line_maps(warped)
    half = int(reach * c)
    offs = np.arange(-half, half + 1, dtype=np.float64)
    prior = np.exp(-0.5 * (offs / (0.15 * c)) ** 2)
    lines: list[tuple[float, float]] = []  # per side: offset (squares) = a + b * position along
    for g, at in ((gx, 0), (gy.T, 0), (gx, SIZE), (gy.T, SIZE)):
        prof = band_profiles(g, (at + 1) * c, half, c)
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
