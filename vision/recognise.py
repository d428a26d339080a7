"""Letter recognisers behind one interface, and the policy that combines them.

`LetterRecogniser.classify(crops)` returns one `(letter, confidence)` per tile crop, `?` meaning a blank
tile. Two implementations:
- `MlpRecogniser` (primary, numpy only, runs on phones): a small network over glyph-shape features,
  trained by `vision/train.py` on rendered fonts and labelled photos (weights in `assets/vision/`).
- `TesseractRecogniser`: Tesseract's single-character OCR of the tile's own grey pixels round the letter (its
  point number cut off), a reading independent of the network's weights and of the glyph finder's mask. With `tesserocr` (the optional `tesseract` extra: libtesseract
  in the Python process) and English language data (`tessdata_dir`), one engine is started once per process
  and reused, ~2-3 ms a tile, so every tile whose point number cannot vouch for its letter is read
  (`vision.evidence`: the `tesseract` tag). Without it, the `tesseract` command through pytesseract (a
  process per call, ~0.26 s a tile) is asked only about the few most doubtful tiles, as before; without
  either, the network reads alone (`tesseract_status` says which).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.cells import (
    CELL,
    U8,
    Glyph,
    dark_ink,
    glyph_features,
    letter_in_window,
    normalise_glyph,
    print_polarity,
)
from vision.mlp import Mlp

LETTERS_ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "letters.npz"
BLANK = "?"
NOT_A_LETTER = "."  # the network's class for premium print, the star and other marks on empty squares
NOT_LETTER_DOUBT = 0.5  # share of the not-a-letter probability kept as doubt when a tile's letter is read
ATYPICAL_MIX = 0.2  # share of the uniform mixed into a glyph unlike its letter's examples (max stays < 0.85)
# Letters whose middle is empty. Ink in the middle 6x6 of the 24x24 glyph: real O's of every labelled set
# <= 0.02 (99th percentile; one 0.6 in umich); cava's joker face 0.52-0.57.
HOLLOW = {"O"}
HOLE = slice(9, 15)
HOLE_INK_AT_MOST = 0.25
# Letters drawn round a closed counter in every tile font: a glyph read as one of them with no enclosed
# background is something else (b3nkang 19-4 D8: the arch of a neighbour's edge read as O with 0.99).
CLOSED = {"O", "D", "Q", "B"}
# A thin serif G (radosz99_pl's Mattel tiles: a bowl ending in an upright spur, no bar) is read C: its nearest
# training glyphs are umich's C's, whose lower serif looks like that spur. A C is drawn the same above and
# below its middle; a G's spur makes the right third of its lower half inkier than the upper half's. The
# rows with ink in the right third (of the width the upper half spans, so a point number hanging at the lower
# right is left out), lower half minus upper half, over the glyph's height: real C's of every labelled set
# -0.10..0.10 (378 glyphs), G's -0.15..0.35 (radosz's 0.15-0.25). A glyph read C at SPUR_AT_LEAST or more is
# read G, kept unsure (SPUR_DOUBT of the C's share stays on C).
SPUR_AT_LEAST = 0.15
SPUR_DOUBT = 0.3


_K3 = np.ones((3, 3), np.uint8)
# A tile's point number sits this far (in squares) right of its letter's centre, or more; the tail of an R's
# leg or a K's arm that thin print lets break off lies closer (cava_ro's R: 0.1-0.2).
NUMBER_RIGHT_OF_LETTER = 0.25
NUMBER_RIGHT_OF_NARROW = 0.12  # an I's number (umich: its 1 touching the foot of the I, read as L)
# ... and stands at least this share of the narrow body's height: the foot of a serif L is a low bar whose
# tip broke off as a piece 0.24 high (rendered worn wood L cut to an I). At 0.25, 1 of umich's 169 I's is
# cut (6 with no floor, and 1 of 138 L's); the rest are read with their 1 attached, as trained.
NUMBER_TALLER_THAN = 0.25


def _holes(mask: np.ndarray) -> int:
    """How many background regions a 0/1 mask encloses (a letter's counters: B 2, D 1, E 0)."""
    n, labels = cv2.connectedComponents((mask == 0).astype(np.uint8), connectivity=4)
    edge = set(np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])).tolist())
    return sum(1 for k in range(1, n) if k not in edge)


def without_point_number(window: U8, glyph: Glyph, cell_px: int = CELL) -> Glyph:
    """The glyph with a point number that touches it cut off (D and a touching 2 read as R; I1 as L).

    The glyph finder keeps one connected blob, so a tile's small number printed close to its letter (worn
    or blurred tiles, umich's wooden set) comes with it. The blob is eroded by one pixel (two broke thin
    letters apart). When it falls into the letter's body (most of the blob's width and height) and pieces
    that begin at the body's right end, lie in its lower part, stand 0.2-0.5 of its height and
    NUMBER_RIGHT_OF_LETTER right of its centre, those pieces are the number: the blob's pixels nearer to
    them than to the body are dropped, and near the number only the body regrown is kept (no stub of the
    bridge). A thin number under a narrow body (an I's 1) can vanish in the erosion instead: then the ink
    beyond the regrown body at its lower right is the number. Anything else (a letter whose own thin
    strokes broke: B's bowls, an E's arm, an R's leg) leaves the glyph unchanged; so does a cut that
    leaves under 80% of the blob's height, half its width or 60% of its ink, or opens one of the
    letter's counters. Reading and training call it alike (`vision.train`), so the network learns the
    shapes it is shown. Checked on montages of every changed glyph of half of umich's photos (39 numbers
    cut, no letter harmed) and a quarter of the other sets' (none changed).
    """
    # A number hangs at the lower right, beyond the letter: the glyph's last columns then hold no ink in its
    # upper part. Most letters reach there (D, E, B, H...), and are passed over without the cost of the
    # cut (~0.1 ms a glyph, ~15 ms a read of a full board).
    ink = glyph.image > 0.5
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    if not len(cols) or ink[rows[0]:rows[0] + int(0.4 * (rows[-1] - rows[0] + 1)), cols[-1] - 1:cols[-1] + 1].any():
        return glyph
    side = window.shape[0]
    c = side / 2.0
    w, h = max(1, round(glyph.width * cell_px)), max(1, round(glyph.height * cell_px))
    x0 = max(0, round(c + glyph.dx * cell_px - w / 2))
    y0 = max(0, round(c + glyph.dy * cell_px - h / 2))
    # Ink is measured on the glyph's box and a closing kernel's width around it, not the whole window.
    pad = max(3, (cell_px // 4) | 1)
    ya, xa = max(0, y0 - pad), max(0, x0 - pad)
    region = window[ya:y0 + h + pad, xa:x0 + w + pad]
    src = 255 - region if glyph.inverted else region
    mask = dark_ink(src, cell_px)[y0 - ya:y0 - ya + h, x0 - xa:x0 - xa + w]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        return glyph
    blob = (labels == 1 + int(np.argmax(stats[1:, 4]))).astype(np.uint8)
    bh_, bw_ = blob.shape
    eroded = cv2.erode(blob, _K3)
    if eroded.sum() < THIN_ERODED_AT_MOST * blob.sum():
        return _thin_number_cut(glyph, blob, cell_px)
    n2, parts, st, centre = cv2.connectedComponentsWithStats(eroded, connectivity=8)
    if n2 == 2:
        x, y, ww, hh, _ = (int(v) for v in st[1])
        if ww < 0.35 * hh and hh >= 0.7 * bh_ and bw_ > 1.6 * (ww + 2):
            body = cv2.dilate((parts == 1).astype(np.uint8), _K3)
            ys, xs = np.nonzero(blob & (1 - body))
            # ... and stands like a digit: an L's foot (a serif L is an I with a foot) is a low bar
            if (len(xs) and xs.min() >= x + ww - 1 and ys.mean() > y + 0.5 * hh
                    and ys.max() - ys.min() + 1 >= NUMBER_TALLER_THAN * hh):
                kept = blob & body
                ys, xs = np.nonzero(kept)
                letter = kept[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
                return dataclasses.replace(glyph, image=normalise_glyph(letter), width=letter.shape[1] / cell_px,
                                           height=letter.shape[0] / cell_px)
        return glyph
    if n2 < 3:
        return glyph
    a = 1 + int(np.argmax(st[1:, 4]))
    ax, ay, aw, ah, area_a = (int(v) for v in st[a])
    # The main piece is the letter's body, not a stem that broke off from its bowls; a narrow body (an I)
    # is no wider than its number, which sits closer to it.
    narrow = aw < 0.35 * ah
    if (aw < 0.55 * bw_ and not narrow) or ah < 0.7 * bh_:
        return glyph
    right = (NUMBER_RIGHT_OF_NARROW if narrow else NUMBER_RIGHT_OF_LETTER) * cell_px
    # A number starts where the letter ends (its left edge in the last fifth of the body, its top below
    # the body's upper part) and ends at the blob's right side; an E's arm or an R's leg starts inside.
    numbers = [b for b in range(1, n2) if b != a and st[b][0] >= ax + 0.8 * aw and st[b][1] > ay + 0.4 * ah
               and centre[b][0] - centre[a][0] >= right and st[b][0] + st[b][2] >= bw_ - 4
               and (NUMBER_TALLER_THAN if narrow else 0.2) * ah <= st[b][3] <= 0.5 * ah and st[b][4] < 0.25 * area_a]
    if not numbers or st[1:, 4].sum() - area_a - st[numbers, 4].sum() > 0.1 * area_a:
        return glyph  # no number, or the letter itself fell apart (thin strokes): no clean cut to make
    to_main = cv2.distanceTransform((parts != a).astype(np.uint8), cv2.DIST_L2, 3)
    to_number = cv2.distanceTransform((~np.isin(parts, numbers)).astype(np.uint8), cv2.DIST_L2, 3)
    body = np.asarray(cv2.dilate((parts == a).astype(np.uint8), _K3), np.uint8)
    kept = (blob & (to_main <= to_number) & ((body > 0) | (to_number > 3))).astype(np.uint8)
    _, lab3, st3, _ = cv2.connectedComponentsWithStats(kept, connectivity=8)
    k = 1 + int(np.argmax(st3[1:, 4]))
    x, y, ww, hh, area = (int(v) for v in st3[k])
    if (area < 0.6 * blob.sum() or hh < 0.8 * bh_ or ww < 0.5 * bw_ or area_a < 0.6 * eroded.sum()
            or _holes(kept) + _holes(blob & (1 - kept)) < _holes(blob)):
        return glyph  # too much would go, or the cut opened one of the letter's counters (a thin B's bowl)
    letter = (lab3[y:y + hh, x:x + ww] == k).astype(np.float32)
    return dataclasses.replace(glyph, image=normalise_glyph(letter), width=ww / cell_px, height=hh / cell_px)


# A glyph whose strokes are this thin (the one-pixel erosion keeps under this share of its ink: radosz's
# Mattel Z, 2-4 px strokes at the reader's scale) falls apart in the erosion, so the pieces cannot tell its
# number; the number is then found by where it stands (`_thin_number_cut`).
THIN_ERODED_AT_MOST = 0.35
# ... a thin letter's number: the ink right of the letter's upper part, starting this low in the blob, this
# tall and this wide (shares of the blob's height). radosz 1632842381916 D12, a Z with its 10 attached
# (automatic corners): number from 0.69 down, 0.31 tall, 0.41 wide; an A's right leg starts at 0.4 and is
# taller, a Q's tail or an R's leg beyond its bowl is narrower.
THIN_NUMBER_TOP_FROM = 0.55
THIN_NUMBER_HEIGHT = (0.2, 0.5)
THIN_NUMBER_WIDER_THAN = 0.25
THIN_NUMBER_BELOW = 0.1  # ... and reaching this far below the letter's lowest ink (that Z's 10: 0.24)


def _thin_number_cut(glyph: Glyph, blob: U8, cell_px: int) -> Glyph:
    """The glyph without a number joined to a thin-stroked letter's lower right (see `without_point_number`).

    The letter's right edge is where its upper 40% ends (the caller checked the blob's last columns hold
    no ink there); the ink beyond it is the number when it lies low, stands like a digit and is wide, and
    the letter left of it keeps at least half the blob's width (an L's foot is not cut off its stem).
    """
    bh_, bw_ = blob.shape
    upper = np.flatnonzero(blob[:max(1, int(0.4 * bh_))].any(axis=0))
    if not len(upper):
        return glyph
    edge = int(upper.max()) + 1
    beyond = blob[:, edge:]
    rows = np.flatnonzero(beyond.any(axis=1))
    if (not len(rows) or edge < 0.5 * bw_ or rows[0] < THIN_NUMBER_TOP_FROM * bh_
            or not THIN_NUMBER_HEIGHT[0] * bh_ <= rows[-1] - rows[0] + 1 <= THIN_NUMBER_HEIGHT[1] * bh_
            or bw_ - edge < THIN_NUMBER_WIDER_THAN * bh_):
        return glyph
    # A subscript number hangs below the letter's foot; the end of an L's foot or an E's lower arm does not.
    left_rows = np.flatnonzero(blob[:, :edge].any(axis=1))
    if rows[-1] - left_rows[-1] < THIN_NUMBER_BELOW * bh_:
        return glyph
    # ... and meets the letter below its foot or at its end (a Z's bar, a Q's tail): ink just beyond the
    # letter's edge at the height of its lowest row is the foot going on (a serif L whose number touches it).
    if blob[:left_rows[-1] + 1, edge:edge + 2].any():
        return glyph
    n, lab, st, _ = cv2.connectedComponentsWithStats(np.ascontiguousarray(blob[:, :edge]), connectivity=8)
    if n < 2:
        return glyph
    k = 1 + int(np.argmax(st[1:, 4]))
    x, y, ww, hh, area = (int(v) for v in st[k])
    if area < 0.6 * blob.sum() or hh < 0.6 * bh_:
        return glyph
    letter = (lab[y:y + hh, x:x + ww] == k).astype(np.float32)
    return dataclasses.replace(glyph, image=normalise_glyph(letter), width=ww / cell_px, height=hh / cell_px)


# A glyph this tall or wide (in squares) is no letter (labelled letters: 0.78 at most) but may be a tile's
# frame with the letter inside it.
FRAME_SIZE = 0.75


def lower_right_spur(image: np.ndarray) -> float:
    """How much inkier the right third of a glyph's lower half is than its upper half's (rows, over height).

    See SPUR_AT_LEAST: a G's spur or bar at the lower right against a C's mirrored terminals.
    """
    ink: npt.NDArray[np.bool_] = np.asarray(image >= 0.5, np.bool_)
    rows = np.flatnonzero(ink.any(axis=1))
    if len(rows) < 4:
        return 0.0
    top = np.flatnonzero(ink[rows[0]:rows[0] + (rows[-1] + 1 - rows[0]) // 2].any(axis=0))
    if not len(top):
        return 0.0
    c0, c1 = int(top[0]), int(top[-1]) + 1  # the letter's width; a touching number lies right of it
    ink = ink[:, :c1]
    rows = np.flatnonzero(ink.any(axis=1))
    h = int(rows[-1] + 1 - rows[0])
    half = h // 2
    right = np.asarray(ink[rows[0]:rows[-1] + 1, c0 + int(0.67 * (c1 - c0)):c1].any(axis=1))
    return float(right[h - half:].sum() - right[:half].sum()) / h


def tile_letter(window: U8, glyph: Glyph, polarity: int | None = None, cell_px: int = CELL) -> Glyph:
    """The tile's letter, when the glyph the square's measurement found is a piece of the tile instead.

    The glyph search takes the dark blob nearest the square's centre. On a dark tile with a light letter
    that can be the tile itself around the letter, or the letter's dark counter (a light O found as a
    filled oval); the other way round, a light tile the measurement took for a dark one gives the light
    tile between a dark letter's strokes (b3nkang's yellow Q read as O). When the tile's print says
    which (`polarity`, from `vision.cells.print_polarity` when not given: 1 light, -1 dark) and the glyph
    is of the other kind, the letter is looked for in the print's polarity. On a tile darker than the
    board around it the blob can be the tile's frame or shadow (rendered coloured plastic: A read as E
    from an L-shaped edge): a frame-sized blob gives way to a letter inside its box, whichever search
    found it (kraft_narrow_warm, read blind: the polarity's search found the kraft tile's L-shaped shadow,
    0.9 of a square, and the N beside it read G, an O read L). In these searches only blobs clearly darker
    than the tile count (`vision.cells.LETTER_DARKER_THAN_TILE`). When none is found the glyph is kept
    (the network's shape checks judge it).
    """
    if polarity is None:
        polarity = int(print_polarity(window[None], cell_px)[0])
    if polarity and glyph.inverted != (polarity > 0):
        other = letter_in_window(window, glyph, polarity > 0, cell_px)
        if other is not None:
            glyph = other
    if glyph.height >= FRAME_SIZE or glyph.width >= FRAME_SIZE:
        inner = letter_in_window(window, glyph, glyph.inverted, cell_px, inside=True)
        if inner is not None:
            return inner
    return glyph


def letter_glyph(window: U8, glyph: Glyph, polarity: int | None = None, cell_px: int = CELL) -> Glyph:
    """What the letter network reads of a tile: its letter (`tile_letter`) without its point number."""
    return without_point_number(window, tile_letter(window, glyph, polarity, cell_px), cell_px)


# One board's tiles share one font. A glyph read unsurely is re-read as the letter of the board's surely read
# glyphs (templates) it is very close to: within TEMPLATE_NEAR (root-mean-square difference of the network's
# standardised inputs) of a template of that letter, and CLEARLY_NEARER times nearer to it than to any surely
# read glyph of another letter, provided the network gave that letter at least TEMPLATE_PLAUSIBLE. The glyph
# then takes the letter with at most TEMPLATE_CONFIDENCE: right more often, never sure on this evidence alone.
TEMPLATE_SURE = 0.98
TEMPLATE_NEAR = 0.45
CLEARLY_NEARER = 0.7
TEMPLATE_PLAUSIBLE = 0.02
TEMPLATE_CONFIDENCE = 0.9


def board_consistency(x: np.ndarray, p: np.ndarray, letters: np.ndarray) -> np.ndarray:
    """Probabilities of one board's glyphs (`x` the network's standardised inputs, `p` its probabilities,
    `letters` which classes are letters) with unsure glyphs re-read from the board's sure ones."""
    best = p.argmax(axis=1)
    conf = p.max(axis=1)
    sure = np.flatnonzero((conf >= TEMPLATE_SURE) & letters[best])
    unsure = np.flatnonzero(conf < TEMPLATE_SURE)
    if not len(sure) or not len(unsure):
        return p
    d = np.sqrt(((x[unsure][:, None, :] - x[sure][None, :, :]) ** 2).mean(axis=2))
    out = p.copy()
    for row, i in enumerate(unsure):
        k = int(np.argmin(d[row]))
        letter = best[sure[k]]
        other = d[row][best[sure] != letter]
        if (d[row, k] <= TEMPLATE_NEAR and (not len(other) or d[row, k] <= CLEARLY_NEARER * other.min())
                and p[i, letter] >= TEMPLATE_PLAUSIBLE and best[i] != letter):
            out[i] = (1 - TEMPLATE_CONFIDENCE) * p[i]
            out[i, letter] += TEMPLATE_CONFIDENCE
    return out


@dataclass(frozen=True)
class TileCrop:
    """What a recogniser may look at for one tile: the 1.5-square grey window and the glyph found in it."""

    window: U8
    glyph: Glyph | None


class LetterRecogniser(Protocol):
    name: str

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        """One (letter, confidence 0..1) per crop; `?` for a blank tile."""
        ...


class MlpRecogniser:
    """Primary recogniser: glyph features -> small MLP -> letter, limited to the tile set's letters."""

    name = "mlp"

    def __init__(self, net: Mlp, allowed: Iterable[str] | None = None) -> None:
        self.net = net
        allowed_set = set(allowed) if allowed is not None else set(net.classes)
        allowed_set.update((BLANK, NOT_A_LETTER))
        self.mask = np.array([c in allowed_set for c in net.classes], bool)
        self.letters = np.array([c.isalpha() for c in net.classes], bool)

    @classmethod
    def load(cls, allowed: Iterable[str] | None = None, path: Path = LETTERS_ASSET) -> MlpRecogniser:
        return cls(Mlp.load(path), allowed)

    def probabilities(self, crops: Sequence[TileCrop]) -> np.ndarray:
        """(n, classes) probabilities; crops without a glyph get all mass on the blank."""
        return self.probabilities_and_inputs(crops)[0]

    def probabilities_and_inputs(self, crops: Sequence[TileCrop], whole: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """`probabilities` and each glyph's network inputs, standardised (zeros for crops without a glyph),
        for the nearest-example check of `shape_letters`. `whole`: each tile's letter read as found (`tile_letter`),
        nothing cut off as its point number (`vision.stages.cut_beside_its_number`)."""
        out = np.zeros((len(crops), len(self.net.classes)), np.float32)
        inputs = np.zeros((len(crops), len(self.net.mean)), np.float32)
        with_glyph = [i for i, c in enumerate(crops) if c.glyph is not None]
        if with_glyph:
            polarity = print_polarity(np.array([crops[i].window for i in with_glyph]))
            read_as = tile_letter if whole else letter_glyph
            imgs = np.array([read_as(crops[i].window, crops[i].glyph, int(v)).image  # type: ignore[arg-type]
                             for i, v in zip(with_glyph, polarity, strict=True)], np.float32)
            feats = glyph_features(imgs)
            p = self.net.predict_proba(feats)
            p = p * self.mask
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
            p = self._doubt_atypical(imgs, feats, p)
            # The crops are one board's tiles (`vision.read`): one font, so sure glyphs vouch for unsure ones.
            x = self.net.standardise(feats)
            inputs[with_glyph] = x
            out[with_glyph] = self._spurred_c(imgs, board_consistency(x, p, self.letters))
        blank = self.net.classes.index(BLANK)
        for i, c in enumerate(crops):
            if c.glyph is None:
                out[i, blank] = 1.0
        return out, inputs

    def shape_letters(self, inputs: np.ndarray) -> list[str]:
        """The class of the stored training example (`shape_protos`) nearest each glyph: a reading by nearest
        example, not by the network's weights ("" where the model carries no examples)."""
        protos, proto_class = self.net.extras.get("shape_protos"), self.net.extras.get("shape_class")
        if protos is None or proto_class is None or not len(inputs):
            return [""] * len(inputs)
        allowed = self.mask[proto_class.astype(np.int64)]
        p = protos[allowed].astype(np.float32)
        owner = proto_class[allowed].astype(np.int64)
        # squared distances by |x|^2 - 2 x.p + |p|^2 (one matrix product)
        d = (inputs ** 2).sum(axis=1)[:, None] - 2.0 * inputs @ p.T + (p ** 2).sum(axis=1)[None, :]
        return [self.net.classes[int(owner[k])] for k in d.argmin(axis=1)]

    def _doubt_atypical(self, images: np.ndarray, feats: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Probabilities flattened for glyphs unlike every training example of the letter they are read as.

        A network is sure about shapes it never saw (cava's clown-faced joker reads as O with 0.99 when no
        joker was in training): the glyph is compared with the stored examples of its letter
        (`shape_protos`, in the network's input units), and one farther from all of them than
        `shape_limit` of that letter (0.7 of the 99th percentile of training glyphs' distances,
        `vision.train.SHAPE_SLACK`) is mixed with the uniform distribution, so it is never read sure. An O
        with ink in its middle is no O (that joker is a circle with a face in it) and is treated the same.
        """
        protos, proto_class, limit = (self.net.extras.get(k) for k in ("shape_protos", "shape_class", "shape_limit"))
        if protos is None or proto_class is None or limit is None:
            return p
        x = self.net.standardise(feats)
        best = p.argmax(axis=1)
        out = p.copy()
        allowed = self.mask.astype(np.float32) / max(int(self.mask.sum()), 1)
        for i, k in enumerate(best):
            if self.net.classes[k] in HOLLOW and float(images[i][HOLE, HOLE].mean()) > HOLE_INK_AT_MOST:
                out[i] = (1 - ATYPICAL_MIX) * p[i] + ATYPICAL_MIX * allowed
                continue
            if self.net.classes[k] in CLOSED and not _holes(images[i] >= 0.5):
                out[i] = (1 - ATYPICAL_MIX) * p[i] + ATYPICAL_MIX * allowed
                continue
            mine = protos[proto_class == k].astype(np.float32)
            if not len(mine):
                continue
            d = float(np.sqrt(((mine - x[i]) ** 2).sum(axis=1)).min())
            if d > float(limit[k]):
                out[i] = (1 - ATYPICAL_MIX) * p[i] + ATYPICAL_MIX * allowed
        return out

    def _spurred_c(self, images: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Glyphs read C with a G's spur at the lower right (SPUR_AT_LEAST) read G, unsure."""
        if "C" not in self.net.classes or "G" not in self.net.classes:
            return p
        c, g = self.net.classes.index("C"), self.net.classes.index("G")
        if not self.mask[g]:
            return p
        out = p.copy()
        for i in np.flatnonzero(p.argmax(axis=1) == c):
            if lower_right_spur(images[i]) >= SPUR_AT_LEAST:
                out[i, g] += (1 - SPUR_DOUBT) * p[i, c]
                out[i, c] = SPUR_DOUBT * p[i, c]
        return out

    def not_letter(self, probs: np.ndarray) -> np.ndarray:
        """P(the mark is not a tile's letter) per row of `probabilities` (0 for older models)."""
        if NOT_A_LETTER not in self.net.classes:
            return np.zeros(len(probs), np.float32)
        return probs[:, self.net.classes.index(NOT_A_LETTER)].copy()

    def letter_probabilities(self, crops: Sequence[TileCrop]) -> np.ndarray:
        """Probabilities over letters and the blank only (the square is known to hold a tile)."""
        return self.letters_only(self.probabilities(crops))

    def letters_only(self, probs: np.ndarray) -> np.ndarray:
        """`probabilities` rows with the not-a-letter share removed and the rest renormalised.

        A mark the network mostly calls not a letter is read as a letter only where the square surely
        holds a tile (`vision.read`); its letter is then a guess among shapes that do not look like
        letters, so that share of doubt stays: the row is mixed with the uniform over the allowed letters
        by NOT_LETTER_DOUBT times the not-a-letter probability (glare's edge on an empty square read C
        with 0.91 from 0.27 C against 0.71 not a letter; now 0.61).
        """
        p = probs.copy()
        if NOT_A_LETTER in self.net.classes:
            k = self.net.classes.index(NOT_A_LETTER)
            mix = NOT_LETTER_DOUBT * p[:, k:k + 1]
            p[:, k] = 0.0
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
            allowed = self.mask.astype(np.float32)
            allowed[k] = 0.0
            p = (1 - mix) * p + mix * allowed / max(float(allowed.sum()), 1.0)
        return p

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        p = self.letter_probabilities(crops)
        return [(self.net.classes[int(k)], float(p[i, k])) for i, k in enumerate(p.argmax(axis=1))]


# Where libtesseract finds its language data: TESSDATA_PREFIX when set, else Debian's tesseract-ocr-eng path.
TESSDATA_DIRS = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                 "/usr/share/tessdata")
# Tesseract's glyph image (the engine's): the tile's grey pixels round its letter (point number cut) scaled to
# this many pixels high and framed by white, dark letter on light as Tesseract expects.
TESSERACT_GLYPH_PX = 64
TESSERACT_FRAME_PX = 24


def tessdata_dir() -> Path | None:
    """The folder holding Tesseract's English data (`eng.traineddata`), or None."""
    env = os.environ.get("TESSDATA_PREFIX")  # as libtesseract: when set, the only place looked in
    for d in [env] if env else TESSDATA_DIRS:
        if (Path(d) / "eng.traineddata").is_file():
            return Path(d)
    return None


class _Engine:
    """One libtesseract engine (tesserocr) in single-character mode, started once, shared under a lock."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.lock = threading.Lock()
        self.whitelist = ""

    def read(self, images: Sequence[U8], letters: str) -> list[tuple[str, float]]:
        from PIL import Image

        out: list[tuple[str, float]] = []
        with self.lock:
            if letters != self.whitelist:
                self.api.SetVariable("tessedit_char_whitelist", letters)
                self.whitelist = letters
            for img in images:
                self.api.SetImage(Image.fromarray(img))
                text = self.api.GetUTF8Text().strip().upper()
                conf = float(self.api.MeanTextConf())
                out.append((text, conf / 100.0) if len(text) == 1 and text.isalpha() else (BLANK, 0.0))
        return out


@functools.lru_cache(maxsize=1)
def _engine() -> _Engine | None:
    """The shared engine, or None without tesserocr or language data (the reader then works without it)."""
    data = tessdata_dir()
    if data is None:
        return None
    # one OpenMP thread per engine: on 2 cores more threads only wait for each other (set before the load)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        import tesserocr
    except ImportError:
        return None
    try:
        api = tesserocr.PyTessBaseAPI(path=str(data), lang="eng", psm=tesserocr.PSM.SINGLE_CHAR,
                                      oem=tesserocr.OEM.LSTM_ONLY)
    except RuntimeError:  # data present but unreadable by this libtesseract
        return None
    return _Engine(api)


def tesseract_status() -> str:
    """Which Tesseract the reader uses: "engine" (tesserocr: every tile the number cannot vouch for is read),
    "command" (pytesseract: only the most doubtful few) or "none" (the letter network alone)."""
    if _engine() is not None:
        return "engine"
    return "command" if TesseractRecogniser.available() else "none"


class TesseractRecogniser:
    """Tesseract's single-character mode, letters only: the shared tesserocr engine on the tile's grey pixels
    round its letter when installed (`fast`), else the `tesseract` command through pytesseract on the glyph
    mask, as before the engine."""

    name = "tesseract"

    def __init__(self, allowed: Iterable[str] | None = None) -> None:
        self.letters = "".join(sorted(set(allowed or "ABCDEFGHIJKLMNOPQRSTUVWXYZ") - {BLANK}))
        self.config = f"--psm 10 --oem 1 -c tessedit_char_whitelist={self.letters}"

    @staticmethod
    def fast() -> bool:
        """Whether the in-process engine (tesserocr and language data) is there: ~2-3 ms a tile."""
        return _engine() is not None

    @staticmethod
    def available() -> bool:
        if _engine() is not None:
            return True
        if shutil.which("tesseract") is None:
            return False
        try:
            import pytesseract  # noqa: F401  (optional: a machine without it reads with the letter model alone)
        except ImportError:
            return False
        return True

    def _image(self, crop: TileCrop) -> U8:
        """The glyph finder's mask scaled up, dark on white: what the command reads (as before the engine)."""
        if crop.glyph is None:
            return np.full((64, 64), 255, np.uint8)
        side, f = TESSERACT_GLYPH_PX, TESSERACT_FRAME_PX
        g = cv2.resize(crop.glyph.image, (side, side), interpolation=cv2.INTER_LINEAR)
        img = (255 - np.clip(g * 255, 0, 255)).astype(np.uint8)
        return np.asarray(cv2.copyMakeBorder(img, f, f, f, f, cv2.BORDER_CONSTANT, value=255), np.uint8)

    def _grey_image(self, crop: TileCrop) -> U8:
        """The tile's own grey pixels round its letter (point number cut off), dark print on light, scaled up:
        Tesseract binarises them itself, so its reading does not share the glyph finder's mask (on the mask, a
        blurred B whose counters had filled in was read E by Tesseract as by the network: umich rectified_w14
        E8, held-out models; on its grey pixels Tesseract reads no letter). On the shipped models' first 8
        umich photos, 601 letters: Tesseract right on 81% of the grey crops against 77% of the masks."""
        if crop.glyph is None:
            return np.full((64, 64), 255, np.uint8)
        glyph = letter_glyph(crop.window, crop.glyph)
        win = crop.window
        h, w = win.shape[:2]
        cy, cx = h / 2 + glyph.dy * CELL, w / 2 + glyph.dx * CELL
        half_h, half_w = glyph.height * CELL / 2 + 2, glyph.width * CELL / 2 + 2
        y0, y1 = max(0, round(cy - half_h)), min(h, round(cy + half_h))
        x0, x1 = max(0, round(cx - half_w)), min(w, round(cx + half_w))
        if y1 - y0 < 4 or x1 - x0 < 2:
            return self._image(crop)
        cut = win[y0:y1, x0:x1]
        if glyph.inverted:
            cut = 255 - cut
        scale = TESSERACT_GLYPH_PX / max(1, y1 - y0)
        big = cv2.resize(cut, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        big = cv2.normalize(big, np.empty_like(big), 0, 255, cv2.NORM_MINMAX)  # full contrast
        f = TESSERACT_FRAME_PX
        return np.asarray(cv2.copyMakeBorder(big, f, f, f, f, cv2.BORDER_CONSTANT, value=255), np.uint8)

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        engine = _engine()
        if engine is not None:
            with_glyph = [i for i, c in enumerate(crops) if c.glyph is not None]
            read = engine.read([self._grey_image(crops[i]) for i in with_glyph], self.letters)
            out = [(BLANK, 0.5)] * len(crops)
            for i, r in zip(with_glyph, read, strict=True):
                out[i] = r
            return out
        import pytesseract  # optional (see available)

        os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # 2-core machines: one thread per call is faster
        out = []
        for crop in crops:
            if crop.glyph is None:
                out.append((BLANK, 0.5))
                continue
            data = pytesseract.image_to_data(self._image(crop), config=self.config,
                                             output_type=pytesseract.Output.DICT)
            best = ("", -1.0)
            for text, conf in zip(data["text"], data["conf"], strict=True):
                text = str(text).strip().upper()
                if len(text) == 1 and text.isalpha() and float(conf) > best[1]:
                    best = (text, float(conf))
            out.append((best[0] or BLANK, max(best[1], 0.0) / 100.0))
        return out
