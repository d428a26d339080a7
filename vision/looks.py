"""What a camera frame looks like, square by square, and how two looks differ (watch mode, issue #22).

Owns the cheap per-frame view the watcher decides on: a frame straightened with the grid's corners into a
"look" (per square, and a ring of squares around the grid, the mean colour and texture at LOOK_CELL pixels a
square, ~2-4 ms at 2 MP), compared with another after the light's change is taken out (a per-channel gain
over the board's plane, clipped channels left out). From two looks it tells which squares differ, which
changed the way a tile does, which are a lamp's reflection come or gone, what reaches in over the board's
edge (a hand, an arm: a region running from the grid over the ring) and from which side, and how far the
board has shifted since the last clear view (`register`, after a knock). Pure: arrays in, arrays out; the
decisions made from them are `vision.watch`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from vision.watch import WatchConfig

SIZE = 15
Frame = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

# The look: each square straightened to LOOK_CELL x LOOK_CELL pixels, with RING squares around the grid
# (the board's edge and the table beside it: where an arm reaching in shows before it covers a tile).
LOOK_CELL = 16
LOOK_INSET = 3  # pixels of each square's edge left out of its look
RING = 1
LOOK_SQUARES = SIZE + 2 * RING
# Glare: squares brighter in every channel by more than this, gaining at most GLARE_MORE_COLOUR levels of
# spread between channels, are not taken for something reaching in (the streams' lamp reflection stood
# over the board's edge for whole moves and kept the view "waiting" on cava: 10 of 57 moves).
GLARE_LEVELS = 10.0
GLARE_MORE_COLOUR = 4.0
# ... and only when the glaring look is near white in every channel: without this, a dark hand over a
# light board read as "a reflection gone" (the look before it brighter, with less colour) and was not
# seen: a partial move was committed on a 2 frames/s stream with the camera bumped.
GLARE_WHITE_FROM = 225.0
# A square's mean level in a channel at or above this may be clipped by the camera: the cava streams'
# plain squares read blue 254 (the stream's JPEG of a clipped channel), under a lighting change 255, where
# the light's gain would have them 234 or 280. And the light's plane needs this many unclipped squares.
CLIPPED_FROM = 250.0
# ... and a square with this share of its pixels there may be clipped in that channel though its mean is
# lower (a light tile's body clipped, its letter not): rendered cream tiles, red 230 with a fifth to half of
# their pixels clipped, kept 230 when the light rose by 12% (8 of 225 squares differed after the gain).
CLIPPED_SHARE = 0.2
LIGHTING_FIT_SQUARES = 12
# A change as large as a tile's: a tile put on an empty square moves its look's texture by 64-78 (share
# 0.90-0.92) or, a tile whose letter is faint at the look's size, its levels by 100 or more (WatchConfig's
# measurements); the same board after a bump and the grid found again: levels <= 6.5, texture <= 12.
TILE_LIKE_LEVELS = 40.0
TILE_LIKE_TEXTURE = 30.0
# A reflection's rim is the board seen through a veil of white: each channel moved towards 255 by one
# share of what it had left (a blend, as the streams paint it) or by one amount (white light added, as a
# glossy surface reflects a lamp; a channel already near 255 stops there). Channels with less than
# REFLECTION_HEADROOM levels left say nothing. Measured on the cava glare streams' rims: blend shares
# agree within 0.02, hands (five skin tones over cava's board, the table and rendered boards) spread
# 0.2-0.4 (a light hand over a red square, the closest: 0.1); an added amount within 0.2 of itself + 6.
REFLECTION_HEADROOM = 24.0
REFLECTION_BLEND_SPREAD = 0.12
REFLECTION_ADD_SHARE = 0.2
REFLECTION_ADD_LEVELS = 6.0
# A hand and arm reaching in cross the board's edge (the ring of squares around the grid) at least this
# many squares wide: the streams' smallest arm (0.8 of a hand) is 3 squares wide where it crosses. A
# smaller thing over the edge that does not move between two frames (a tile nudged a third of a square
# over the edge) is no hand: the view is read as it is at once.
ARM_RING_SQUARES = 3
# Registration (`register`): a knocked camera (or a slid board) shifts and turns the board by a fraction of
# a square; the look, straightened with the old corners, then differs from the game's board's look on
# every tile edge and premium square's rim while the reader, more forgiving, still reads the old board:
# the misaligned look was learned as the game's, and every later clear view "differed" from it (a bumped
# cava_ro stream kept "waiting for a clear view" for five frames and the move was not committed in time).
# Each frame's look is matched to the last clear view's by ECC (an affine map, on the look's grey image at
# REGISTER_SCALE) after a phase correlation for the coarse shift. Measured on the bumped cava_ro 1 stream
# (the camera knocked 4-8 px and 0.75-1.5 degrees, the board ~880 px wide): a clear view scores 0.97-0.998
# and its grid is found 3.3-4.4 look pixels off (the corners then within 2 px of vision.locate's), a frame
# with an arm over the board 0.77, the same camera's next frame 0.1-0.2 look pixels off; 1-2 ms a frame.
REGISTER_SCALE = 0.5
REGISTER_MIN_CC = 0.9
# ... a map moving a grid corner by at least this many look pixels (LOOK_CELL a square; 1/16 of a square,
# ~3.5 px of a 2 MP frame) is applied, when the look straightened by it differs from the clear view on at
# most REGISTER_KEEP_SHARE as many grid squares as before (it explains the differences: a wrong map adds
# them).
REGISTER_MIN_SHIFT = 1.0
REGISTER_KEEP_SHARE = 0.5


@dataclass
class Look:
    """A frame straightened by the grid's corners, summarised per square (ring included)."""

    mean: F32  # (LOOK_SQUARES, LOOK_SQUARES, 3) mean BGR
    texture: F32  # (LOOK_SQUARES, LOOK_SQUARES) mean absolute Laplacian of the grey image
    gray: F32 = field(repr=False)  # the straightened grey image (for the shift test)
    # (LOOK_SQUARES, LOOK_SQUARES, 3) share of the square's pixels the camera may have clipped per channel
    clipped: F32 | None = field(default=None, repr=False)


def look_of(frame: Frame, corners: F32) -> Look:
    """The frame's look: straightened with `corners` (TL, TR, BR, BL of the grid, frame pixels)."""
    side = LOOK_SQUARES * LOOK_CELL
    c = np.asarray(corners, np.float32).reshape(4, 2)
    board_px = float(max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[3] - c[0])))
    # Shrink the frame first so the warp does not alias (a 2 MP frame's board is ~5x the look's size):
    # area interpolation to about twice the look's size, then a linear warp.
    shrink = min(1.0, 2.0 * SIZE * LOOK_CELL / max(board_px, 1.0))
    small = frame
    if shrink < 0.9:
        small = np.asarray(cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), np.uint8)
    h = cv2.getPerspectiveTransform((c * shrink).astype(np.float32), look_grid_corners())
    warped = cv2.warpPerspective(small, h, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=(0, 0, 0))
    # Only each square's middle counts: the grid lines at its edges move in and out of it when the corners
    # are off by a pixel (after the grid is found again), tiles sit in the middle.
    inner = slice(LOOK_INSET, LOOK_CELL - LOOK_INSET)
    blocks = warped.astype(np.float32).reshape(LOOK_SQUARES, LOOK_CELL, LOOK_SQUARES, LOOK_CELL, 3)
    mean = blocks[:, inner, :, inner].mean(axis=(1, 3))
    clipped = (blocks[:, inner, :, inner] >= CLIPPED_FROM).mean(axis=(1, 3))
    gray = cv2.GaussianBlur(cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    lap = np.abs(cv2.Laplacian(gray, cv2.CV_32F, ksize=3))
    texture = lap.reshape(LOOK_SQUARES, LOOK_CELL, LOOK_SQUARES, LOOK_CELL)[:, inner, :, inner].mean(axis=(1, 3))
    return Look(np.asarray(mean, np.float32), np.asarray(texture, np.float32), np.asarray(gray, np.float32),
                np.asarray(clipped, np.float32))


def register(look: Look, ref: Look) -> tuple[npt.NDArray[np.float64], float] | None:
    """The map from `ref`'s look pixels to where the same board points lie in `look` (3x3, affine), and
    its ECC correlation; None when no match is found. Both looks are straightened boards of the same
    game; `look`'s corners may be off by a fraction of a square (the camera knocked)."""
    side = LOOK_SQUARES * LOOK_CELL
    small = (round(side * REGISTER_SCALE),) * 2
    then = cv2.resize(ref.gray, small, interpolation=cv2.INTER_AREA)
    now = cv2.resize(look.gray, small, interpolation=cv2.INTER_AREA)
    window = cv2.createHanningWindow(small, cv2.CV_32F)
    (dx, dy), _ = cv2.phaseCorrelate(then, now, window)
    start = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    try:
        cc, warp = cv2.findTransformECC(then, now, start, cv2.MOTION_AFFINE,
                                        (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4))
    except cv2.error:  # no convergence: nothing alike to match
        return None
    scale = np.diag([1.0 / REGISTER_SCALE, 1.0 / REGISTER_SCALE, 1.0])
    affine = np.vstack([np.asarray(warp, np.float64), [0.0, 0.0, 1.0]])
    full = np.asarray(scale @ affine @ np.linalg.inv(scale), np.float64)
    return full, float(cc)


def look_grid_corners() -> F32:
    m = RING * LOOK_CELL
    n = SIZE * LOOK_CELL
    return np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], np.float32)


def _grid_mask() -> npt.NDArray[np.bool_]:
    mask = np.zeros((LOOK_SQUARES, LOOK_SQUARES), bool)
    mask[RING:RING + SIZE, RING:RING + SIZE] = True
    return mask


GRID = _grid_mask()


_YX = np.indices((LOOK_SQUARES, LOOK_SQUARES), np.float32).reshape(2, -1).T / LOOK_SQUARES - 0.5
_PLANE = np.concatenate([np.ones((LOOK_SQUARES * LOOK_SQUARES, 1), np.float32), _YX], axis=1)  # 1, y, x


def _clipped(look: Look) -> npt.NDArray[np.bool_]:
    """Per look square and channel: may the camera have clipped it (CLIPPED_SHARE of its pixels at
    CLIPPED_FROM or above; the mean itself there when the look has no shares)?"""
    if look.clipped is None:
        return np.asarray(look.mean >= CLIPPED_FROM)
    return np.asarray(look.clipped >= CLIPPED_SHARE)


def _lighting(now: F32, then: F32, clipped: npt.NDArray[np.bool_] | None = None) -> F32:
    """Per look square and channel, the factor the light changed `then` by: a plane fitted to the log
    ratios of the grid's squares (a lamp on one side lights the board unevenly), fitted again without the
    squares that changed for another reason (a hand, new tiles: the worst third). Each channel is fitted
    on the squares it is not clipped in (CLIPPED_FROM), in either look: a clipped channel's ratio says
    nothing of the light (cava's white squares clip blue at 254; brighter light leaves them 255)."""
    ratio = np.log((now + 1.0) / (then + 1.0)).reshape(-1, 3)
    grid = GRID.reshape(-1)
    if clipped is None:
        clipped = (now >= CLIPPED_FROM) | (then >= CLIPPED_FROM)
    open_ = ~clipped.reshape(-1, 3) & grid[:, None]
    coef = np.zeros((3, 3), np.float32)
    for k in range(3):
        base = open_[:, k] if int(open_[:, k].sum()) >= LIGHTING_FIT_SQUARES else grid
        use = base
        for _ in range(2):
            coef[:, k] = np.linalg.lstsq(_PLANE[use], ratio[use, k], rcond=None)[0]
            resid = np.abs(ratio[:, k] - _PLANE @ coef[:, k])
            use = base & (resid <= np.percentile(resid[base], 66))
    return np.asarray(np.exp(_PLANE @ coef).reshape(LOOK_SQUARES, LOOK_SQUARES, 3), np.float32)


def level_gaps(now: Look, then: Look, gain: F32) -> F32:
    """Per look square, the largest change of a channel's mean level, after the light's `gain`. A channel
    the camera may have clipped (`_clipped`: its true level is that or more) differs only by as much as the
    other look lies below it."""
    lit = now.mean / gain
    lit_top = np.where(_clipped(now), np.inf, lit)
    then_top = np.where(_clipped(then), np.inf, then.mean)
    gap = np.maximum(np.maximum(lit - then_top, then.mean - lit_top), 0.0)
    return np.asarray(gap.max(axis=2), np.float32)


def differing(now: Look, then: Look, config: WatchConfig) -> npt.NDArray[np.bool_]:
    """Per look square (ring included): does `now` differ from `then`? The light's change (`_lighting`:
    a lamp switched on, a cloud, a lamp moved to one side) is taken out first."""
    gain = _lighting(now.mean, then.mean, _clipped(now) | _clipped(then))
    tgain = float(np.median((now.texture[GRID] + 1.0) / (then.texture[GRID] + 1.0)))
    levels = level_gaps(now, then, gain)
    now_texture = now.texture / tgain
    texture = np.abs(now_texture - then.texture)
    share = texture / (np.maximum(now_texture, then.texture) + 4.0)
    out: npt.NDArray[np.bool_] = (levels > config.changed_levels) | (
        (texture > config.changed_texture) & (share > config.changed_texture_share))
    return out


def tile_like(now: Look, then: Look) -> npt.NDArray[np.bool_]:
    """Per look square: changed as much as a tile put down or taken off changes it (TILE_LIKE_*), after
    the light's change; less than that (a grid a pixel or two off after the camera was bumped, a shadow)
    is not."""
    gain = _lighting(now.mean, then.mean, _clipped(now) | _clipped(then))
    levels = level_gaps(now, then, gain)
    tgain = float(np.median((now.texture[GRID] + 1.0) / (then.texture[GRID] + 1.0)))
    now_texture = now.texture / tgain
    texture = np.abs(now_texture - then.texture)
    share = texture / (np.maximum(now_texture, then.texture) + 4.0)
    out: npt.NDArray[np.bool_] = (levels >= TILE_LIKE_LEVELS) | ((texture >= TILE_LIKE_TEXTURE) & (share >= 0.6))
    return out


def washed_out(now: Look, then: Look) -> npt.NDArray[np.bool_]:
    """Per look square: brighter in every channel by more than GLARE_LEVELS, near white, with no more
    colour than before (after the light's change): a lamp's reflection, not a hand (skin adds colour and
    is not white) nor a tile."""
    gain = _lighting(now.mean, then.mean, _clipped(now) | _clipped(then))
    lit = now.mean / gain
    brighter = (lit - then.mean).min(axis=2) > GLARE_LEVELS
    spread_now = lit.max(axis=2) - lit.min(axis=2)
    spread_then = then.mean.max(axis=2) - then.mean.min(axis=2)
    near_white = lit.min(axis=2) >= GLARE_WHITE_FROM
    out: npt.NDArray[np.bool_] = brighter & near_white & (spread_now <= spread_then + GLARE_MORE_COLOUR)
    return out


def towards_white(now: Look, then: Look) -> npt.NDArray[np.bool_]:
    """Per look square: `now` is `then` seen through a lamp's reflection (REFLECTION_*): brighter, each
    channel moved towards white by one share of its headroom or by one amount (after the light's change)."""
    gain = _lighting(now.mean, then.mean, _clipped(now) | _clipped(then))
    lit = now.mean / gain
    rise = lit - then.mean
    headroom = 255.0 - then.mean
    brighter = (rise.min(axis=2) > -REFLECTION_ADD_LEVELS) & (rise.max(axis=2) > GLARE_LEVELS)
    room = headroom >= REFLECTION_HEADROOM
    share = rise / np.maximum(headroom, 1.0)
    top = np.where(room, share, -np.inf).max(axis=2)
    bottom = np.where(room, share, np.inf).min(axis=2)
    blend = (room.sum(axis=2) < 2) | (top - bottom <= REFLECTION_BLEND_SPREAD)
    amount = rise.max(axis=2, keepdims=True)
    added = (np.abs(rise - np.minimum(amount, headroom)).max(axis=2)
             <= REFLECTION_ADD_SHARE * amount[:, :, 0] + REFLECTION_ADD_LEVELS)
    out: npt.NDArray[np.bool_] = brighter & (blend | added)
    return out


def still_non_hands(reaching: npt.NDArray[np.bool_], now: Look, then: Look,
                    moving: npt.NDArray[np.bool_], config: WatchConfig) -> npt.NDArray[np.bool_]:
    """Of the reaching regions that did not move since the previous frame (no square of them `moving`),
    those no hand makes:
    a lamp's reflection come or gone (`reflection_veiled`) with what else changed in the region not joining
    the board's edge to the grid by itself (new tiles laid beside a reflection at the board's edge form one
    changed area with it: the tiles are read, the reflection is no arm), or a thing crossing the board's
    edge narrower than an arm (ARM_RING_SQUARES). A white sleeve looks like a reflection, but it does not
    stay still for long while tiles are laid, and what is read while it does is only committed after the
    settle time of a still, clear view."""
    count, labels = cv2.connectedComponents(reaching.astype(np.uint8), connectivity=8)
    out = np.zeros_like(reaching)
    if count <= 1:
        return out
    veiled, white = reflection_veiled(now, then)
    for k in range(1, count):
        region = labels == k
        if (region & moving).any():
            continue
        narrow = int((region & ~GRID).sum()) < ARM_RING_SQUARES
        # (its near-white middle may already be left out of the region as `washed_out`: it is beside it)
        beside = cv2.dilate((region & veiled).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        rest = region & ~veiled
        reflection = (bool((region & veiled).any()) and bool((white & beside).any())
                      and not reaching_in(rest, config).any())
        if narrow or reflection:
            out |= region
    return out


def reflection_veiled(now: Look, then: Look) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per look square: is the change from `then` to `now` a lamp's reflection that came (`now` is `then`
    veiled: `towards_white`) or went (`then` is `now` veiled: the look the game's board was learned from
    held the reflection of a lamp that has moved since); and is the square near white in either look (a
    reflection's middle, GLARE_WHITE_FROM)."""
    gain = _lighting(now.mean, then.mean, _clipped(now) | _clipped(then))
    veiled = towards_white(now, then) | towards_white(then, now)
    white = ((now.mean / gain).min(axis=2) >= GLARE_WHITE_FROM) | (then.mean.min(axis=2) >= GLARE_WHITE_FROM)
    return np.asarray(veiled, bool), np.asarray(white, bool)


def reaching_in(diff: npt.NDArray[np.bool_], config: WatchConfig) -> npt.NDArray[np.bool_]:
    """The differing squares of regions that join the ring to the grid (something reaching in over the
    board's edge); all False when there is none."""
    count, labels = cv2.connectedComponents(diff.astype(np.uint8), connectivity=8)
    out = np.zeros_like(diff)
    for k in range(1, count):
        region = labels == k
        if int((region & ~GRID).sum()) >= config.reaching_ring_squares and bool((region & GRID).any()):
            out |= region
    return out


def reaching_side(reaching: npt.NDArray[np.bool_]) -> str:
    """The edge of the board ("top", "bottom", "left", "right" of the frame's grid) that most of a reaching
    region crosses: the side of the table the arm comes from, i.e. the player's seat."""
    counts = {"top": int(reaching[0, :].sum()), "bottom": int(reaching[-1, :].sum()),
              "left": int(reaching[:, 0].sum()), "right": int(reaching[:, -1].sum())}
    return max(counts, key=lambda side: counts[side])
