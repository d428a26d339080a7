"""Realistic camera streams of a board game, built from keyframes, for watch mode's tests and benchmark.

Owns turning a game's photos (or rendered boards) into what a phone standing over the table would film:
a fixed camera, a move's tiles appearing one or two at a time while a hand and arm (rendered: moving,
several sizes and skin tones) reach in from a side of the table, pauses between them with the hand lifted,
and the faults of a real table: glare, a nudged tile, the camera bumped a few pixels and degrees, a lighting
change, motion blur. Also y4m and folders of frames: writing them and reading them back.

How: each keyframe (a board image, its grid's corners TL, TR, BR, BL and its 15-row grid) is straightened
to a canvas of CANVAS_CELL pixels a square with CANVAS_MARGIN squares around the grid. The stream's board
starts as the first keyframe's canvas; a move's tiles are pasted square by square from the next keyframe's
canvas (so the known tiles never change between moves, as on a real table). Each frame is the canvas
warped into a camera view (mild perspective, the board filling ~80% of the frame's height) over a table,
with the hand, faults and a little sensor noise painted on. Nothing is random unless seeded: the same
keyframes and seed give the same stream.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

SIZE = 15
U8 = npt.NDArray[Any]
CANVAS_CELL = 64
CANVAS_MARGIN = 1.5
FAULTS = ("clean", "glare", "nudge", "bump", "light", "blur")
# Skin tones (BGR), light to dark, and hand sizes (squares across the palm) the streams draw.
SKIN = ((170, 190, 235), (120, 150, 205), (90, 125, 180), (60, 90, 140), (40, 60, 95))
HAND_SCALES = (0.8, 1.0, 1.25)


@dataclass(frozen=True)
class Keyframe:
    """One photo (or rendered board) of the game: the image, its grid corners and its grid."""

    image: U8
    corners: list[list[float]]
    grid: list[str]


@dataclass
class Move:
    """What the stream shows between two keyframes: the new tiles (row, col, letter) and when."""

    index: int  # 1-based: the change from keyframe index-1 to keyframe index
    tiles: list[tuple[int, int, str]]
    last_hand: float = 0.0  # time of the last frame with a hand over the board
    laid: float = 0.0  # time of the first frame showing the whole move with no hand (the move is over)
    end: float = 0.0  # time of the move's last frame (the next move's hand comes after it)
    fault: str = "clean"
    lifted: list[tuple[int, int]] = field(default_factory=list)  # tiles taken off (a withdrawn play)


@dataclass
class Stream:
    """A built stream: frames (t, BGR image) in time order, and the moves it shows."""

    frames: list[tuple[float, Any]]  # (t, BGR image), or (t, JPEG bytes) when built with jpeg_quality
    moves: list[Move]
    fps: float
    corners: list[list[float]]  # where the grid is in the camera's frames before any bump
    extra: dict[str, Any] = field(default_factory=dict)


def straighten(key: Keyframe) -> U8:
    """The keyframe's board on a canvas of CANVAS_CELL px a square, CANVAS_MARGIN squares around the grid."""
    m = CANVAS_MARGIN * CANVAS_CELL
    n = SIZE * CANVAS_CELL
    side = round(n + 2 * m)
    dst = np.asarray([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], np.float32)
    h = cv2.getPerspectiveTransform(np.asarray(key.corners, np.float32).reshape(4, 2), dst)
    return cv2.warpPerspective(key.image, h, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _square_box(r: int, c: int, pad: float) -> tuple[int, int, int, int]:
    m = CANVAS_MARGIN * CANVAS_CELL
    y0 = round(m + (r - pad) * CANVAS_CELL)
    x0 = round(m + (c - pad) * CANVAS_CELL)
    size = round((1 + 2 * pad) * CANVAS_CELL)
    return y0, x0, y0 + size, x0 + size


def paste_tile(canvas: U8, source: U8, r: int, c: int, pad: float = 0.12) -> None:
    """Put the tile on square (r, c) of `source` onto `canvas` (both canvases), feathered at its edges."""
    y0, x0, y1, x1 = _square_box(r, c, pad)
    h, w = canvas.shape[:2]
    y0c, x0c, y1c, x1c = max(0, y0), max(0, x0), min(h, y1), min(w, x1)
    patch = source[y0c:y1c, x0c:x1c].astype(np.float32)
    mask = np.zeros((y1c - y0c, x1c - x0c), np.float32)
    inset = max(1, round(pad * CANVAS_CELL / 2))
    mask[inset:-inset, inset:-inset] = 1.0
    mask = cv2.GaussianBlur(mask, (0, 0), inset / 2 + 0.5)[:, :, None]
    base = canvas[y0c:y1c, x0c:x1c].astype(np.float32)
    canvas[y0c:y1c, x0c:x1c] = np.clip(base * (1 - mask) + patch * mask, 0, 255).astype(np.uint8)


def nudge_tile(canvas: U8, r: int, c: int, dx: float, dy: float) -> None:
    """Push the tile on (r, c) by (dx, dy) squares, the uncovered part filled from around it."""
    y0, x0, y1, x1 = _square_box(r, c, 0.05)
    tile = canvas[y0:y1, x0:x1].copy()
    ring = np.concatenate([canvas[y0 - 4:y0, x0:x1].reshape(-1, 3), canvas[y1:y1 + 4, x0:x1].reshape(-1, 3)])
    canvas[y0:y1, x0:x1] = np.median(ring, axis=0) if len(ring) else tile.mean(axis=(0, 1))
    oy, ox = round(dy * CANVAS_CELL), round(dx * CANVAS_CELL)
    canvas[y0 + oy:y1 + oy, x0 + ox:x1 + ox] = tile


class Camera:
    """Where the canvas lands in the frame: a homography, a frame size and the table around the board."""

    def __init__(self, canvas_side: int, size: tuple[int, int], rng: np.random.Generator) -> None:
        w, h = size
        self.size = size
        fill = rng.uniform(0.78, 0.88) * h
        pts = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * fill / 2
        ang = np.deg2rad(rng.uniform(-3, 3))
        pts = pts @ np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]).T
        tilt = rng.uniform(0.02, 0.1)
        pts[:2, 0] *= 1 - tilt  # the far edge looks shorter: the phone leans a little
        pts += np.array([w / 2, h / 2]) + rng.uniform(-0.03, 0.03, 2) * h
        self.quad = pts.astype(np.float32)
        self.canvas_side = canvas_side
        self.h = cv2.getPerspectiveTransform(np.asarray([[0, 0], [canvas_side, 0], [canvas_side, canvas_side],
                                                         [0, canvas_side]], np.float32), self.quad)
        table = np.full((h, w, 3), rng.integers(60, 140, 3), np.float32)
        grain = cv2.resize(rng.normal(0, 10, (h // 8, w // 8)).astype(np.float32), (w, h))
        self.table = np.clip(table + grain[:, :, None], 0, 255).astype(np.uint8)

    def bumped(self, rng: np.random.Generator, pixels: float = 8.0, degrees: float = 1.5) -> Camera:
        """The same camera knocked: shifted a few pixels and turned a degree or two about the frame's centre."""
        other = Camera.__new__(Camera)
        other.size, other.canvas_side, other.table = self.size, self.canvas_side, self.table
        w, h = self.size
        ang = np.deg2rad(rng.choice([-1, 1]) * rng.uniform(0.5, 1.0) * degrees)
        shift = rng.uniform(0.5, 1.0, 2) * pixels * rng.choice([-1, 1], 2)
        centre = np.array([w / 2, h / 2])
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        other.quad = (((self.quad - centre) @ rot.T) + centre + shift).astype(np.float32)
        s = self.canvas_side
        other.h = cv2.getPerspectiveTransform(np.asarray([[0, 0], [s, 0], [s, s], [0, s]], np.float32), other.quad)
        return other

    def grid_corners(self) -> list[list[float]]:
        m = CANVAS_MARGIN * CANVAS_CELL
        n = SIZE * CANVAS_CELL
        pts = np.asarray([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.h).reshape(4, 2).round(2).tolist()

    def frame(self, canvas: U8) -> U8:
        w, h = self.size
        warped = cv2.warpPerspective(canvas, self.h, (w, h), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.full(canvas.shape[:2], 255, np.uint8), self.h, (w, h))
        return np.where(mask[:, :, None] > 127, warped, self.table)

    def square_xy(self, r: float, c: float) -> tuple[float, float]:
        m = CANVAS_MARGIN * CANVAS_CELL
        p = np.asarray([[[m + (c + 0.5) * CANVAS_CELL, m + (r + 0.5) * CANVAS_CELL]]], np.float32)
        q = cv2.perspectiveTransform(p, self.h)[0, 0]
        return float(q[0]), float(q[1])

    def square_px(self) -> float:
        return float(np.linalg.norm(self.quad[1] - self.quad[0])) / (SIZE + 2 * CANVAS_MARGIN)


def draw_hand(image: U8, tip: tuple[float, float], side: str, square_px: float, skin: tuple[int, int, int],
              scale: float, seed: int) -> U8:
    """A hand and arm reaching from `side` ("bottom", "top", "left", "right") of the frame to `tip`:
    palm, four fingers and a thumb, the arm out to the frame's edge, shaded; `scale` sizes the hand.
    Drawn at a quarter of the frame's size (soft edges and shading need no more) and composited in full."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    q = 4.0
    hq, wq = -(-h // 4), -(-w // 4)
    tx, ty = tip[0] / q, tip[1] / q
    sq = square_px * scale / q
    start = {"bottom": (tx + rng.uniform(-3, 3) * sq, hq + 3 * sq), "top": (tx + rng.uniform(-3, 3) * sq, -3 * sq),
             "left": (-3 * sq, ty + rng.uniform(-3, 3) * sq),
             "right": (wq + 3 * sq, ty + rng.uniform(-3, 3) * sq)}[side]
    ex, ey = start
    direction = np.array([tx - ex, ty - ey], np.float64)
    direction /= np.linalg.norm(direction) + 1e-9
    across = np.array([-direction[1], direction[0]])
    mask = np.zeros((hq, wq), np.uint8)
    palm = np.array([tx, ty]) - direction * 3.0 * sq
    arm = np.array([palm + across * 1.4 * sq, palm - across * 1.4 * sq,
                    np.array([ex, ey]) - across * 1.9 * sq, np.array([ex, ey]) + across * 1.9 * sq])
    cv2.fillConvexPoly(mask, arm.astype(np.int32), 255)
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(1.7 * sq), int(1.45 * sq)), angle, 0, 360, 255, -1)
    for k, reach in zip((-1.5, -0.5, 0.5, 1.5), (2.9, 3.6, 3.7, 3.1), strict=True):
        base = palm + across * k * 0.6 * sq
        end = base + direction * reach * sq
        cv2.line(mask, (int(base[0]), int(base[1])), (int(end[0]), int(end[1])), 255, max(1, int(0.55 * sq)))
        cv2.circle(mask, (int(end[0]), int(end[1])), max(1, int(0.28 * sq)), 255, -1)
    thumb = palm + across * 1.3 * sq + direction * 0.5 * sq
    thumb_end = thumb + (across * 0.9 + direction * 1.2) * sq
    cv2.line(mask, (int(thumb[0]), int(thumb[1])), (int(thumb_end[0]), int(thumb_end[1])), 255,
             max(1, int(0.6 * sq)))
    soft_q = cv2.GaussianBlur(mask, (0, 0), max(0.6, 0.1 * sq)).astype(np.float32) / 255.0
    shade_q = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.7 * sq)).astype(np.float32) / 255.0
    shadow_q = np.roll(soft_q, (int(0.5 * sq), int(0.4 * sq)), axis=(0, 1))
    ys, xs = np.nonzero((soft_q > 0.002) | (shadow_q > 0.002))
    if len(ys) == 0:
        return image
    y0, y1 = int(ys.min() * q), min(h, int((ys.max() + 1) * q))
    x0, x1 = int(xs.min() * q), min(w, int((xs.max() + 1) * q))

    def up(a: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        big = cv2.resize(a, (wq * 4, hq * 4), interpolation=cv2.INTER_LINEAR)
        return np.asarray(big[y0:y1, x0:x1, None], np.float32)

    soft, shade, shadow = up(soft_q), up(shade_q), up(shadow_q)
    colour = np.array(skin, np.float32) * rng.uniform(0.92, 1.08)
    painted = colour[None, None, :] * (0.6 + 0.5 * shade)
    part = image[y0:y1, x0:x1].astype(np.float32) * (1 - 0.35 * shadow * (1 - soft))
    part = part * (1 - soft) + painted * soft
    out = image.copy()
    out[y0:y1, x0:x1] = np.clip(part, 0, 255).astype(np.uint8)
    return out


def _nearest_side(cam: Camera, r: float, c: float) -> str:
    x, y = cam.square_xy(r, c)
    w, h = cam.size
    return min((("bottom", h - y), ("top", y), ("left", x), ("right", w - x)), key=lambda kv: kv[1])[0]


def glare(image: U8, centre: tuple[float, float], radius: float, strength: float = 1.0) -> U8:
    """A lamp reflected in the board: white in the middle, fading over `radius` pixels."""
    h, w = image.shape[:2]
    reach = int(2.5 * radius)
    x0, x1 = max(0, int(centre[0]) - reach), min(w, int(centre[0]) + reach)
    y0, y1 = max(0, int(centre[1]) - reach), min(h, int(centre[1]) + reach)
    if x0 >= x1 or y0 >= y1:
        return image
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d2 = ((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 * 1.5) / (radius * radius)
    a = np.clip(1.3 * strength * np.exp(-d2 * 1.5), 0.0, 1.0)[:, :, None]
    out = image.copy()
    out[y0:y1, x0:x1] = np.clip(image[y0:y1, x0:x1].astype(np.float32) * (1 - a) + 255.0 * a, 0, 255)
    return out


def light(image: U8, gain: float, tint: tuple[float, float, float], slope: float) -> U8:
    """A lighting change: brighter or dimmer, a little tinted, lit more on one side."""
    w = image.shape[1]
    ramp = 1.0 + slope * (np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :, None])
    out = image.astype(np.float32) * gain * np.array(tint, np.float32)[None, None, :] * ramp
    return np.clip(out, 0, 255).astype(np.uint8)


def motion_blur(image: U8, length: int, angle: float) -> U8:
    """The camera's exposure smearing what moves (here the whole frame, the worst case) along `angle`."""
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    k = np.asarray(cv2.warpAffine(k, rot, (length, length)), np.float32)
    k /= max(float(k.sum()), 1e-6)
    return cv2.filter2D(image, -1, k)


def build_stream(keyframes: Sequence[Keyframe], fps: float = 1.0, fault: str = "clean", seed: int = 0,
                 size: tuple[int, int] = (1632, 1224), settle: float = 4.0, pause_at_most: float = 2.5,
                 quick_next: bool = False, noise: float = 2.0, jpeg_quality: int | None = None) -> Stream:
    """The camera stream of the game the keyframes show (see the module's docstring).

    `fault` (one of FAULTS) is applied during each move from the second on: `glare` a lamp's reflection
    appearing over a known tile, `nudge` a known tile pushed a third of a square by the hand, `bump` the
    camera knocked (it stays so), `light` a lighting change (it stays), `blur` motion blur on the frames
    with a hand. After a move's last tile the board stays clear for `settle` + 3 s (the watcher commits
    then); with `quick_next` the next player's hand comes `settle` / 2 s after it instead (the watcher
    must commit the earlier move when it sees the next move's tiles), the two players reaching in from
    opposite sides of the table (else a hand comes from the side nearest the move's tiles). Hands pause off the board for up
    to `pause_at_most` seconds between a move's groups of tiles. With `jpeg_quality` the frames are kept
    as JPEG bytes (what a phone's camera hands the app; a long stream of 2 MP frames held decoded takes
    gigabytes)."""
    if fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}: one of {', '.join(FAULTS)}")
    rng = np.random.default_rng(seed)
    canvases = [straighten(k) for k in keyframes]
    canvas = canvases[0].copy()
    cam = Camera(canvas.shape[0], size, rng)
    corners = cam.grid_corners()
    dt = 1.0 / fps
    frames: list[tuple[float, Any]] = []
    moves: list[Move] = []
    t = 0.0
    lighting: tuple[float, tuple[float, float, float], float] | None = None
    glare_at: tuple[float, float] | None = None
    noise_fields: list[npt.NDArray[np.int16]] = []
    version = 0  # counts changes to the canvas
    cached: list[Any] = [None, None]

    def shoot(hand: tuple[float, float, str, int] | None = None) -> None:
        nonlocal t
        key = (id(cam), version)
        if cached[0] != key:  # the board and the camera as they were: the same picture of the table
            cached[:] = [key, cam.frame(canvas)]
        img = cached[1]
        if glare_at is not None:
            img = glare(img, glare_at, 1.4 * cam.square_px())
        if hand is not None:
            r, c, side, k = hand
            img = draw_hand(img, cam.square_xy(r, c), side, cam.square_px(), SKIN[k % len(SKIN)],
                            HAND_SCALES[k % len(HAND_SCALES)], seed * 1000 + len(frames))
            if fault_now == "blur":
                img = motion_blur(img, int(rng.integers(7, 15)), float(rng.uniform(0, 180)))
        if lighting is not None:
            img = light(img, *lighting)
        if noise:
            # sensor noise: a few fields made once and taken in turn (drawing 6 M numbers a frame is slow)
            if not noise_fields:
                noise_fields.extend(np.clip(rng.normal(0, noise, img.shape), -30, 30).astype(np.int16)
                                    for _ in range(3))
            img = np.clip(img.astype(np.int16) + noise_fields[len(frames) % 3], 0, 255).astype(np.uint8)
        if jpeg_quality is not None:
            img = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])[1].tobytes()
        frames.append((round(t, 3), img))
        t += dt

    def still(seconds: float) -> None:
        for _ in range(max(1, round(seconds * fps))):
            shoot()

    fault_now = "clean"
    still(2.0)
    for i in range(1, len(keyframes)):
        before, after = keyframes[i - 1].grid, keyframes[i].grid
        tiles = sorted((r, c, after[r][c]) for r in range(SIZE) for c in range(SIZE)
                       if before[r][c] in ".#" and after[r][c] not in ".#")
        # tiles taken off the board (a challenge withdrew a play): lifted by the hand, all at once
        lifted = [(r, c) for r in range(SIZE) for c in range(SIZE)
                  if before[r][c] not in ".#" and after[r][c] in ".#"]
        fault_now = fault if i >= 2 else "clean"
        move = Move(i, tiles, fault=fault_now)
        known = [(r, c) for r in range(SIZE) for c in range(SIZE) if before[r][c] not in ".#"]
        far = _far_known(known, [(r, c) for r, c, _ in tiles])
        player = int(rng.integers(0, 1000))
        if quick_next:  # two players facing each other: each reaches in from their own side
            side = ("bottom", "top")[i % 2]
        elif tiles:
            side = _nearest_side(cam, *np.mean([(r, c) for r, c, _ in tiles], axis=0))
        else:
            side = "bottom"
        order = list(tiles)
        if rng.random() < 0.5:
            order.reverse()
        groups: list[list[tuple[int, int, str]]] = []
        while order:
            k = 1 if len(order) == 1 or rng.random() < 0.5 else 2
            groups.append(order[:k])
            order = order[k:]
        if fault_now == "glare" and far is not None:
            glare_at = cam.square_xy(*far)
        if fault_now == "light":
            lighting = (float(rng.uniform(0.7, 1.25)), tuple(float(v) for v in rng.uniform(0.9, 1.1, 3)),
                        float(rng.uniform(-0.3, 0.3)))  # type: ignore[assignment]
        if fault_now == "bump":
            shoot((7, 7, side, player))  # an elbow knocks the phone while reaching
            cam = cam.bumped(rng)
        if lifted:
            r0, c0 = lifted[0]
            shoot((r0 + 2.5, c0 + 1.5, side, player))
            for r, c in lifted:
                paste_tile(canvas, canvases[i], r, c)
            version += 1
            shoot((r0 + 0.3, c0 + 0.2, side, player))
        elif not groups:  # a photo that repeats the board: a hand passes over it and nothing changes
            shoot((7, 7, side, player))
        for g, group in enumerate(groups):
            r0, c0 = group[0][0], group[0][1]
            # the hand comes in (two frames moving towards the squares), lays the tiles, and leaves
            shoot((r0 + 2.5, c0 + 1.5, side, player))
            shoot((r0 + 0.8, c0 + 0.4, side, player))
            for r, c, _ in group:
                paste_tile(canvas, canvases[i], r, c)
            version += 1
            if fault_now == "nudge" and far is not None and g == 0:
                nudge_tile(canvas, far[0], far[1], float(rng.choice([-0.3, 0.3])), 0.0)
                version += 1
            shoot((r0 + 0.3, c0 + 0.2, side, player))
            move.last_hand = frames[-1][0]
            if g < len(groups) - 1:
                still(float(rng.uniform(0.0, pause_at_most)))
        if not groups:
            move.last_hand = frames[-1][0]
        move.lifted = lifted
        move.laid = round(t, 3)
        still(settle / 2 if quick_next and i < len(keyframes) - 1 else settle + 3.0)
        move.end = frames[-1][0]
        moves.append(move)
        glare_at = None
    return Stream(frames, moves, fps, corners, {"final_corners": cam.grid_corners()})


def _far_known(known: list[tuple[int, int]], new: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The known tile farthest from the move's new tiles (a fault there spoils no new tile)."""
    if not known:
        return None
    if not new:
        return known[0]
    return max(known, key=lambda k: (min(max(abs(k[0] - r), abs(k[1] - c)) for r, c in new), -k[0], -k[1]))


# ----- rendered games (no photos needed)
def rendered_game(style: str = "cream_blue_letters", seed: int = 1, moves: int = 6) -> list[Keyframe]:
    """A whole game on a rendered board (`vision.synth`): the empty board, then one keyframe per move,
    each move a word laid crossword-fashion across or beside the tiles already down."""
    from vision import synth

    st = synth.STYLES[style]
    # random_grid with the same generator lays the same words in the same order: each grid extends the last
    grids = [synth.random_grid(np.random.default_rng(seed), k) if k else ["." * SIZE] * SIZE
             for k in range(moves + 1)]
    for a, b in itertools.pairwise(grids):
        if any(x != "." and x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True)):
            raise AssertionError("rendered moves must extend the board")
    cell = 56
    full, g0, _ = synth._flat_board(st, grids[-1], np.random.default_rng([seed, 7]), cell)
    empty, _, _ = synth._flat_board(st, ["." * SIZE] * SIZE, np.random.default_rng([seed, 7]), cell)
    g1 = g0 + SIZE * cell
    corners = [[g0, g0], [g1, g0], [g1, g1], [g0, g1]]
    out = [Keyframe(empty, corners, grids[0])]
    pad = round(0.15 * cell)
    for grid in grids[1:]:
        image = empty.copy()  # the empty board with this keyframe's tiles (and their shadows) put on it
        for r in range(SIZE):
            for c in range(SIZE):
                if grid[r][c] != ".":
                    y, x = round(g0) + r * cell, round(g0) + c * cell
                    image[y - pad:y + cell + pad, x - pad:x + cell + pad] = full[y - pad:y + cell + pad,
                                                                                 x - pad:x + cell + pad]
        out.append(Keyframe(image, corners, grid))
    return out


# ----- files
def write_y4m(path: Path, frames: Sequence[tuple[float, U8]], fps: float) -> None:
    """Frames (BGR, all one size, even sides) as a YUV4MPEG2 file (4:2:0, what Chromium's fake camera plays)."""
    h, w = frames[0][1].shape[:2]
    num, den = _rate(fps)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{num}:{den} Ip A1:1 C420jpeg\n".encode("ascii"))
        for _, img in frames:
            f.write(b"FRAME\n")
            f.write(cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).tobytes())


def _rate(fps: float) -> tuple[int, int]:
    if abs(fps - round(fps)) < 1e-9:
        return round(fps), 1
    return round(fps * 1000), 1000


class StreamError(ValueError):
    """A file or folder that is not a stream of frames; the message says what is wrong."""


def read_y4m(path: Path) -> Iterator[tuple[float, U8]]:
    """The frames of a YUV4MPEG2 file (4:2:0) as (t, BGR), t from the header's frame rate.

    Raises `StreamError` for a file that is not y4m, a colour space other than 4:2:0, or a last frame cut
    short (a stream that stops)."""
    with open(path, "rb") as f:
        header = f.readline(1024)
        if not header.startswith(b"YUV4MPEG2 ") or not header.endswith(b"\n"):
            raise StreamError(f"{path} is not a y4m video (no YUV4MPEG2 header): give a y4m video, an mp4 or a "
                              "folder of frames")
        fields = {tok[:1]: tok[1:] for tok in header.decode("ascii", "replace").split()[1:]}
        try:
            w, h = int(fields["W"]), int(fields["H"])
            num, den = (int(v) for v in fields.get("F", "1:1").split(":"))
        except (KeyError, ValueError):
            raise StreamError(f"{path} has a y4m header without a valid size and frame rate") from None
        colour = fields.get("C", "420jpeg")
        if not colour.startswith("420") or w <= 0 or h <= 0 or w % 2 or h % 2 or num <= 0 or den <= 0:
            raise StreamError(f"{path} is a y4m video this reader cannot use (it reads 4:2:0 with even sides)")
        size = w * h * 3 // 2
        k = 0
        while True:
            line = f.readline(1024)
            if not line:
                return
            if not line.startswith(b"FRAME"):
                raise StreamError(f"{path}: frame {k + 1} does not start with FRAME: the file is damaged")
            data = f.read(size)
            if len(data) < size:
                raise StreamError(f"{path}: frame {k + 1} stops short ({len(data)} of {size} bytes): "
                                  "the stream was cut off")
            yuv = np.frombuffer(data, np.uint8).reshape(h * 3 // 2, w)
            yield k * den / num, cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)
            k += 1


_TIME_IN_NAME = re.compile(r"(\d+(?:\.\d+)?)")
FRAME_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


def folder_frames(folder: Path, fps: float | None = None) -> list[tuple[float, Path]]:
    """A folder's frames in time order, with their times: from `fps` when given, else from the last number
    in each file name read as seconds (`frame_012.5.jpg`, `t0003.png`; milliseconds when the numbers are
    all above 10 000), else one a second in name order."""
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
    if fps is not None:
        return [(k / fps, p) for k, p in enumerate(files)]
    numbers = []
    for p in files:
        found = _TIME_IN_NAME.findall(p.stem)
        numbers.append(float(found[-1]) if found else None)
    if files and all(n is not None for n in numbers) and len(set(numbers)) == len(numbers):
        vals = [float(n) for n in numbers if n is not None]
        scale = 0.001 if min(vals) > 10000 else 1.0
        pairs = sorted(zip(vals, files, strict=True))
        return [((v - pairs[0][0]) * scale, p) for v, p in pairs]
    return [(float(k), p) for k, p in enumerate(files)]


def write_folder(folder: Path, frames: Sequence[tuple[float, U8]], quality: int = 90) -> None:
    """Frames as JPEG files named by their time in seconds (`t0012.500.jpg`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for t, img in frames:
        cv2.imwrite(str(folder / f"t{t:08.3f}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
