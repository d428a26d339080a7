"""The tile's point number, read: evidence about the letter that does not come from the letter network.

Every tile set of the labelled photos prints the letter's value small at the lower right of the letter
(`vision.orientation` uses where it stands to tell which side of the board is down). Its digits also say
which letter it can be: a tile showing 3 is no O (1) and a tile showing 1 is no M (3). `number_patch`
cuts the number out of a tile's window (the pieces standing where `vision.orientation` expects a number on
an upright tile; a "10" is two pieces side by side); `PointReader` reads its value with a small network
trained only on rendered digits (`train_points`, the installed fonts of `vision.train.training_fonts`,
no photo), so its evidence is independent of every labelled set and of the letter network.

The reader (`vision.read`, `vision.confidence`) uses it as a check: a letter is sure only when the number
is read and agrees with the letter's value in the game's tile set (see `vision.confidence.assess`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision import orientation as o
from vision.cells import CELL, dark_ink, find_glyph
from vision.mlp import Mlp, train_mlp
from vision.recognise import TileCrop

ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "points.npz"
VALUES = tuple(str(v) for v in range(1, 11))  # the printed values of every tile set known: 1-10
PATCH = 12  # side of the normalised number image
F32 = npt.NDArray[np.float32]
# The second digit of a "10" starts at most this far (squares) right of the first digit's right edge.
DIGIT_GAP_AT_MOST = 0.08
# Many tile sets print the number in the tile's lower right corner whatever the letter's width, so beside an I
# it stands further from the letter's edge than beside a wide letter (radosz99_pl's Mattel I's: 0.29-0.33
# squares, beyond `vision.orientation.NUMBER_GAP`). Beside a letter narrower than this half-width (squares)
# the gap is measured from where a letter this wide would end: every labelled set's letters other than I
# are at least 0.15-0.19 half-wide (5th percentile of the letter piece's half-width, labelled corners), I's
# 0.03-0.07.
NARROW_LETTER_HALF = 0.15


@dataclass(frozen=True)
class NumberPatch:
    """The number's ink (0/1, cropped to its box), its height in squares and how many pieces it has."""

    ink: F32
    height: float
    pieces: int


def number_patch(crop: TileCrop, cell_px: int = CELL) -> NumberPatch | None:
    """The point number of an upright tile (as `vision.orientation.number_turns` finds it for no turn, with
    a "10"'s second digit joined), or None when no piece stands where a number does."""
    g = crop.glyph
    if g is None:
        return None
    window = crop.window
    mask = dark_ink(255 - window if g.inverted else window, cell_px)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 3:
        return None
    c = window.shape[0] / 2.0
    gx, gy = c + g.dx * cell_px, c + g.dy * cell_px
    box_cx = stats[1:, 0] + stats[1:, 2] / 2.0
    box_cy = stats[1:, 1] + stats[1:, 3] / 2.0
    letter = 1 + int(np.argmin(np.hypot(box_cx - gx, box_cy - gy)))
    la, lb = stats[letter, 2] / 2.0 / cell_px, stats[letter, 3] / 2.0 / cell_px
    if 2 * lb < o.LETTER_HEIGHT_AT_LEAST:
        return None
    lx = (stats[letter, 0] + stats[letter, 2] / 2.0) / cell_px
    ly = (stats[letter, 1] + stats[letter, 3] / 2.0) / cell_px
    first: list[tuple[float, int]] = []
    pieces: dict[int, tuple[float, float, float, float]] = {}
    for i in range(1, n):
        x, y, w, h, area = (int(s) for s in stats[i])
        if i == letter or area < o.NUMBER_AREA_AT_LEAST * cell_px * cell_px:
            continue
        u, v, ww, hh = (x + w / 2.0) / cell_px - lx, (y + h / 2.0) / cell_px - ly, w / cell_px, h / cell_px
        if not (o.NUMBER_HEIGHT[0] <= hh <= o.NUMBER_HEIGHT[1] and ww <= o.NUMBER_WIDTH_AT_MOST
                and hh <= o.NUMBER_SHORTER_THAN_LETTER * 2 * lb):
            continue
        # A number wider than NUMBER_NARROWER of its letter (the orientation vote's guard against premium
        # print read sideways) is still a number beside a narrow letter when it stands like a digit and
        # starts right of the letter's middle: an I's "1" is as wide as the I (rendered black tiles 0.10-0.12
        # squares beside an I 0.12 wide), so that guard left most I's without a number (issue 27). A cava
        # tile's dot under its I lies (wider than tall) and is centred under it: still refused.
        if ww > o.NUMBER_NARROWER * 2 * la and not (hh >= o.NUMBER_UPRIGHT * ww and u - ww / 2 >= 0):
            continue
        if not (o.NUMBER_FOOT[0] <= v + hh / 2 - lb <= o.NUMBER_FOOT[1] and v > 0):
            continue
        pieces[i] = (x / cell_px, (x + w) / cell_px, y / cell_px, (y + h) / cell_px)
        # ... its left edge NUMBER_GAP from the letter's right edge, or, beside a letter narrower than
        # NARROW_LETTER_HALF, from where that letter's edge would be (see NARROW_LETTER_HALF)
        if o.NUMBER_GAP[0] <= u - ww / 2 - la and u - ww / 2 - max(la, NARROW_LETTER_HALF) <= o.NUMBER_GAP[1]:
            first.append((u, i))
    if not first:
        return None
    chosen = [min(first)[1]]
    # a second digit right beside the first (a "10"), its foot level with the first's
    _x0, x1, y0, y1 = pieces[chosen[0]]
    for i, (a0, a1, b0, b1) in sorted(pieces.items(), key=lambda kv: kv[1][0]):
        if i in chosen or a0 < x1 - 0.02 or a0 - x1 > DIGIT_GAP_AT_MOST:
            continue
        if abs(b1 - y1) <= 0.3 * (y1 - y0) and len(chosen) < 2:
            chosen.append(i)
            x1 = max(x1, a1)
    sel = np.isin(labels, chosen)
    ys, xs = np.nonzero(sel)
    ink = sel[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    return NumberPatch(ink, ink.shape[0] / cell_px, len(chosen))


def patch_features(patches: Sequence[NumberPatch]) -> F32:
    """The number's ink on a PATCH x PATCH square (its box centred, the longer side filling it) and its shape:
    width over height and the number of pieces."""
    out = np.zeros((len(patches), PATCH * PATCH + 2), np.float32)
    for k, p in enumerate(patches):
        h, w = p.ink.shape
        side = max(h, w)
        sq = np.zeros((side, side), np.float32)
        y0, x0 = (side - h) // 2, (side - w) // 2
        sq[y0:y0 + h, x0:x0 + w] = p.ink
        out[k, :PATCH * PATCH] = cv2.resize(sq, (PATCH, PATCH), interpolation=cv2.INTER_AREA).reshape(-1)
        out[k, -2] = w / h
        out[k, -1] = p.pieces - 1
    return out


class PointReader:
    """Reads point numbers: `values(crops, allowed)` gives each tile's probabilities over the values a tile
    set prints (None: no number found)."""

    def __init__(self, net: Mlp) -> None:
        self.net = net

    @classmethod
    def load(cls, path: Path = ASSET) -> PointReader:
        return cls(Mlp.load(path))

    def values(self, crops: Sequence[TileCrop], allowed: Iterable[int] | None = None,
               cell_px: int = CELL) -> list[dict[int, float] | None]:
        patches = [number_patch(c, cell_px) for c in crops]
        found = [i for i, p in enumerate(patches) if p is not None]
        out: list[dict[int, float] | None] = [None] * len(crops)
        if not found:
            return out
        keep = set(allowed) if allowed is not None else {int(v) for v in self.net.classes}
        mask = np.array([int(v) in keep for v in self.net.classes], np.float32)
        p = self.net.predict_proba(patch_features([patches[i] for i in found])) * mask  # type: ignore[misc]
        p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
        for row, i in enumerate(found):
            out[i] = {int(v): float(p[row, k]) for k, v in enumerate(self.net.classes) if mask[k]}
        return out


EXTRA_PREFIX = "points_"  # a point-number network carried inside another model file's extras


def as_extras(net: Mlp) -> dict[str, F32]:
    """A point-number network as arrays another model file can carry (`Mlp.extras`): the leave-one-set-out
    letter networks of the benchmarks carry the number reader trained without the same set."""
    out = {f"{EXTRA_PREFIX}mean": net.mean, f"{EXTRA_PREFIX}scale": net.scale}
    for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
        out[f"{EXTRA_PREFIX}w{i}"], out[f"{EXTRA_PREFIX}b{i}"] = w, b
    return out


def from_extras(extras: dict[str, F32]) -> PointReader | None:
    """The point-number reader a model file carries (`as_extras`), or None."""
    if f"{EXTRA_PREFIX}w0" not in extras:
        return None
    n = sum(1 for k in extras if k.startswith(f"{EXTRA_PREFIX}w"))
    return PointReader(Mlp(extras[f"{EXTRA_PREFIX}mean"], extras[f"{EXTRA_PREFIX}scale"],
                           [extras[f"{EXTRA_PREFIX}w{i}"] for i in range(n)],
                           [extras[f"{EXTRA_PREFIX}b{i}"] for i in range(n)], list(VALUES)))


# ---- training on rendered digits (no photo) ------------------------------------------------------

def rendered_numbers(per_font: int = 24, seed: int = 0) -> tuple[list[NumberPatch], list[str]]:
    """Tiles with a letter and a point number rendered in the training fonts, cut out as the reader cuts them.

    Number sizes, offsets, stroke weights, blur, noise, JPEG quality, light and dark tiles vary as in
    `vision.synth.synthetic_glyphs`; the number is 0.24-0.45 of the letter's size (the labelled photos' 0.2-0.45).
    """
    # Lazy: vision.train imports this module (a cycle), and with PIL it adds ~160 ms the reader never needs.
    from PIL import Image, ImageDraw, ImageFont

    from vision.synth import LETTERS, training_fonts

    rng = np.random.default_rng(seed)
    side, big = int(CELL * 1.5), 4
    patches: list[NumberPatch] = []
    labels: list[str] = []
    for font_path in training_fonts():
        for _ in range(per_font):
            for value in VALUES:
                size = int(CELL * rng.uniform(0.55, 0.8))
                dark_tile = rng.random() < 0.25
                tile_v = int(rng.uniform(20, 90)) if dark_tile else int(rng.uniform(150, 245))
                ink_v = int(rng.uniform(190, 250)) if dark_tile else int(rng.uniform(10, 80))
                board_v = int(rng.uniform(60, 230))
                im = Image.new("L", (side * big, side * big), board_v)
                d = ImageDraw.Draw(im)
                half = 0.45 * CELL * big
                tx = side * big / 2 + rng.uniform(-0.08, 0.08) * CELL * big
                ty = side * big / 2 + rng.uniform(-0.08, 0.08) * CELL * big
                d.rectangle((tx - half, ty - half, tx + half, ty + half), fill=tile_v)
                ink = Image.new("L", im.size, 0)
                di = ImageDraw.Draw(ink)
                cx = tx + rng.uniform(-0.08, 0.0) * CELL * big
                cy = ty + rng.uniform(-0.06, 0.03) * CELL * big
                di.text((cx, cy), str(rng.choice(LETTERS)), font=ImageFont.truetype(str(font_path), size * big),
                        fill=255, anchor="mm")
                box = ink.getbbox() or (0, 0, 1, 1)
                small = ImageFont.truetype(str(font_path), max(6, int(size * rng.uniform(0.26, 0.45))) * big)
                # the number's left edge 0.02-0.12 squares right of the letter's, its foot near the letter's
                nx = box[2] + rng.uniform(0.02, 0.12) * CELL * big
                ny = box[3] + rng.uniform(-0.03, 0.08) * CELL * big
                di.text((nx, ny), value, font=small, fill=255, anchor="ls")
                alpha = np.asarray(ink, np.float32) / 255.0
                weight = rng.random()
                if weight < 0.3:
                    k = int(rng.choice([3, 5]))
                    alpha = np.asarray(cv2.erode(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), np.float32)
                elif weight > 0.85:
                    k = int(rng.choice([3, 5]))
                    alpha = np.asarray(cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), np.float32)
                arr = np.asarray(im, np.float32) * (1 - alpha) + ink_v * alpha
                rot = cv2.getRotationMatrix2D((arr.shape[1] / 2, arr.shape[0] / 2), rng.uniform(-5, 5), 1.0)
                rot[0, 1] += rng.uniform(-0.06, 0.06)
                arr = cv2.warpAffine(arr, rot, (arr.shape[1], arr.shape[0]), borderMode=cv2.BORDER_REPLICATE)
                arr = cv2.resize(arr, (side, side), interpolation=cv2.INTER_AREA)
                k = int(rng.choice([0, 3, 3, 5]))
                if k:
                    arr = cv2.GaussianBlur(arr, (k, k), rng.uniform(0.4, 1.0 if k == 3 else 1.3))
                arr = arr + rng.normal(0, rng.uniform(1, 8), arr.shape)
                win = np.clip(arr, 0, 255).astype(np.uint8)
                if rng.random() < 0.3:
                    ok, buf = cv2.imencode(".jpg", win, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 85))])
                    win = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE) if ok else win
                g = find_glyph(255 - win) if dark_tile else find_glyph(win)
                if g is None:
                    continue
                if dark_tile:
                    g = type(g)(**{**g.__dict__, "inverted": True})
                patch = number_patch(TileCrop(win, g))
                if patch is None:
                    continue
                patches.append(patch)
                labels.append(value)
    return patches, labels


# Numbers cut from labelled photos count this much more than rendered ones: the renders cover the fonts,
# the photos how real numbers print and blur at the reader's scale (left out of the number reader's training,
# a set's numbers agree with their letters' values far more often with the other sets' numbers in it:
# jheidel 22% -> 55% of its tiles at p >= 0.9, umich 24% -> 37%, b3nkang 4% -> 9%).
PHOTO_NUMBER_WEIGHT = 2.0


def train_points(rendered: tuple[list[NumberPatch], list[str]],
                 photos: tuple[list[NumberPatch], list[str]] = ([], []), seed: int = 0) -> Mlp:
    """The number reader from rendered numbers (`rendered_numbers`) and numbers cut from labelled photos."""
    patches, labels = list(rendered[0]) + list(photos[0]), list(rendered[1]) + list(photos[1])
    y = np.array([VALUES.index(v) for v in labels], np.int64)
    w = np.concatenate([np.ones(len(rendered[1]), np.float32), np.full(len(photos[1]), PHOTO_NUMBER_WEIGHT,
                                                                       np.float32)])
    net = train_mlp(patch_features(patches), y, list(VALUES), hidden=(64,), epochs=40, seed=seed, sample_weight=w)
    net.info = {"data": f"{len(rendered[1])} point numbers rendered in the installed fonts and "
                        f"{len(photos[1])} cut from labelled photos (weights only)", "script": "vision/train.py"}
    return net
