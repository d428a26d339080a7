"""Folding boards (issue 27): a board whose two halves meet at a small angle along its fold.

A board that folds down its middle (the Crossword boards, most Scrabble boards) rarely lies as one plane:
its two halves meet at a small angle along the fold, which runs down the middle of the centre column (or
row). One homography then fits one half and misses the other by a growing share of a square. After the
one-plane fit the traced lines are split at the fold; when the halves' own fits disagree with the one-plane
fit, each half is traced and fitted again on its own, and the grid is kept as a net of 3x3 points (the
grid's corners, the middles of its sides and its centre) whose four quarters are each straightened by the
map of the half they lie on (`fold_warp`); both halves' maps meet on the fold line.

Used by `vision.locate` after its one-plane fit; figures in docs/reader-fold.md.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.gridlines import (
    F64,
    LINES,
    SIZE,
    U8,
    apply_homography,
    corrected,
    grid_corners,
    line_maps,
    outer_edges,
    solve_lines,
    straightened,
    trace_lines,
)

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
_SWAP_ROWS = [4, 3, 5, 1, 0, 2, 7, 6, 8]  # a traced point's row of `trace_lines` with u and v swapped


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
    """`solve_lines` on one half's points (`_half_rows`), solved about the half's middle: the linear
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
        solved = solve_lines(rows, w[sel])
    if solved is None:
        return None
    shift = np.array([[1, 0, -du], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
    g = np.linalg.inv(shift) @ solved[0] @ shift
    return g / g[2, 2], solved[1]


def _half_points(right: bool) -> F64:
    """Points of one half (grid squares) where the halves' fits are compared with the one-plane fit."""
    us = (FOLD_AT, SIZE) if right else (0.0, FOLD_AT)
    return np.array([[u, v] for u in us for v in (0.0, FOLD_AT, SIZE)], dtype=np.float64)


def fold_suspects(a_mat: F64, w: F64, g_one: F64) -> list[tuple[int, F64, F64]]:
    """The axes (0: a fold down the centre column, 1: across the centre row) along which the halves' own fits
    of one tracing (`trace_lines`) differ from its one-plane fit `g_one` by more than FOLD_SUSPECT squares,
    with the halves' straightened->true maps."""
    return [(axis, g_l, g_r) for axis, gap, g_l, g_r in fold_gaps(a_mat, w, g_one) if gap > FOLD_SUSPECT]


def fold_gaps(a_mat: F64, w: F64, g_one: F64) -> list[tuple[int, float, F64, F64]]:
    """Per axis (`fold_suspects`): how far (squares) the halves' own fits move points of their half from
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
            gap = np.abs(apply_homography(np.linalg.inv(g), pts) - apply_homography(np.linalg.inv(one), pts)).max()
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
        traced = trace_lines(img, h, cell, reach)
        if traced is None:
            return None
        a_mat, w, to_img = traced
        solved = _solve_half(a_mat, w, right)
        if solved is None:
            return None
        h, share = corrected(to_img, cell, solved[0]), solved[1]
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
    evidence on its 8 lines down and 16 across, against the evidence half-way between them (as `comb` does),
    in the grid straightened by `h_found` with 3 squares of margin."""
    c, pad = 16, 3
    side = (SIZE + 2 * pad) * c
    warped, _ = straightened(img, h_found, c, pad)
    gx, gy = (cv2.GaussianBlur(g, (5, 5), 0) for g in line_maps(warped))
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
    corners moved onto the grid's visible outer edge as on a flat board (`outer_edges`) by each half."""
    edges_l, edges_r = outer_edges(img, left), outer_edges(img, right)
    net = np.zeros((3, 3, 2), dtype=np.float64)
    tl, bl = edges_l[0], edges_l[3]
    tr, br = edges_r[1], edges_r[2]
    net[:, 0] = apply_homography(left, np.array([tl, (tl + bl) / 2, bl]))
    net[:, 2] = apply_homography(right, np.array([tr, (tr + br) / 2, br]))
    top_l, bottom_l = (edges_l[0] + edges_l[1]) / 2, (edges_l[3] + edges_l[2]) / 2
    top_r, bottom_r = (edges_r[0] + edges_r[1]) / 2, (edges_r[3] + edges_r[2]) / 2
    centre = np.array([FOLD_AT, FOLD_AT])
    net[:, 1] = 0.5 * (apply_homography(left, np.array([top_l, centre, bottom_l]))
                       + apply_homography(right, np.array([top_r, centre, bottom_r])))
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
                out[sel] = apply_homography(maps[i][j], pts[sel])
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


def net_in_orientation(net: F64, grid_corners: F64, oriented: F64) -> F64:
    """The net renamed as `orient_corners` renamed the corners: `grid_corners` (TL, TR, BR, BL of the fitted grid)
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


# A grid this much narrower one way than the other as photographed (width / height, or its inverse) may be
# half a folding board (`half_boards`): a half is 7.5 squares by 15, so it shows about half the board's own
# 0.85-1.2, 0.42-0.6 on the renders. The labelled photos (boards lying flat, some photographed from the side)
# show 0.90-1.52 (benchmarks/vision_fold.py --flat). (Looking for it on every doubtful grid too cost the
# doubtful labelled photos ~0.3 s each and found nothing.)
HALF_ASPECT = 0.65


def aspect(h: F64) -> float:
    """Width over height of the grid `h` as the photo shows it (mean of the opposite sides)."""
    c = grid_corners(h)
    width = float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3]))
    height = float(np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1]))
    return width / max(height, 1e-9)


def half_boards(img: U8, h: F64) -> list[tuple[F64, float]]:
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


def folded(img: U8, h: F64, share_one: float, suspects: list[tuple[int, F64, F64]], first_to_img: F64
            ) -> tuple[F64, float] | None:
    """The net of a board whose halves are not one plane (`img`'s pixels) and the smaller of its halves' shares
    of traced evidence explained, or None when it lies flat.

    `suspects` (`fold_suspects` of the first tracing, whose straightened->image map is `first_to_img`) name
    the axes along which its halves looked apart; each half is then fitted on its own (`_fit_halves`) and the
    fold kept, along the axis whose halves' fits move the grid most, when they move it by more than FOLD_FROM
    squares from the one-plane fit `h` and explain their halves' lines FOLD_BETTER better than `h` (whose
    inlier share is `share_one`) explains the board's."""
    best: tuple[float, F64, float] | None = None
    if suspects:
        # the final one-plane map traced once more: its share, like the halves', is then of lines traced
        # from the map itself (the last pass traced from the one before)
        traced = trace_lines(img, h, 32, 0.2)
        solved = solve_lines(traced[0], traced[1]) if traced is not None else None
        share_one = max(share_one, solved[1] if solved is not None else 0.0)
    for axis, g_left, g_right in suspects:
        swap = _SWAP if axis else np.eye(3)
        one = h @ swap
        starts = [[corrected(first_to_img @ swap, 16, g), one] for g in (g_left, g_right)]
        fitted = _fit_halves(img, starts)
        if fitted is None:
            continue
        (left, right), share = fitted
        square = float(np.mean([np.linalg.norm(q) for q in np.diff(grid_corners(one), axis=0)])) / SIZE
        gap = max(float(np.linalg.norm(apply_homography(m, _half_points(r)) - apply_homography(one, _half_points(r)), axis=1).max())
                  for m, r in ((left, False), (right, True))) / square
        if gap > FOLD_FROM and share >= share_one + FOLD_BETTER and (best is None or gap > best[0]):
            net = _fold_net(img, left, right)
            best = (gap, net.transpose(1, 0, 2) if axis else net, share)
    return None if best is None else (best[1], best[2])
