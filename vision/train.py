"""Train the reader's two numpy models and report honest held-out accuracy.

    python -m vision.train [--cache DIR] [--eval-only]

Data used:
- synthetic letters (`vision.synth.synthetic_glyphs`): every letter A-Z rendered in the DejaVu fonts and the
  EXTRA_FONTS installed on the machine (`vision.synth.training_fonts`) on a tile with its edges and shadow (a quarter dark tiles with light letters),
  with a point number sometimes touching the letter, stroke weight, rotation, shear, blur, noise and JPEG
  changes, passed through the same glyph finder and point-number cut as real tiles; classes are weighted
  so rare letters (X, Q, J, Z) are not drowned by common ones;
- the labelled photos of `../shared/data/boards` (`vision.labelled.LABELLED_SETS`: cava_ro, declanfinerty,
  umich_kwwangkw, and b3nkang_stream and radosz99_pl with this project's labels), read in place. Real
  blank tiles are few, so every fourth lettered tile of each photo is also measured with its print
  painted out (`blank_tiles`), as a weighted-down example of a plain tile. Only learned weights
  and input scalings are written to `assets/vision/` (`occupancy.npz`, `letters.npz`): no photo pixels,
  crops or per-photo features ship.

The point-number reader (`vision/points.py`, `assets/vision/points.npz`) is trained here too, from numbers
rendered in the same fonts and numbers cut from the labelled glyphs' windows (labelled with their letter's
value); `points_without` trains the leave-one-set-out copies the benchmark hands to the reader inside the
held-out letter model (`vision.points.as_extras`). `--points-only` trains just the shipped one.

Rendered boards: `vision/synth.py` draws tile and board styles no labelled set shows (dark tiles with
light letters, coloured plastic, cream tiles with red or blue letters, worn wood, blue "Crossword" and
green boards); SYNTH_TRAIN_SEEDS of each style are measured like photos and join every training set, some
with glare on premium squares or folded down the middle (`train_conditions`; a folded one measured on its
true grid, straightened per half).
`--leave-out SET` trains models without one labelled set or one rendered style (`synth/<style>`), for
the leave-one-set-out table of `benchmarks/vision_styles.py`.

Hold-out: folds by group, never by square. Fold "cava": train on everything except cava_ro games 2 and
3, test on games 2-3; fold "cava1": train without game 1, test on game 1 (so the cava figures come from
games the model never saw; the alphabet and empty-board photos are always in training). Folds "u0".."u3":
the photos of the other sets split four ways by photo; each is tested by a model trained on all
other photos (including all of cava_ro). The shipped models are then trained on all photos.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import pickle
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2 as opencv  # OpenCV itself, for the calls outside the measuring code (`cv2` here is vision.opencv_u8)
import numpy as np
import numpy.typing as npt

from companion.rules.tiles import load_tileset
from vision import fold as folding
from vision import (
    opencv_u8 as cv2,  # typed 8-bit OpenCV calls, so `blank_tiles` and `_measured` keep their text
)
from vision import orientation as orientation_module
from vision import points as points_module
from vision import synth as synth_module
from vision.cells import (
    CELL,
    GLYPH,
    MARGIN,
    U8,
    Glyph,
    cell_window,
    dark_ink,
    find_glyph,
    glyph_features,
    warp_board,
)
from vision.labelled import LABELLED_SETS, LabelledPhoto, labelled_photos
from vision.mlp import Mlp, train_mlp
from vision.occupancy import ASSET as OCC_ASSET
from vision.occupancy import DECISION_MARK, OccupancyModel, SquareLook, measure
from vision.points import ASSET as POINTS_ASSET
from vision.points import NumberPatch, number_patch, rendered_numbers, train_points
from vision.recognise import TileCrop, letter_glyph, tile_letter, without_point_number
from vision.synth import (
    CLOSED_UP,
    CLOSED_UP_GROW,
    CLOSED_UP_SHARE,
    LETTERS,
    NARROW_TOUCH_AT,
    NARROW_TOUCH_SHARE,
    NARROW_TOUCHED,
    STYLES,
    TRAINED_STYLES,
    render,
    synthetic_glyphs,
    training_fonts,
)

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "vision"
LETTERS_ASSET = ASSETS / "letters.npz"
# "?": the cava_ro joker's printed face; ".": not a letter (premium print, the centre star, a neighbour's
# edge) - glyph-like marks found on squares labelled empty, so the reader can tell them from tiles.
CLASSES = [*LETTERS, "?", "."]
F32 = npt.NDArray[np.float32]
BLANK_WEIGHT = 0.1  # training weight of one painted-out tile relative to one labelled square
SHAPES_PER_CLASS = 40  # stored examples per letter for the atypical-glyph check (~0.6 MB as float16)
# Chosen on the leave-one-set-out glyphs (labelled corners): at 0.7 every sure-and-wrong cava glyph (the
# clown-faced joker read O) is flagged and no right cava letter; umich: 2 of 7 sure-and-wrong, 5% of right.
SHAPE_SLACK = 0.7


@dataclass
class PhotoData:
    photo: LabelledPhoto
    occ_x: F32  # (225, f)
    occ_y: npt.NDArray[np.int64]  # 1 tile, 0 empty, -1 unlabelled
    glyph_x: F32  # (n, GLYPH, GLYPH) as the letter network reads them (`vision.recognise.letter_glyph`)
    glyph_y: list[str]
    blank_x: F32 = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # (n, f) synthetic blanks
    # Each glyph's 1.5-square grey window and the glyph as the square's measurement found it, so a change
    # to the letter's clean-up can be tried on the cached boards without measuring them again.
    windows: U8 = field(default_factory=lambda: np.zeros((0, 0, 0), np.uint8))
    found: list[Glyph] = field(default_factory=list)


def blank_tiles(warped: U8, photo: LabelledPhoto, look: SquareLook, every: int = 4) -> F32:
    """Occupancy features of lettered tiles with their print painted out: plain blank tiles.

    Real blanks are rare in the labelled photos (a handful, all on one set), so the occupancy model would
    learn that a tile always carries a letter. Every `every`-th lettered tile of the photo has its dark
    print (letter and point number) inpainted from the surrounding wood or plastic, keeping its edges,
    shadow and colour; the squares are then measured as the reader would measure them.
    """
    chosen = [(r, c) for r in range(15) for c in range(15)
              if photo.grid[r][c].isupper() and look.glyphs[r][c] is not None][::every]
    if not chosen:
        return np.zeros((0, look.features.shape[1]), np.float32)
    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    mask = np.zeros(gray.shape, np.uint8)
    m = round(MARGIN * CELL)
    lo, hi = round(0.12 * CELL), round(0.88 * CELL)
    for r, c in chosen:
        y, x = m + r * CELL, m + c * CELL
        ink = dark_ink(gray[y:y + CELL, x:x + CELL], CELL)
        mask[y + lo:y + hi, x + lo:x + hi] = ink[lo:hi, lo:hi]
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=2)
    painted = cv2.inpaint(warped, mask * 255, 4, cv2.INPAINT_TELEA)
    feats = measure(painted).features.reshape(15, 15, -1)
    return np.array([feats[r, c] for r, c in chosen], np.float32)


def photo_data(photo: LabelledPhoto, cache: Path | None) -> PhotoData:
    # The label is part of the key: a corrected label (vision.labelled.LABEL_FIXES) must not reuse old data.
    key = hashlib.sha1(f"{photo.image}:{''.join(photo.grid)}:{_code_version()}:v3".encode()).hexdigest()[:16]
    if cache is not None:
        hit = cache / f"{key}.pkl"
        if hit.exists():
            data: PhotoData = pickle.loads(hit.read_bytes())
            return data
    img = cv2.imread(str(photo.image))
    if img is None:
        raise FileNotFoundError(f"cannot read the labelled photo {photo.image}: restore it, or leave its set out")
    data = _measured(photo, img)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / f"{key}.pkl").write_bytes(pickle.dumps(data))
    return data


def _measured(photo: LabelledPhoto, img: U8) -> PhotoData:
    """Occupancy features, labelled glyphs and painted-out blanks of one labelled board image."""
    warped = warp_board(img, photo.corners)
    look = measure(warped)
    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    ys = []
    gx: list[F32] = []
    gy: list[str] = []
    wins: list[U8] = []
    found: list[Glyph] = []
    for r in range(15):
        for c in range(15):
            ch = photo.grid[r][c]
            ys.append(-1 if ch == "#" else (0 if ch == "." else 1))
            if ch == "#" or ch.islower() or (ch == "?" and photo.set not in FACED_BLANKS):
                continue
            window = cell_window(gray, r, c, 1.5)
            # A mark the occupancy pass set aside as a tile's edge still teaches the letter network what is no
            # letter (on an empty square), as before the occupancy pass set such marks aside.
            g = look.glyphs[r][c] or look.edges.get((r, c))
            if g is None and ch != ".":
                # As the reader does on a square judged to hold a tile (vision.read): a light letter on a dark
                # tile that the occupancy pass did not look for.
                g = find_glyph(window, CELL, light_letters=True)
            if g is None:
                continue
            gx.append(letter_glyph(window, g).image)
            gy.append(ch)
            wins.append(window)
            found.append(g)
    side = round(1.5 * CELL)
    return PhotoData(photo, look.features, np.array(ys, np.int64),
                     np.array(gx, np.float32).reshape(-1, GLYPH, GLYPH), gy, blank_tiles(warped, photo, look),
                     np.array(wins, np.uint8).reshape(-1, side, side), found)


# Sets whose blank tile carries a printed face (cava_ro's clown joker), learned as the letter "?". Other
# sets' blanks are plain: what the glyph finder picks up there is a tile edge or a shadow, which must not
# teach the network that such marks are blanks (umich's spacer tiles taught it that cava's fold line is one).
FACED_BLANKS = frozenset({"cava_ro"})


# Rendered boards (vision/synth.py) in every style, for training: seeds below TEST_SEED_FROM. Benchmarks and
# tests read renders from TEST_SEED_FROM up, which no model has seen. Seeds 0-7 are varied renders as they
# are read (`render(..., varied=True)`); GLARE_TRAIN_SEEDS add glare patches on premium squares and
# FOLDED_TRAIN_SEEDS fold the board down the middle (`train_conditions`), the conditions of issue 27's
# photos that varied renders do not draw in every style.
SYNTH_TRAIN_SEEDS = range(12)
GLARE_TRAIN_SEEDS = range(8, 12)
FOLDED_TRAIN_SEEDS = range(8, 10)
# Degrees each half is turned about the fold (a valley or a ridge, drawn per style and seed): from a board
# that barely lies flat to one where a one-plane grid loses letters (reader-fold.md: 15-20 degrees), which
# the reader straightens per half.
FOLD_TRAIN_DEGREES = (4.0, 20.0)
TEST_SEED_FROM = 500


def train_conditions(style: str, seed: int) -> tuple[float | None, bool]:
    """(fold_degrees, premium_glare) of training render `seed` of `style` (`render`'s arguments)."""
    fold = None
    if seed in FOLDED_TRAIN_SEEDS:
        draw = np.random.default_rng([seed, sum(map(ord, style)), 28])
        fold = round(float(draw.uniform(*FOLD_TRAIN_DEGREES)) * float(draw.choice([-1.0, 1.0])), 1)
    return fold, seed in GLARE_TRAIN_SEEDS


def synth_photo(style: str, seed: int) -> tuple[LabelledPhoto, U8]:
    """A rendered board as a labelled photo (set `synth/<style>`) and its image."""
    r = render(style, seed, varied=True)
    photo = LabelledPhoto(f"synth/{style}", f"{style}_{seed}", Path(f"synth:{style}:{seed}"), r.grid, r.corners,
                          {"synthetic": True})
    return photo, r.image


def training_render(style: str, seed: int) -> tuple[LabelledPhoto, U8]:
    """Training render `seed` of `style` under its `train_conditions`, as a labelled photo and its image. A
    folded board's image is its grid already straightened per half by the true grid (`fold_net`): the map the
    reader uses on a board it finds folded (`vision.fold.fold_warp`), so its squares are measured where they
    are; its corners are then those of the straightened grid."""
    fold, glare = train_conditions(style, seed)
    if fold is None and not glare:
        return synth_photo(style, seed)
    r = render(style, seed, varied=True, fold_degrees=fold, premium_glare=glare)
    image, corners = r.image, r.corners
    if fold is not None and r.crossings is not None:
        image = folding.fold_warp(r.image, fold_net(r.crossings), CELL, MARGIN, flags=opencv.INTER_AREA)
        m, n = MARGIN * CELL, 15 * CELL
        corners = [[m, m], [m + n, m], [m + n, m + n], [m, m + n]]
    stem = f"{style}_{seed}" + ("_glare" if glare else "") + (f"_fold{fold:+g}" if fold is not None else "")
    photo = LabelledPhoto(f"synth/{style}", stem, Path(f"synth:{stem}"), r.grid, corners, {"synthetic": True})
    return photo, image


def fold_net(crossings: list[list[list[float]]]) -> npt.NDArray[np.float64]:
    """The (3, 3, 2) net of a board folded down its middle column (`vision.locate.GridLocation.fold`: grid
    points u, v in 0, 7.5, 15) from a render's true line crossings: each half is one plane, fitted on its own
    crossings (columns 0-7 and 8-15); the fold's points from the left half's plane (both halves meet there)."""
    pts = np.asarray(crossings, np.float64)  # [row line][column line] -> x, y
    rows, cols = np.mgrid[0:16, 0:16]
    halves = []
    for sel in (cols <= 7, cols >= 8):
        grid_uv = np.stack([cols[sel], rows[sel]], axis=1).astype(np.float64)
        hom, _ = opencv.findHomography(grid_uv, pts[sel])
        halves.append(np.asarray(hom, np.float64))
    net = np.zeros((3, 3, 2), np.float64)
    for i, v in enumerate((0.0, 7.5, 15.0)):
        for j, u in enumerate((0.0, 7.5, 15.0)):
            p = halves[int(j == 2)] @ np.array([u, v, 1.0])
            net[i, j] = p[:2] / p[2]
    return net


def synth_data(style: str, seed: int, cache: Path | None) -> PhotoData:
    """Training data from one rendered board, cached like a photo's (keyed by the renderer's code too)."""
    key = _synth_key(style, seed)
    if cache is not None and (cache / f"{key}.pkl").exists():
        data: PhotoData = pickle.loads((cache / f"{key}.pkl").read_bytes())
        return data
    photo, img = training_render(style, seed)
    data = _measured(photo, img)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / f"{key}.pkl").write_bytes(pickle.dumps(data))
    return data


def _synth_key(style: str, seed: int) -> str:
    """The cache key of training render `seed` of `style`: what it is measured with and rendered by."""
    fold, glare = train_conditions(style, seed)
    conditions = "" if fold is None and not glare else f":{fold}:{glare}:{inspect.getsource(training_render)}"
    if fold is not None:  # the folding code, which `_render_code` leaves out (unfolded renders do not run it)
        conditions += "".join(inspect.getsource(f) for f in (
            synth_module._folded_halves, synth_module._fold_crease, synth_module._fold_gains, synth_module._fold_light,
            fold_net, folding.fold_warp)) + repr((synth_module.FOLD_SEAM, synth_module.FOLD_RIDGE,
                                                 synth_module.FOLD_LIGHT_ELEVATION, synth_module.FOCAL_LONG_SIDES))
    return hashlib.sha1(f"synth:{style}:{seed}{conditions}:{_code_version()}".encode()
                        + _render_code(style)).hexdigest()[:16]


def _rendered_training() -> str:
    """What the rendered training boards depend on, for the leave-out models' keys (the labels alone do not
    change when a render's colours, glare or fold do)."""
    return "".join(_synth_key(style, seed) for style in TRAINED_STYLES for seed in SYNTH_TRAIN_SEEDS)


def _render_code(style: str) -> bytes:
    """What a render of `style` depends on: the renderer's functions and constants and the style's own entry
    (not the whole of synth.py, so adding a style or a comment does not measure every other style again)."""
    parts = [inspect.getsource(f) for f in (synth_module.render, synth_module._flat_board, synth_module._tile_image,
                                            synth_module.random_grid, synth_module._with_blanks,
                                            synth_module._layout, synth_module._font, synth_module.Style)]
    parts.append(repr((STYLES[style], synth_module.SIZE, synth_module.NARROW_FONT, synth_module.FONT_DIR,
                       synth_module._VALUES, synth_module._BAG, synth_module.STRONG_PERSPECTIVE_SHARE,
                       synth_module.WARM_COLD_SHARE, synth_module.QUARTER_TURN_SHARE, synth_module.BLANKS_SHARE,
                       synth_module._CLASSIC)))
    return "".join(parts).encode() + synth_module.LAYOUT.read_bytes()


def load_synth(cache: Path | None, log: Callable[[str], None], seeds: range = SYNTH_TRAIN_SEEDS) -> list[PhotoData]:
    """Rendered boards of every style models train on (`vision.synth.TRAINED_STYLES`: not the blind styles
    still to be read)."""
    parts = [synth_data(style, seed, cache) for style in TRAINED_STYLES for seed in seeds]
    log(f"synthetic boards: {len(parts)} ({len(TRAINED_STYLES)} styles x {len(seeds)})")
    return parts


def _code_version() -> str:
    here = Path(__file__).resolve().parent
    # The painted-out blanks are measured here and cached with the rest: the key covers their code (not the
    # whole of train.py, so a change to folds or training reuses the cached features).
    # The occupancy model's decision rule (the end of occupancy.py, after DECISION_MARK) does not change what
    # is measured: leaving it out lets the rule be tuned without measuring every photo again.
    occupancy = (here / "occupancy.py").read_bytes()
    text = (here / "cells.py").read_bytes() + occupancy[:occupancy.index(b"\n" + DECISION_MARK.encode())]
    text += inspect.getsource(blank_tiles).encode() + inspect.getsource(_measured).encode()
    text += inspect.getsource(without_point_number).encode() + inspect.getsource(tile_letter).encode()
    text += repr(sorted(FACED_BLANKS)).encode()
    return hashlib.sha1(text).hexdigest()[:12]


def fold_of(photo: LabelledPhoto) -> str:
    if photo.set == "cava_ro":
        if photo.group == "cava_ro/game1":
            return "cava1"
        return "cava" if photo.group in ("cava_ro/game2", "cava_ro/game3") else "train"
    h = int(hashlib.sha1(photo.stem.encode()).hexdigest(), 16)
    return f"u{h % 4}"


FOLDS = ("cava", "cava1", "u0", "u1", "u2", "u3")


# ---- training -----------------------------------------------------------------------------------

def train_occupancy(parts: list[PhotoData], seed: int = 0) -> Mlp:
    x = np.concatenate([p.occ_x for p in parts])
    y = np.concatenate([p.occ_y for p in parts])
    keep = y >= 0
    x, y = x[keep], y[keep]
    blanks = [p.blank_x for p in parts if len(p.blank_x)]
    bx = np.concatenate(blanks) if blanks else np.zeros((0, x.shape[1]), np.float32)
    # Painted-out tiles outnumber the real blanks of a game many times over: weighted down, they teach that
    # a plain tile-coloured square can be a tile without drowning the letters' evidence.
    w = np.concatenate([np.ones(len(y), np.float32), np.full(len(bx), BLANK_WEIGHT, np.float32)])
    return train_mlp(np.concatenate([x, bx]), np.concatenate([y, np.ones(len(bx), np.int64)]), ["empty", "tile"],
                     hidden=(24,), epochs=30, seed=seed, sample_weight=w)


def train_letters(parts: list[PhotoData], synth: tuple[F32, list[str]], seed: int = 0) -> Mlp:
    imgs = [synth[0]] + [p.glyph_x for p in parts]
    labels = list(synth[1]) + [ch for p in parts for ch in p.glyph_y]
    x_img = np.concatenate(imgs)
    # Real glyphs repeat across consecutive photos of one game; synthetic ones are many: weight
    # real ones up so the board's own font dominates, while the fonts keep unseen boards covered.
    w = np.concatenate([np.full(len(synth[1]), 0.5, np.float32), np.ones(len(labels) - len(synth[1]), np.float32)])
    y = np.array([CLASSES.index(ch) for ch in labels], np.int64)
    # Rare letters (X, Q, J, Z, K) have a few dozen real examples against thousands of E's, so a network
    # left to the raw counts read an unfamiliar X as A, K or Y (umich's X left out: 16 of 56 wrong). Each
    # class's weight is scaled by the square root of (median class weight / its own).
    totals = np.bincount(y, weights=w, minlength=len(CLASSES))
    w = (w * np.sqrt(np.median(totals[totals > 0]) / np.maximum(totals[y], 1e-6))).astype(np.float32)
    feats = glyph_features(x_img)
    net = wide_ensemble([train_mlp(feats, y, CLASSES, hidden=(192,), epochs=25, seed=seed * LETTER_MEMBERS + k,
                                   sample_weight=w) for k in range(LETTER_MEMBERS)])
    net.extras = letter_shapes(net.standardise(feats), y, seed)
    return net


# Letter networks trained from different seeds, their logits averaged. One network's errors on a set left out
# moved with its seed (umich 27-42 wrong, jheidel 35-44 over three seeds, same data): the average is steadier
# and no worse than the mean member.
LETTER_MEMBERS = 3


def wide_ensemble(nets: list[Mlp]) -> Mlp:
    """One-hidden-layer networks on the same inputs (same input scaling) as a single wider network whose
    logits are the mean of theirs: hidden layers side by side, output weights stacked and divided by their
    number. The reader runs it like any one network."""
    if len(nets) == 1:
        return nets[0]
    assert all(len(n.weights) == 2 and np.array_equal(n.mean, nets[0].mean) for n in nets)
    k = np.float32(len(nets))
    return Mlp(nets[0].mean, nets[0].scale,
               [np.concatenate([n.weights[0] for n in nets], axis=1),
                np.asarray(np.concatenate([n.weights[1] for n in nets], axis=0) / k, np.float32)],
               [np.concatenate([n.biases[0] for n in nets]), np.asarray(sum(n.biases[1] for n in nets) / k, np.float32)],
               list(nets[0].classes))


def letter_shapes(x: F32, y: npt.NDArray[np.int64], seed: int = 0, per_class: int = SHAPES_PER_CLASS) -> dict[str, F32]:
    """Stored examples of each class (`shape_protos`, `shape_class`) and how far a training glyph of the
    class may lie from its nearest stored one (`shape_limit`: the 99th percentile over the class's other
    training glyphs, times SHAPE_SLACK), for the recogniser's atypical-glyph check."""
    rng = np.random.default_rng(seed)
    protos, owner = [], []
    limit = np.full(len(CLASSES), np.inf, np.float32)
    for k in range(len(CLASSES)):
        idx = np.flatnonzero(y == k)
        if len(idx) < 10:
            continue
        idx = rng.permutation(idx)
        chosen, rest = idx[:per_class], idx[per_class:][:2000]
        protos.append(x[chosen])
        owner += [k] * len(chosen)
        if len(rest):
            d = np.sqrt(((x[rest][:, None, :] - x[chosen][None, :, :]) ** 2).sum(axis=2)).min(axis=1)
            limit[k] = float(np.percentile(d, 99)) * SHAPE_SLACK
    return {"shape_protos": np.concatenate(protos).astype(np.float16),
            "shape_class": np.array(owner, np.float32), "shape_limit": limit}


def evaluate(parts: list[PhotoData], occ: Mlp, let: Mlp) -> dict[str, tuple[int, int, int, int]]:
    """Per set: (occupancy right, occupancy squares, letters right, letter tiles) on the given photos."""
    out: dict[str, list[int]] = {}
    for p in parts:
        acc = out.setdefault(p.photo.set, [0, 0, 0, 0])
        keep = p.occ_y >= 0
        pred = OccupancyModel(occ).decide(p.occ_x) >= 0.5
        acc[0] += int(np.sum(pred[keep] == (p.occ_y[keep] == 1)))
        acc[1] += int(keep.sum())
        tiles = [i for i, ch in enumerate(p.glyph_y) if ch != "."]
        if tiles:
            probs = let.predict_proba(glyph_features(p.glyph_x[tiles]))
            if "." in let.classes:  # occupancy decides tile or not; here only which letter
                probs[:, let.classes.index(".")] = 0.0
            guess = [let.classes[i] for i in probs.argmax(axis=1)]
            acc[2] += sum(g == p.glyph_y[i] for g, i in zip(guess, tiles, strict=True))
            acc[3] += len(tiles)
    return {k: (v[0], v[1], v[2], v[3]) for k, v in out.items()}


def load_all(cache: Path | None, log: Callable[[str], None]) -> list[PhotoData]:
    parts = []
    for s in LABELLED_SETS:
        photos = list(labelled_photos(s))
        log(f"{s}: {len(photos)} labelled photos")
        parts += [photo_data(p, cache) for p in photos]
    return parts


def train_without(left_out: str, cache: Path, log: Callable[[str], None]) -> tuple[Path, Path]:
    """Models trained on every labelled set and rendered style except `left_out` (a set name such as
    `umich_kwwangkw`, or `synth/<style>`): how the reader meets a board it has never seen. Saved under
    `cache/leave_out/` (outside the repository) and reused while the training data and code are unchanged.
    """
    parts = [p for p in load_all(cache, log) + load_synth(cache, log) if p.photo.set != left_out]
    folder = cache / "leave_out"
    key = hashlib.sha1((left_out + _code_version() + inspect.getsource(train_occupancy) + repr(BLANK_WEIGHT)
                        + inspect.getsource(train_letters) + inspect.getsource(letter_shapes)
                        + inspect.getsource(synthetic_glyphs) + str(training_fonts())
                        + inspect.getsource(synth_module._glyph_sample) + repr(synth_module.EXTRA_GLYPHS)
                        + repr((synth_module.STROKE_KERNELS, synth_module.BOLDER_SHARE, synth_module.SLAB_SHARE,
                                synth_module.SLAB_STEM, synth_module.SLAB_BAND, synth_module.SLAB_WIDTH, synth_module.SLAB_THICK))
                        + inspect.getsource(synth_module._slab_serifs)
                        + _rendered_training()
                        + inspect.getsource(wide_ensemble) + repr((LETTER_MEMBERS, sorted(NARROW_TOUCHED),
                                                                   NARROW_TOUCH_SHARE, NARROW_TOUCH_AT,
                                                                   sorted(CLOSED_UP), CLOSED_UP_SHARE,
                                                                   CLOSED_UP_GROW))
                        + repr(sorted(LABELLED_SETS))
                        + "".join("".join(p.photo.grid) for p in parts)).encode()).hexdigest()[:10]
    name = left_out.replace("/", "_")
    occ_path, let_path = folder / f"{name}_{key}_occupancy.npz", folder / f"{name}_{key}_letters.npz"
    if not (occ_path.exists() and let_path.exists()):
        log(f"training without {left_out}: {len(parts)} boards")
        train_occupancy(parts).save(occ_path)
        train_letters(parts, synthetic_glyphs()).save(let_path)
    return occ_path, let_path


def photo_numbers(parts: list[PhotoData]) -> tuple[list[NumberPatch], list[str]]:
    """Point numbers cut from the labelled glyphs' windows, each labelled with its letter's value in the set's
    tile set (cava_ro: Romanian; the rest and the renders: English)."""
    sets = {"en": load_tileset("en"), "ro": load_tileset("ro")}
    patches: list[NumberPatch] = []
    labels: list[str] = []
    for p in parts:
        values = sets["ro" if p.photo.set == "cava_ro" else "en"].values
        for window, found, ch in zip(p.windows, p.found, p.glyph_y, strict=True):
            if not ch.isupper() or ch not in values:
                continue
            patch = number_patch(TileCrop(window, found))
            if patch is not None:
                patches.append(patch)
                labels.append(str(values[ch]))
    return patches, labels


def _number_code() -> str:
    """What a cut point number depends on besides the glyph code of `_code_version`: `vision.points` and the
    bounds of where a number stands, which `vision.points.number_patch` reads from `vision.orientation` (a change
    to NUMBER_FOOT alone retrained no point reader before this was in the keys)."""
    bounds = {k: v for k, v in vars(orientation_module).items()
              if k.startswith("NUMBER_") or k == "LETTER_HEIGHT_AT_LEAST"}
    return inspect.getsource(points_module) + repr(sorted(bounds.items()))


def cached_rendered_numbers(cache: Path | None) -> tuple[list[NumberPatch], list[str]]:
    """`vision.points.rendered_numbers`, cached (keyed by the number code, the glyph code and the fonts)."""
    key = hashlib.sha1((_number_code() + _code_version() + str(training_fonts())).encode()).hexdigest()[:12]
    hit = cache / f"numbers_{key}.pkl" if cache is not None else None
    if hit is not None and hit.exists():
        data: tuple[list[NumberPatch], list[str]] = pickle.loads(hit.read_bytes())
        return data
    data = rendered_numbers()
    if hit is not None:
        hit.parent.mkdir(parents=True, exist_ok=True)
        hit.write_bytes(pickle.dumps(data))
    return data


def points_without(left_out: str, cache: Path, log: Callable[[str], None]) -> Path:
    """The point-number reader trained without one labelled set or rendered style (as `train_without`)."""
    parts = [p for p in load_all(cache, log) + load_synth(cache, log) if p.photo.set != left_out]
    key = hashlib.sha1((left_out + _code_version() + _number_code() + str(training_fonts())
                        + _rendered_training()
                        + "".join("".join(p.photo.grid) for p in parts)).encode()).hexdigest()[:10]
    path = cache / "leave_out" / f"{left_out.replace('/', '_')}_{key}_points.npz"
    if not path.exists():
        log(f"training the number reader without {left_out}")
        train_points(cached_rendered_numbers(cache), photo_numbers(parts)).save(path)
    return path


OCCUPANCY_INFO: dict[str, str] = {"data": f"labelled photos of {', '.join(LABELLED_SETS)} (features only) and "
                                          "rendered boards of vision/synth.py", "script": "vision/train.py"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--eval-only", action="store_true", help="report held-out folds, write nothing")
    ap.add_argument("--no-eval", action="store_true", help="train the shipped models only")
    ap.add_argument("--points-only", action="store_true", help="train only the shipped point-number reader")
    ap.add_argument("--occupancy-only", action="store_true", help="train only the shipped occupancy network")
    ap.add_argument("--leave-out", metavar="SET", help="only train models without this set (or synth/<style>) "
                    "into the cache, for benchmarks/vision_styles.py")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if args.leave_out:
        for path in train_without(args.leave_out, args.cache, log):
            print(path)
        return 0
    parts = load_all(args.cache, log)
    rendered = load_synth(args.cache, log)
    if args.occupancy_only:
        occ = train_occupancy(parts + rendered)
        occ.info = OCCUPANCY_INFO
        occ.save(OCC_ASSET)
        log(f"wrote {OCC_ASSET}")
        return 0
    points = train_points(cached_rendered_numbers(args.cache), photo_numbers(parts + rendered))
    if not args.eval_only:
        points.save(POINTS_ASSET)
        log(f"wrote {POINTS_ASSET}: {points.info['data']}")
    if args.points_only:
        return 0
    synth = synthetic_glyphs()
    log(f"synthetic glyphs: {len(synth[1])}; real glyphs: {sum(len(p.glyph_y) for p in parts)}")
    if not args.no_eval:
        totals: dict[str, list[int]] = {}
        for fold in FOLDS:
            train = [p for p in parts if fold_of(p.photo) != fold] + rendered
            test = [p for p in parts if fold_of(p.photo) == fold]
            occ = train_occupancy(train)
            let = train_letters(train, synth)
            # Kept outside the repository so the benchmark can read each photo with a model that never saw it.
            occ.save(args.cache / "folds" / f"{fold}_occupancy.npz")
            let.save(args.cache / "folds" / f"{fold}_letters.npz")
            for s, v in evaluate(test, occ, let).items():
                t = totals.setdefault(s, [0, 0, 0, 0])
                for i in range(4):
                    t[i] += v[i]
            log(f"fold {fold}: {len(test)} test photos")
        print("held-out accuracy (models never saw these photos):")
        for s, (oc, on, lc, ln) in sorted(totals.items()):
            print(f"  {s:16s} occupancy {oc}/{on} = {oc / max(on, 1):.4f}   letters {lc}/{ln} = {lc / max(ln, 1):.4f}")
    if args.eval_only:
        return 0
    occ = train_occupancy(parts + rendered)
    occ.info = OCCUPANCY_INFO
    occ.save(OCC_ASSET)
    let = train_letters(parts + rendered, synth)
    let.info = {"data": "font renders + glyphs of the labelled photos and rendered boards (learned weights only)",
                "fonts": ", ".join(p.stem for p in training_fonts()),
                "script": "vision/train.py", "counts": str(Counter(ch for p in parts for ch in p.glyph_y))}
    let.save(LETTERS_ASSET)
    log(f"wrote {OCC_ASSET} and {LETTERS_ASSET}")
    return 0


if __name__ == "__main__":
    # Run through the imported module, so cached PhotoData pickles name vision.train, not __main__ (the
    # benchmarks load the same cache).
    from vision.train import main as _main

    raise SystemExit(_main())
