"""Which squares hold a tile: per-square features and a small learned model over them.

A tile differs from an empty square in two ways this module measures: it carries one letter-sized
glyph near its centre (premium text is several small words; the star is not letter-shaped in the
places it matters), and its colour matches the other tiles on the same board rather than the empty
squares of the same premium kind. Both comparisons are made within the photo, so lighting and board
colours cancel out. The weights (`assets/vision/occupancy.npz`) are produced by `vision/train.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.cells import CELL, MARGIN, SIZE, U8, Glyph, cell_window, dark_centre, find_glyph
from vision.mlp import Mlp

ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "occupancy.npz"
# Where the decision rule begins in this file (what `vision.train` leaves out of its feature cache key).
DECISION_MARK = "# ---- The decision from the features"

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
# The occupancy features, in the order `measure` stacks them (the trained model expects this order).
FEATURES = (
    "glyph", "glyph_height", "glyph_width", "glyph_offset", "glyph_ink",
    "to_tile_colour", "to_empty_colour", "empty_minus_tile", "colour_spread", "edges", "dark_ink",
    "lightness", "centred_letter", "tile_board_contrast",
    "z_to_empty", "z_to_tile", "z_side_gradient",
    "dark_ink_compact", "light_ink", "light_ink_compact", "neighbour_contrast",
    "letters_around", "between_letters", "to_local_empty", "to_local_tile", "local_empty_share", "plain_kind",
)
ODD_Z = 4.0  # spreads from both the empty squares of its kind and the tiles: a square worth a light-letter look
PLAIN_AT_MOST = 0.45
KINDS = {".": 0, "d": 1, "t": 2, "D": 3, "T": 4}
_KIND_GRID = np.array([[KINDS[ch] for ch in row] for row in _LAYOUT_ROWS], np.int64)


@dataclass
class SquareLook:
    """What the reader measured on every square of one photo (arrays are 15x15 unless noted)."""

    glyphs: list[list[Glyph | None]]
    features: F32  # (225, n_features)
    board_evidence: float = 0.0  # how much the premium squares differ in colour from plain ones (Lab units)
    # Thin marks set aside as a tile's edge, not a letter (`_edges_are_not_letters`), by (row, col): a later
    # glyph search on the square skips them.
    edges: dict[tuple[int, int], Glyph] = dataclasses.field(default_factory=dict)


Pixel = TypeVar("Pixel", bound=np.generic)  # the element type a view of an image keeps


def _cells(img: npt.NDArray[Pixel], cell_px: int) -> npt.NDArray[Pixel]:
    """The 15x15 grid of a straightened image as a (15, 15, cell_px, cell_px, ...) view, no copy."""
    m = round(MARGIN * cell_px)
    grid = img[m:m + SIZE * cell_px, m:m + SIZE * cell_px]
    shape = (SIZE, cell_px, SIZE, cell_px, *img.shape[2:])
    return grid.reshape(shape).swapaxes(1, 2)


def _ring(cell_px: int, inner: float, outer: float) -> npt.NDArray[np.bool_]:
    """Pixels of a square whose distance from the nearest side lies in [inner, outer) squares."""
    i = np.arange(cell_px, dtype=np.float32) + 0.5
    d1 = np.minimum(i, cell_px - i) / cell_px
    d = np.minimum(d1[:, None], d1[None, :])
    return np.asarray((d >= inner) & (d < outer), np.bool_)


def _robust_z(values: F32, ref: npt.NDArray[np.bool_], kinds: npt.NDArray[np.int64], floor: float) -> F32:
    """`values` (15x15) as distances from the median of `ref` squares of the same premium kind, in units
    of those squares' spread (median absolute deviation); kinds with too few reference squares use all."""
    out = np.zeros_like(values)
    for k in range(len(KINDS)):
        sel = kinds == k
        pool = values[sel & ref]
        if pool.size < 3:
            pool = values[ref] if ref.sum() >= 3 else values.ravel()
        med = float(np.median(pool))
        mad = float(np.median(np.abs(pool - med)))
        out[sel] = (values[sel] - med) / max(1.4826 * mad, floor)
    return out


_YX = np.stack(np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij"), axis=-1).reshape(-1, 2)
_DIST2 = ((_YX[:, None, :] - _YX[None, :, :]) ** 2).sum(axis=2).astype(np.float32)  # (225, 225) squared


def _local_mean(colour: F32, ref: npt.NDArray[np.bool_], sigma: float) -> F32:
    """For every square, the distance-weighted mean colour of the `ref` squares around it (not itself)."""
    w = np.exp(-_DIST2 / (2 * sigma * sigma)) * ref.reshape(1, -1)
    np.fill_diagonal(w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    flat = colour.reshape(-1, 3)
    fallback = flat[ref.ravel()].mean(axis=0) if ref.any() else flat.mean(axis=0)
    mean = np.where(total > 1e-3, (w @ flat) / np.maximum(total, 1e-6), fallback)
    return np.asarray(mean.reshape(SIZE, SIZE, 3), np.float32)


def touching(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Squares with a side against a square of `mask` (over the last two axes: one board or a stack)."""
    pad = [(0, 0)] * (mask.ndim - 2) + [(1, 1), (1, 1)]
    m = np.pad(mask, pad)
    return m[..., :-2, 1:-1] | m[..., 2:, 1:-1] | m[..., 1:-1, :-2] | m[..., 1:-1, 2:]


def _centred(g: Glyph | None, shortest: float = 0.38) -> bool:
    """A letter-sized glyph (from `shortest` of a square tall) near the square's centre: almost always a tile's
    letter."""
    # Taller marks (0.78-0.9 of a square) are shadows and gaps between tiles: no labelled letter is that tall.
    return g is not None and shortest <= g.height <= 0.78 and abs(g.dx) < 0.22 and abs(g.dy) < 0.22


def _light_letters_on_odd_squares(gray: U8, glyphs: list[list[Glyph | None]], colour: F32, cell_px: int) -> None:
    """Squares coloured unlike the empty squares of their kind, darker in the middle than around, may be
    dark tiles with light letters: there a centred light letter replaces whatever dark mark (a tile edge,
    a shadow) was found.

    Only such odd squares are searched, so the white print of ordinary dark premium squares is never taken
    for a letter, and the extra search costs little. Light tiles with dark letters are not dark in the
    middle, so they keep their letter.
    """
    centred = np.array([[_centred(g) for g in row] for row in glyphs])
    d_empty = np.zeros(colour.shape[:2], np.float32)
    for kind in range(len(KINDS)):
        sel = (_KIND_GRID == kind) & ~centred
        ref = np.median(colour[sel if sel.sum() >= 2 else _KIND_GRID == kind], axis=0)
        d_empty[_KIND_GRID == kind] = np.linalg.norm(colour[_KIND_GRID == kind] - ref, axis=1)
    # A board of dark tiles only has no light tiles to compare with (and the dark search may have taken
    # a tile's edge for a centred mark), so every odd square is searched; a centred light letter on a dark
    # square wins over a dark mark found there.
    odd = (_robust_z(d_empty, ~centred, _KIND_GRID, 2.0) > ODD_Z) & ~centred
    for r, c in zip(*np.nonzero(odd), strict=True):
        window = cell_window(gray, r, c, 1.5, cell_px)
        if not dark_centre(window):
            continue
        light = find_glyph(255 - window, cell_px)
        if light is not None and _centred(light):
            glyphs[r][c] = dataclasses.replace(light, inverted=True)


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


# A mark narrower than EDGE_WIDTH (share of a square) lying more than EDGE_OFF from where the centred letters
# within two squares sit (their median offset; fewer than 3 near: the board's) is the side of a tile or the
# dark gap beside one, not a letter. Leave-one-set-out (models of this stop, automatic corners), thin marks on
# squares judged tiles: every real I lies within 0.23 of its neighbours' letters (jheidel's camera shifts
# letters a quarter square: the neighbours' are shifted alike), the sides read as I on umich's empty wooden
# squares (7 read as letters) 0.32-0.52, the sides of plain blank tiles read as I 0.41-0.58. Marks 0.2-0.3
# wide that far off: 67, all on empty squares (declanfinerty board_001 H5, an I tile's shaded side, read as
# W) but one plain blank's side (jheidel 170725 O15, read as F); every letter but I is wider.
EDGE_WIDTH = 0.3
EDGE_OFF = 0.3


def letter_offset_near(letters: npt.NDArray[np.float64], board: npt.NDArray[np.float64],
                       r: int, c: int) -> npt.NDArray[np.float64]:
    """Where letters sit on their squares around (r, c): the median offset (dx, dy) of `letters` (rows of
    row, col, dx, dy) within two squares, or `board` (theirs over the whole board) when fewer than 3 are
    near. A photo's angle shifts the letters of one part of the board alike (a tile's top is seen off its
    square by the tile's thickness)."""
    near = letters[(np.abs(letters[:, 0] - r) <= 2) & (np.abs(letters[:, 1] - c) <= 2), 2:]
    return np.median(near, axis=0) if len(near) >= 3 else board


def _edges_are_not_letters(glyphs: list[list[Glyph | None]]) -> dict[tuple[int, int], Glyph]:
    """Set aside (in place) thin marks far from where the letters around sit; returns where they were."""
    letters = np.array([(r, c, g.dx, g.dy) for r, row in enumerate(glyphs) for c, g in enumerate(row)
                        if g is not None and _centred(g)], np.float64).reshape(-1, 4)
    if len(letters) < 3:
        return {}
    board = np.median(letters[:, 2:], axis=0)
    edges = {}
    for r in range(SIZE):
        for c in range(SIZE):
            g = glyphs[r][c]
            if g is None or g.width >= EDGE_WIDTH or _centred(g):
                continue
            dx, dy = letter_offset_near(letters, board, r, c)
            if max(abs(g.dx - dx), abs(g.dy - dy)) > EDGE_OFF:
                edges[(r, c)] = g
                glyphs[r][c] = None
    return edges


def square_colours(warped_bgr: U8, dark: npt.NDArray[np.bool_],
                   cell_px: int = CELL) -> tuple[F32, npt.NDArray[np.float64]]:
    """Each square's Lab colour without its print, and how much its plain pixels vary (15x15x3, 15x15).

    Colour of the square without its print: median over the middle's non-ink pixels (all of them when
    "ink" covers most of the middle: on a dark tile with a light letter everything around the letter is
    darker than the letter, and the non-ink pixels are the letter's, so the tile measured as light as
    the empty squares and was never searched for a light letter). Spread: the pixels' standard deviation,
    averaged over L, a and b. Both for all squares at once, equal to the square-by-square definition.
    """
    y0 = cell_px // 5
    core = slice(y0, cell_px - y0)
    n_core = (cell_px - 2 * y0) ** 2
    n_sq = SIZE * SIZE
    # Lab of the squares' middles only (a third of the image): conversion is per pixel, so the same values.
    # Laid out (channel, square, pixel), so every sort and sum below runs along the last, contiguous axis.
    bgr_c = np.ascontiguousarray(_cells(warped_bgr, cell_px)[:, :, core, core]).reshape(n_sq, n_core, 3)
    lab = np.ascontiguousarray(cv2.cvtColor(bgr_c, cv2.COLOR_BGR2LAB).transpose(2, 0, 1))
    dark_c = _cells(dark, cell_px)[:, :, core, core].reshape(n_sq, n_core)
    few = (~dark_c).sum(axis=1) < max(10, n_core // 2)
    dark_c = dark_c & ~few[:, None]
    keep = ~dark_c
    valid = keep.sum(axis=1)
    # Ink pixels become 256, above every Lab value, so after sorting the median is the middle of the valid
    # prefix (16-bit values sort by radix, in linear time).
    srt = np.sort(np.where(dark_c, np.uint16(256), lab), axis=2, kind="stable")
    mid = np.broadcast_to(((valid - 1) // 2)[None, :, None], (3, n_sq, 1))
    colour = np.take_along_axis(srt, mid, axis=2)[:, :, 0].T.reshape(SIZE, SIZE, 3).astype(np.float32)
    # The spread from exact integer sums: var = E[x^2] - E[x]^2.
    kept = (lab * keep).astype(np.int32)
    mean = kept.sum(axis=2) / valid
    var = np.einsum("cqp,cqp->cq", kept, kept, dtype=np.int64) / valid - mean * mean
    spread = np.sqrt(np.maximum(var, 0.0)).mean(axis=0).reshape(SIZE, SIZE)
    return colour, spread


def measure(warped_bgr: U8, cell_px: int = CELL) -> SquareLook:
    """Glyphs and occupancy features of all 225 squares of a straightened board (from `warp_board`).

    Only the glyph search looks at squares one by one; everything else is measured once over the whole
    straightened image and read per square through a (15, 15, cell, cell) view.
    """
    gray = np.asarray(cv2.cvtColor(warped_bgr, cv2.COLOR_BGR2GRAY), np.uint8)
    glyphs: list[list[Glyph | None]] = [
        [find_glyph(cell_window(gray, r, c, 1.5, cell_px), cell_px) for c in range(SIZE)] for r in range(SIZE)]
    _settle_shared_glyphs(gray, glyphs, cell_px)

    # Ink in both polarities, relative to the local background: dark print on light tiles, and light
    # print on dark tiles (also premium squares' white text, which the colour features tell apart).
    k = max(3, (cell_px // 4) | 1)
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    g32 = gray.astype(np.float32)
    dark = g32 < 0.8 * cv2.morphologyEx(gray, cv2.MORPH_CLOSE, se).astype(np.float32)
    light = g32 > 1.25 * cv2.morphologyEx(gray, cv2.MORPH_OPEN, se).astype(np.float32) + 8.0
    blur = cv2.GaussianBlur(g32, (5, 5), 1.2)
    grad = cv2.magnitude(cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3))
    canny = cv2.Canny(gray, 60, 150) > 0
    colour, spread = square_colours(warped_bgr, dark, cell_px)
    y0 = cell_px // 5
    core = slice(y0, cell_px - y0)
    edges = _cells(canny, cell_px)[:, :, core, core].mean(axis=(2, 3))
    inkshare = _cells(dark, cell_px).mean(axis=(2, 3))
    centre, ring, band = _ring(cell_px, 0.25, 1.0), _ring(cell_px, 0.08, 0.25), _ring(cell_px, 1 / 6, 2 / 6)
    dark_all, light_all = _cells(dark, cell_px), _cells(light, cell_px)
    dark_centre, dark_ring = dark_all[:, :, centre].mean(axis=2), dark_all[:, :, ring].mean(axis=2)
    light_centre, light_ring = light_all[:, :, centre].mean(axis=2), light_all[:, :, ring].mean(axis=2)
    band_grad = _cells(grad, cell_px)[:, :, band].mean(axis=2)

    kinds = _KIND_GRID
    _light_letters_on_odd_squares(gray, glyphs, colour, cell_px)
    edge_marks = _edges_are_not_letters(glyphs)
    present = np.array([[g is not None for g in row] for row in glyphs])
    centred = np.array([[_centred(g) for g in row] for row in glyphs])
    flat = colour.reshape(-1, 3)
    # The tile colour: squares with a well-centred letter are almost always tiles.
    tile_col = np.median(colour[centred], axis=0) if centred.sum() >= 3 else np.percentile(flat, 90, axis=0)
    empty_col = np.zeros_like(colour)
    board_empty = np.median(colour[~present], axis=0) if (~present).sum() >= 5 else np.median(flat, axis=0)
    for kind in range(len(KINDS)):
        # Premium print often passes the glyph test, so the reference is every square of the kind without a
        # well-centred letter (all squares of the kind when tiles cover nearly all of them).
        sel = (kinds == kind) & ~centred
        ref = np.median(colour[sel if sel.sum() >= 2 else kinds == kind], axis=0)
        empty_col[kinds == kind] = ref
    d_tile = np.linalg.norm(colour - tile_col, axis=2)
    d_empty = np.linalg.norm(colour - empty_col, axis=2)
    scale = float(np.linalg.norm(tile_col - board_empty)) + 8.0
    # The same distances in units of their own spread on this photo: how unusual the square is for an
    # empty square of its premium kind, and for a tile.
    z_empty = _robust_z(d_empty, ~centred, kinds, 2.0)
    z_tile = _robust_z(d_tile, centred, np.zeros_like(kinds), 2.0)
    # A tile is a raised block: its sides and shadow put gradient into a band just inside the square's
    # border. Printed premium squares have gradient there too, so compare with empty squares of the kind.
    z_band = _robust_z(band_grad, ~centred, kinds, 1.0)
    # Light falls unevenly (vignetting, a lamp at one side), so compare with nearby squares too: the
    # colour of the plain unlettered squares and of the lettered ones around each square, weighted by
    # distance (the square itself left out).
    local_empty = _local_mean(colour, (kinds == 0) & ~centred, 2.5)
    local_tile = _local_mean(colour, centred, 3.0)
    d_local_empty = np.linalg.norm(colour - local_empty, axis=2)
    d_local_tile = np.linalg.norm(colour - local_tile, axis=2)
    # Neighbours: how different the square looks from the four around it, and whether it sits in a line
    # of lettered squares (a blank inside a word has letters on both sides).
    padded = np.pad(colour, ((1, 1), (1, 1), (0, 0)), mode="edge")
    around = [padded[1 + dr:1 + dr + SIZE, 1 + dc:1 + dc + SIZE] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    contrast = np.mean([np.linalg.norm(colour - a, axis=2) for a in around], axis=0) / scale
    lc = np.pad(centred, 1).astype(np.float32)
    up, down, left, right = lc[:-2, 1:-1], lc[2:, 1:-1], lc[1:-1, :-2], lc[1:-1, 2:]
    lettered_around = (up + down + left + right) / 4.0
    in_line = np.maximum(up * down, left * right)

    def glyph_value(fn: Callable[[Glyph], float], default: float) -> F32:
        return np.array([[fn(g) if g is not None else default for g in row] for row in glyphs], np.float32)

    feats = np.stack([
        present.astype(np.float32),
        glyph_value(lambda g: g.height, 0.0),
        glyph_value(lambda g: g.width, 0.0),
        glyph_value(lambda g: abs(g.dx) + abs(g.dy), 1.0),
        glyph_value(lambda g: g.ink * 10, 0.0),
        d_tile / scale,
        d_empty / scale,
        (d_empty - d_tile) / scale,
        spread / 20.0,
        edges * 5,
        inkshare * 5,
        (colour[:, :, 0] - board_empty[0]) / 50.0,
        centred.astype(np.float32),
        np.full((SIZE, SIZE), scale / 50.0, np.float32),
        np.clip(z_empty, -5, 20) / 5,
        np.clip(z_tile, -5, 20) / 5,
        np.clip(z_band, -5, 20) / 5,
        (dark_centre - dark_ring) * 5,
        light_centre * 5,
        (light_centre - light_ring) * 5,
        contrast,
        lettered_around,
        in_line,
        d_local_empty / scale,
        d_local_tile / scale,
        d_local_empty / (d_local_empty + d_local_tile + 1.0),
        (kinds == 0).astype(np.float32),
    ], axis=2).astype(np.float32)
    assert feats.shape[2] == len(FEATURES)
    # A real board shows its premium pattern: the median colours of premium kinds differ from the plain
    # squares' (tiles cover some, never most). A picture with no board shows no such pattern.
    plain = np.median(colour[kinds == 0], axis=0)
    evidence = max(float(np.linalg.norm(np.median(colour[kinds == k], axis=0) - plain)) for k in range(1, 5))
    return SquareLook(glyphs, feats.reshape(SIZE * SIZE, -1), evidence, edge_marks)


# ---- The decision from the features: vision.train caches measured features keyed by this file up to here ----
# Where a look's letters sit on their squares, for the reading rules that judge a mark by it (the second look's
# tile sides and thin strokes in `vision.stages`, a shifted letter in `vision.confidence`): the centred letters'
# squares and offsets (rows of row, col, dx, dy) and their median offset, None when fewer than 3. The measured
# part above takes the same median in `_edges_are_not_letters`; it keeps its own text, which the training
# cache's key covers.
LettersAt = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None


def where_letters_sit(glyphs: list[list[Glyph | None]]) -> LettersAt:
    """The centred letters' squares and offsets and their median offset (`LettersAt`; `letter_offset_near`
    takes both), None when fewer than 3 letters are centred."""
    at = np.array([(r, c, g.dx, g.dy) for r, row in enumerate(glyphs) for c, g in enumerate(row)
                   if g is not None and _centred(g)], np.float64).reshape(-1, 4)
    return (at, np.median(at[:, 2:], axis=0)) if len(at) >= 3 else None

# A square with no letter is a blank tile only when it touches a lettered tile (a blank belongs to a word:
# inside it or at its end), is coloured like the tiles (`z_to_tile` <= BLANK_TILE_Z_AT_MOST, evenly:
# `colour_spread` <= BLANK_SPREAD_AT_MOST) and P(tile) >= BLANK_FROM; otherwise its P(tile) is capped at
# PLAIN_AT_MOST. Chosen on the leave-one-set-out readings (benchmarks/vision_styles.py, automatic corners):
# real blanks have z_to_tile <= 0.84 and spread <= 0.21 (b3nkang's NASPA blanks, umich's plain spacer tiles
# at word ends, declanfinerty's wooden ones); a tile's orange shadow smeared over empty squares (umich
# rectified_w17) spread 0.64-0.77; foil-covered premium squares z_to_tile 1.2-1.6. BLANK_FROM, with the
# models trained with jheidel: 0.7 / 0.8 / 0.9 left umich 38 / 33 / 26 squares wrong, jheidel 46 / 57 / 58
# (its game's blank on O10, 7-19 of 51 found): 0.9 invents fewest blanks. Left alone: empty squares in
# shadow between tiles that look like blanks (declanfinerty O9) and fold creases (umich G8, N8).
BLANK_FROM = 0.9
BLANK_TILE_Z_AT_MOST = 1.0
# ... and unlike the empty squares of its premium kind (`z_to_empty`, robust z / 5, at least BLANK_ODD_FROM): a
# tile is not the board. With the edge marks set aside (EDGE_WIDTH), umich's plain wooden empty squares taken
# for blanks (P(tile) 0.92-0.96: K6 and K7 of rectified_w5 and w12, G8 of two photos) had z_to_empty -0.17
# to 0.09, while every real blank of the labelled sets, left out, was 0.34-4.0, but jheidel 170800's O15
# (0.00, half off the board's corner).
BLANK_ODD_FROM = 0.2
# Spread: with the edge marks set aside, the real blanks of the labelled sets, left out, are 0.06-0.22 (b3nkang's
# NASPA print the most), and two empty squares umich took for blanks 0.26 (a laminated board's glare, J1) and
# 0.34 (M8): 0.35 -> 0.25 reads those two right and changes nothing else but one square of jheidel 170032 (read
# sideways, wrong either way).
BLANK_SPREAD_AT_MOST = 0.25
# ... unless a light mark fills its middle: a dark tile whose light letter the dark-glyph search did not take
# (the reader looks for it once the square is a tile). Rendered navy tile F7 (seed 503): light_ink_compact
# 1.17, spread 1.20; the smeared shadows 0.
LIGHT_LETTER_FROM = 0.5
# ... or, the model less sure (P(tile) >= BLANK_NEAR_FROM), when it is coloured like the lettered tiles around it
# rather than the empty squares around it (`local_empty_share` >= BLANK_NEAR_SHARE_FROM: light falls unevenly, so
# near squares are the fairer comparison), as close to the tiles' colour as a typical tile (`z_to_tile` <=
# BLANK_NEAR_TILE_Z_AT_MOST), evenly (`colour_spread` <= BLANK_SPREAD_AT_MOST), and well away from the empty
# squares of its kind (`to_empty_colour` >= BLANK_NEAR_EMPTY_FROM). Measured left out (benchmarks/vision_styles.py,
# automatic corners): jheidel's 2015 game's blank on O10, P(tile) 0.45-0.86 on 23 of 27 photos, has share
# 0.78-0.89, z_to_tile -0.24..-0.01, to_empty_colour 0.54-1.12 (z_to_empty 0.03-0.76: under BLANK_ODD_FROM on
# four); the nearest empty squares are umich's wooden K6/K7 (share 0.71-0.75 but to_empty_colour 0.35-0.43) and
# rectified_w20 H2 (to_empty_colour 0.81 but share 0.71). Share 0.72 or no to_empty_colour condition took umich's
# K7s for blanks; no z_to_tile condition took two empty squares of umich (z_to_tile 0.27, 0.42).
BLANK_NEAR_SHARE_FROM = 0.75
BLANK_NEAR_TILE_Z_AT_MOST = 0.1
BLANK_NEAR_EMPTY_FROM = 0.5
# Issue 27 (blanks round): such a square is a blank even where the model leans to empty (P(tile) >= BLANK_NEAR_FROM,
# not 0.45 as before), its P(tile) raised to BLANK_NEAR_RAISED: the colour evidence (like the tiles around, unlike
# the empty squares around and of its kind, even, beside a letter) does not come from the model's weights, and
# the model not being sure it is empty is the second voice. Leave-one-set-out (held-out models, automatic corners,
# main's rules): of the squares of the six labelled sets and twelve trained render styles that meet the colour
# conditions beside a letter with no mark, all are tiles (36 blanks of umich and jheidel, 2 plain tiles of
# declanfinerty, b3nkang's blank and a Q whose letter the first look missed, 2 rendered blanks) but one empty
# square in shadow (declanfinerty board_003 J15, P(tile) 0.93, taken as a blank before this rule and left out by
# the set's two blanks); jheidel's 2015 blank on O10, read empty at P(tile) 0.38-0.50 on 5 photos (170317, 170737,
# 170755, 170757, 170803), meets them. A blank is never sure
# (`vision.confidence.BLANK_AT_MOST`), so one raised wrongly is asked, not scored.
BLANK_NEAR_FROM = 0.3
BLANK_NEAR_RAISED = 0.6
# ... or it is tile-like (as for BLANK_FROM) and far from the empty squares of its kind (`z_to_empty` >=
# BLANK_STRONG_ODD_FROM: robust z >= 7.5) with P(tile) >= BLANK_STRONG_FROM: umich's plain tile at a word's end on
# O4 (z 2.05 and 4.0, P(tile) 0.8996 and 0.8999) and jheidel 170755's corner blank O15 (4.0, 0.84); the empty
# squares taken with P(tile) 0.8-0.9 at a lower BLANK_FROM (umich 641554 N8, rectified_w10 C4) had z 0.31-0.32.
BLANK_STRONG_FROM = 0.8
BLANK_STRONG_ODD_FROM = 1.5
# Issue 27 (dark tiles, light print): the measured glyph search looks for dark print, so on a dark tile it may
# find no mark at all, and `decide` then caps the square below one half however sure the model's look is. Such
# a square, the model's look a tile (P(tile) >= UNLETTERED_TILE_FROM), coloured like the tiles (`z_to_tile` <=
# BLANK_TILE_Z_AT_MOST) and far from the empty squares of its kind (`z_to_empty` >= BLANK_STRONG_ODD_FROM), is
# looked at again for a light letter, as a tile is (`unlettered_tiles`, `vision.stages.see_squares`): a letter
# the network reads plainly makes it a tile, never sure. Held-out black tiles in a gold serif (4 renders): the
# T, R, I, F read empty at 0.55 had P(tile) 0.97-1.00, z_to_tile -0.05..0.80, z_to_empty 4.0 (the clip).
UNLETTERED_TILE_FROM = 0.5
# ... or coloured like the tiles near it rather than the empty squares near it (`local_empty_share` >=
# BLANK_NEAR_SHARE_FROM, `to_empty_colour` >= BLANK_NEAR_EMPTY_FROM, as a blank near its word is judged), though
# further than BLANK_TILE_Z_AT_MOST from the board's typical tile: a light letter that fills its tile (an O, an E
# in a wide face) lifts the square's colour off the tiles' median. Held-out plum_slab (cream slab print on plum
# tiles): 500 M12's O and 501 E6's E, P(tile) 1.00, z_to_empty 4.0, z_to_tile 1.10 and 1.10, share 0.85 and 0.81,
# to_empty_colour 0.87 and 0.73, read empty at 0.55. The letter must still be read as a letter on them.
# `unmarked_tiles` names apart the same squares near the empty squares of their kind in colour (`z_to_empty` under
# BLANK_STRONG_ODD_FROM): a dark tile on a premium square of nearly its colour (a teal or green tile on a triple
# letter square's blue). The colour cannot say tile there, so only the rescue rule (a letter plainly read) makes
# them tiles. Held-out teal_fold_steep 502 N6 and green_tiles 502 J10 (light print on a tile in a line of
# tiles, on a triple letter square): P(tile) 0.98 and 1.00, z_to_tile 0.10 and 0.14, z_to_empty 0.16 and 0.35,
# no mark found, read empty at 0.55; looked at for a light letter, N and E at 1.00.


class OccupancyModel:
    """P(tile) for each square from its features; weights from `assets/vision/occupancy.npz`."""

    def __init__(self, net: Mlp) -> None:
        self.net = net

    @classmethod
    def load(cls, path: Path = ASSET) -> OccupancyModel:
        return cls(Mlp.load(path))

    def probabilities(self, look: SquareLook) -> F32:
        return self.decide(look.features).reshape(SIZE, SIZE)

    def decide(self, features: F32) -> F32:
        """P(tile) per row of features (whole boards: 225 rows each), with the rule for squares that show
        no letter.

        The model learns blank tiles from lettered tiles with their print painted out (`vision/train.py`),
        but a board's own wood, a shadow or glare can look just as plain. A square without any letter is
        taken for a tile only when it touches a square the model reads as a lettered tile, is coloured like
        the board's tiles and unlike the empty squares of its kind, and the model is fairly sure
        (`BLANK_FROM`; `BLANK_STRONG_FROM` when far from the empty squares' colour), or, whatever the model's
        lean, not sure it is empty and coloured like the tiles near it (`BLANK_NEAR_FROM`: then its P(tile) is
        at least `BLANK_NEAR_RAISED`); otherwise it stays below one half, whatever its colour.
        """
        p = self.net.predict_proba(features)[:, 1]
        f = features.reshape(-1, SIZE, SIZE, features.shape[1])
        p3 = p.reshape(-1, SIZE, SIZE)
        touches = touching((f[..., FEATURES.index("centred_letter")] > 0) & (p3 >= 0.5))
        even = ((f[..., FEATURES.index("colour_spread")] <= BLANK_SPREAD_AT_MOST)
                | (f[..., FEATURES.index("light_ink_compact")] >= LIGHT_LETTER_FROM))
        tile_like = ((f[..., FEATURES.index("z_to_tile")] <= BLANK_TILE_Z_AT_MOST) & even
                     & (f[..., FEATURES.index("z_to_empty")] >= BLANK_ODD_FROM))
        near_tiles = ((f[..., FEATURES.index("local_empty_share")] >= BLANK_NEAR_SHARE_FROM)
                      & (f[..., FEATURES.index("z_to_tile")] <= BLANK_NEAR_TILE_Z_AT_MOST)
                      & (f[..., FEATURES.index("colour_spread")] <= BLANK_SPREAD_AT_MOST)
                      & (f[..., FEATURES.index("to_empty_colour")] >= BLANK_NEAR_EMPTY_FROM))
        strongly_odd = tile_like & (f[..., FEATURES.index("z_to_empty")] >= BLANK_STRONG_ODD_FROM)
        near_blank = touches & near_tiles & (p3 >= BLANK_NEAR_FROM)
        blank = touches & ((tile_like & (p3 >= BLANK_FROM)) | (strongly_odd & (p3 >= BLANK_STRONG_FROM))) | near_blank
        no_letter = f[..., FEATURES.index("glyph")] == 0
        plain = (no_letter & ~blank).reshape(-1)
        raised = (no_letter & near_blank).reshape(-1)
        p = np.where(raised, np.maximum(p, BLANK_NEAR_RAISED), p)
        return np.where(plain, np.minimum(p, PLAIN_AT_MOST), p).astype(np.float32)

    def unlettered_tiles(self, look: SquareLook) -> list[tuple[int, int]]:
        """Squares on which the glyph search found no mark though the model's look calls them tiles, coloured
        like the board's tiles or the tiles near them and far from its empty squares (`UNLETTERED_TILE_FROM`): on
        dark tiles, light print the dark-ink search passed over. `decide` caps them below one half; the reader
        looks for their letter in light ink."""
        return self.unmarked_tiles(look)[0]

    def unmarked_tiles(self, look: SquareLook) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The squares with no mark found whose look is a tile's and whose colour the tiles', in one pass: those
        far from the empty squares of their kind (`unlettered_tiles`), and those coloured like them too (a dark
        tile on a premium square of nearly its colour, see UNLETTERED_TILE_FROM: looked at as any square judged
        empty is)."""
        p = self.net.predict_proba(look.features)[:, 1].reshape(SIZE, SIZE)
        f = look.features.reshape(SIZE, SIZE, -1)
        like_tiles = ((f[..., FEATURES.index("z_to_tile")] <= BLANK_TILE_Z_AT_MOST)
                      | ((f[..., FEATURES.index("local_empty_share")] >= BLANK_NEAR_SHARE_FROM)
                         & (f[..., FEATURES.index("to_empty_colour")] >= BLANK_NEAR_EMPTY_FROM)))
        unmarked = (f[..., FEATURES.index("glyph")] == 0) & (p >= UNLETTERED_TILE_FROM) & like_tiles
        odd = f[..., FEATURES.index("z_to_empty")] >= BLANK_STRONG_ODD_FROM

        def squares(mask: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
            return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]

        return squares(unmarked & odd), squares(unmarked & ~odd)
